package io.github.volpex.estimators;

import java.util.Arrays;

/**
 * How a set of peers' values becomes one: the plain mean (what Ni and Harwood's §3.1.4 uses), the median, or a
 * trimmed mean.
 *
 * <p>Robustness ({@link #tolerableLiars(int)}): an aggregate <em>tolerates</em> {@code f} lying peers among
 * {@code n} if, whatever values (within the validity limits) those {@code f} send, the result stays between the
 * smallest and the largest honest value. The mean tolerates none: one peer can move it by {@code (limit − mean)/n},
 * so with the default limits one liar claiming a failure per second drives every peer to checkpoint continuously.
 * The median tolerates {@code ⌊(n − 1)/2⌋}. A mean trimmed by a fraction {@code α} at each end tolerates
 * {@code ⌊αn⌋}.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class Aggregate {

    private static final Aggregate MEAN = new Aggregate(-1.0);
    private static final Aggregate MEDIAN = new Aggregate(0.5);

    /** The fraction trimmed from each end: −1 for the mean, 0.5 for the median. */
    private final double trimFraction;

    private Aggregate(double trimFraction) {
        this.trimFraction = trimFraction;
    }

    /**
     * Returns the arithmetic mean: the paper's aggregate; not robust.
     *
     * @return the mean
     */
    public static Aggregate mean() {
        return MEAN;
    }

    /**
     * Returns the median (the mean of the two middle values for an even count).
     *
     * @return the median
     */
    public static Aggregate median() {
        return MEDIAN;
    }

    /**
     * Returns the mean of the values left after dropping {@code ⌊fraction · n⌋} of the smallest and as many of the
     * largest.
     *
     * @param fraction the fraction trimmed at each end, in {@code [0, 0.5)}; {@code 0} is the plain mean
     * @return the trimmed mean
     * @throws IllegalArgumentException if {@code fraction} is not in {@code [0, 0.5)}
     */
    public static Aggregate trimmedMean(double fraction) {
        if (!(fraction >= 0.0 && fraction < 0.5)) {
            throw new IllegalArgumentException("fraction must be in [0, 0.5): " + fraction);
        }
        return fraction == 0.0 ? MEAN : new Aggregate(fraction);
    }

    /**
     * Returns the aggregate of some values: finite values give a finite result, even where their sum would overflow.
     *
     * @param values the values, each finite; not modified
     * @return the aggregate
     * @throws IllegalArgumentException if {@code values} is empty or a value is NaN or infinite
     * @throws NullPointerException     if {@code values} is null
     */
    public double apply(double... values) {
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException("values[" + i + "] must be finite: " + values[i]);
            }
        }
        return applyInPlace(values.clone(), values.length);
    }

    /** Aggregates the first {@code n} values, all finite, reordering them. */
    double applyInPlace(double[] values, int n) {
        if (n == 0) {
            throw new IllegalArgumentException("values must not be empty: length=0");
        }
        if (this == MEAN) {
            return mean(values, 0, n);
        }
        Arrays.sort(values, 0, n);
        if (this == MEDIAN) {
            if ((n & 1) == 1) {
                return values[n / 2];
            }
            double low = values[n / 2 - 1];
            double high = values[n / 2];
            double middle = 0.5 * (low + high);
            return Double.isInfinite(middle) ? 0.5 * low + 0.5 * high : middle;
        }
        int drop = (int) Math.floor(trimFraction * n);
        return mean(values, drop, n - drop);
    }

    /** The mean of {@code values[from … to)}, all finite; summed again in scaled terms if the plain sum overflows. */
    private static double mean(double[] values, int from, int to) {
        int count = to - from;
        double sum = 0.0;
        for (int i = from; i < to; i++) {
            sum += values[i];
        }
        if (Double.isInfinite(sum)) {
            sum = 0.0;
            for (int i = from; i < to; i++) {
                sum += values[i] / count;
            }
            return sum;
        }
        return sum / count;
    }

    /**
     * Returns how many lying peers among {@code peers} this aggregate tolerates: the result stays within the range
     * of the honest values whatever the liars send.
     *
     * @param peers the number of peers, {@code ≥ 1}
     * @return {@code 0} for the mean, {@code ⌊(peers − 1)/2⌋} for the median, {@code ⌊α · peers⌋} for a mean trimmed
     *         by {@code α}
     * @throws IllegalArgumentException if {@code peers < 1}
     */
    public int tolerableLiars(int peers) {
        Checks.atLeast("peers", peers, 1);
        if (this == MEAN) {
            return 0;
        }
        if (this == MEDIAN) {
            return (peers - 1) / 2;
        }
        return (int) Math.floor(trimFraction * peers);
    }

    /**
     * Returns the aggregate's name.
     *
     * @return {@code "mean"}, {@code "median"} or {@code "trimmedMean(α)"}
     */
    @Override
    public String toString() {
        if (this == MEAN) {
            return "mean";
        }
        return this == MEDIAN ? "median" : "trimmedMean(" + trimFraction + ")";
    }
}
