package io.github.volpex.dataspace.spi;

/**
 * What one call of a replica returned, as {@link AbstractReplica#call} reports it: whether a put took effect, and the
 * data a read-type request received.
 *
 * @since 0.1
 */
public interface CallResult {

    /**
     * Tells whether a put (or single-assignment put) took effect; false for every other request.
     *
     * @return whether the data was stored
     */
    boolean stored();

    /**
     * Returns the data the request received, for the replica's caller to keep: a copy, or an array nothing else
     * holds. Called at most once per outcome.
     *
     * @return the data; null for a put, and for a try-operation that found the tag absent (a read or get always
     *         receives data)
     */
    byte[] dataForCaller();
}
