package io.github.volpex.estimators;

import java.util.Arrays;
import java.util.stream.Collector;

/**
 * An immutable sample of lifetimes (or of any durations: availability or unavailability intervals), in seconds. Each
 * duration is a failure (the interval ended with the event of interest) or right-censored (observation stopped
 * first), and may also be <em>left-truncated</em>: it was already under way, for an unknown time, when observation
 * began, so the duration is the part observed. The first interval of a trace is left-truncated: its end, if the trace
 * shows it, is a real failure that must be counted, but its length is not a lifetime.
 *
 * <p>How each estimator uses a left-truncated duration (the package description has the details):
 * {@link RateEstimate#of} and {@link DistributionFit#exponential} count its failure and its observed exposure, which
 * is exact for a constant rate (the exponential has no memory); the Weibull, log-normal and gamma fits use the
 * likelihood of the remaining life of a lifetime under way at a time unrelated to its start; {@link KaplanMeier}
 * leaves it out.
 *
 * <p>Durations are always in seconds, so every {@code …Seconds} and {@code …PerSecond} value computed from a sample
 * is in seconds: to read a parameter in hours, divide the seconds by 3600.
 *
 * <p>Build one with {@link #builder()}, {@link #ofFailures(double...)}, {@link #of(double[], boolean[])} or, from a
 * trace, {@link #collector()}. Fit it with {@link DistributionFit}, estimate a rate with {@link RateEstimate#of}, or
 * turn it into a {@link KaplanMeier} survival function.
 *
 * <p>Immutable and thread-safe; the arrays handed in are copied.
 *
 * @since 0.1
 */
public final class LifetimeSample {

    private final double[] seconds;
    private final boolean[] failed;
    private final boolean[] leftTruncated;
    private final int failureCount;
    private final int leftTruncatedCount;
    private final double totalSeconds;

    private LifetimeSample(double[] seconds, boolean[] failed, boolean[] leftTruncated) {
        this.seconds = seconds;
        this.failed = failed;
        this.leftTruncated = leftTruncated;
        int count = 0;
        int truncated = 0;
        double total = 0.0;
        for (int i = 0; i < seconds.length; i++) {
            if (failed[i]) {
                count++;
            }
            if (leftTruncated[i]) {
                truncated++;
            }
            total += seconds[i];
        }
        if (total == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("the durations' sum must be finite (at most " + Double.MAX_VALUE
                    + " s): it overflows for " + seconds.length + " durations");
        }
        this.failureCount = count;
        this.leftTruncatedCount = truncated;
        this.totalSeconds = total;
    }

    /**
     * Returns a sample of complete (uncensored) lifetimes.
     *
     * @param seconds the lifetimes in seconds, each finite and {@code ≥ 0}
     * @return the sample
     * @throws IllegalArgumentException if a lifetime is negative, NaN or infinite (the message gives its index), or
     *                                  their sum overflows
     * @throws NullPointerException     if {@code seconds} is null
     */
    public static LifetimeSample ofFailures(double... seconds) {
        boolean[] failed = new boolean[seconds.length];
        Arrays.fill(failed, true);
        return of(seconds, failed, new boolean[seconds.length]);
    }

    /**
     * Returns a sample from parallel arrays, no duration left-truncated.
     *
     * @param seconds the durations in seconds, each finite and {@code ≥ 0}
     * @param failed  {@code failed[i]} is {@code true} if duration {@code i} ended in a failure, {@code false} if it
     *                is right-censored
     * @return the sample
     * @throws IllegalArgumentException if the arrays differ in length, a duration is negative, NaN or infinite, or
     *                                  the durations' sum overflows
     * @throws NullPointerException     if an array is null
     */
    public static LifetimeSample of(double[] seconds, boolean[] failed) {
        return of(seconds, failed, new boolean[seconds.length]);
    }

