package io.github.volpex.dataspace;

import io.github.volpex.dataspace.spi.AbstractReplica;
import io.github.volpex.dataspace.spi.CallResult;
import io.github.volpex.dataspace.spi.WaitLimit;
import java.util.Optional;

/**
 * A replica of one logical process on the in-process dataspace: {@link AbstractReplica}'s state machine over
 * {@link InProcessDataspace#execute}. The fields every call writes lie between padding: {@link AbstractReplica}'s
 * before them, and this class's own {@code long} fields, which the JVM lays out after every superclass field; what
 * the dataspace writes on the handle's behalf is its {@link Caller}, padded before.
 */
final class ReplicaHandle extends AbstractReplica {

    long q00;
    long q01;
    long q02;
    long q03;
    long q04;
    long q05;
    long q06;
    long q07;
    private final InProcessDataspace dataspace;
    /** This handle as the dataspace sees it: its closed flag and what its blocked call waits on. */
    private final Caller caller = new Caller();

    ReplicaHandle(InProcessDataspace dataspace, int processId, long requestNumber) {
        super(dataspace.checks(), processId, requestNumber);
        this.dataspace = dataspace;
    }

    /** Issues the request; a put's {@code data} is the caller's array, copied here unless the put is a duplicate. */
    @Override
    protected CallResult call(Operation operation, long requestNumber, String tag, byte[] data, WaitLimit wait)
            throws InterruptedException {
        int processId = processId();
        // A duplicate put is ignored, so its data need not be copied (the paper's trailing puts send nothing).
        byte[] owned = data == null || dataspace.alreadyIssued(processId, requestNumber) ? null : data.clone();
        Outcome outcome = dataspace.execute(operation, processId, requestNumber, tag, owned, wait, caller);
        if (outcome.cancelled) {
            throw outcome.cancellation(processId, requestNumber);
        }
        return outcome;
    }

    @Override
    protected Optional<byte[]> cancel(long requestNumber) {
        return Optional.ofNullable(dataspace.cancel(processId(), requestNumber, caller).dataForCaller());
    }

    @Override
    protected void onClose() {
        InProcessDataspace.closeCaller(caller);
    }
}
