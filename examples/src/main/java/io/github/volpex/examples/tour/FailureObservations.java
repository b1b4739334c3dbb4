package io.github.volpex.examples.tour;

import io.github.volpex.checkpoint.interval.NiHarwoodEstimate;
import io.github.volpex.checkpoint.interval.NiHarwoodEstimateSource;
import io.github.volpex.estimators.RateEstimate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * What the host application has seen of its compute hosts: lifetimes that ended in a failure, lifetimes cut short
 * when a replica finished (censored), and the uptimes of replicas still running (censored at their current value).
 * Their censoring-aware MLE is the failure rate {@code μ} the Ni–Harwood scheduler needs. Thread-safe.
 */
public final class FailureObservations {

    private final Map<Object, DoubleSupplier> live = new LinkedHashMap<>();
    private int failures;
    private double endedExposureSeconds;

    /** A replica started: {@code uptimeSeconds} reads its uptime while it runs. */
    public synchronized void started(Object replica, DoubleSupplier uptimeSeconds) {
        live.put(replica, uptimeSeconds);
    }

    /** A replica's host failed after {@code uptimeSeconds}: a failure observation. */
    public synchronized void failed(Object replica, double uptimeSeconds) {
        live.remove(replica);
        failures++;
        endedExposureSeconds += uptimeSeconds;
    }

    /** A replica finished its work after {@code uptimeSeconds}: a censored observation. */
    public synchronized void finished(Object replica, double uptimeSeconds) {
        live.remove(replica);
        endedExposureSeconds += uptimeSeconds;
    }

    /** Failures observed so far. */
    public synchronized int failures() {
        return failures;
    }

    /** The censoring-aware MLE: failures over all exposure, that of replicas still up included. */
    public synchronized RateEstimate rate() {
        double exposure = endedExposureSeconds;
        for (DoubleSupplier uptime : live.values()) {
            exposure += uptime.getAsDouble();
        }
        return new RateEstimate(failures, exposure);
    }

    /**
     * The scheduler's estimates: the MLE of {@code μ} (before the first failure, its cautious upper bound), with the
     * given costs; empty while nothing has been observed.
     */
    public Optional<NiHarwoodEstimate> estimate(double checkpointSeconds, double downloadSeconds) {
        RateEstimate rate = rate();
        if (rate.exposureSeconds() == 0) {
            return Optional.empty();
        }
        double mu = rate.isEmpty() ? rate.upperBoundPerSecond(NiHarwoodEstimateSource.CAUTIOUS_LEVEL)
                : rate.ratePerSecond();
        return Optional.of(new NiHarwoodEstimate(mu, checkpointSeconds, downloadSeconds));
    }
}
