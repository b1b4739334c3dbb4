package io.github.volpex.dataspace;

import java.time.Duration;

/**
 * A {@link Operation#READ read} or {@link Operation#GET get} with a timeout found no data in time. The request stays
 * pending in the dataspace, keeping its place in the tag's queue: retrying the same request (the same operation on the
 * same tag, as a {@link Replica} does on its next call) or another replica issuing it receives the eventual result,
 * and nothing is consumed twice or lost.
 *
 * @since 0.1
 */
public final class DataspaceTimeoutException extends DataspaceException {

    private static final long serialVersionUID = 1L;

    /** The kind of the pending request. */
    private final Operation operation;
    /** The tag the pending request waits for. */
    private final String tag;
    /** How long the caller waited. */
    private final Duration timeout;

    /**
     * Creates the exception.
     *
     * @param processId     the process
     * @param requestNumber the pending request
     * @param operation     its kind
     * @param tag           its tag
     * @param timeout       how long the caller waited
     */
    DataspaceTimeoutException(int processId, long requestNumber, Operation operation, String tag, Duration timeout) {
        super(operation + " \"" + tag + "\" (process " + processId + ", request " + requestNumber
                + ") found no data within " + timeout + "; the request stays pending: retry it to receive the result",
                processId, requestNumber);
        this.operation = operation;
        this.tag = tag;
        this.timeout = timeout;
    }

    /**
     * Returns the kind of the pending request.
     *
     * @return {@link Operation#READ} or {@link Operation#GET}
     */
    public Operation operation() {
        return operation;
    }

    /**
     * Returns the tag the pending request waits for.
     *
     * @return the tag
     */
    public String tag() {
        return tag;
    }

    /**
     * Returns how long the caller waited.
     *
     * @return the timeout the call was given
     */
    public Duration timeout() {
        return timeout;
    }
}
