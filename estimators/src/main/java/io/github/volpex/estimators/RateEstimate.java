package io.github.volpex.estimators;

/**
 * A failure-rate estimate and the sample it rests on: {@code failures} observed over {@code exposureSeconds} of
 * exposure (the summed lifetimes, right-censored ones included).
 *
 * <p>The maximum-likelihood rate is {@code μ̂ = failures / exposure} (Ni and Harwood, eq. 1, with censoring). Before
 * the first failure the estimate is <em>empty</em> ({@link #isEmpty()}): {@link #ratePerSecond()} then throws instead
 * of returning a rate of zero that would tell a checkpoint scheduler never to checkpoint. An empty estimate still
 * gives a one-sided upper bound ({@link #upperBoundPerSecond(double)}), which is what a cautious scheduler should use
 * until the first failure is seen.
 *
 * <p>{@code failures} is a whole number except for estimates from a
 * {@linkplain FailureRateEstimator#discounted discounted estimator}, where failures decay with age.
 *
 * @param failures        the (possibly discounted) number of failures, {@code ≥ 0} and finite
 * @param exposureSeconds the total observed lifetime in seconds, censored time included; {@code ≥ 0} and finite
 * @since 0.1
 */
public record RateEstimate(double failures, double exposureSeconds) {

    /**
     * Validates the sample.
     *
     * @param failures        the (possibly discounted) number of failures, {@code ≥ 0} and finite
     * @param exposureSeconds the total observed lifetime in seconds, censored time included; {@code ≥ 0} and finite
     * @throws IllegalArgumentException if either value is negative, NaN or infinite, or if there are failures but no
     *                                  exposure
     */
    public RateEstimate {
        failures = Checks.finiteNonNegative("failures", failures);
        exposureSeconds = Checks.finiteNonNegative("exposureSeconds", exposureSeconds);
        if (failures > 0.0 && exposureSeconds == 0.0) {
            throw new IllegalArgumentException("exposureSeconds must be > 0 when failures > 0: failures=" + failures
                    + ", exposureSeconds=0.0");
        }
    }

    /**
     * Returns the estimate of a whole sample: its failures over its total (censored included) duration. A
     * left-truncated duration (under way when observation began) counts with the part observed: its failure, if it
     * ended in one, and its observed exposure. For a constant rate this is exact, since the exponential has no
     * memory: how long the lifetime had lasted before observation began does not change the likelihood of the rest.
     *
     * @param sample the observed lifetimes
     * @return the failures and total duration of {@code sample}
     * @throws NullPointerException if {@code sample} is null
     */
    public static RateEstimate of(LifetimeSample sample) {
        return new RateEstimate(sample.failureCount(), sample.totalSeconds());
    }

    /**
     * Returns whether no failure has been observed, so that no rate can be estimated yet.
     *
     * @return {@code true} if {@code failures == 0}
     */
    public boolean isEmpty() {
        return failures == 0.0;
    }

    /**
     * Returns the maximum-likelihood failure rate {@code failures / exposureSeconds}.
     *
     * @return the rate, per second, {@code > 0}
     * @throws IllegalStateException if the estimate is {@linkplain #isEmpty() empty}
     */
    public double ratePerSecond() {
        requireNonEmpty("ratePerSecond");
        return failures / exposureSeconds;
    }

    /**
     * Returns the maximum-likelihood rate, or {@code fallbackPerSecond} if no failure has been observed yet.
     * Allocation-free, for hot paths.
     *
     * @param fallbackPerSecond the value returned by an empty estimate
     * @return the rate per second, or the fallback
     */
    public double ratePerSecondOr(double fallbackPerSecond) {
        return failures == 0.0 ? fallbackPerSecond : failures / exposureSeconds;
    }

    /**
     * Returns the mean time to failure {@code exposureSeconds / failures}, the reciprocal of the rate. Its confidence
     * interval is the reciprocal of the rate's: {@code confidenceInterval(level).meanTimeToFailure()} or, for a
     * trace cut at a fixed time, {@code timeTruncatedConfidenceInterval(level).meanTimeToFailure()}.
     *
     * @return the mean time to failure in seconds
     * @throws IllegalStateException if the estimate is {@linkplain #isEmpty() empty}
     */
    public double meanTimeToFailureSeconds() {
        requireNonEmpty("meanTimeToFailureSeconds");
        return exposureSeconds / failures;
    }