    /**
     * Returns a sample from parallel arrays.
     *
     * @param seconds       the durations in seconds, each finite and {@code ≥ 0}: for a left-truncated duration, the
     *                      part observed
     * @param failed        {@code failed[i]} is {@code true} if duration {@code i} ended in a failure, {@code false}
     *                      if it is right-censored
     * @param leftTruncated {@code leftTruncated[i]} is {@code true} if duration {@code i} was under way, for an
     *                      unknown time, when observation began
     * @return the sample
     * @throws IllegalArgumentException if the arrays differ in length, a duration is negative, NaN or infinite, or
     *                                  the durations' sum overflows
     * @throws NullPointerException     if an array is null
     */
    public static LifetimeSample of(double[] seconds, boolean[] failed, boolean[] leftTruncated) {
        if (seconds.length != failed.length) {
            throw new IllegalArgumentException("failed.length must equal seconds.length (" + seconds.length + "): "
                    + failed.length);
        }
        if (seconds.length != leftTruncated.length) {
            throw new IllegalArgumentException("leftTruncated.length must equal seconds.length (" + seconds.length
                    + "): " + leftTruncated.length);
        }
        double[] copy = seconds.clone();
        for (int i = 0; i < copy.length; i++) {
            copy[i] = checkDuration(i, copy[i]);
        }
        return new LifetimeSample(copy, failed.clone(), leftTruncated.clone());
    }

    /** Returns the duration with {@code −0.0} turned into {@code +0.0}, so equal samples compare equal. */
    private static double checkDuration(int index, double value) {
        if (!(value >= 0.0) || value == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("seconds[" + index + "] must be finite and >= 0: " + value);
        }
        return value + 0.0;
    }

    /**
     * Returns a new, empty builder.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns a collector of trace intervals into a sample: each interval's duration, censored and left-truncated as
     * the interval is. Filter the stream first (for instance to the available intervals of a trace with positive
     * length).
     *
     * @return a collector; the durations follow the stream's encounter order (parallel streams too)
     */
    public static Collector<TraceInterval, ?, LifetimeSample> collector() {
        return Collector.of(Builder::new, Builder::add, Builder::addAll, Builder::build);
    }

    /**
     * Returns the number of durations.
     *
     * @return the sample size
     */
    public int size() {
        return seconds.length;
    }

    /**
     * Returns duration {@code index}.
     *
     * @param index the index, in {@code [0, size())}
     * @return the duration in seconds
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public double seconds(int index) {
        return seconds[index];
    }

    /**
     * Returns whether duration {@code index} ended in a failure (is not censored).
     *
     * @param index the index, in {@code [0, size())}
     * @return {@code true} for a failure, {@code false} for a right-censored duration
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public boolean isFailure(int index) {
        return failed[index];
    }

    /**
     * Returns whether duration {@code index} is left-truncated: it was under way, for an unknown time, when
     * observation began, and {@link #seconds(int)} is the part observed.
     *
     * @param index the index, in {@code [0, size())}
     * @return {@code true} if the duration's start was not observed
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public boolean isLeftTruncated(int index) {
        return leftTruncated[index];
    }

    /**
     * Returns the number of failures (uncensored durations), left-truncated ones included.
     *
     * @return the failure count
     */
    public int failureCount() {
        return failureCount;
    }

    /**
     * Returns the number of left-truncated durations.
     *
     * @return the count
     */
    public int leftTruncatedCount() {
        return leftTruncatedCount;
    }

    /**
     * Returns the sum of all durations, censored and left-truncated ones included: the exposure of the sample.
     *
     * @return the total in seconds
     */
    public double totalSeconds() {
        return totalSeconds;
    }

    /**
     * Returns a copy of the durations.
     *
     * @return a new array of the durations, in seconds
     */
    public double[] toSecondsArray() {
        return seconds.clone();
    }

    /**
     * Returns the sample without its censored durations: the naive sample that forgets the survivors.
     *
     * @return the failures only
     */
    public LifetimeSample failuresOnly() {
        return select(failed, true, failureCount);
    }

    /**
     * Returns the sample without its left-truncated durations: the durations whose start was observed.
     *
     * @return the durations that are not left-truncated, in order
     */
    public LifetimeSample startObservedOnly() {
        return select(leftTruncated, false, seconds.length - leftTruncatedCount);
    }

    /** The {@code size} durations {@code i} with {@code flag[i] == value}, in order, with their flags. */
    private LifetimeSample select(boolean[] flag, boolean value, int size) {
        double[] kept = new double[size];
        boolean[] keptFailed = new boolean[size];
        boolean[] keptTruncated = new boolean[size];
        int n = 0;
        for (int i = 0; i < seconds.length; i++) {
            if (flag[i] == value) {
                kept[n] = seconds[i];
                keptFailed[n] = failed[i];
                keptTruncated[n++] = leftTruncated[i];
            }
        }
        return new LifetimeSample(kept, keptFailed, keptTruncated);
    }

