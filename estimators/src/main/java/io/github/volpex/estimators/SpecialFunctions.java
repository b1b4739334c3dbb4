package io.github.volpex.estimators;

/**
 * The special functions the fits and confidence intervals need: log-gamma, digamma, trigamma, the regularized
 * incomplete gamma functions and their inverse (hence chi-square quantiles), and the normal upper tail.
 *
 * <p>Accuracy (checked in tests against 50-digit values and against Commons Math): log-gamma, digamma and trigamma to
 * a few ulps (absolute near their zeros); the incomplete gamma functions to about {@code 1e-14} relative in both tails
 * (the prefactor {@code x^a e^{−x}/Γ(a)} is formed without the cancellation of large terms); chi-square quantiles to
 * about {@code 1e-14} relative.
 */
final class SpecialFunctions {

    /** ln √(2π). */
    private static final double LN_SQRT_2PI = 0.9189385332046727417803297;
    /** Relative precision the series and continued fractions stop at. */
    private static final double EPSILON = 0x1p-53;
    /** Smallest value the Lentz continued fractions substitute for zero. */
    private static final double TINY = 1e-300;
    /** Iteration cap for the series and continued fractions: far above what any finite argument needs. */
    private static final int MAX_ITERATIONS = 10_000_000;

    private SpecialFunctions() {
    }

    /** {@code 1 − γ}, γ being Euler's constant. */
    private static final double ONE_MINUS_EULER = 0.4227843350984671393934879;
    /** {@code ζ(k) − 1} for {@code k = 2 … 30} (A&amp;S 6.1.41's coefficients, to 22 digits). */
    private static final double[] ZETA_MINUS_ONE = {
        0.6449340668482264364724, 0.2020569031595942853997, 0.082323233711138191516, 0.03692775514336992633137,
        0.01734306198444913971452, 0.008349277381922826839798, 0.004077356197944339378685,
        0.002008392826082214417853, 0.000994575127818085337146, 0.0004941886041194645587023,
        0.000246086553308048298638, 0.0001227133475784891467518, 0.00006124813505870482925855,
        0.00003058823630702049355173, 0.00001528225940865187173257, 0.0000076371976378997622736,
        0.000003817293264999839856462, 0.000001908212716553938925657, 9.53962033872796113152e-7,
        4.769329867878064631167e-7, 2.384505027277329900036e-7, 1.192199259653110730678e-7,
        5.960818905125947961244e-8, 2.980350351465228018606e-8, 1.490155482836504123466e-8,
        7.450711789835429491981e-9, 3.725334024788457054819e-9, 1.862659723513049006404e-9,
        9.313274324196681828718e-10};

    /**
     * Returns {@code ln Γ(x)} for {@code x > 0}. Around its zeros at 1 and 2 it uses the power series
     * {@code ln Γ(2 + ε) = (1 − γ)ε + Σ_{k≥2} (−1)^k (ζ(k) − 1) ε^k / k} (Abramowitz and Stegun 6.1.41 shifted by
     * one), so the result keeps its relative precision there; the recurrence {@code Γ(x + 1) = xΓ(x)} carries it to
     * {@code (0, 15)}, and Stirling's series takes over at {@code x ≥ 15}.
     */
    static double logGamma(double x) {
        if (!(x > 0.0)) {
            throw new IllegalArgumentException("x must be > 0: " + x);
        }
        if (x == Double.POSITIVE_INFINITY) {
            return x;
        }
        if (x >= 15.0) {
            return stirling(x);
        }
        if (x < 0.5) {
            return logGammaTwoPlus(x) - Math.log1p(x) - Math.log(x);
        }
        if (x < 1.5) {
            return logGammaTwoPlus(x - 1.0) - Math.log1p(x - 1.0);
        }
        double y = x;
        double product = 1.0;
        while (y > 2.5) {
            y -= 1.0;
            product *= y;
        }
        return logGammaTwoPlus(y - 2.0) + Math.log(product);
    }

    /** {@code ln Γ(2 + ε)} for {@code |ε| ≤ 0.5}; the omitted terms are below {@code 1e-19}. */
    private static double logGammaTwoPlus(double e) {
        double sum = 0.0;
        for (int k = ZETA_MINUS_ONE.length + 1; k >= 2; k--) {
            double c = ZETA_MINUS_ONE[k - 2] / k;
            sum = sum * e + ((k & 1) == 0 ? c : -c);
        }
        return e * (ONE_MINUS_EULER + e * sum);
    }

