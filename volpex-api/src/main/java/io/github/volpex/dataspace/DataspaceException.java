package io.github.volpex.dataspace;

/**
 * A failure of one dataspace request that a caller must handle; subclasses carry the facts as fields.
 *
 * @since 0.1
 */
public abstract class DataspaceException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The logical process of the failed request. */
    private final int processId;
    /** The number of the failed request. */
    private final long requestNumber;

    /**
     * Creates the exception.
     *
     * @param message       the message
     * @param processId     the logical process of the failed request
     * @param requestNumber the request number of the failed request
     * @throws IllegalArgumentException if {@code processId < 0} or {@code requestNumber < 1}
     */
    DataspaceException(String message, int processId, long requestNumber) {
        super(message);
        if (processId < 0) {
            throw new IllegalArgumentException("processId must be >= 0: " + processId);
        }
        if (requestNumber < 1) {
            throw new IllegalArgumentException("requestNumber must be >= 1: " + requestNumber);
        }
        this.processId = processId;
        this.requestNumber = requestNumber;
    }

    /**
     * Returns the logical process that issued the failed request.
     *
     * @return the process id
     */
    public int processId() {
        return processId;
    }

    /**
     * Returns the number of the failed request within its process's sequence (the first request is 1).
     *
     * @return the request number
     */
    public long requestNumber() {
        return requestNumber;
    }
}
