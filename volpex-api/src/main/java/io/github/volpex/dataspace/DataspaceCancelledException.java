package io.github.volpex.dataspace;

import java.util.Objects;

/**
 * The request was a {@link Operation#READ read} or {@link Operation#GET get} that was cancelled while it waited
 * ({@link DataspaceServer#cancel(int, long)}, {@link Replica#cancelPending()}): it consumed nothing and received
 * nothing. Unlike the other failures this one is an outcome: the request is complete, its cancellation is logged like
 * any outcome, and every replica of the process that issues it receives this exception — a {@link Replica} handle's
 * request number advances past it, and the process goes on with its next request.
 *
 * @since 0.1
 */
public final class DataspaceCancelledException extends DataspaceException {

    private static final long serialVersionUID = 1L;

    /** The kind of the cancelled request. */
    private final Operation operation;
    /** The tag the cancelled request waited for. */
    private final String tag;

    /**
     * Creates the exception. The dataspace raises it; the constructor is public so that an adapter, or a client on the
     * far side of a transport, can raise the same failure with the same facts.
     *
     * @param processId     the process
     * @param requestNumber the cancelled request
     * @param operation     its kind, {@link Operation#READ} or {@link Operation#GET}
     * @param tag           the tag it waited for
     * @throws IllegalArgumentException if {@code processId < 0}, {@code requestNumber < 1}, or {@code operation} is
     *                                  not a kind that waits
     * @throws NullPointerException     if {@code operation} or {@code tag} is null
     */
    public DataspaceCancelledException(int processId, long requestNumber, Operation operation, String tag) {
        super(operation + " \"" + tag + "\" (process " + processId + ", request " + requestNumber
                + ") was cancelled while it waited: it received and consumed nothing", processId, requestNumber);
        this.operation = Objects.requireNonNull(operation, "operation");
        this.tag = Objects.requireNonNull(tag, "tag");
        if (!operation.isBlocking()) {
            throw new IllegalArgumentException("operation must be READ or GET: " + operation);
        }
    }

    /**
     * Returns the kind of the cancelled request.
     *
     * @return {@link Operation#READ} or {@link Operation#GET}
     */
    public Operation operation() {
        return operation;
    }

    /**
     * Returns the tag the cancelled request waited for.
     *
     * @return the tag
     */
    public String tag() {
        return tag;
    }
}
