package io.github.volpex.dataspace;

/**
 * The kinds of dataspace request. Replicas of one logical process must issue the same kind, on the same tag, at the
 * same request number; a mismatch is a {@link ReplicaDivergenceException}.
 *
 * @since 0.1
 */
public enum Operation {
    /** Stores data under a tag, overwriting what is there (the paper's {@code Volpex_put}). */
    PUT,
    /** Stores data under a tag only if the tag is absent (a single-assignment put). */
    PUT_IF_ABSENT,
    /** Returns the data under a tag, waiting until it exists (the paper's {@code Volpex_read}). */
    READ,
    /** Returns and removes the data under a tag, waiting until it exists (the paper's {@code Volpex_get}). */
    GET,
    /** Returns the data under a tag if it exists now, without waiting. */
    TRY_READ,
    /** Returns and removes the data under a tag if it exists now, without waiting. */
    TRY_GET;

    /**
     * Tells whether this kind stores data.
     *
     * @return {@code true} for {@link #PUT} and {@link #PUT_IF_ABSENT}
     */
    public boolean isPut() {
        return this == PUT || this == PUT_IF_ABSENT;
    }

    /**
     * Tells whether this kind may wait for a tag to be put.
     *
     * @return {@code true} for {@link #READ} and {@link #GET}
     */
    public boolean isBlocking() {
        return this == READ || this == GET;
    }

    /**
     * Tells whether this kind removes the data it returns.
     *
     * @return {@code true} for {@link #GET} and {@link #TRY_GET}
     */
    public boolean removes() {
        return this == GET || this == TRY_GET;
    }
}
