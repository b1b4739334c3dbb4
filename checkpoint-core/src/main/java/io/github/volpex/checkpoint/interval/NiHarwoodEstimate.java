package io.github.volpex.checkpoint.interval;

import io.github.volpex.checkpoint.internal.Checks;

/**
 * One snapshot of the estimated inputs of the Ni–Harwood model (§3.1): the per-peer failure rate {@code μ}, the
 * checkpoint overhead {@code V} and the checkpoint-image download time {@code T_d}.
 *
 * @param failureRatePerSecond      the failure rate {@code μ} of one peer, per second; {@code ≥ 0} and finite
 * @param checkpointOverheadSeconds the checkpoint overhead {@code V}, in seconds; {@code > 0} and finite
 * @param downloadSeconds           the download time {@code T_d}, in seconds; {@code ≥ 0} and finite
 * @since 0.1
 */
public record NiHarwoodEstimate(double failureRatePerSecond, double checkpointOverheadSeconds,
        double downloadSeconds) {

    /**
     * Validates the estimate.
     *
     * @param failureRatePerSecond      the failure rate {@code μ} of one peer, per second; {@code ≥ 0} and finite
     * @param checkpointOverheadSeconds the checkpoint overhead {@code V}, in seconds; {@code > 0} and finite
     * @param downloadSeconds           the download time {@code T_d}, in seconds; {@code ≥ 0} and finite
     * @throws IllegalArgumentException if {@code failureRatePerSecond} or {@code downloadSeconds} is negative, NaN or
     *     infinite, or {@code checkpointOverheadSeconds} is not positive and finite
     */
    public NiHarwoodEstimate {
        Checks.nonNegativeFinite("failureRatePerSecond", failureRatePerSecond);
        Checks.positiveFinite("checkpointOverheadSeconds", checkpointOverheadSeconds);
        Checks.nonNegativeFinite("downloadSeconds", downloadSeconds);
        // −0.0 and 0.0 are the same rate and time: keep one of them, so that equal estimates are equal.
        failureRatePerSecond += 0.0;
        downloadSeconds += 0.0;
    }

    /**
     * Returns the model of a job of {@code peers} peers under this estimate.
     *
     * @param peers the number of peers {@code k}; {@code ≥ 1}
     * @return the model
     * @throws IllegalArgumentException if {@code peers < 1} or {@code V·k·μ} overflows
     */
    public NiHarwoodModel model(int peers) {
        return new NiHarwoodModel(peers, failureRatePerSecond, checkpointOverheadSeconds, downloadSeconds);
    }
}
