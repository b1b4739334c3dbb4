package io.github.volpex.dataspace;

import java.util.concurrent.CompletableFuture;

/**
 * Who issues a request: a replica handle (which holds one for its life), or a one-off caller of the request-level
 * interface. Carries the closed flag that wakes the caller's blocked thread and reports whether the last request was a
 * duplicate. Padded before, since a replica handle lives long and its thread writes these fields on every request.
 */
final class Caller extends PaddedBefore {

    /** Set once by {@code close()}; read by the caller's thread and the dataspace. */
    volatile boolean closed;
    /** Whether the last request was answered from an earlier execution. Written and read by the calling thread. */
    boolean duplicate;
    /** What the caller's thread waits on, if anything: closing completes it so that the thread wakes. */
    volatile CompletableFuture<Outcome> waiting;
}
