package io.github.volpex.checkpoint.interval;

import java.util.Optional;

/**
 * Where an {@link AdaptiveCheckpointScheduler} reads the current estimates of {@code μ}, {@code V} and {@code T_d}.
 *
 * <p>Adapt the estimators in one line, for example from a piggyback aggregator's global estimate
 * ({@code () -> aggregator.global().map(g -> new NiHarwoodEstimate(g.failureRatePerSecond(), g.overheadSeconds(),
 * g.downloadSeconds()))}) or from a local rate estimator and the overhead and download-time estimators.
 *
 * @since 0.1
 */
@FunctionalInterface
public interface NiHarwoodEstimateSource {

    /**
     * Returns the latest estimates. Called on every scheduling query, so it should be cheap and non-blocking.
     *
     * @return the latest estimates, or empty while they are not yet known (then no checkpoint is due)
     */
    Optional<NiHarwoodEstimate> latest();
}
