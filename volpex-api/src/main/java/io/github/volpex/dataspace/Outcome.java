package io.github.volpex.dataspace;

/**
 * The logged outcome of one request: its kind and tag (to detect diverging replicas) and what it returned. The data
 * array is never modified once created, so it is shared between the dataspace table, the log and replies.
 */
final class Outcome {

    final Operation operation;
    final String tag;
    /** The data a read-type request received; null for puts and for try-ops that found the tag absent. */
    final byte[] data;
    /** Whether a put took effect. */
    final boolean stored;

    Outcome(Operation operation, String tag, byte[] data, boolean stored) {
        this.operation = operation;
        this.tag = tag;
        this.data = data;
        this.stored = stored;
    }

    long bytes() {
        return data == null ? 0 : data.length;
    }
}
