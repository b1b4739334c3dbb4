package io.github.volpex.estimators;

import java.util.Arrays;
import java.util.Objects;

/**
 * The Kaplan–Meier (product-limit) estimate of a survival function from right-censored durations, with Greenwood's
 * variance: the empirical temporal reliability {@code TR(t)} of Ren, Eigenmann and Bagchi (§3) when no parametric
 * model fits.
 *
 * <p>At each distinct failure time {@code t_j} with {@code d_j} failures and {@code n_j} durations still at risk
 * ({@code ≥ t_j}), {@code S} drops by the factor {@code 1 − d_j/n_j}. A duration censored at the same time as a
 * failure counts as still at risk then (the usual convention: censoring happens just after). Past the largest
 * duration {@code S} stays at its last value, which is {@code 0} only if that duration is a failure. Without
 * censoring the estimate is the empirical survival function {@code #(T_i > t) / n}.
 *
 * <p><b>Left-truncated durations are left out.</b> A duration already under way when observation began would enter
 * the risk sets at its age then, which the sample does not know (a trace shows only that its first interval had
 * begun). Leaving such durations out is exact when the durations come from a renewal process (each lifetime
 * independent of when it starts, as a host's successive sessions are modelled): the durations whose start was
 * observed are then a sample of the lifetime law, right-censored independently of their length, and the estimate is
 * consistent; the left-truncated ones would add information only through a model of the age at entry, which the
 * parametric fits ({@link DistributionFit}) have and this estimate does not. Ignoring the flag instead (taking a
 * remaining life for a lifetime) would bias the estimate toward short lifetimes.
 *
 * <p>Immutable and thread-safe. Building takes {@code O(n log n)}; {@link #survival} takes {@code O(log m)} for
 * {@code m} distinct failure times.
 *
 * @since 0.1
 */
public final class KaplanMeier implements SurvivalFunction {

    private final double[] timesSeconds;
    private final double[] survivalAfter;
    private final double[] greenwoodSum;

    private KaplanMeier(double[] timesSeconds, double[] survivalAfter, double[] greenwoodSum) {
        this.timesSeconds = timesSeconds;
        this.survivalAfter = survivalAfter;
        this.greenwoodSum = greenwoodSum;
    }

    /**
     * Returns the Kaplan–Meier estimate of a sample.
     *
     * @param sample the durations, each a failure or right-censored; the left-truncated ones are left out
     * @return the estimate; {@code S(t) = 1} everywhere if the durations whose start was observed hold no failure
     * @throws IllegalArgumentException if the sample holds no duration whose start was observed, or holds a
     *                                  zero-length failure whose start was observed (which would make
     *                                  {@code S(0) < 1})
     * @throws NullPointerException     if {@code sample} is null
     */
    public static KaplanMeier of(LifetimeSample sample) {
        Objects.requireNonNull(sample, "sample");
        if (sample.size() == 0) {
            throw new IllegalArgumentException("sample must not be empty: size=0");
        }
        LifetimeSample observed = sample.leftTruncatedCount() == 0 ? sample : sample.startObservedOnly();
        int n = observed.size();
        if (n == 0) {
            throw new IllegalArgumentException("sample must hold a duration whose start was observed; every one of"
                    + " its " + sample.size() + " durations is left-truncated: " + sample);
        }
        double[] failures = new double[observed.failureCount()];
        double[] censored = new double[n - failures.length];
        int f = 0;
        int c = 0;
        for (int i = 0; i < n; i++) {
            if (observed.isFailure(i)) {
                failures[f++] = observed.seconds(i);
            } else {
                censored[c++] = observed.seconds(i);
            }
        }
        Arrays.sort(failures);
        Arrays.sort(censored);
        if (failures.length > 0 && failures[0] == 0.0) {
            throw new IllegalArgumentException("Kaplan-Meier needs failures > 0, found one of length 0 (leave "
                    + "zero-length intervals out, as the Failure Trace Archive does)");
        }
        double[] times = new double[failures.length];
        double[] survival = new double[failures.length];
        double[] greenwood = new double[failures.length];
        int steps = 0;
        int atRisk = n;
        double s = 1.0;
        double sum = 0.0;
        int ci = 0;
        int fi = 0;
        while (fi < failures.length) {
            double t = failures[fi];
            // Durations censored strictly before t leave the risk set first.
            while (ci < censored.length && censored[ci] < t) {
                ci++;
                atRisk--;
            }
            int d = 0;
            while (fi < failures.length && failures[fi] == t) {
                d++;
                fi++;
            }
            s *= 1.0 - (double) d / atRisk;
            sum += d == atRisk ? Double.POSITIVE_INFINITY : (double) d / ((double) atRisk * (atRisk - d));
            times[steps] = t;
            survival[steps] = s;
            greenwood[steps] = sum;
            steps++;
            atRisk -= d;
        }
        return new KaplanMeier(Arrays.copyOf(times, steps), Arrays.copyOf(survival, steps),
                Arrays.copyOf(greenwood, steps));
    }

    /** Index of the last step at or before {@code t}, or −1. */
    private int step(double timeSeconds) {
        int i = Arrays.binarySearch(timesSeconds, timeSeconds);
        return i >= 0 ? i : -i - 2;
    }

    @Override
    public double survival(double timeSeconds) {
        Checks.nonNegative("timeSeconds", timeSeconds);
        int i = step(timeSeconds);
        return i < 0 ? 1.0 : survivalAfter[i];
    }

    /**
     * Returns Greenwood's estimate of the variance of {@code S(t)}: {@code S(t)² Σ_{t_j ≤ t} d_j / (n_j (n_j − d_j))}.
     *
     * @param timeSeconds the time, in seconds, {@code ≥ 0}
     * @return the variance; {@code 0} before the first failure, NaN where {@code S(t) = 0} (the formula is undefined
     *         once the risk set is exhausted)
     * @throws IllegalArgumentException if {@code timeSeconds} is negative or NaN
     */
    public double greenwoodVariance(double timeSeconds) {
        Checks.nonNegative("timeSeconds", timeSeconds);
        int i = step(timeSeconds);
        if (i < 0) {
            return 0.0;
        }
        double s = survivalAfter[i];
        return s == 0.0 ? Double.NaN : s * s * greenwoodSum[i];
    }

    /**
     * Returns the number of distinct failure times: the steps of the estimate.
     *
     * @return the step count
     */
    public int stepCount() {
        return timesSeconds.length;
    }

    /**
     * Returns the distinct failure times at which the estimate steps down, in increasing order.
     *
     * @return a new array of times, in seconds
     */
    public double[] stepTimesSeconds() {
        return timesSeconds.clone();
    }

    /**
     * Returns a summary.
     *
     * @return the summary
     */
    @Override
    public String toString() {
        return "KaplanMeier[steps=" + timesSeconds.length + "]";
    }
}
