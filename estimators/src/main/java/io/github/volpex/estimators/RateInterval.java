package io.github.volpex.estimators;

/**
 * A confidence interval of a failure rate.
 *
 * @param lowerPerSecond the lower bound, per second; {@code ≥ 0}
 * @param upperPerSecond the upper bound, per second; {@code ≥ lowerPerSecond}, possibly {@code +∞}
 * @param level          the confidence level, in {@code (0, 1)}
 * @since 0.1
 */
public record RateInterval(double lowerPerSecond, double upperPerSecond, double level) {

    /**
     * Validates the bounds.
     *
     * @param lowerPerSecond the lower bound, per second; {@code ≥ 0}
     * @param upperPerSecond the upper bound, per second; {@code ≥ lowerPerSecond}, possibly {@code +∞}
     * @param level          the confidence level, in {@code (0, 1)}
     * @throws IllegalArgumentException if a bound is negative or NaN, the bounds are out of order, or {@code level}
     *                                  is not in {@code (0, 1)}
     */
    public RateInterval {
        lowerPerSecond = Checks.interval("lowerPerSecond", lowerPerSecond, "upperPerSecond", upperPerSecond, level);
        upperPerSecond = upperPerSecond + 0.0;
    }

    /**
     * Returns whether the interval contains a rate (bounds included).
     *
     * @param ratePerSecond the rate, per second
     * @return {@code true} if {@code lowerPerSecond ≤ ratePerSecond ≤ upperPerSecond}
     */
    public boolean contains(double ratePerSecond) {
        return ratePerSecond >= lowerPerSecond && ratePerSecond <= upperPerSecond;
    }

    /**
     * Returns the matching interval of the mean time to failure (MTBF), {@code 1/rate}: from
     * {@code 1/upperPerSecond} to {@code 1/lowerPerSecond}, at the same level.
     *
     * @return the interval of the mean, in seconds; its lower bound is 0 if {@code upperPerSecond} is {@code +∞} (no
     *         exposure), its upper bound {@code +∞} if {@code lowerPerSecond} is 0 (no failure)
     */
    public MeanTimeInterval meanTimeToFailure() {
        double lower = upperPerSecond == Double.POSITIVE_INFINITY ? 0.0 : 1.0 / upperPerSecond;
        double upper = lowerPerSecond == 0.0 ? Double.POSITIVE_INFINITY : 1.0 / lowerPerSecond;
        return new MeanTimeInterval(lower, Math.max(lower, upper), level);
    }
}
