package io.github.volpex.checkpoint.placement;

import io.github.volpex.estimators.SurvivalFunction;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A machine that offers disk space for checkpoint fragments: a candidate repository of Ren, Eigenmann and Bagchi §4.
 *
 * <p>{@code bandwidthBytesPerSecond} is the effective end-to-end bandwidth between the computation host and this host
 * (the paper's {@code bw_i}, §4.1); {@code reliability} is its storage temporal reliability {@code TRS_i(t)}, the
 * probability that it stays available for {@code t} seconds from now (§4.2). The optional {@code capacityBytes} is the
 * free space it offers: a host whose capacity is smaller than one fragment is never selected, and capacity-proportional
 * selection (de Camargo, Castor and Kon §4.2) weighs hosts by it.
 *
 * <p>Immutable and thread-safe when {@code reliability} is (every {@link SurvivalFunction} is).
 *
 * @param id                      the host's identifier, unique within a {@link SelectionProblem}; not empty
 * @param bandwidthBytesPerSecond the bandwidth to this host, in bytes per second; {@code > 0}, finite
 * @param reliability             the storage temporal reliability {@code TRS(t)}, {@code t} in seconds from now
 * @param capacityBytes           the free space offered, in bytes ({@code ≥ 0}), or empty when unknown or unlimited
 * @since 0.1
 */
public record StorageHost(String id, double bandwidthBytesPerSecond, SurvivalFunction reliability,
                          OptionalLong capacityBytes) {

    /**
     * Validates the components.
     *
     * @param id                      the host's identifier; not empty
     * @param bandwidthBytesPerSecond the bandwidth to this host, in bytes per second; {@code > 0}, finite
     * @param reliability             the storage temporal reliability {@code TRS(t)}
     * @param capacityBytes           the free space offered, in bytes ({@code ≥ 0}), or empty
     * @throws NullPointerException     if any component is null
     * @throws IllegalArgumentException if {@code id} is empty, the bandwidth is not positive and finite, or the
     *                                  capacity is negative
     */
    public StorageHost {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(reliability, "reliability");
        Objects.requireNonNull(capacityBytes, "capacityBytes");
        if (id.isEmpty()) {
            throw new IllegalArgumentException("id must not be empty");
        }
        if (!(bandwidthBytesPerSecond > 0.0) || bandwidthBytesPerSecond == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException(
                    "bandwidthBytesPerSecond of host " + id + " must be finite and > 0: " + bandwidthBytesPerSecond);
        }
        if (capacityBytes.isPresent() && capacityBytes.getAsLong() < 0) {
            throw new IllegalArgumentException(
                    "capacityBytes of host " + id + " must be >= 0: " + capacityBytes.getAsLong());
        }
    }

    /**
     * Returns a host with unknown (unlimited) capacity.
     *
     * @param id                      the host's identifier; not empty
     * @param bandwidthBytesPerSecond the bandwidth to this host, in bytes per second; {@code > 0}, finite
     * @param reliability             the storage temporal reliability {@code TRS(t)}
     * @return the host
     * @throws NullPointerException     if {@code id} or {@code reliability} is null
     * @throws IllegalArgumentException if {@code id} is empty or the bandwidth is not positive and finite
     */
    public static StorageHost of(String id, double bandwidthBytesPerSecond, SurvivalFunction reliability) {
        return new StorageHost(id, bandwidthBytesPerSecond, reliability, OptionalLong.empty());
    }

    /**
     * Returns a host offering {@code capacityBytes} of free space.
     *
     * @param id                      the host's identifier; not empty
     * @param bandwidthBytesPerSecond the bandwidth to this host, in bytes per second; {@code > 0}, finite
     * @param reliability             the storage temporal reliability {@code TRS(t)}
     * @param capacityBytes           the free space offered, in bytes; {@code ≥ 0}
     * @return the host
     * @throws NullPointerException     if {@code id} or {@code reliability} is null
     * @throws IllegalArgumentException if {@code id} is empty, the bandwidth is not positive and finite or the
     *                                  capacity is negative
     */
    public static StorageHost of(String id, double bandwidthBytesPerSecond, SurvivalFunction reliability,
                                 long capacityBytes) {
        return new StorageHost(id, bandwidthBytesPerSecond, reliability, OptionalLong.of(capacityBytes));
    }
}
