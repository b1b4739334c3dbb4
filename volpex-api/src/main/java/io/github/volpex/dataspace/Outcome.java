package io.github.volpex.dataspace;

import io.github.volpex.dataspace.spi.CallResult;

/**
 * The logged outcome of one request: its kind and tag (to detect diverging replicas) and what it returned. The data
 * array is never modified once created, so it is shared between the dataspace table, the log and replies.
 */
final class Outcome implements RequestState, CallResult {

    final Operation operation;
    final String tag;
    /** The data a read-type request received; null for puts and for try-ops that found the tag absent. */
    final byte[] data;
    /** Whether a put took effect. */
    final boolean stored;
    /** Whether a read or get was cancelled while it waited: it received nothing. */
    final boolean cancelled;

    Outcome(Operation operation, String tag, byte[] data, boolean stored) {
        this(operation, tag, data, stored, false);
    }

    private Outcome(Operation operation, String tag, byte[] data, boolean stored, boolean cancelled) {
        this.operation = operation;
        this.tag = tag;
        this.data = data;
        this.stored = stored;
        this.cancelled = cancelled;
    }

    /** The outcome of a read or get cancelled while it waited. */
    static Outcome cancelled(Operation operation, String tag) {
        return new Outcome(operation, tag, null, false, true);
    }

    /** The failure a caller of a cancelled request receives. */
    DataspaceCancelledException cancellation(int processId, long requestNumber) {
        return new DataspaceCancelledException(processId, requestNumber, operation, tag);
    }

    @Override
    public boolean stored() {
        return stored;
    }

    /** A copy of the data: the array itself is shared with the table and the log. */
    @Override
    public byte[] dataForCaller() {
        return data == null ? null : data.clone();
    }

    long bytes() {
        return data == null ? 0 : data.length;
    }
}
