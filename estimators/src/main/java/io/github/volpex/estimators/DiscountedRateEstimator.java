package io.github.volpex.estimators;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Exponentially discounted failures and exposure; reached through
 * {@link FailureRateEstimator#discounted(Duration, LongSupplier)}. Both sums are kept as of the time of the last
 * update and decayed lazily, by the same factor, so their ratio moves only with new observations.
 */
final class DiscountedRateEstimator implements FailureRateEstimator {

    private final double halfLifeSeconds;
    /** {@code ln 2 / h}: the decay rate of the weights, per second. */
    private final double decayPerSecond;
    private final LongSupplier nanoTime;
    private double failures;
    private double exposureSeconds;
    private long lastNanos;

    DiscountedRateEstimator(Duration halfLife, LongSupplier nanoTime) {
        Checks.positiveNanos("halfLife", halfLife);
        this.halfLifeSeconds = halfLife.getSeconds() + halfLife.getNano() / 1e9;
        this.decayPerSecond = Math.log(2.0) / halfLifeSeconds;
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.lastNanos = nanoTime.getAsLong();
    }

    /** Decays both sums to {@code now}; a clock that steps back is treated as standing still. */
    private void advance() {
        long now = nanoTime.getAsLong();
        long elapsed = now - lastNanos;
        if (elapsed > 0) {
            double factor = Math.exp(-decayPerSecond * (elapsed / 1e9));
            failures *= factor;
            exposureSeconds *= factor;
            lastNanos = now;
        }
    }

    @Override
    public synchronized void recordFailure(double lifetimeSeconds) {
        Checks.finitePositive("lifetimeSeconds", lifetimeSeconds);
        advance();
        failures += 1.0;
        exposureSeconds += lifetimeSeconds;
    }

    @Override
    public synchronized void recordCensored(double lifetimeSeconds) {
        Checks.finiteNonNegative("lifetimeSeconds", lifetimeSeconds);
        advance();
        exposureSeconds += lifetimeSeconds;
    }

    @Override
    public synchronized RateEstimate estimate() {
        advance();
        // Both sums decay by the same factor, so exposure > 0 whenever failures > 0 until both underflow together;
        // should exposure underflow first, the sample is gone: report it empty rather than divide by zero.
        if (exposureSeconds == 0.0) {
            return new RateEstimate(0.0, 0.0);
        }
        return new RateEstimate(failures, exposureSeconds);
    }

    @Override
    public synchronized double ratePerSecondOr(double fallbackPerSecond) {
        advance();
        return failures == 0.0 || exposureSeconds == 0.0 ? fallbackPerSecond : failures / exposureSeconds;
    }

    @Override
    public synchronized String toString() {
        return "FailureRateEstimator.discounted(halfLifeSeconds=" + halfLifeSeconds + ")[failures=" + failures
                + ", exposureSeconds=" + exposureSeconds + "]";
    }
}
