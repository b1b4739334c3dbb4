package io.github.volpex.estimators;

/** Everything ever recorded; reached through {@link FailureRateEstimator#cumulative()}. */
final class CumulativeRateEstimator implements FailureRateEstimator {

    private long failures;
    private double exposureSeconds;

    @Override
    public synchronized void recordFailure(double lifetimeSeconds) {
        Checks.finitePositive("lifetimeSeconds", lifetimeSeconds);
        failures++;
        exposureSeconds += lifetimeSeconds;
    }

    @Override
    public synchronized void recordCensored(double lifetimeSeconds) {
        Checks.finiteNonNegative("lifetimeSeconds", lifetimeSeconds);
        exposureSeconds += lifetimeSeconds;
    }

    @Override
    public synchronized RateEstimate estimate() {
        return new RateEstimate(failures, exposureSeconds);
    }

    @Override
    public synchronized double ratePerSecondOr(double fallbackPerSecond) {
        return failures == 0 ? fallbackPerSecond : failures / exposureSeconds;
    }

    @Override
    public synchronized String toString() {
        return "FailureRateEstimator.cumulative()[failures=" + failures + ", exposureSeconds=" + exposureSeconds
                + "]";
    }
}
