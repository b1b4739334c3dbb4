package io.github.volpex.estimators;

/**
 * A running sum of non-negative terms that are added and later removed, as the sliding windows keep their exposure.
 * Removing a term leaves the rounding error of every earlier operation behind, at the scale of the largest sum seen;
 * so the owner recomputes the sum exactly from its terms whenever {@link #remove} asks: once per {@code period}
 * removals (rounding cannot accumulate), and at once when the sum has fallen below {@code 2^−20} of its peak since the
 * last exact sum (a large term left and took the precision of the small ones with it). Each term takes part in a
 * bounded number of recomputations (a fall by {@code 2^20} can happen only about a hundred times across the range of
 * {@code double}), so the cost stays amortized constant. Not thread-safe: guarded by its owner's lock.
 */
final class RunningSum {

    private static final double LOST_PRECISION = 0x1p-20;

    private double sum;
    private double peak;
    private int removals;

    void add(double term) {
        sum += term;
        if (sum > peak) {
            peak = sum;
        }
    }

    /**
     * Subtracts a term added before.
     *
     * @return whether the owner must now {@linkplain #reset reset} the sum to its exact value
     */
    boolean remove(double term, int period) {
        sum -= term;
        removals++;
        return removals >= period || sum < peak * LOST_PRECISION;
    }

    /** Sets the sum to its exactly recomputed value. */
    void reset(double exact) {
        sum = exact;
        peak = exact;
        removals = 0;
    }

    /** The sum, never below zero. */
    double value() {
        return Math.max(0.0, sum);
    }
}
