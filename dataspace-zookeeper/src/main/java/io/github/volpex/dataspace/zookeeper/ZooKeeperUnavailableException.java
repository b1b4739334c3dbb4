package io.github.volpex.dataspace.zookeeper;

import java.time.Duration;
import java.util.Objects;

/**
 * The ZooKeeper ensemble could not be reached (no server answered, or the servers had no quorum) for longer than the
 * connection-loss timeout. A request that fails so may or may not have taken effect, and that is safe: the dataspace
 * knows every request by its (process, request number), so retrying the same call — as a {@link
 * io.github.volpex.dataspace.Replica} does on its next call, since its request number did not advance — returns the
 * request's one outcome, and nothing is applied twice.
 *
 * @since 0.1
 */
public final class ZooKeeperUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The ensemble's connect string. */
    private final String connectString;
    /** How long the call waited for the ensemble. */
    private final Duration waited;

    /**
     * Creates the exception.
     *
     * @param connectString the ensemble's connect string
     * @param waited        how long the call waited for it
     * @param during        what the call was doing, for the message (for example "process 2, request 17 (GET
     *                      \"x\")")
     * @throws NullPointerException if {@code connectString} or {@code waited} is null
     */
    public ZooKeeperUnavailableException(String connectString, Duration waited, String during) {
        super("ZooKeeper ensemble " + connectString + " unreachable for " + waited + " during " + during
                + "; retrying the same call is safe");
        this.connectString = Objects.requireNonNull(connectString, "connectString");
        this.waited = Objects.requireNonNull(waited, "waited");
    }

    /**
     * Returns the connect string of the ensemble that could not be reached.
     *
     * @return the connect string
     */
    public String connectString() {
        return connectString;
    }

    /**
     * Returns how long the call waited for the ensemble.
     *
     * @return the wait
     */
    public Duration waited() {
        return waited;
    }
}
