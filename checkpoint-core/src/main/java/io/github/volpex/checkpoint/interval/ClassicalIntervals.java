package io.github.volpex.checkpoint.interval;

/**
 * Classical checkpoint intervals for a single machine with exponential failures.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.1
 */
public final class ClassicalIntervals {

    private ClassicalIntervals() {
    }

    /**
     * Returns Young's first-order optimal checkpoint interval {@code √(2CM)}.
     *
     * @param checkpointCostSeconds the time to write one checkpoint {@code C}, in seconds; {@code > 0}, finite
     * @param mtbfSeconds           the mean time between failures {@code M}, in seconds; {@code > 0}, finite
     * @return the interval between the ends of consecutive checkpoints, in seconds
     * @throws IllegalArgumentException if an argument is not positive and finite
     */
    public static double youngIntervalSeconds(double checkpointCostSeconds, double mtbfSeconds) {
        requirePositiveFinite("checkpointCostSeconds", checkpointCostSeconds);
        requirePositiveFinite("mtbfSeconds", mtbfSeconds);
        return Math.sqrt(2.0 * checkpointCostSeconds * mtbfSeconds);
    }

    private static void requirePositiveFinite(String name, double value) {
        if (!(value > 0.0) || value == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException(name + " must be finite and > 0: " + value);
        }
    }
}
