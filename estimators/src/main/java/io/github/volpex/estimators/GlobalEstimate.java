package io.github.volpex.estimators;

/**
 * The global estimates a peer derives from its neighbours' piggybacked ones: each quantity aggregated separately
 * over the peers heard from recently.
 *
 * @param failureRatePerSecond the aggregated {@code μ}, per second; {@code > 0}
 * @param overheadSeconds      the aggregated {@code V}, in seconds; {@code ≥ 0}
 * @param downloadSeconds      the aggregated {@code T_d}, in seconds; {@code ≥ 0}
 * @param peers                the number of peers whose estimates went in; {@code ≥ 1}
 * @since 0.1
 */
public record GlobalEstimate(double failureRatePerSecond, double overheadSeconds, double downloadSeconds,
                             int peers) {

    /**
     * Validates the values.
     *
     * @param failureRatePerSecond the aggregated {@code μ}, per second; {@code > 0}
     * @param overheadSeconds      the aggregated {@code V}, in seconds; {@code ≥ 0}
     * @param downloadSeconds      the aggregated {@code T_d}, in seconds; {@code ≥ 0}
     * @param peers                the number of peers whose estimates went in; {@code ≥ 1}
     * @throws IllegalArgumentException if a value is out of range
     */
    public GlobalEstimate {
        Checks.finitePositive("failureRatePerSecond", failureRatePerSecond);
        overheadSeconds = Checks.finiteNonNegative("overheadSeconds", overheadSeconds);
        downloadSeconds = Checks.finiteNonNegative("downloadSeconds", downloadSeconds);
        Checks.atLeast("peers", peers, 1);
    }
}