    /**
     * Returns the bias-corrected rate {@code (failures − 1) / exposureSeconds}, unbiased for failure-truncated
     * samples (the plain MLE overestimates the rate by the factor {@code K / (K − 1)}).
     *
     * @return the rate per second, {@code ≥ 0}
     * @throws IllegalStateException if fewer than two failures have been observed (the correction would give a rate
     *                               of zero)
     */
    public double biasCorrectedRatePerSecond() {
        if (failures < 2.0) {
            throw new IllegalStateException("biasCorrectedRatePerSecond needs failures >= 2: failures=" + failures
                    + ", exposureSeconds=" + exposureSeconds);
        }
        return (failures - 1.0) / exposureSeconds;
    }

    /**
     * Returns the two-sided confidence interval of the rate for a failure-truncated sample (observation stopped at
     * the {@code K}-th failure, as in Ni and Harwood's last-{@code K} scheme): {@code 2μT ~ χ²(2K)}, so the bounds are
     * {@code χ²_{α/2}(2K) / 2T} and {@code χ²_{1−α/2}(2K) / 2T} with {@code α = 1 − level}.
     *
     * @param level the confidence level, in {@code (0, 1)}, e.g. {@code 0.95}
     * @return the interval, per second
     * @throws IllegalArgumentException if {@code level} is not in {@code (0, 1)}
     * @throws IllegalStateException    if the estimate is {@linkplain #isEmpty() empty}
     */
    public RateInterval confidenceInterval(double level) {
        Checks.openUnit("level", level);
        requireNonEmpty("confidenceInterval");
        double alpha = 1.0 - level;
        double twiceExposure = 2.0 * exposureSeconds;
        return new RateInterval(SpecialFunctions.chiSquareQuantile(0.5 * alpha, 2.0 * failures) / twiceExposure,
                SpecialFunctions.chiSquareQuantile(1.0 - 0.5 * alpha, 2.0 * failures) / twiceExposure, level);
    }

    /**
     * Returns the two-sided confidence interval for a time-truncated sample (observation stopped at a fixed time, so
     * the last lifetime is censored): the upper bound uses {@code 2K + 2} degrees of freedom. Defined for an empty
     * estimate too, whose lower bound is {@code 0}.
     *
     * @param level the confidence level, in {@code (0, 1)}
     * @return the interval, per second; the upper bound is {@code +∞} if there is no exposure at all
     * @throws IllegalArgumentException if {@code level} is not in {@code (0, 1)}
     */
    public RateInterval timeTruncatedConfidenceInterval(double level) {
        Checks.openUnit("level", level);
        double alpha = 1.0 - level;
        double lower = failures == 0.0 ? 0.0
                : SpecialFunctions.chiSquareQuantile(0.5 * alpha, 2.0 * failures) / (2.0 * exposureSeconds);
        double upper = SpecialFunctions.chiSquareQuantile(1.0 - 0.5 * alpha, 2.0 * failures + 2.0)
                / (2.0 * exposureSeconds);
        return new RateInterval(lower, upper, level);
    }

    /**
     * Returns the one-sided upper confidence bound {@code χ²_{level}(2K + 2) / 2T}: with probability {@code level}
     * the true rate is below it. Defined before the first failure, where it is {@code −ln(1 − level) / T}.
     *
     * @param level the confidence level, in {@code (0, 1)}
     * @return the upper bound per second; {@code +∞} if there is no exposure at all
     * @throws IllegalArgumentException if {@code level} is not in {@code (0, 1)}
     */
    public double upperBoundPerSecond(double level) {
        Checks.openUnit("level", level);
        return SpecialFunctions.chiSquareQuantile(level, 2.0 * failures + 2.0) / (2.0 * exposureSeconds);
    }

    private void requireNonEmpty(String what) {
        if (failures == 0.0) {
            throw new IllegalStateException(what + " needs failures > 0: failures=0.0, exposureSeconds="
                    + exposureSeconds + " (no failure observed yet: see upperBoundPerSecond)");
        }
    }
}
