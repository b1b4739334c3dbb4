package io.github.volpex.dataspace;

/**
 * The dataspace, or the replica handle that issued a request, was closed before or while the request ran. A request
 * that was waiting stays pending in an open dataspace: another replica of the same process may still receive its
 * result.
 *
 * @since 0.1
 */
public final class DataspaceClosedException extends DataspaceException {

    private static final long serialVersionUID = 1L;

    /** Whether the whole dataspace, rather than the replica handle, was closed. */
    private final boolean dataspaceClosed;

    /**
     * Creates the exception. The dataspace raises it; the constructor is public so that an adapter, or a client on the
     * far side of a transport, can raise the same failure with the same facts.
     *
     * @param processId       the process
     * @param requestNumber   the request that was refused or interrupted
     * @param dataspaceClosed {@code true} if the whole dataspace was closed, {@code false} if only the replica handle
     * @throws IllegalArgumentException if {@code processId < 0} or {@code requestNumber < 1}
     */
    public DataspaceClosedException(int processId, long requestNumber, boolean dataspaceClosed) {
        super((dataspaceClosed ? "dataspace is closed" : "replica handle of process " + processId + " is closed")
                + " (process " + processId + ", request " + requestNumber + ")", processId, requestNumber);
        this.dataspaceClosed = dataspaceClosed;
    }

    /**
     * Tells what was closed.
     *
     * @return {@code true} if the whole dataspace was closed, {@code false} if only the replica handle
     */
    public boolean dataspaceClosed() {
        return dataspaceClosed;
    }
}
