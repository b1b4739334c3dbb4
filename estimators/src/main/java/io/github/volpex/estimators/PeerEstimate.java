package io.github.volpex.estimators;

import java.time.Instant;
import java.util.Objects;

/**
 * The estimates one peer piggybacks on its messages (Ni and Harwood, §3.1.4): its failure rate {@code μ}, checkpoint
 * overhead {@code V} and image download time {@code T_d}, as of {@code observedAt} on that peer's clock.
 *
 * <p>This is a plain carrier of what arrived on the wire: the numbers are not validated here, so a receiver can hand
 * anything it decoded to {@link PiggybackAggregator#offer}, which rejects and counts the invalid ones.
 *
 * @param peerId               the sending peer's identifier; not null
 * @param failureRatePerSecond the peer's {@code μ}, per second
 * @param overheadSeconds      the peer's {@code V}, in seconds
 * @param downloadSeconds      the peer's {@code T_d}, in seconds
 * @param observedAt           when the peer made the estimate, on its own clock; orders one peer's estimates
 * @since 0.1
 */
public record PeerEstimate(String peerId, double failureRatePerSecond, double overheadSeconds,
                           double downloadSeconds, Instant observedAt) {

    /**
     * Checks the references.
     *
     * @param peerId               the sending peer's identifier; not null
     * @param failureRatePerSecond the peer's {@code μ}, per second
     * @param overheadSeconds      the peer's {@code V}, in seconds
     * @param downloadSeconds      the peer's {@code T_d}, in seconds
     * @param observedAt           when the peer made the estimate, on its own clock; orders one peer's estimates
     * @throws NullPointerException if {@code peerId} or {@code observedAt} is null
     */
    public PeerEstimate {
        Objects.requireNonNull(peerId, "peerId");
        Objects.requireNonNull(observedAt, "observedAt");
    }
}
