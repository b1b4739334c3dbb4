package io.github.volpex.estimators;

/**
 * The last {@code K} failures: a ring of {@code K} slots, each holding one failure's lifetime plus the censored time
 * recorded before it (after the previous failure); censored time recorded after the newest failure is pending.
 * Reached through {@link FailureRateEstimator#lastFailures(int)}.
 */
final class LastFailuresRateEstimator implements FailureRateEstimator {

    private final double[] slotSeconds;
    private int next;
    private int count;
    private double pendingCensoredSeconds;
    /** Running sum of the slots, recomputed exactly as {@link RunningSum} asks. */
    private final RunningSum slotSum = new RunningSum();

    LastFailuresRateEstimator(int k) {
        Checks.atLeast("k", k, 1);
        slotSeconds = new double[k];
    }

    @Override
    public synchronized void recordFailure(double lifetimeSeconds) {
        Checks.finitePositive("lifetimeSeconds", lifetimeSeconds);
        double slot = lifetimeSeconds + pendingCensoredSeconds;
        pendingCensoredSeconds = 0.0;
        boolean resum = false;
        if (count == slotSeconds.length) {
            resum = slotSum.remove(slotSeconds[next], slotSeconds.length);
        } else {
            count++;
        }
        slotSeconds[next] = slot;
        slotSum.add(slot);
        next = next + 1 == slotSeconds.length ? 0 : next + 1;
        if (resum) {
            double sum = 0.0;
            for (int i = 0; i < count; i++) {
                sum += slotSeconds[i];
            }
            slotSum.reset(sum);
        }
    }

    @Override
    public synchronized void recordCensored(double lifetimeSeconds) {
        Checks.finiteNonNegative("lifetimeSeconds", lifetimeSeconds);
        pendingCensoredSeconds += lifetimeSeconds;
    }

    @Override
    public synchronized RateEstimate estimate() {
        return new RateEstimate(count, slotSum.value() + pendingCensoredSeconds);
    }

    @Override
    public synchronized double ratePerSecondOr(double fallbackPerSecond) {
        return count == 0 ? fallbackPerSecond : count / (slotSum.value() + pendingCensoredSeconds);
    }

    @Override
    public synchronized String toString() {
        return "FailureRateEstimator.lastFailures(" + slotSeconds.length + ")[failures=" + count + "]";
    }
}
