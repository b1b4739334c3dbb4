package io.github.volpex.dataspace.zookeeper;

import java.util.Objects;

/**
 * A znode has more children than one ZooKeeper answer can list: a client refuses an answer as large as its
 * {@code jute.maxbuffer} (1 MiB − 1 by default) and loses its connection instead, so the listing can never succeed,
 * however often it is repeated. A dataspace's own layout keeps every listing it needs well below that bound (the
 * package description gives the limits); this exception means that a znode outgrew them, or holds children the
 * dataspace did not create. Nothing was changed by the call that failed; to go on, give this client a larger
 * {@code jute.maxbuffer} ({@link ZooKeeperDataspace.Builder#clientConfig(org.apache.zookeeper.client.ZKClientConfig)},
 * or {@code -Djute.maxbuffer}; only the client needs it, the servers' requests stay as they are) of at least
 * {@link #neededBytes()}, or remove the children that do not belong there.
 *
 * @since 0.1
 */
public final class ListingTooLargeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The znode whose children could not be listed. */
    private final String path;
    /** How many children it had when the listing failed. */
    private final int children;
    /** The client's limit on the size of an answer, in bytes. */
    private final long limitBytes;
    /** The least limit the listing may need, in bytes. */
    private final long neededBytes;

    /**
     * Creates the exception.
     *
     * @param path        the znode whose children could not be listed
     * @param children    how many children it had
     * @param limitBytes  the client's limit on an answer ({@code jute.maxbuffer}), in bytes
     * @param neededBytes a limit that lets the listing succeed if the children's names are as long as assumed, in
     *                    bytes
     * @throws NullPointerException if {@code path} is null
     */
    public ListingTooLargeException(String path, int children, long limitBytes, long neededBytes) {
        super("znode " + Objects.requireNonNull(path, "path") + " has " + children + " children, more than one "
                + "ZooKeeper answer of less than " + limitBytes + " bytes (this client's jute.maxbuffer) can list; "
                + "give this client a jute.maxbuffer of at least " + neededBytes + " bytes (ZooKeeperDataspace."
                + "Builder.clientConfig, or -Djute.maxbuffer) to list it, or remove the children that do not belong "
                + "there");
        this.path = path;
        this.children = children;
        this.limitBytes = limitBytes;
        this.neededBytes = neededBytes;
    }

    /**
     * Returns the znode whose children could not be listed.
     *
     * @return its path
     */
    public String path() {
        return path;
    }

    /**
     * Returns how many children the znode had when the listing failed.
     *
     * @return the number of children
     */
    public int children() {
        return children;
    }

    /**
     * Returns the client's limit on the size of one answer ({@code jute.maxbuffer}).
     *
     * @return the limit, in bytes
     */
    public long limitBytes() {
        return limitBytes;
    }

    /**
     * Returns a {@code jute.maxbuffer} with which the listing succeeds if the children's names are as long as the
     * dataspace assumed for that znode.
     *
     * @return the limit, in bytes
     */
    public long neededBytes() {
        return neededBytes;
    }
}
