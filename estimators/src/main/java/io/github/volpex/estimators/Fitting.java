package io.github.volpex.estimators;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/** The maximum-likelihood fits behind {@link DistributionFit}. */
final class Fitting {

    private static final double LN_SQRT_2PI = 0.9189385332046727417803297;

    private Fitting() {
    }

    static void checkLogLikelihood(double logLikelihood) {
        if (Double.isNaN(logLikelihood) || logLikelihood == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("logLikelihood must be a number < +Infinity: " + logLikelihood);
        }
    }

    private static void requireFailures(LifetimeSample sample, String fit) {
        Objects.requireNonNull(sample, "sample");
        if (sample.failureCount() == 0) {
            throw new IllegalArgumentException(fit + " fit needs at least 1 failure: " + sample);
        }
    }

    /** Requires every failure to be positive (their logarithms enter the likelihood). */
    private static void requirePositiveFailures(LifetimeSample sample, String fit) {
        int zeros = 0;
        for (int i = 0; i < sample.size(); i++) {
            if (sample.isFailure(i) && sample.seconds(i) == 0.0) {
                zeros++;
            }
        }
        if (zeros > 0) {
            throw new IllegalArgumentException(fit + " fit needs failures > 0, found " + zeros
                    + " of length 0 (leave zero-length intervals out, as the Failure Trace Archive does)");
        }
    }

    /** Requires two distinct failure times (else the likelihood has no maximum: the spread would shrink to 0). */
    private static void requireSpread(LifetimeSample sample, String fit) {
        double first = Double.NaN;
        for (int i = 0; i < sample.size(); i++) {
            if (sample.isFailure(i)) {
                if (Double.isNaN(first)) {
                    first = sample.seconds(i);
                } else if (sample.seconds(i) != first) {
                    return;
                }
            }
        }
        throw new IllegalArgumentException(fit + " fit needs at least 2 distinct failure times: " + sample);
    }

    /** The checks of the two-parameter fits with a spread parameter: failures, all positive, not all equal. */
    private static void requireTwoParameterFit(LifetimeSample sample, String fit) {
        requireFailures(sample, fit);
        requirePositiveFailures(sample, fit);
        requireSpread(sample, fit);
    }

