package io.github.volpex.dataspace;

/**
 * Who issues a request: a replica handle, or a one-off caller of the request-level interface. Carries the closed flag
 * that wakes the caller's blocked threads and reports whether the last request was a duplicate.
 */
class Caller {

    /** Written under the dataspace lock; read under it, or racily by {@code isClosed()}. */
    volatile boolean closed;
    /** Whether the last request was answered from an earlier execution. Written under the dataspace lock. */
    boolean duplicate;
}
