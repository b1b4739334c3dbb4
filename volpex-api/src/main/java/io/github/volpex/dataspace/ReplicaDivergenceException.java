package io.github.volpex.dataspace;

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
     * Creates the exception.
     *
     * @param processId          the process
     * @param requestNumber      the request number
     * @param loggedOperation    the kind first issued at that number
     * @param loggedTag          the tag first issued at that number
     * @param requestedOperation the kind this replica issued
     * @param requestedTag       the tag this replica issued
     */
    ReplicaDivergenceException(int processId, long requestNumber, Operation loggedOperation, String loggedTag,
            Operation requestedOperation, String requestedTag) {
        super("replica of process " + processId + " diverged at request " + requestNumber + ": it issued "
                + requestedOperation + " \"" + requestedTag + "\" where the process first issued "
                + loggedOperation + " \"" + loggedTag + "\"", processId, requestNumber);
        this.loggedOperation = loggedOperation;
        this.loggedTag = loggedTag;
        this.requestedOperation = requestedOperation;
        this.requestedTag = requestedTag;
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
