package io.github.volpex.checkpoint.interval;

import io.github.volpex.estimators.DownloadTimeEstimator;
import io.github.volpex.estimators.FailureRateEstimator;
import io.github.volpex.estimators.GlobalEstimate;
import io.github.volpex.estimators.PiggybackAggregator;
import io.github.volpex.estimators.RateEstimate;
import java.util.Objects;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * Where an {@link AdaptiveCheckpointScheduler} reads the current estimates of {@code μ}, {@code V} and {@code T_d}.
 *
 * <p>Two factories wire the estimators module: {@link #global(PiggybackAggregator)} for the global estimates a peer
 * aggregates from its neighbours' piggybacked ones (Ni and Harwood, §3.1.4), and
 * {@link #local(FailureRateEstimator, DoubleSupplier, DownloadTimeEstimator)} for a peer's own estimates
 * (§3.1.1–3.1.3). Any other source is a lambda returning {@link NiHarwoodEstimate}s. The sources of both factories
 * are as thread-safe as the estimators they read (those of the estimators module are).
 *
 * @since 0.1
 */
@FunctionalInterface
public interface NiHarwoodEstimateSource {

    /** The confidence level of the failure-rate upper bound that {@link #local} uses before the first failure. */
    double CAUTIOUS_LEVEL = 0.95;

    /**
     * Returns the latest estimates. Called on every scheduling query, so it should be cheap and non-blocking.
     *
     * @return the latest estimates, or empty while they are not yet known (then no checkpoint is due)
     */
    Optional<NiHarwoodEstimate> latest();

    /**
     * Returns the global estimates of a piggyback aggregator: empty while it holds no current estimate, or while the
     * aggregated overhead {@code V} is 0 (a free checkpoint has no optimal interval).
     *
     * @param aggregator the aggregator of the neighbours' piggybacked estimates
     * @return the source
     * @throws NullPointerException if {@code aggregator} is null
     */
    static NiHarwoodEstimateSource global(PiggybackAggregator aggregator) {
        Objects.requireNonNull(aggregator, "aggregator");
        return () -> aggregator.global()
                .filter(g -> g.overheadSeconds() > 0.0)
                .map(NiHarwoodEstimateSource::fromGlobal);
    }

    /**
     * Returns a peer's own estimates: {@code μ} from a failure-rate estimator, {@code V} from a supplier (for example
     * the latest {@code CheckpointOverhead} measurement's {@code seconds()}), and {@code T_d} from a download-time
     * estimator.
     *
     * <p>Before the first failure the rate is the one-sided {@value #CAUTIOUS_LEVEL} upper confidence bound of the
     * estimate, never 0: a cautious scheduler checkpoints as if failures were as frequent as the data still allow.
     * The source is empty while nothing at all has been observed (no exposure) or while {@code V} is not positive.
     *
     * @param failureRate     the estimator of one peer's failure rate {@code μ}
     * @param overheadSeconds the current checkpoint overhead {@code V}, in seconds
     * @param download        the estimator of the download time {@code T_d}
     * @return the source
     * @throws NullPointerException if an argument is null
     */
    static NiHarwoodEstimateSource local(FailureRateEstimator failureRate, DoubleSupplier overheadSeconds,
            DownloadTimeEstimator download) {
        Objects.requireNonNull(failureRate, "failureRate");
        Objects.requireNonNull(overheadSeconds, "overheadSeconds");
        Objects.requireNonNull(download, "download");
        return () -> {
            RateEstimate estimate = failureRate.estimate();
            double mu = estimate.isEmpty() ? estimate.upperBoundPerSecond(CAUTIOUS_LEVEL) : estimate.ratePerSecond();
            double v = overheadSeconds.getAsDouble();
            if (!(mu < Double.POSITIVE_INFINITY) || !(v > 0.0) || v == Double.POSITIVE_INFINITY) {
                return Optional.empty();
            }
            return Optional.of(new NiHarwoodEstimate(mu, v, download.seconds()));
        };
    }

    private static NiHarwoodEstimate fromGlobal(GlobalEstimate g) {
        return new NiHarwoodEstimate(g.failureRatePerSecond(), g.overheadSeconds(), g.downloadSeconds());
    }
}
