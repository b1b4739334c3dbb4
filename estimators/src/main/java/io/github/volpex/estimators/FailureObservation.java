package io.github.volpex.estimators;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A peer failure observed by some peer and shared with its neighbours and their neighbours (Ni and Harwood,
 * §3.1.1). The failure is identified by the failed peer and the start of the session that ended: every observer of
 * the same failure reports the same key, whoever passes it on.
 *
 * @param peerId       the failed peer; not null
 * @param sessionStart when the failed session began; not null
 * @param failedAt     when the failure was observed; not null, after {@code sessionStart}
 * @since 0.1
 */
public record FailureObservation(String peerId, Instant sessionStart, Instant failedAt) {

    /**
     * Validates the observation.
     *
     * @param peerId       the failed peer; not null
     * @param sessionStart when the failed session began; not null
     * @param failedAt     when the failure was observed; not null, after {@code sessionStart}
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code failedAt} is not after {@code sessionStart}
     */
    public FailureObservation {
        Objects.requireNonNull(peerId, "peerId");
        Objects.requireNonNull(sessionStart, "sessionStart");
        Objects.requireNonNull(failedAt, "failedAt");
        if (!failedAt.isAfter(sessionStart)) {
            throw new IllegalArgumentException("failedAt must be after sessionStart (" + sessionStart + "): "
                    + failedAt);
        }
    }

    /**
     * Returns the lifetime of the failed session.
     *
     * @return {@code failedAt − sessionStart}, in seconds
     */
    public double lifetimeSeconds() {
        Duration d = Duration.between(sessionStart, failedAt);
        return d.getSeconds() + d.getNano() / 1e9;
    }
}