    /**
     * The failures' (or the positive censored) durations, mapped by {@code f}. A duration censored at 0 says nothing
     * ({@code ln S(0) = 0}), so it is left out.
     */
    private static double[] durations(LifetimeSample sample, boolean failures, DoubleUnaryOperator f) {
        double[] out = new double[failures ? sample.failureCount() : sample.size() - sample.failureCount()];
        int n = 0;
        for (int i = 0; i < sample.size(); i++) {
            double t = sample.seconds(i);
            if (sample.isFailure(i) == failures && (failures || t > 0.0)) {
                out[n++] = f.applyAsDouble(t);
            }
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    static ExponentialFit exponential(LifetimeSample sample) {
        requireFailures(sample, "exponential");
        double total = sample.totalSeconds();
        if (!(total > 0.0)) {
            throw new IllegalArgumentException("exponential fit needs a total time > 0: " + sample);
        }
        double r = sample.failureCount();
        double rate = r / total;
        return new ExponentialFit(rate, r * Math.log(rate) - r);
    }

    static WeibullFit weibull(LifetimeSample sample) {
        Objects.requireNonNull(sample, "sample");
        if (sample.leftTruncatedCount() > 0) {
            WeibullFit start = weibullStartObserved(startObserved(sample, "Weibull"));
            double[] best = maximizeWithTruncation(sample, p -> new WeibullModel(Math.exp(p[0]), Math.exp(p[1])),
                    new double[] {Math.log(start.shape()), Math.log(start.scaleSeconds())}, "Weibull");
            double shape = Math.exp(best[0]);
            double scale = Math.exp(best[1]);
            return new WeibullFit(shape, scale, logLikelihood(sample, new WeibullModel(shape, scale)));
        }
        return weibullStartObserved(sample);
    }

    private static WeibullFit weibullStartObserved(LifetimeSample sample) {
        requireFailures(sample, "Weibull");
        requirePositiveFailures(sample, "Weibull");
        // Zero-length censored durations add nothing to the likelihood: keep the positive durations, in logs.
        int n = 0;
        double[] logs = new double[sample.size()];
        boolean[] failed = new boolean[sample.size()];
        double max = Double.NEGATIVE_INFINITY;
        double failureLogSum = 0.0;
        int r = sample.failureCount();
        for (int i = 0; i < sample.size(); i++) {
            double t = sample.seconds(i);
            if (t > 0.0) {
                logs[n] = Math.log(t);
                failed[n] = sample.isFailure(i);
                max = Math.max(max, logs[n]);
                if (failed[n]) {
                    failureLogSum += logs[n];
                }
                n++;
            }
        }
        double failureLogMean = failureLogSum / r;
        if (!(max > failureLogMean)) {
            throw new IllegalArgumentException("Weibull fit has no maximum (shape -> infinity): every failure at the "
                    + "same time and no longer duration: " + sample);
        }
        WeibullEquation equation = new WeibullEquation(logs, n, max, failureLogMean);
        // Start from the Gumbel method of moments, k ≈ π / (√6 · sd(ln t)), then bracket the root.
        double variance = 0.0;
        for (int i = 0; i < n; i++) {
            if (failed[i]) {
                double d = logs[i] - failureLogMean;
                variance += d * d;
            }
        }
        variance /= r;
        double k = variance > 0.0 ? Math.PI / Math.sqrt(6.0 * variance) : 1.0;
        double lo = k;
        double hi = k;
        while (equation.value(lo) > 0.0) {
            lo *= 0.5;
            if (lo < 1e-300) {
                throw new ArithmeticException("Weibull shape bracket failed below " + lo + ": " + sample);
            }
        }
        while (equation.value(hi) < 0.0) {
            hi *= 2.0;
            if (hi > 1e300) {
                throw new ArithmeticException("Weibull shape bracket failed above " + hi + ": " + sample);
            }
        }
        double shape = Roots.newtonInBracket(equation::value, equation::derivative, lo, hi, k);
        // λ = (Σ t^k / r)^{1/k}, formed as max + ln(Σ e^{k(u − max)} / r) / k in logs.
        double logScale = max + Math.log(equation.weightSum(shape) / r) / shape;
        double hazardSum = 0.0;
        for (int i = 0; i < n; i++) {
            hazardSum += Math.exp(shape * (logs[i] - logScale));
        }
        double logLikelihood = r * (Math.log(shape) - shape * logScale) + (shape - 1.0) * failureLogSum
                - hazardSum;
        return new WeibullFit(shape, Math.exp(logScale), logLikelihood);
    }

    /** {@code g(k) = Σ w_i u_i / Σ w_i − 1/k − ū_f} with {@code w_i = e^{k(u_i − max)}}, and its derivative. */
    private static final class WeibullEquation {
        private final double[] logs;
        private final int n;
        private final double max;
        private final double failureLogMean;

        WeibullEquation(double[] logs, int n, double max, double failureLogMean) {
            this.logs = logs;
            this.n = n;
            this.max = max;
            this.failureLogMean = failureLogMean;
        }

        double weightSum(double k) {
            double s0 = 0.0;
            for (int i = 0; i < n; i++) {
                s0 += Math.exp(k * (logs[i] - max));
            }
            return s0;
        }

        double value(double k) {
            double s0 = 0.0;
            double s1 = 0.0;
            for (int i = 0; i < n; i++) {
                double w = Math.exp(k * (logs[i] - max));
                s0 += w;
                s1 += w * (logs[i] - max);
            }
            return s1 / s0 + max - 1.0 / k - failureLogMean;
        }

        /** The weighted variance of the logs plus {@code 1/k²}: positive, so {@code g} increases. */
        double derivative(double k) {
            double s0 = 0.0;
            double s1 = 0.0;
            double s2 = 0.0;
            for (int i = 0; i < n; i++) {
                double d = logs[i] - max;
                double w = Math.exp(k * d);
                s0 += w;
                s1 += w * d;
                s2 += w * d * d;
            }
            double mean = s1 / s0;
            return Math.max(0.0, s2 / s0 - mean * mean) + 1.0 / (k * k);
        }
    }

    static LogNormalFit logNormal(LifetimeSample sample) {
        Objects.requireNonNull(sample, "sample");
        if (sample.leftTruncatedCount() > 0) {
            LogNormalFit start = logNormalStartObserved(startObserved(sample, "log-normal"));
            double[] best = maximizeWithTruncation(sample, p -> new LogNormalModel(p[0], Math.exp(p[1])),
                    new double[] {start.meanLog(), Math.log(start.sdLog())}, "log-normal");
            double sd = Math.exp(best[1]);
            return new LogNormalFit(best[0], sd, logLikelihood(sample, new LogNormalModel(best[0], sd)));
        }
        return logNormalStartObserved(sample);
    }

    private static LogNormalFit logNormalStartObserved(LifetimeSample sample) {
        requireTwoParameterFit(sample, "log-normal");
        int r = sample.failureCount();
        double[] failureLogs = durations(sample, true, Math::log);
        double[] censoredLogs = durations(sample, false, Math::log);
        int c = censoredLogs.length;
        double sum = 0.0;
        for (double u : failureLogs) {
            sum += u;
        }
        double mean = sum / r;
        double squares = 0.0;
        for (double u : failureLogs) {
            squares += (u - mean) * (u - mean);
        }
        double sd = Math.sqrt(squares / r);
        if (!(sd > 0.0)) {
            throw new IllegalArgumentException("log-normal fit needs failure times whose logarithms differ in double "
                    + "precision; they all round to " + mean + ": " + sample);
        }
        if (c == 0) {
            double logLikelihood = -sum - r * (Math.log(sd) + LN_SQRT_2PI + 0.5);
            return new LogNormalFit(mean, sd, logLikelihood);
        }
        return censoredLogNormal(failureLogs, censoredLogs, sum, mean, sd);
    }

    /** Log-likelihood of the censored log-normal at {@code (μ, σ)}; {@code failureLogSum = Σ ln t} of failures. */
    private static double logNormalLikelihood(double[] failureLogs, double[] censoredLogs, double failureLogSum,
                                              double mu, double sigma) {
        double value = -failureLogSum - failureLogs.length * (Math.log(sigma) + LN_SQRT_2PI);
        for (double u : failureLogs) {
            double z = (u - mu) / sigma;
            value -= 0.5 * z * z;
        }
        for (double u : censoredLogs) {
            value += SpecialFunctions.logNormalUpperTail((u - mu) / sigma);
        }
        return value;
    }

    /**
     * Newton's method on {@code (μ, s = ln σ)} with the exact gradient and Hessian; {@code h(z) = φ(z)/Q(z)} is the
     * inverse Mills ratio and {@code h' = h(h − z)}. Steps are halved until the likelihood does not drop; where the
     * Hessian is not negative definite, a gradient step is taken instead.
     */
    private static LogNormalFit censoredLogNormal(double[] failureLogs, double[] censoredLogs, double failureLogSum,
                                                  double mu, double sd) {
        double s = Math.log(sd);
        double current = logNormalLikelihood(failureLogs, censoredLogs, failureLogSum, mu, sd);
        for (int iteration = 0; iteration < 500; iteration++) {
            double sigma = Math.exp(s);
            double gMu = 0.0;
            double gS = 0.0;
            double hMuMu = 0.0;
            double hMuS = 0.0;
            double hSS = 0.0;
            for (double u : failureLogs) {
                double z = (u - mu) / sigma;
                gMu += z / sigma;
                gS += z * z - 1.0;
                hMuMu -= 1.0 / (sigma * sigma);
                hMuS -= 2.0 * z / sigma;
                hSS -= 2.0 * z * z;
            }
            for (double u : censoredLogs) {
                double z = (u - mu) / sigma;
                double h = Math.exp(SpecialFunctions.logNormalDensity(z) - SpecialFunctions.logNormalUpperTail(z));
                double dh = h * (h - z);
                gMu += h / sigma;
                gS += z * h;
                hMuMu -= dh / (sigma * sigma);
                hMuS -= (z * dh + h) / sigma;
                hSS -= z * h + z * z * dh;
            }
            double det = hMuMu * hSS - hMuS * hMuS;
            double dMu;
            double dS;
            if (hMuMu < 0.0 && det > 0.0) {
                dMu = -(hSS * gMu - hMuS * gS) / det;
                dS = -(-hMuS * gMu + hMuMu * gS) / det;
            } else {
                double scale = 1.0 / (1.0 + Math.hypot(gMu, gS));
                dMu = gMu * scale;
                dS = gS * scale;
            }
            double step = 1.0;
            double candidate = Double.NEGATIVE_INFINITY;
            for (int halving = 0; halving < 60; halving++) {
                candidate = logNormalLikelihood(failureLogs, censoredLogs, failureLogSum, mu + step * dMu,
                        Math.exp(s + step * dS));
                if (candidate >= current - 1e-12 * Math.abs(current)) {
                    break;
                }
                step *= 0.5;
            }
            mu += step * dMu;
            s += step * dS;
            current = Math.max(current, candidate);
            if (Math.abs(step * dMu) <= 1e-13 * (1.0 + Math.abs(mu)) && Math.abs(step * dS) <= 1e-13) {
                break;
            }
        }
        double sigma = Math.exp(s);
        return new LogNormalFit(mu, sigma,
                logNormalLikelihood(failureLogs, censoredLogs, failureLogSum, mu, sigma));
    }

    static GammaFit gamma(LifetimeSample sample) {
        Objects.requireNonNull(sample, "sample");
        if (sample.leftTruncatedCount() > 0) {
            GammaFit start = gammaStartObserved(startObserved(sample, "gamma"));
            double[] best = maximizeWithTruncation(sample, p -> new GammaModel(Math.exp(p[0]), Math.exp(p[1])),
                    new double[] {Math.log(start.shape()), Math.log(start.scaleSeconds())}, "gamma");
            double shape = Math.exp(best[0]);
            double scale = Math.exp(best[1]);
            return new GammaFit(shape, scale, logLikelihood(sample, new GammaModel(shape, scale)));
        }
        return gammaStartObserved(sample);
    }

    private static GammaFit gammaStartObserved(LifetimeSample sample) {
        requireTwoParameterFit(sample, "gamma");
        int r = sample.failureCount();
        double[] failures = durations(sample, true, t -> t);
        double[] censored = durations(sample, false, t -> t);
        int c = censored.length;
        double sum = 0.0;
        double logSum = 0.0;
        for (double t : failures) {
            sum += t;
            logSum += Math.log(t);
        }
        double mean = sum / r;
        // s = ln(mean) − mean(ln t) > 0 by Jensen when the failure times differ.
        double s = Math.log(mean) - logSum / r;
        if (!(s > 0.0)) {
            throw new IllegalArgumentException("gamma fit needs failure times that differ by more than rounding: "
                    + "ln(mean) − mean(ln t) = " + s + " must be > 0: " + sample);
        }
        double shape = gammaShape(s);
        double scale = mean / shape;
        if (c == 0) {
            return new GammaFit(shape, scale, gammaLikelihood(failures, logSum, censored, shape, scale));
        }
        double[] failureTimes = failures;
        double[] censoredTimes = censored;
        double failureLogSum = logSum;
        ToDoubleFunction<double[]> objective = p -> {
            double a = Math.exp(p[0]);
            double theta = Math.exp(p[1]);
            if (!(a > 0.0 && a < Double.POSITIVE_INFINITY && theta > 0.0 && theta < Double.POSITIVE_INFINITY)) {
                return Double.NEGATIVE_INFINITY;
            }
            return gammaLikelihood(failureTimes, failureLogSum, censoredTimes, a, theta);
        };
        double[] best = NelderMead.maximize(objective, new double[] {Math.log(shape), Math.log(scale)}, 0.1);
        best = newtonPolish(sample, p -> new GammaModel(Math.exp(p[0]), Math.exp(p[1])), best);
        double a = Math.exp(best[0]);
        double theta = Math.exp(best[1]);
        return new GammaFit(a, theta, gammaLikelihood(failures, logSum, censored, a, theta));
    }

    /**
     * Solves {@code ln a − ψ(a) = s} for {@code s > 0}: the left side decreases from +∞ to 0, so the root is unique.
     */
    static double gammaShape(double s) {
        // Minka's approximation as the start; the bracket [lo, hi] keeps Newton honest.
        double start = (3.0 - s + Math.sqrt((s - 3.0) * (s - 3.0) + 24.0 * s)) / (12.0 * s);
        double lo = start;
        double hi = start;
        while (Math.log(lo) - SpecialFunctions.digamma(lo) < s) {
            lo *= 0.5;
        }
        while (Math.log(hi) - SpecialFunctions.digamma(hi) > s) {
            hi *= 2.0;
        }
        return Roots.newtonInBracket(a -> Math.log(a) - SpecialFunctions.digamma(a) - s,
                a -> 1.0 / a - SpecialFunctions.trigamma(a), lo, hi, start);
    }

    private static double gammaLikelihood(double[] failures, double failureLogSum, double[] censored, double a,
                                          double theta) {
        double sum = 0.0;
        for (double t : failures) {
            sum += t;
        }
        double value = (a - 1.0) * failureLogSum - sum / theta
                - failures.length * (a * Math.log(theta) + SpecialFunctions.logGamma(a));
        for (double t : censored) {
            value += SpecialFunctions.logRegularizedGammaQ(a, t / theta);
        }
        return value;
    }

    // ------------------------------------------------------------------------------------------ left truncation

    /**
     * The durations whose start was observed, which start the search; they must meet the fit's requirements on
     * their own.
     */
    private static LifetimeSample startObserved(LifetimeSample sample, String fit) {
        LifetimeSample observed = sample.startObservedOnly();
        if (observed.failureCount() == 0) {
            throw new IllegalArgumentException(fit + " fit of a sample with left-truncated durations needs at least 1"
                    + " failure among the durations whose start was observed: " + sample);
        }
        return observed;
    }

    /**
     * A two-parameter lifetime law, in logarithms: the terms of the likelihood. For a lifetime under way when
     * observation began at a time unrelated to its start (a stationary renewal process), the remaining life has
     * density {@code S(t)/m} and survival {@code R(t) = ∫_t^∞ S(u) du / m}, {@code m} the mean.
     */
    interface Model {
        /** {@code ln f(t)}. */
        double logDensity(double t);

        /** {@code ln S(t)}. */
        double logSurvival(double t);

        /** {@code ln m}. */
        double logMean();

        /** {@code ln R(t)}, the log survival of the remaining life. */
        double logResidual(double t);

        /** Adds the gradient of {@code ln f(t)} in the search's two parameters to {@code g}. */
        void addLogDensityGradient(double t, double[] g);

        /** Adds the gradient of {@code ln S(t)} to {@code g}. */
        void addLogSurvivalGradient(double t, double[] g);

        /** Adds {@code sign} times the gradient of {@code ln m} to {@code g}. */
        void addLogMeanGradient(double sign, double[] g);

        /** Adds the gradient of {@code ln R(t)} to {@code g}. */
        void addLogResidualGradient(double t, double[] g);
    }

    /**
     * The log-likelihood: {@code ln f(t)} for a failure and {@code ln S(t)} for a censored duration whose start was
     * observed; {@code ln S(t) − ln m} for a left-truncated failure and {@code ln R(t)} for a left-truncated
     * censored duration.
     */
    static double logLikelihood(LifetimeSample sample, Model model) {
        double logMean = model.logMean();
        double value = 0.0;
        for (int i = 0; i < sample.size(); i++) {
            double t = sample.seconds(i);
            boolean failure = sample.isFailure(i);
            if (!sample.isLeftTruncated(i)) {
                value += failure ? model.logDensity(t) : t > 0.0 ? model.logSurvival(t) : 0.0;
            } else if (failure) {
                value += (t > 0.0 ? model.logSurvival(t) : 0.0) - logMean;
            } else if (t > 0.0) {
                value += model.logResidual(t);
            }
        }
        return value;
    }

    /** The gradient of {@link #logLikelihood} in the search's two parameters, term by term. */
    static double[] gradient(LifetimeSample sample, Model model) {
        double[] g = new double[2];
        for (int i = 0; i < sample.size(); i++) {
            double t = sample.seconds(i);
            boolean failure = sample.isFailure(i);
            if (!sample.isLeftTruncated(i)) {
                if (failure) {
                    model.addLogDensityGradient(t, g);
                } else if (t > 0.0) {
                    model.addLogSurvivalGradient(t, g);
                }
            } else if (failure) {
                if (t > 0.0) {
                    model.addLogSurvivalGradient(t, g);
                }
                model.addLogMeanGradient(-1.0, g);
            } else if (t > 0.0) {
                model.addLogResidualGradient(t, g);
            }
        }
        return g;
    }

    /** Half the step of the central differences of the gradient that form the Hessian, in the search's parameters. */
    private static final double HESSIAN_STEP = 0x1p-17;

    /**
     * Newton's method on the analytic gradient from the point a derivative-free search stopped at, which is as close
     * to the maximum as the likelihood's own rounding lets values tell apart (about 10⁻⁸ relative, worse the larger
     * {@code |ln L|}, so worse in seconds than in hours): the gradient keeps its relative precision up to the
     * maximum, where it vanishes. The Hessian is the central difference of the gradient. A step is taken only while
     * the Hessian is negative definite, the Newton decrement {@code −gᵀH⁻¹g} shrinks and the likelihood does not
     * drop beyond its rounding; otherwise the point reached so far is kept.
     */
    static double[] newtonPolish(LifetimeSample sample, Function<double[], Model> model, double[] start) {
        double[] p = start.clone();
        double value = logLikelihood(sample, model.apply(p));
        double[] g = gradient(sample, model.apply(p));
        if (!(Double.isFinite(value) && Double.isFinite(g[0]) && Double.isFinite(g[1]))) {
            return p;
        }
        for (int iteration = 0; iteration < 10; iteration++) {
            double[][] h = new double[2][];
            for (int j = 0; j < 2; j++) {
                double[] up = p.clone();
                double[] down = p.clone();
                up[j] += HESSIAN_STEP;
                down[j] -= HESSIAN_STEP;
                double[] gUp = gradient(sample, model.apply(up));
                double[] gDown = gradient(sample, model.apply(down));
                h[j] = new double[] {(gUp[0] - gDown[0]) / (2 * HESSIAN_STEP),
                        (gUp[1] - gDown[1]) / (2 * HESSIAN_STEP)};
            }
            double h00 = h[0][0];
            double h11 = h[1][1];
            double h01 = 0.5 * (h[0][1] + h[1][0]);
            double det = h00 * h11 - h01 * h01;
            if (!(h00 < 0.0 && det > 0.0)) {
                return p;
            }
            double d0 = -(h11 * g[0] - h01 * g[1]) / det;
            double d1 = -(h00 * g[1] - h01 * g[0]) / det;
            double decrement = g[0] * d0 + g[1] * d1;
            double[] next = {p[0] + d0, p[1] + d1};
            double nextValue = logLikelihood(sample, model.apply(next));
            double[] nextG = gradient(sample, model.apply(next));
            double nextD0 = -(h11 * nextG[0] - h01 * nextG[1]) / det;
            double nextD1 = -(h00 * nextG[1] - h01 * nextG[0]) / det;
            double nextDecrement = nextG[0] * nextD0 + nextG[1] * nextD1;
            boolean valueHolds = nextValue >= value - 1e-12 * (1.0 + Math.abs(value));
            if (!(nextDecrement < decrement && valueHolds && Double.isFinite(nextG[0]) && Double.isFinite(nextG[1]))) {
                return p;
            }
            p = next;
            value = Math.max(value, nextValue);
            g = nextG;
            if (Math.abs(d0) <= 1e-15 * (1.0 + Math.abs(p[0])) && Math.abs(d1) <= 1e-15 * (1.0 + Math.abs(p[1]))) {
                return p;
            }
        }
        return p;
    }

    /** Nelder–Mead over two transformed parameters from the fit of the durations whose start was observed. */
    private static double[] maximizeWithTruncation(LifetimeSample sample,
                                                   Function<double[], Model> model,
                                                   double[] start, String fit) {
        ToDoubleFunction<double[]> objective = p -> {
            if (!(Math.abs(p[0]) < 700.0 && Math.abs(p[1]) < 700.0)) {
                return Double.NEGATIVE_INFINITY;
            }
            double value = logLikelihood(sample, model.apply(p));
            return Double.isNaN(value) ? Double.NEGATIVE_INFINITY : value;
        };
        double[] best = newtonPolish(sample, model, NelderMead.maximize(objective, start, 0.1));
        double value = objective.applyAsDouble(best);
        if (!(value > Double.NEGATIVE_INFINITY && Math.abs(best[0]) < 690.0 && Math.abs(best[1]) < 690.0)) {
            throw new IllegalArgumentException(fit + " fit has no maximum for this sample (the likelihood keeps rising"
                    + " toward a parameter's bound): " + sample);
        }
        return best;
    }

    /** {@code ln(a − b)} from {@code ln a} and {@code ln b}, {@code b < a}; {@code −∞} if rounding makes them meet. */
    private static double logDifference(double logA, double logB) {
        double ratio = Math.exp(logB - logA);
        return ratio < 1.0 ? logA + Math.log1p(-ratio) : Double.NEGATIVE_INFINITY;
    }

    /** Weibull: {@code S = exp(−(t/λ)^k)}, {@code m = λΓ(1 + 1/k)}, {@code R(t) = Q(1/k, (t/λ)^k)}. */
    record WeibullModel(double shape, double scale) implements Model {
        @Override
        public double logDensity(double t) {
            double u = Math.log(t / scale);
            return Math.log(shape / scale) + (shape - 1.0) * u - Math.exp(shape * u);
        }

        @Override
        public double logSurvival(double t) {
            return -Math.pow(t / scale, shape);
        }

        @Override
        public double logMean() {
            return Math.log(scale) + SpecialFunctions.logGamma(1.0 + 1.0 / shape);
        }

        @Override
        public double logResidual(double t) {
            return SpecialFunctions.logRegularizedGammaQ(1.0 / shape, Math.pow(t / scale, shape));
        }

        // Parameters (ln k, ln λ); with u = ln(t/λ) and s = (t/λ)^k, ∂s/∂ln k = k·u·s and ∂s/∂ln λ = −k·s.

        @Override
        public void addLogDensityGradient(double t, double[] g) {
            double u = Math.log(t / scale);
            double s = Math.exp(shape * u);
            g[0] += 1.0 + shape * u * (1.0 - s);
            g[1] += shape * (s - 1.0);
        }

        @Override
        public void addLogSurvivalGradient(double t, double[] g) {
            double u = Math.log(t / scale);
            double s = Math.exp(shape * u);
            g[0] -= shape * u * s;
            g[1] += shape * s;
        }

        @Override
        public void addLogMeanGradient(double sign, double[] g) {
            g[0] -= sign * SpecialFunctions.digamma(1.0 + 1.0 / shape) / shape;
            g[1] += sign;
        }

        @Override
        public void addLogResidualGradient(double t, double[] g) {
            double u = Math.log(t / scale);
            double s = Math.exp(shape * u);
            double a = 1.0 / shape;
            double byShape = SpecialFunctions.logRegularizedGammaQShapeDerivative(a, s);
            double byX = SpecialFunctions.logRegularizedGammaQXDerivative(a, s);
            g[0] += -a * byShape + byX * shape * u * s;
            g[1] -= byX * shape * s;
        }
    }

    /**
     * Log-normal: with {@code z = (ln t − μ)/σ}, {@code S = Q(z)}, {@code m = e^{μ + σ²/2}} and
     * {@code R(t) = Q(z − σ) − (t/m) Q(z)}, where {@code t/m = e^{σz − σ²/2}}.
     */
    record LogNormalModel(double meanLog, double sdLog) implements Model {
        @Override
        public double logDensity(double t) {
            double logT = Math.log(t);
            double z = (logT - meanLog) / sdLog;
            return -logT - Math.log(sdLog) - LN_SQRT_2PI - 0.5 * z * z;
        }

        @Override
        public double logSurvival(double t) {
            return SpecialFunctions.logNormalUpperTail((Math.log(t) - meanLog) / sdLog);
        }

        @Override
        public double logMean() {
            return meanLog + 0.5 * sdLog * sdLog;
        }

        @Override
        public double logResidual(double t) {
            double z = (Math.log(t) - meanLog) / sdLog;
            return logDifference(SpecialFunctions.logNormalUpperTail(z - sdLog),
                    sdLog * z - 0.5 * sdLog * sdLog + SpecialFunctions.logNormalUpperTail(z));
        }

        // Parameters (μ, ln σ); ∂z/∂μ = −1/σ, ∂z/∂ln σ = −z.

        @Override
        public void addLogDensityGradient(double t, double[] g) {
            double z = (Math.log(t) - meanLog) / sdLog;
            g[0] += z / sdLog;
            g[1] += z * z - 1.0;
        }

        @Override
        public void addLogSurvivalGradient(double t, double[] g) {
            double z = (Math.log(t) - meanLog) / sdLog;
            // The inverse Mills ratio φ(z)/Q(z) = −d ln Q/dz.
            double h = Math.exp(SpecialFunctions.logNormalDensity(z) - SpecialFunctions.logNormalUpperTail(z));
            g[0] += h / sdLog;
            g[1] += h * z;
        }

        @Override
        public void addLogMeanGradient(double sign, double[] g) {
            g[0] += sign;
            g[1] += sign * sdLog * sdLog;
        }

        /**
         * With {@code R = Q(z − σ) − B}, {@code B = e^{σz − σ²/2} Q(z)}: {@code ∂R/∂μ = B} and
         * {@code ∂R/∂ln σ = σ φ(z − σ) + σ² B} (the terms in {@code φ(z − σ) = e^{σz − σ²/2} φ(z)} cancel).
         */
        @Override
        public void addLogResidualGradient(double t, double[] g) {
            double z = (Math.log(t) - meanLog) / sdLog;
            double logB = sdLog * z - 0.5 * sdLog * sdLog + SpecialFunctions.logNormalUpperTail(z);
            double logR = logDifference(SpecialFunctions.logNormalUpperTail(z - sdLog), logB);
            double b = Math.exp(logB - logR);
            g[0] += b;
            g[1] += sdLog * Math.exp(SpecialFunctions.logNormalDensity(z - sdLog) - logR) + sdLog * sdLog * b;
        }
    }

    /**
     * Gamma: with {@code x = t/θ}, {@code S = Q(a, x)}, {@code m = aθ} and
     * {@code R(t) = Q(a + 1, x) − (x/a) Q(a, x)}.
     */
    record GammaModel(double shape, double scale) implements Model {
        @Override
        public double logDensity(double t) {
            return (shape - 1.0) * Math.log(t) - t / scale - shape * Math.log(scale)
                    - SpecialFunctions.logGamma(shape);
        }

        @Override
        public double logSurvival(double t) {
            return SpecialFunctions.logRegularizedGammaQ(shape, t / scale);
        }

        @Override
        public double logMean() {
            return Math.log(shape) + Math.log(scale);
        }

        @Override
        public double logResidual(double t) {
            double x = t / scale;
            return logDifference(SpecialFunctions.logRegularizedGammaQ(shape + 1.0, x),
                    Math.log(x / shape) + SpecialFunctions.logRegularizedGammaQ(shape, x));
        }

        // Parameters (ln a, ln θ); ∂x/∂ln θ = −x.

        @Override
        public void addLogDensityGradient(double t, double[] g) {
            double x = t / scale;
            g[0] += shape * (Math.log(x) - SpecialFunctions.digamma(shape));
            g[1] += x - shape;
        }

        @Override
        public void addLogSurvivalGradient(double t, double[] g) {
            double x = t / scale;
            g[0] += shape * SpecialFunctions.logRegularizedGammaQShapeDerivative(shape, x);
            g[1] -= x * SpecialFunctions.logRegularizedGammaQXDerivative(shape, x);
        }

        @Override
        public void addLogMeanGradient(double sign, double[] g) {
            g[0] += sign;
            g[1] += sign;
        }

        /**
         * With {@code R = A − B}, {@code A = Q(a + 1, x)}, {@code B = (x/a) Q(a, x)}: {@code ∂R/∂x = −Q(a, x)/a} and
         * {@code ∂R/∂a = A ∂ln A/∂a − B (∂ln Q(a, x)/∂a − 1/a)}.
         */
        @Override
        public void addLogResidualGradient(double t, double[] g) {
            double x = t / scale;
            double logQ = SpecialFunctions.logRegularizedGammaQ(shape, x);
            double logA = SpecialFunctions.logRegularizedGammaQ(shape + 1.0, x);
            double logB = Math.log(x / shape) + logQ;
            double logR = logDifference(logA, logB);
            double byShape = Math.exp(logA - logR)
                    * SpecialFunctions.logRegularizedGammaQShapeDerivative(shape + 1.0, x)
                    - Math.exp(logB - logR) * (SpecialFunctions.logRegularizedGammaQShapeDerivative(shape, x)
                    - 1.0 / shape);
            g[0] += shape * byShape;
            g[1] += x * Math.exp(logQ - Math.log(shape) - logR);
        }
    }
}