    /** Stirling's series of {@code ln Γ(y)} for {@code y ≥ 10}; the omitted terms are below {@code 1e-16}. */
    private static double stirling(double y) {
        return (y - 0.5) * Math.log(y) - y + LN_SQRT_2PI + stirlingCorrection(y);
    }

    /** {@code ln Γ(y) − ((y − ½) ln y − y + ln √(2π))} for {@code y ≥ 10}. */
    private static double stirlingCorrection(double y) {
        double inv = 1.0 / y;
        double inv2 = inv * inv;
        return inv * (1.0 / 12.0 - inv2 * (1.0 / 360.0 - inv2 * (1.0 / 1260.0 - inv2 * (1.0 / 1680.0
                - inv2 * (1.0 / 1188.0 - inv2 * (691.0 / 360360.0 - inv2 / 156.0))))));
    }

    /** {@code ln(1 + t) − t} for {@code t > −1}, without cancellation for small {@code t}. */
    private static double log1pmx(double t) {
        if (Math.abs(t) > 0.25) {
            return Math.log1p(t) - t;
        }
        // −t²/2 + t³/3 − t⁴/4 + …
        double term = t;
        double sum = 0.0;
        for (int k = 2; k < 200; k++) {
            term *= -t;
            double next = sum + term / k;
            if (next == sum) {
                break;
            }
            sum = next;
        }
        return sum;
    }

    /** Returns the digamma function {@code ψ(x) = d ln Γ(x) / dx} for {@code x > 0}. */
    static double digamma(double x) {
        if (!(x > 0.0)) {
            throw new IllegalArgumentException("x must be > 0: " + x);
        }
        double shift = 0.0;
        double y = x;
        while (y < 20.0) {
            shift += 1.0 / y;
            y += 1.0;
        }
        double inv2 = 1.0 / (y * y);
        double series = inv2 * (1.0 / 12.0 - inv2 * (1.0 / 120.0 - inv2 * (1.0 / 252.0 - inv2 * (1.0 / 240.0
                - inv2 * (1.0 / 132.0 - inv2 * (691.0 / 32760.0))))));
        return Math.log(y) - 0.5 / y - series - shift;
    }

    /** Returns the trigamma function {@code ψ'(x)} for {@code x > 0}. */
    static double trigamma(double x) {
        if (!(x > 0.0)) {
            throw new IllegalArgumentException("x must be > 0: " + x);
        }
        double shift = 0.0;
        double y = x;
        while (y < 20.0) {
            shift += 1.0 / (y * y);
            y += 1.0;
        }
        double inv = 1.0 / y;
        double inv2 = inv * inv;
        double series = inv * (1.0 + inv * (0.5 + inv * (1.0 / 6.0 - inv2 * (1.0 / 30.0 - inv2 * (1.0 / 42.0
                - inv2 * (1.0 / 30.0 - inv2 * (5.0 / 66.0)))))));
        return series + shift;
    }

    /**
     * {@code ln(x^a e^{−x} / Γ(a))}, the logarithm of the common factor of P and Q. For {@code a ≥ 10} it is formed
     * as {@code a·(ln(1 + t) − t) + ½ ln(a/2π) − stirlingCorrection(a)} with {@code t = (x − a)/a}, which avoids the
     * cancellation of the large terms {@code a ln x}, {@code x} and {@code ln Γ(a)}.
     */
    private static double logPrefactor(double a, double x) {
        if (a >= 10.0) {
            return a * log1pmx((x - a) / a) + 0.5 * Math.log(a / (2.0 * Math.PI)) - stirlingCorrection(a);
        }
        return a * Math.log(x) - x - logGamma(a);
    }

    /** {@code x^a e^{−x} / Γ(a)}: formed as a product where that cannot overflow, each factor then exact to an ulp. */
    private static double prefactor(double a, double x) {
        if (a < 10.0 && x < 700.0) {
            double power = Math.pow(x, a);
            if (power > 1e-290 && power < 1e290) {
                return power * Math.exp(-x) / Math.exp(logGamma(a));
            }
        }
        return Math.exp(logPrefactor(a, x));
    }

    /** Returns the regularized lower incomplete gamma function {@code P(a, x)}, {@code a > 0}, {@code x ≥ 0}. */
    static double regularizedGammaP(double a, double x) {
        checkGammaArguments(a, x);
        if (x == 0.0) {
            return 0.0;
        }
        if (x == Double.POSITIVE_INFINITY) {
            return 1.0;
        }
        if (x < a + 1.0) {
            return prefactor(a, x) * lowerSeries(a, x);
        }
        return 1.0 - prefactor(a, x) * upperFraction(a, x);
    }

