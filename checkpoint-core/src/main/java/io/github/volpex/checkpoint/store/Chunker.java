package io.github.volpex.checkpoint.store;

/**
 * Cuts bytes into blocks: a pure function of the bytes from a block's start, so that the same content is cut the
 * same way by every writer. Stateless and thread-safe.
 */
interface Chunker {

    /**
     * Returns the end (exclusive) of the block that starts at {@code from} in {@code data[from, to)}: a position in
     * {@code (from, to]}. Requires {@code from < to}.
     */
    int end(byte[] data, int from, int to);
}
