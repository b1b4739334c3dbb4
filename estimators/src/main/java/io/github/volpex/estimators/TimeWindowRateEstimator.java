package io.github.volpex.estimators;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A sliding time window over observations; reached through
 * {@link FailureRateEstimator#timeWindow(Duration, LongSupplier)}. Observations are kept in a ring in the order they
 * were recorded (so their times are non-decreasing), with a count of failures and a running sum of lifetimes,
 * recomputed exactly as {@link RunningSum} asks.
 */
final class TimeWindowRateEstimator implements FailureRateEstimator {

    private final long windowNanos;
    private final LongSupplier nanoTime;
    private long[] recordedNanos = new long[16];
    private double[] lifetimeSeconds = new double[16];
    private boolean[] failed = new boolean[16];
    private int head;
    private int size;
    private int failures;
    private final RunningSum exposureSeconds = new RunningSum();
    private long latestNanos;

    TimeWindowRateEstimator(Duration window, LongSupplier nanoTime) {
        this.windowNanos = Checks.positiveNanos("window", window);
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.latestNanos = nanoTime.getAsLong();
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
        if (size == recordedNanos.length) {
            grow();
        }
        int tail = index(size);
        recordedNanos[tail] = now;
        lifetimeSeconds[tail] = lifetime;
        failed[tail] = failure;
        size++;
        exposureSeconds.add(lifetime);
        if (failure) {
            failures++;
        }
    }

    /** The clock, never earlier than its latest reading: a clock that steps back is treated as standing still. */
    private long now() {
        long now = nanoTime.getAsLong();
        if (now - latestNanos > 0) {
            latestNanos = now;
        }
        return latestNanos;
    }

    private int index(int offset) {
        int i = head + offset;
        return i >= recordedNanos.length ? i - recordedNanos.length : i;
    }

    /** Drops every observation recorded before {@code now − window}. */
    private void evictBefore(long now) {
        boolean resum = false;
        while (size > 0 && now - recordedNanos[head] > windowNanos) {
            if (failed[head]) {
                failures--;
            }
            resum |= exposureSeconds.remove(lifetimeSeconds[head], recordedNanos.length);
            head = head + 1 == recordedNanos.length ? 0 : head + 1;
            size--;
        }
        if (resum || size == 0) {
            double sum = 0.0;
            for (int i = 0; i < size; i++) {
                sum += lifetimeSeconds[index(i)];
            }
            exposureSeconds.reset(sum);
        }
    }

    private void grow() {
        int capacity = recordedNanos.length * 2;
        long[] times = new long[capacity];
        double[] lifetimes = new double[capacity];
        boolean[] flags = new boolean[capacity];
        for (int i = 0; i < size; i++) {
            int j = index(i);
            times[i] = recordedNanos[j];
            lifetimes[i] = lifetimeSeconds[j];
            flags[i] = failed[j];
        }
        recordedNanos = times;
        lifetimeSeconds = lifetimes;
        failed = flags;
        head = 0;
    }

    @Override
    public synchronized RateEstimate estimate() {
        evictBefore(now());
        return new RateEstimate(failures, exposureSeconds.value());
    }

    @Override
    public synchronized double ratePerSecondOr(double fallbackPerSecond) {
        evictBefore(now());
        return failures == 0 ? fallbackPerSecond : failures / exposureSeconds.value();
    }

    @Override
    public synchronized String toString() {
        return "FailureRateEstimator.timeWindow(" + Duration.ofNanos(windowNanos) + ")[observations=" + size
                + ", failures=" + failures + "]";
    }
}
