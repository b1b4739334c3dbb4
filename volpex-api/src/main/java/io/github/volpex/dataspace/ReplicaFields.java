package io.github.volpex.dataspace;

/** The fields of a {@link ReplicaHandle} that its calls write. */
abstract class ReplicaFields extends Caller {
    /** 1 while a thread runs a call on the handle (see {@code ReplicaHandle.BUSY}). */
    volatile int busy;
    /** Written by the thread that owns the call (see {@link #busy}); read by any thread. */
    volatile long requestNumber;
    /** Whether a call left request {@code requestNumber + 1} pending (a timeout or an interrupt). Guarded by busy. */
    boolean leftPending;
}