    /** Returns the regularized upper incomplete gamma function {@code Q(a, x) = 1 − P(a, x)}. */
    static double regularizedGammaQ(double a, double x) {
        checkGammaArguments(a, x);
        if (x == 0.0) {
            return 1.0;
        }
        if (x == Double.POSITIVE_INFINITY) {
            return 0.0;
        }
        if (x < a + 1.0) {
            return a < 1.0 ? upperSmallShape(a, x) : 1.0 - prefactor(a, x) * lowerSeries(a, x);
        }
        return prefactor(a, x) * upperFraction(a, x);
    }

    /** Returns {@code ln Q(a, x)}, finite even where {@code Q} underflows. */
    static double logRegularizedGammaQ(double a, double x) {
        checkGammaArguments(a, x);
        if (x == 0.0) {
            return 0.0;
        }
        if (x == Double.POSITIVE_INFINITY) {
            return Double.NEGATIVE_INFINITY;
        }
        if (x < a + 1.0) {
            return a < 1.0 ? Math.log(upperSmallShape(a, x)) : Math.log1p(-prefactor(a, x) * lowerSeries(a, x));
        }
        return logPrefactor(a, x) + Math.log(upperFraction(a, x));
    }

    /**
     * Returns {@code ∂/∂a ln Q(a, x)}, the derivative in the shape, for {@code a > 0}, {@code x > 0}: the three
     * evaluations of {@link #logRegularizedGammaQ} differentiated term by term (forward mode, the derivative of
     * every term carried beside it), each stopping when neither the value nor its derivative changes any more.
     */
    static double logRegularizedGammaQShapeDerivative(double a, double x) {
        checkGammaArguments(a, x);
        if (!(x > 0.0) || x == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("x must be finite and > 0: " + x);
        }
        double logX = Math.log(x);
        if (x < a + 1.0) {
            if (a < 1.0) {
                return upperSmallShapeLogDerivative(a, x, logX);
            }
            // Q = 1 − p·S with p the prefactor and S the lower series; ∂(p·S) = p·S·(ln x − ψ(a)) + p·∂S.
            double[] series = lowerSeriesWithDerivative(a, x);
            double p = prefactor(a, x);
            double lower = p * series[0];
            double dLower = lower * (logX - digamma(a)) + p * series[1];
            return -dLower / (1.0 - lower);
        }
        // ln Q = ln p + ln F: ∂ ln p = ln x − ψ(a), ∂ ln F from the differentiated fraction.
        return logX - digamma(a) + upperFractionLogDerivative(a, x);
    }

    /** Returns {@code ∂/∂x ln Q(a, x) = −x^{a−1} e^{−x} / (Γ(a) Q(a, x))}, for {@code a > 0}, {@code x > 0}. */
    static double logRegularizedGammaQXDerivative(double a, double x) {
        checkGammaArguments(a, x);
        return -Math.exp(logPrefactor(a, x) - Math.log(x) - logRegularizedGammaQ(a, x));
    }

    /** {@code ∂/∂a ln Q} for {@code a < 1}, {@code x < a + 1}, differentiating {@link #upperSmallShape}. */
    private static double upperSmallShapeLogDerivative(double a, double x, double logX) {
        double logU = a * logX - logGamma(1.0 + a);
        double dLogU = logX - digamma(1.0 + a);
        double term = 1.0;
        double r = 0.0;
        double dr = 0.0;
        for (int n = 1; n < 200; n++) {
            term *= -x / n;
            double contribution = term * a / (a + n);
            double dContribution = term * n / ((a + n) * (a + n));
            r += contribution;
            dr += dContribution;
            if (Math.abs(contribution) <= EPSILON * Math.abs(r)
                    && Math.abs(dContribution) <= EPSILON * (Math.abs(dr) + Math.abs(dLogU))) {
                break;
            }
        }
        double u = Math.exp(logU);
        double q = -Math.expm1(logU) - u * r;
        double dq = -u * dLogU * (1.0 + r) - u * dr;
        return dq / q;
    }

