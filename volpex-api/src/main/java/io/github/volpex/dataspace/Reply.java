package io.github.volpex.dataspace;

import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of one {@link Request}: every replica issuing the same (process, request number) receives the same
 * outcome — byte-identical {@linkplain #data() data} and the same {@linkplain #stored() stored} flag — whichever
 * replica executed it; only {@link #duplicate()} tells the first execution from its repetitions.
 *
 * <p>Immutable and thread-safe: the data is copied on the way out. Replies compare by identity (the class does not
 * override {@code equals}); compare their fields.
 *
 * @since 0.1
 */
public final class Reply {

    private final Operation operation;
    private final int processId;
    private final long requestNumber;
    private final byte[] data;
    private final boolean stored;
    private final boolean duplicate;

    Reply(Operation operation, int processId, long requestNumber, byte[] data, boolean stored, boolean duplicate) {
        this.operation = operation;
        this.processId = processId;
        this.requestNumber = requestNumber;
        this.data = data;
        this.stored = stored;
        this.duplicate = duplicate;
    }

    /**
     * Creates a reply, as another {@link DataspaceServer} implementation or the client side of a network front
     * decodes it. The facts must be those a dataspace can answer: reads and gets carry data, puts carry none, try-ops
     * carry data only when the tag was present, and only puts report {@code stored} (a {@link Operation#PUT} always).
     *
     * @param operation     the kind of the request answered
     * @param processId     its logical process, {@code ≥ 0}
     * @param requestNumber its request number, {@code ≥ 1}
     * @param data          the data received (copied), or {@code null} where the kind receives none
     * @param stored        whether a put took effect
     * @param duplicate     whether the reply repeats an earlier outcome
     * @return the reply
     * @throws NullPointerException     if {@code operation} is null, or {@code data} is null for a read or get
     * @throws IllegalArgumentException if {@code processId < 0}, {@code requestNumber < 1}, data is given to a put,
     *                                  or {@code stored} does not fit the kind
     */
    public static Reply of(Operation operation, int processId, long requestNumber, byte[] data, boolean stored,
            boolean duplicate) {
        Objects.requireNonNull(operation, "operation");
        if (processId < 0) {
            throw new IllegalArgumentException("processId must be >= 0: " + processId);
        }
        if (requestNumber < 1) {
            throw new IllegalArgumentException("requestNumber must be >= 1: " + requestNumber);
        }
        if (operation.isPut() && data != null) {
            throw new IllegalArgumentException("data must be null for " + operation + ": " + data.length + " bytes");
        }
        if (operation.isBlocking()) {
            Objects.requireNonNull(data, () -> "data of a " + operation);
        }
        if (operation == Operation.PUT ? !stored : stored && !operation.isPut()) {
            throw new IllegalArgumentException("stored must be " + (operation == Operation.PUT) + " for " + operation
                    + ": " + stored);
        }
        return new Reply(operation, processId, requestNumber, data == null ? null : data.clone(), stored, duplicate);
    }

    /**
     * Returns the kind of the request answered.
     *
     * @return the operation
     */
    public Operation operation() {
        return operation;
    }

    /**
     * Returns the logical process of the request answered.
     *
     * @return the process id
     */
    public int processId() {
        return processId;
    }

    /**
     * Returns the number of the request answered.
     *
     * @return the request number
     */
    public long requestNumber() {
        return requestNumber;
    }

    /**
     * Returns a copy of the data a read, get, try-read or try-get received.
     *
     * @return the data; empty for puts and for a try-op that found the tag absent
     */
    public Optional<byte[]> data() {
        return data == null ? Optional.empty() : Optional.of(data.clone());
    }

    /**
     * Tells whether the request's put took effect in the serial order: always {@code true} for a {@link Operation#PUT}
     * (also for its ignored duplicates, since the first replica's put took effect), and for a
     * {@link Operation#PUT_IF_ABSENT} whether the tag was absent when it ran; {@code false} for the other kinds.
     *
     * @return whether the data was stored
     */
    public boolean stored() {
        return stored;
    }

    /**
     * Tells whether this request had already been issued (by another replica, or by a retry) so that this reply
     * repeats an earlier outcome instead of executing the request again: a put ignored by the single-put rule, or a
     * result served from the read log or shared with a pending request.
     *
     * @return whether the request was a duplicate
     */
    public boolean duplicate() {
        return duplicate;
    }

    /** The data without a copy; never modified by the dataspace. */
    byte[] dataUnsafe() {
        return data;
    }

    @Override
    public String toString() {
        return "Reply[" + operation + ", process " + processId + ", request " + requestNumber
                + (data == null ? "" : ", " + data.length + " bytes")
                + (operation.isPut() ? ", stored=" + stored : "")
                + (duplicate ? ", duplicate" : "") + "]";
    }
}
