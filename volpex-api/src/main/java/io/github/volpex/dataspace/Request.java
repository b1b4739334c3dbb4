package io.github.volpex.dataspace;

import java.util.Objects;
import java.util.Optional;

/**
 * One dataspace request as a value: its kind, the issuing logical process, its number within that process's sequence
 * (the first request is 1), its tag and, for puts, its data. This is what a network front decodes from the wire and
 * hands to a {@link DataspaceServer}.
 *
 * <p>Immutable and thread-safe: the data is copied on the way in and out.
 *
 * @since 0.1
 */
public final class Request {

    private final Operation operation;
    private final int processId;
    private final long requestNumber;
    private final String tag;
    private final byte[] data;

    private Request(Operation operation, int processId, long requestNumber, String tag, byte[] data) {
        if (processId < 0) {
            throw new IllegalArgumentException("processId must be >= 0: " + processId);
        }
        if (requestNumber < 1) {
            throw new IllegalArgumentException("requestNumber must be >= 1: " + requestNumber);
        }
        this.operation = operation;
        this.processId = processId;
        this.requestNumber = requestNumber;
        this.tag = Objects.requireNonNull(tag, "tag");
        this.data = data;
    }

    /**
     * Creates a request of any kind; {@code data} is required for puts and must be {@code null} otherwise.
     *
     * @param operation     the kind of request
     * @param processId     the issuing logical process, {@code ≥ 0}
     * @param requestNumber the request's number in the process's sequence, {@code ≥ 1}
     * @param tag           the tag
     * @param data          the data for a put (copied), {@code null} for the other kinds
     * @return the request
     * @throws NullPointerException     if {@code operation} or {@code tag} is null, or {@code data} is null for a put
     * @throws IllegalArgumentException if {@code processId < 0}, {@code requestNumber < 1}, or data is given for a
     *                                  kind that is not a put
     */
    public static Request of(Operation operation, int processId, long requestNumber, String tag, byte[] data) {
        Objects.requireNonNull(operation, "operation");
        if (operation.isPut()) {
            return new Request(operation, processId, requestNumber, tag, Objects.requireNonNull(data, "data").clone());
        }
        if (data != null) {
            throw new IllegalArgumentException("data must be null for " + operation + ": " + data.length + " bytes");
        }
        return new Request(operation, processId, requestNumber, tag, null);
    }

    /**
     * Creates a {@link Operation#PUT} request.
     *
     * @param processId     the issuing logical process, {@code ≥ 0}
     * @param requestNumber the request's number in the process's sequence, {@code ≥ 1}
     * @param tag           the tag
     * @param data          the data (copied)
     * @return the request
     * @throws NullPointerException     if {@code tag} or {@code data} is null
     * @throws IllegalArgumentException if {@code processId < 0} or {@code requestNumber < 1}
     */
    public static Request put(int processId, long requestNumber, String tag, byte[] data) {
        return of(Operation.PUT, processId, requestNumber, tag, data);
    }

    /**
     * Creates a {@link Operation#PUT_IF_ABSENT} request.
     *
     * @param processId     the issuing logical process, {@code ≥ 0}
     * @param requestNumber the request's number in the process's sequence, {@code ≥ 1}
     * @param tag           the tag
     * @param data          the data (copied)
     * @return the request
     * @throws NullPointerException     if {@code tag} or {@code data} is null
     * @throws IllegalArgumentException if {@code processId < 0} or {@code requestNumber < 1}
     */
    public static Request putIfAbsent(int processId, long requestNumber, String tag, byte[] data) {
        return of(Operation.PUT_IF_ABSENT, processId, requestNumber, tag, data);
    }

    /**
     * Creates a {@link Operation#READ} request.
     *
     * @param processId     the issuing logical process, {@code ≥ 0}
     * @param requestNumber the request's number in the process's sequence, {@code ≥ 1}
     * @param tag           the tag
     * @return the request
     * @throws NullPointerException     if {@code tag} is null
     * @throws IllegalArgumentException if {@code processId < 0} or {@code requestNumber < 1}
     */
    public static Request read(int processId, long requestNumber, String tag) {
        return of(Operation.READ, processId, requestNumber, tag, null);
    }

    /**
     * Creates a {@link Operation#GET} request.
     *
     * @param processId     the issuing logical process, {@code ≥ 0}
     * @param requestNumber the request's number in the process's sequence, {@code ≥ 1}
     * @param tag           the tag
     * @return the request
     * @throws NullPointerException     if {@code tag} is null
     * @throws IllegalArgumentException if {@code processId < 0} or {@code requestNumber < 1}
     */
    public static Request get(int processId, long requestNumber, String tag) {
        return of(Operation.GET, processId, requestNumber, tag, null);
    }

    /**
     * Creates a {@link Operation#TRY_READ} request.
     *
     * @param processId     the issuing logical process, {@code ≥ 0}
     * @param requestNumber the request's number in the process's sequence, {@code ≥ 1}
     * @param tag           the tag
     * @return the request
     * @throws NullPointerException     if {@code tag} is null
     * @throws IllegalArgumentException if {@code processId < 0} or {@code requestNumber < 1}
     */
    public static Request tryRead(int processId, long requestNumber, String tag) {
        return of(Operation.TRY_READ, processId, requestNumber, tag, null);
    }

    /**
     * Creates a {@link Operation#TRY_GET} request.
     *
     * @param processId     the issuing logical process, {@code ≥ 0}
     * @param requestNumber the request's number in the process's sequence, {@code ≥ 1}
     * @param tag           the tag
     * @return the request
     * @throws NullPointerException     if {@code tag} is null
     * @throws IllegalArgumentException if {@code processId < 0} or {@code requestNumber < 1}
     */
    public static Request tryGet(int processId, long requestNumber, String tag) {
        return of(Operation.TRY_GET, processId, requestNumber, tag, null);
    }

    /**
     * Returns the kind of request.
     *
     * @return the operation
     */
    public Operation operation() {
        return operation;
    }

    /**
     * Returns the issuing logical process.
     *
     * @return the process id
     */
    public int processId() {
        return processId;
    }

    /**
     * Returns the request's number in its process's sequence.
     *
     * @return the request number, {@code ≥ 1}
     */
    public long requestNumber() {
        return requestNumber;
    }

    /**
     * Returns the tag.
     *
     * @return the tag
     */
    public String tag() {
        return tag;
    }

    /**
     * Returns a copy of the data of a put.
     *
     * @return the data, or empty for kinds that are not puts
     */
    public Optional<byte[]> data() {
        return data == null ? Optional.empty() : Optional.of(data.clone());
    }

    /** The data without a copy; never modified by the dataspace. */
    byte[] dataUnsafe() {
        return data;
    }

    @Override
    public String toString() {
        return operation + " \"" + tag + "\" (process " + processId + ", request " + requestNumber
                + (data == null ? ")" : ", " + data.length + " bytes)");
    }
}
