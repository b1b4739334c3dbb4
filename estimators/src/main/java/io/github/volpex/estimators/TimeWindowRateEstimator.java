package io.github.volpex.estimators;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A sliding time window; reached through {@link FailureRateEstimator#timeWindow(Duration, LongSupplier)}. Sessions
 * are kept in a ring in the order they were recorded (so their end times are non-decreasing) and dropped once they
 * end before the window's start.
 */
final class TimeWindowRateEstimator implements FailureRateEstimator {

    private final long windowNanos;
    private final LongSupplier nanoTime;
    private long[] endNanos = new long[16];
    private double[] lifetimeSeconds = new double[16];
    private boolean[] failed = new boolean[16];
    private int head;
    private int size;
    private int failures;

    TimeWindowRateEstimator(Duration window, LongSupplier nanoTime) {
        this.windowNanos = Checks.positiveNanos("window", window);
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    @Override
    public synchronized void recordFailure(double lifetimeSeconds) {
        Checks.finitePositive("lifetimeSeconds", lifetimeSeconds);
        add(lifetimeSeconds, true);
    }

    @Override
    public synchronized void recordCensored(double lifetimeSeconds) {
        Checks.finiteNonNegative("lifetimeSeconds", lifetimeSeconds);
        add(lifetimeSeconds, false);
    }

    private void add(double lifetime, boolean failure) {
        long now = now();
        evictBefore(now);
        if (size == endNanos.length) {
            grow();
        }
        int tail = index(size);
        endNanos[tail] = now;
        lifetimeSeconds[tail] = lifetime;
        failed[tail] = failure;
        size++;
        if (failure) {
            failures++;
        }
    }

    /** The clock, never earlier than the newest recorded end: a clock that steps back is treated as standing still. */
    private long now() {
        long now = nanoTime.getAsLong();
        if (size > 0) {
            long newest = endNanos[index(size - 1)];
            if (now - newest < 0) {
                return newest;
            }
        }
        return now;
    }

    private int index(int offset) {
        int i = head + offset;
        return i >= endNanos.length ? i - endNanos.length : i;
    }

    /** Drops every session that ended before {@code now − window}. */
    private void evictBefore(long now) {
        while (size > 0 && now - endNanos[head] > windowNanos) {
            if (failed[head]) {
                failures--;
            }
            head = head + 1 == endNanos.length ? 0 : head + 1;
            size--;
        }
    }

    private void grow() {
        int capacity = endNanos.length * 2;
        long[] ends = new long[capacity];
        double[] lifetimes = new double[capacity];
        boolean[] flags = new boolean[capacity];
        for (int i = 0; i < size; i++) {
            int j = index(i);
            ends[i] = endNanos[j];
            lifetimes[i] = lifetimeSeconds[j];
            flags[i] = failed[j];
        }
        endNanos = ends;
        lifetimeSeconds = lifetimes;
        failed = flags;
        head = 0;
    }

    @Override
    public synchronized RateEstimate estimate() {
        long now = now();
        evictBefore(now);
        double exposure = 0.0;
        for (int i = 0; i < size; i++) {
            int j = index(i);
            // The part of [end − L, end] inside [now − window, now].
            double insideSeconds = (windowNanos - (now - endNanos[j])) / 1e9;
            exposure += Math.min(lifetimeSeconds[j], insideSeconds);
        }
        return new RateEstimate(failures, exposure);
    }

    @Override
    public synchronized String toString() {
        return "FailureRateEstimator.timeWindow(" + Duration.ofNanos(windowNanos) + ")[sessions=" + size
                + ", failures=" + failures + "]";
    }
}
