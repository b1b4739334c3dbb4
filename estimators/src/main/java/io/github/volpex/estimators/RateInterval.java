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
        lowerPerSecond = Checks.finiteNonNegative("lowerPerSecond", lowerPerSecond);
        upperPerSecond = Checks.nonNegative("upperPerSecond", upperPerSecond);
        Checks.openUnit("level", level);
        if (upperPerSecond < lowerPerSecond) {
            throw new IllegalArgumentException("upperPerSecond must be >= lowerPerSecond (" + lowerPerSecond + "): "
                    + upperPerSecond);
        }
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
}
