package io.github.volpex.dataspace;

import java.time.Duration;
import java.util.Objects;

/**
 * A {@link Operation#READ read} or {@link Operation#GET get} with a timeout found no data in time. The request stays
 * pending in the dataspace, keeping its place in the tag's queue: retrying the same request (the same operation on the
 * same tag, as a {@link Replica} does on its next call) or another replica issuing it receives the eventual result,
 * and nothing is consumed twice or lost. To give it up instead, cancel it ({@link Replica#cancelPending()},
 * {@link DataspaceServer#cancel(int, long)}).
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
     * Creates the exception. The dataspace raises it; the constructor is public so that an adapter, or a client on the
     * far side of a transport, can raise the same failure with the same facts.
     *
     * @param processId     the process
     * @param requestNumber the pending request
     * @param operation     its kind
     * @param tag           its tag
     * @param timeout       how long the caller waited
     * @throws IllegalArgumentException if {@code processId < 0} or {@code requestNumber < 1}
     * @throws NullPointerException     if an operation, tag or timeout is null
     */
    public DataspaceTimeoutException(int processId, long requestNumber, Operation operation, String tag,
            Duration timeout) {
        super(operation + " \"" + tag + "\" (process " + processId + ", request " + requestNumber
                + ") found no data within " + timeout + "; the request stays pending: retry it to receive the "
                + "result, or cancel it",
                processId, requestNumber);
        this.operation = Objects.requireNonNull(operation, "operation");
        this.tag = Objects.requireNonNull(tag, "tag");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
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
