package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.Reply;
import io.github.volpex.dataspace.Request;
import io.github.volpex.dataspace.spi.CallResult;
import io.github.volpex.dataspace.spi.WaitLimit;
import java.util.Objects;

/**
 * One call of the request loop ({@link RequestLoop#execute}): the request and what the loop has learnt about it so
 * far. Used by one thread at a time (a blocking call's, or the polls of a submitted request, which never overlap).
 */
final class Call {

    /** Who issues a request: a replica handle (which can be closed) or a one-off caller of the server interface. */
    interface Caller {
        /** A caller that is never cancelled: requests made on behalf of no replica. */
        Caller NONE = () -> false;

        boolean closed();
    }

    /** The outcome a request returns to its caller; {@code data} is the caller's own (read from the ensemble). */
    record Outcome(byte[] data, boolean stored, boolean duplicate) implements CallResult {
        @Override
        public byte[] dataForCaller() {
            return data;
        }

        /** The reply to {@code request} that this outcome makes. */
        Reply reply(Request request) {
            return Reply.of(request.operation(), request.processId(), request.requestNumber(), data, stored,
                    duplicate);
        }
    }

    /** The final outcome of a request a cancel found: cancelled, or what it completed with (its data read). */
    record Completed(Operation operation, byte[] data, boolean stored, boolean cancelled) {
    }

    final Operation operation;
    final int processId;
    final long requestNumber;
    final String tag;
    /** The tag's name in the namespace ({@link TagNames#name}). */
    final String name;
    /** The caller's array for a put (copied into {@link #owned} only if the put leads); null otherwise. */
    final byte[] data;
    /** How long the call may wait for a pending request's outcome. */
    final WaitLimit wait;
    final Caller caller;
    /** The call's unique token ({@value Records#TOKEN_BYTES} bytes): it recognises the call's own commits. */
    final byte[] token;
    boolean counted;
    boolean duplicate;
    boolean interrupted;
    long waitDeadline;
    boolean waitStarted;
    int unknownCommits;
    /** Whether the loop has tried the remembered state (once per call: then it reads). */
    boolean triedRemembered;
    /** Whether the next read must be linearizable: a decision that fails the call is pending on it. */
    boolean readLinearizable;
    /** Whether the last read found the tag's bucket missing: a commit that creates the record creates it first. */
    boolean tagBucketMissing;
    /** The put's own copy of its data, once it leads. */
    byte[] owned;
    /** The turns of the request loop so far: a pin taken or checked in an earlier turn is checked again. */
    int attempt;
    BlobPins.Pin pin;
    /** The submitted request this call runs for, which waits with no thread; null for a blocking call. */
    Waiting.AsyncWait async;

    Call(Operation operation, int processId, long requestNumber, String tag, byte[] data, WaitLimit wait,
            Caller caller, byte[] token) {
        this(operation, processId, requestNumber, tag, TagNames.name(tag), data, wait, caller, token);
    }

    Call(Operation operation, int processId, long requestNumber, String tag, String name, byte[] data,
            WaitLimit wait, Caller caller, byte[] token) {
        this.operation = operation;
        this.processId = processId;
        this.requestNumber = requestNumber;
        this.tag = tag;
        this.name = name;
        this.data = data;
        this.wait = Objects.requireNonNull(wait, "wait");
        this.caller = caller;
        this.token = token;
    }

    String describe() {
        return "process " + processId + ", request " + requestNumber + " (" + operation + " \"" + tag + "\")";
    }
}
