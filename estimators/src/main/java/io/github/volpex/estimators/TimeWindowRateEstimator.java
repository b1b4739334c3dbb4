package io.github.volpex.estimators;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A sliding time window over observations; reached through
 * {@link FailureRateEstimator#timeWindow(Duration, LongSupplier)}. Observations are kept in a ring in the order they
 * were recorded (so their times are non-decreasing), with running sums of failures and lifetimes; the sum of
 * lifetimes is recomputed exactly whenever as many observations have left as the ring holds, so rounding cannot
 * accumulate.
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
    private double exposureSeconds;
    private int evictionsSinceResum;
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
        exposureSeconds += lifetime;
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
        while (size > 0 && now - recordedNanos[head] > windowNanos) {
            if (failed[head]) {
                failures--;
            }
            exposureSeconds -= lifetimeSeconds[head];
            head = head + 1 == recordedNanos.length ? 0 : head + 1;
            size--;
            evictionsSinceResum++;
        }
        if (evictionsSinceResum >= recordedNanos.length || size == 0) {
            resum();
        }
    }

    /** Recomputes the sum of lifetimes exactly (rarely: once per ring's worth of evictions). */
    private void resum() {
        double sum = 0.0;
        for (int i = 0; i < size; i++) {
            sum += lifetimeSeconds[index(i)];
        }
        exposureSeconds = sum;
        evictionsSinceResum = 0;
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
        return new RateEstimate(failures, Math.max(0.0, exposureSeconds));
    }

    @Override
    public synchronized double ratePerSecondOr(double fallbackPerSecond) {
        evictBefore(now());
        return failures == 0 ? fallbackPerSecond : failures / exposureSeconds;
    }

    @Override
    public synchronized String toString() {
        return "FailureRateEstimator.timeWindow(" + Duration.ofNanos(windowNanos) + ")[observations=" + size
                + ", failures=" + failures + "]";
    }
}