    /**
     * Returns whether {@code other} is a sample with the same durations and flags in the same order.
     *
     * @param other the object to compare
     * @return {@code true} if equal
     */
    @Override
    public boolean equals(Object other) {
        return other instanceof LifetimeSample that && Arrays.equals(seconds, that.seconds)
                && Arrays.equals(failed, that.failed) && Arrays.equals(leftTruncated, that.leftTruncated);
    }

    /**
     * Returns a hash of the durations and flags.
     *
     * @return the hash code
     */
    @Override
    public int hashCode() {
        return (31 * Arrays.hashCode(seconds) + Arrays.hashCode(failed)) * 31 + Arrays.hashCode(leftTruncated);
    }

    /**
     * Returns a summary: size, failures, left-truncated durations (if any) and total.
     *
     * @return the summary
     */
    @Override
    public String toString() {
        return "LifetimeSample[size=" + seconds.length + ", failures=" + failureCount
                + (leftTruncatedCount > 0 ? ", leftTruncated=" + leftTruncatedCount : "") + ", totalSeconds="
                + totalSeconds + "]";
    }

    /**
     * Accumulates durations into a {@link LifetimeSample}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder {

        private double[] seconds = new double[16];
        private boolean[] failed = new boolean[16];
        private boolean[] leftTruncated = new boolean[16];
        private int size;

        private Builder() {
        }

        /**
         * Adds a duration that ended in a failure.
         *
         * @param durationSeconds the duration, finite and {@code ≥ 0}
         * @return this builder
         * @throws IllegalArgumentException if the duration is negative, NaN or infinite
         */
        public Builder addFailure(double durationSeconds) {
            return add(durationSeconds, true);
        }

        /**
         * Adds a right-censored duration.
         *
         * @param durationSeconds the duration, finite and {@code ≥ 0}
         * @return this builder
         * @throws IllegalArgumentException if the duration is negative, NaN or infinite
         */
        public Builder addCensored(double durationSeconds) {
            return add(durationSeconds, false);
        }

        /**
         * Adds a duration.
         *
         * @param durationSeconds the duration, finite and {@code ≥ 0}
         * @param failure         {@code true} for a failure, {@code false} for a right-censored duration
         * @return this builder
         * @throws IllegalArgumentException if the duration is negative, NaN or infinite
         */
        public Builder add(double durationSeconds, boolean failure) {
            return add(durationSeconds, failure, false);
        }

        /**
         * Adds a duration, possibly left-truncated.
         *
         * @param durationSeconds the duration, finite and {@code ≥ 0}: for a left-truncated duration, the part
         *                        observed
         * @param failure         {@code true} for a failure, {@code false} for a right-censored duration
         * @param leftTruncated   {@code true} if the duration was under way, for an unknown time, when observation
         *                        began
         * @return this builder
         * @throws IllegalArgumentException if the duration is negative, NaN or infinite
         */
        public Builder add(double durationSeconds, boolean failure, boolean leftTruncated) {
            double checked = checkDuration(size, durationSeconds);
            if (size == seconds.length) {
                seconds = Arrays.copyOf(seconds, size * 2);
                failed = Arrays.copyOf(failed, size * 2);
                this.leftTruncated = Arrays.copyOf(this.leftTruncated, size * 2);
            }
            seconds[size] = checked;
            failed[size] = failure;
            this.leftTruncated[size] = leftTruncated;
            size++;
            return this;
        }

        /**
         * Adds a trace interval: its duration, censored and left-truncated as the interval is.
         *
         * @param interval the interval
         * @return this builder
         * @throws IllegalArgumentException if the interval's duration overflows to infinity
         * @throws NullPointerException     if {@code interval} is null
         */
        public Builder add(TraceInterval interval) {
            return add(interval.durationSeconds(), !interval.censored(), interval.leftTruncated());
        }

        private Builder addAll(Builder other) {
            for (int i = 0; i < other.size; i++) {
                add(other.seconds[i], other.failed[i], other.leftTruncated[i]);
            }
            return this;
        }

        /**
         * Returns the sample built so far; the builder stays usable.
         *
         * @return the sample
         * @throws IllegalArgumentException if the durations' sum overflows
         */
        public LifetimeSample build() {
            return new LifetimeSample(Arrays.copyOf(seconds, size), Arrays.copyOf(failed, size),
                    Arrays.copyOf(leftTruncated, size));
        }
    }
}
