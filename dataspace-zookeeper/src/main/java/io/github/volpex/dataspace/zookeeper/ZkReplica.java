package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.spi.AbstractReplica;
import io.github.volpex.dataspace.spi.CallResult;
import io.github.volpex.dataspace.spi.WaitLimit;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * A replica of one logical process on a ZooKeeper dataspace: {@link AbstractReplica}'s state machine over the request
 * loop ({@link ZkDataspace#execute}) and the canceller; a blocked call parks its thread, which {@link #close()} wakes.
 */
final class ZkReplica extends AbstractReplica implements Call.Caller {

    private final ZkDataspace dataspace;
    /** The thread running a call, so that {@link #close()} can wake it. */
    private volatile Thread running;

    ZkReplica(ZkDataspace dataspace, int processId, long requestNumber) {
        super(dataspace.checks(), processId, requestNumber);
        this.dataspace = dataspace;
    }

    /** Executes the request; the data of a put is the caller's array, copied only if the put leads. */
    @Override
    protected CallResult call(Operation operation, long requestNumber, String tag, byte[] data, WaitLimit wait)
            throws InterruptedException {
        running = Thread.currentThread();
        try {
            return dataspace.execute(dataspace.call(operation, processId(), requestNumber, tag, data, wait, this));
        } finally {
            running = null;
        }
    }

    @Override
    protected Optional<byte[]> cancel(long requestNumber) {
        running = Thread.currentThread();
        try {
            return Optional.ofNullable(dataspace.cancel(processId(), requestNumber, this).data());
        } finally {
            running = null;
        }
    }

    @Override
    public boolean closed() {
        return isClosed();
    }

    @Override
    protected void onClose() {
        Thread thread = running;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }
}