    /**
     * {@link #lowerSeries} and its derivative in {@code a}: term {@code n} is {@code x^n / (a … (a+n))}, whose
     * logarithmic derivative is {@code −Σ_{j≤n} 1/(a + j)}.
     */
    private static double[] lowerSeriesWithDerivative(double a, double x) {
        double term = 1.0 / a;
        double harmonic = 1.0 / a;
        double sum = term;
        double dSum = -term * harmonic;
        for (int n = 1; n < MAX_ITERATIONS; n++) {
            term *= x / (a + n);
            harmonic += 1.0 / (a + n);
            double dTerm = -term * harmonic;
            sum += term;
            dSum += dTerm;
            if (term <= sum * EPSILON && Math.abs(dTerm) <= Math.abs(dSum) * EPSILON) {
                return new double[] {sum, dSum};
            }
        }
        throw new ArithmeticException("incomplete gamma series did not converge: a=" + a + ", x=" + x);
    }

    /**
     * {@code ∂/∂a ln F} for the continued fraction {@code F} of {@link #upperFraction}, by the same modified Lentz
     * recurrence with the derivative of each of its quantities carried beside it ({@code ∂b/∂a = −1},
     * {@code ∂aₙ/∂a = n}).
     */
    private static double upperFractionLogDerivative(double a, double x) {
        double b = x + 1.0 - a;
        double c = 1.0 / TINY;
        double dc = 0.0;
        double d = 1.0 / b;
        double dd = d * d;
        double logDerivative = dd / d;
        for (int i = 1; i < MAX_ITERATIONS; i++) {
            double an = -i * (i - a);
            double dan = i;
            b += 2.0;
            double denominator = an * d + b;
            double dDenominator = dan * d + an * dd - 1.0;
            if (Math.abs(denominator) < TINY) {
                denominator = TINY;
                dDenominator = 0.0;
            }
            double nextC = b + an / c;
            double dNextC = -1.0 + dan / c - an * dc / (c * c);
            if (Math.abs(nextC) < TINY) {
                nextC = TINY;
                dNextC = 0.0;
            }
            c = nextC;
            dc = dNextC;
            d = 1.0 / denominator;
            dd = -dDenominator * d * d;
            double delta = d * c;
            double dLogDelta = dd / d + dc / c;
            logDerivative += dLogDelta;
            if (Math.abs(delta - 1.0) <= EPSILON && Math.abs(dLogDelta) <= EPSILON * (1.0 + Math.abs(logDerivative))) {
                return logDerivative;
            }
        }
        throw new ArithmeticException("incomplete gamma fraction did not converge: a=" + a + ", x=" + x);
    }

    private static void checkGammaArguments(double a, double x) {
        if (!(a > 0.0) || a == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("a must be finite and > 0: " + a);
        }
        Checks.nonNegative("x", x);
    }

    /**
     * {@code Q(a, x)} for {@code a < 1}, {@code x < a + 1}, where {@code 1 − P} would cancel: with
     * {@code u = x^a / Γ(1 + a)} and {@code P = u (1 + R)}, {@code R = a Σ_{n≥1} (−x)^n / ((a + n) n!)}, it returns
     * {@code (1 − u) − uR}, the first term by {@code expm1}.
     */
    private static double upperSmallShape(double a, double x) {
        double logU = a * Math.log(x) - logGamma(1.0 + a);
        double term = 1.0;
        double r = 0.0;
        for (int n = 1; n < 200; n++) {
            term *= -x / n;
            double contribution = term * a / (a + n);
            r += contribution;
            if (Math.abs(contribution) <= EPSILON * Math.abs(r)) {
                break;
            }
        }
        return -Math.expm1(logU) - Math.exp(logU) * r;
    }

    /** {@code Σ x^n / (a (a+1) … (a+n))}, so that {@code P = prefactor · series}; converges fast for x < a + 1. */
    private static double lowerSeries(double a, double x) {
        double term = 1.0 / a;
        double sum = term;
        for (int n = 1; n < MAX_ITERATIONS; n++) {
            term *= x / (a + n);
            sum += term;
            if (term <= sum * EPSILON) {
                return sum;
            }
        }
        throw new ArithmeticException("incomplete gamma series did not converge: a=" + a + ", x=" + x);
    }

