package io.github.volpex.dataspace;

import java.util.Objects;

/**
 * A replica issued a request whose kind or tag differs from what another replica of the same process issued at the
 * same request number: the replicas do not run the same program (or are not deterministic), so no single run explains
 * them. Nothing was executed for the diverging request.
 *
 * @since 0.1
 */
public final class ReplicaDivergenceException extends DataspaceException {

    private static final long serialVersionUID = 1L;

    /** The kind first issued at this request number. */
    private final Operation loggedOperation;
    /** The tag first issued at this request number. */
    private final String loggedTag;
    /** The kind the diverging replica issued. */
    private final Operation requestedOperation;
    /** The tag the diverging replica issued. */
    private final String requestedTag;

    /**
     * Creates the exception. The dataspace raises it; the constructor is public so that an adapter, or a client on the
     * far side of a transport, can raise the same failure with the same facts.
     *
     * @param processId          the process
     * @param requestNumber      the request number
     * @param loggedOperation    the kind first issued at that number
     * @param loggedTag          the tag first issued at that number
     * @param requestedOperation the kind this replica issued
     * @param requestedTag       the tag this replica issued
     * @throws IllegalArgumentException if {@code processId < 0} or {@code requestNumber < 1}
     * @throws NullPointerException     if an operation, tag or timeout is null
     */
    public ReplicaDivergenceException(int processId, long requestNumber, Operation loggedOperation, String loggedTag,
            Operation requestedOperation, String requestedTag) {
        super("replica of process " + processId + " diverged at request " + requestNumber + ": it issued "
                + requestedOperation + " \"" + requestedTag + "\" where the process first issued "
                + loggedOperation + " \"" + loggedTag + "\"", processId, requestNumber);
        this.loggedOperation = Objects.requireNonNull(loggedOperation, "loggedOperation");
        this.loggedTag = Objects.requireNonNull(loggedTag, "loggedTag");
        this.requestedOperation = Objects.requireNonNull(requestedOperation, "requestedOperation");
        this.requestedTag = Objects.requireNonNull(requestedTag, "requestedTag");
    }

    /**
     * Returns the kind of request first issued at this request number.
     *
     * @return the logged kind
     */
    public Operation loggedOperation() {
        return loggedOperation;
    }

    /**
     * Returns the tag first issued at this request number.
     *
     * @return the logged tag
     */
    public String loggedTag() {
        return loggedTag;
    }

    /**
     * Returns the kind of request the diverging replica issued.
     *
     * @return the requested kind
     */
    public Operation requestedOperation() {
        return requestedOperation;
    }

    /**
     * Returns the tag the diverging replica issued.
     *
     * @return the requested tag
     */
    public String requestedTag() {
        return requestedTag;
    }
}
