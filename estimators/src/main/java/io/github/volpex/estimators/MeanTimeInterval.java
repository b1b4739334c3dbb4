package io.github.volpex.estimators;

/**
 * A confidence interval of a mean time to failure (MTBF): the reciprocal of a {@link RateInterval}, read with
 * {@link RateInterval#meanTimeToFailure()}. The mean time is a decreasing function of the rate, so the interval of the
 * rate maps exactly onto the interval of the mean, at the same level: the lower bound of the mean is the reciprocal of
 * the upper bound of the rate.
 *
 * @param lowerSeconds the lower bound, in seconds; {@code ≥ 0} and finite
 * @param upperSeconds the upper bound, in seconds; {@code ≥ lowerSeconds}, {@code +∞} when the rate's lower bound is 0
 * @param level        the confidence level, in {@code (0, 1)}
 * @since 0.1
 */
public record MeanTimeInterval(double lowerSeconds, double upperSeconds, double level) {

    /**
     * Validates the bounds.
     *
     * @param lowerSeconds the lower bound, in seconds; {@code ≥ 0} and finite
     * @param upperSeconds the upper bound, in seconds; {@code ≥ lowerSeconds}, possibly {@code +∞}
     * @param level        the confidence level, in {@code (0, 1)}
     * @throws IllegalArgumentException if a bound is negative or NaN, the lower bound is infinite, the bounds are
     *                                  out of order, or {@code level} is not in {@code (0, 1)}
     */
    public MeanTimeInterval {
        lowerSeconds = Checks.interval("lowerSeconds", lowerSeconds, "upperSeconds", upperSeconds, level);
        upperSeconds = upperSeconds + 0.0;
    }

    /**
     * Returns whether the interval contains a mean time (bounds included).
     *
     * @param meanSeconds the mean time to failure, in seconds
     * @return {@code true} if {@code lowerSeconds ≤ meanSeconds ≤ upperSeconds}
     */
    public boolean contains(double meanSeconds) {
        return meanSeconds >= lowerSeconds && meanSeconds <= upperSeconds;
    }
}