    /**
     * The continued fraction {@code 1/(x+1−a− 1(1−a)/(x+3−a− 2(2−a)/(x+5−a− …)))} with {@code Q = prefactor · cf},
     * evaluated by the modified Lentz method; converges fast for x ≥ a + 1.
     */
    private static double upperFraction(double a, double x) {
        double b = x + 1.0 - a;
        double c = 1.0 / TINY;
        double d = 1.0 / b;
        double fraction = d;
        for (int i = 1; i < MAX_ITERATIONS; i++) {
            double an = -i * (i - a);
            b += 2.0;
            d = an * d + b;
            if (Math.abs(d) < TINY) {
                d = TINY;
            }
            c = b + an / c;
            if (Math.abs(c) < TINY) {
                c = TINY;
            }
            d = 1.0 / d;
            double delta = d * c;
            fraction *= delta;
            if (Math.abs(delta - 1.0) <= EPSILON) {
                return fraction;
            }
        }
        throw new ArithmeticException("incomplete gamma fraction did not converge: a=" + a + ", x=" + x);
    }

    /** The gamma density {@code x^{a−1} e^{−x} / Γ(a)} at {@code x > 0}. */
    private static double gammaDensity(double a, double x) {
        return prefactor(a, x) / x;
    }

    /**
     * Returns the {@code x ≥ 0} with {@code P(a, x) = p}: bracketed Newton iteration on {@code P} (or on {@code Q}
     * above the median, so upper quantiles keep their relative precision), bisection whenever Newton leaves the
     * bracket.
     */
    static double inverseRegularizedGammaP(double a, double p) {
        if (!(a > 0.0) || a == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("a must be finite and > 0: " + a);
        }
        if (!(p >= 0.0 && p <= 1.0)) {
            throw new IllegalArgumentException("p must be in [0, 1]: " + p);
        }
        if (p == 0.0) {
            return 0.0;
        }
        if (p == 1.0) {
            return Double.POSITIVE_INFINITY;
        }
        boolean upper = p > 0.5;
        double target = upper ? 1.0 - p : p;
        // Bracket [lo, hi] with P(lo) < p ≤ P(hi).
        double lo = 0.0;
        double hi = Math.max(1.0, a);
        while (regularizedGammaP(a, hi) < p) {
            lo = hi;
            hi *= 2.0;
        }
        // Start from the small-x power law P ≈ x^a / Γ(a + 1) when it lies in the bracket, else the midpoint.
        double x = Math.exp((Math.log(p) + logGamma(a + 1.0)) / a);
        if (!(x > lo && x < hi)) {
            x = 0.5 * (lo + hi);
        }
        for (int i = 0; i < 400; i++) {
            double f = upper ? target - regularizedGammaQ(a, x) : regularizedGammaP(a, x) - target;
            if (f == 0.0) {
                return x;
            }
            if (f < 0.0) {
                lo = x;
            } else {
                hi = x;
            }
            double density = gammaDensity(a, x);
            double next = x - f / density;
            if (!(next > lo && next < hi)) {
                next = 0.5 * (lo + hi);
            }
            if (Math.abs(next - x) <= 4 * EPSILON * next || hi - lo <= 4 * EPSILON * hi) {
                return next;
            }
            x = next;
        }
        return x;
    }

    /** Returns the {@code q}-quantile of the chi-square distribution with {@code degreesOfFreedom} ({@code > 0}). */
    static double chiSquareQuantile(double q, double degreesOfFreedom) {
        return 2.0 * inverseRegularizedGammaP(0.5 * degreesOfFreedom, q);
    }

    /** Returns {@code erfc(x) = 2/√π ∫_x^∞ e^{−t²} dt}, with full relative precision for large {@code x}. */
    static double erfc(double x) {
        if (Double.isNaN(x)) {
            return x;
        }
        double q = regularizedGammaQ(0.5, x * x);
        return x >= 0.0 ? q : 2.0 - q;
    }

    /** Returns {@code ln Q(z)}, the log of the standard normal upper tail {@code P(Z > z)}, finite for all finite z. */
    static double logNormalUpperTail(double z) {
        double half = 0.5 * z * z;
        if (z >= 0.0) {
            return -Math.log(2.0) + logRegularizedGammaQ(0.5, half);
        }
        return Math.log1p(-0.5 * regularizedGammaQ(0.5, half));
    }

    /** Returns {@code Φ(z)}, the standard normal cumulative distribution function. */
    static double normalCdf(double z) {
        return 0.5 * erfc(-z / Math.sqrt(2.0));
    }

    /** Returns {@code ln φ(z)}, the log of the standard normal density. */
    static double logNormalDensity(double z) {
        return -0.5 * z * z - LN_SQRT_2PI;
    }
}
