package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.DataspaceCancelledException;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.DataspaceClosedException;
import io.github.volpex.dataspace.DataspaceTimeoutException;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.Replica;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/** A replica of one logical process on a ZooKeeper dataspace: numbers its calls and executes them. */
final class ZkReplica implements Replica, Call.Caller {

    private final ZkDataspace dataspace;
    private final int processId;
    private final AtomicBoolean busy = new AtomicBoolean();
    /** Written by the thread that owns the call (see {@link #busy}); read by any thread. */
    private volatile long requestNumber;
    /** The thread running a call, so that {@link #close()} can wake it. */
    private volatile Thread running;
    /**
     * Whether the last call left its request pending (a timeout or an interrupt), so that {@link #cancelPending()}
     * may end it. Written and read by the thread that owns the call (see {@link #busy}).
     */
    private boolean leftPending;
    private volatile boolean closed;

    ZkReplica(ZkDataspace dataspace, int processId, long requestNumber) {
        this.dataspace = dataspace;
        this.processId = processId;
        this.requestNumber = requestNumber;
    }

    @Override
    public int processId() {
        return processId;
    }

    @Override
    public int processCount() {
        return dataspace.processCount();
    }

    @Override
    public long requestNumber() {
        return requestNumber;
    }

    @Override
    public void put(String tag, byte[] data) {
        dataspace.checkTag(tag);
        dataspace.checkData(data);
        callNonBlocking(Operation.PUT, tag, data);
    }

    @Override
    public boolean putIfAbsent(String tag, byte[] data) {
        dataspace.checkTag(tag);
        dataspace.checkData(data);
        return callNonBlocking(Operation.PUT_IF_ABSENT, tag, data).stored();
    }

    @Override
    public byte[] read(String tag) throws InterruptedException {
        return receive(Operation.READ, tag, null);
    }

    @Override
    public byte[] read(String tag, Duration timeout) throws InterruptedException {
        return receive(Operation.READ, tag, DataspaceOptions.checkTimeout(timeout));
    }

    @Override
    public byte[] get(String tag) throws InterruptedException {
        return receive(Operation.GET, tag, null);
    }

    @Override
    public byte[] get(String tag, Duration timeout) throws InterruptedException {
        return receive(Operation.GET, tag, DataspaceOptions.checkTimeout(timeout));
    }

    @Override
    public Optional<byte[]> tryRead(String tag) {
        dataspace.checkTag(tag);
        return Optional.ofNullable(callNonBlocking(Operation.TRY_READ, tag, null).data());
    }

    @Override
    public Optional<byte[]> tryGet(String tag) {
        dataspace.checkTag(tag);
        return Optional.ofNullable(callNonBlocking(Operation.TRY_GET, tag, null).data());
    }

    private byte[] receive(Operation operation, String tag, Duration timeout) throws InterruptedException {
        dataspace.checkTag(tag);
        return call(operation, tag, null, timeout).data();
    }

    @Override
    public Optional<byte[]> cancelPending() {
        enter();
        try {
            long next = requestNumber + 1;
            if (!leftPending) {
                if (closed) {
                    throw new DataspaceClosedException(processId, next, false);
                }
                throw new IllegalStateException("replica of process " + processId + " left no request pending to "
                        + "cancel");
            }
            Call.Completed completed = dataspace.cancel(processId, next, this);
            leftPending = false;
            requestNumber = next;
            return Optional.ofNullable(completed.data());
        } finally {
            running = null;
            busy.set(false);
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public boolean closed() {
        return closed;
    }

    @Override
    public void close() {
        closed = true;
        Thread thread = running;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    private Call.Outcome callNonBlocking(Operation operation, String tag, byte[] data) {
        try {
            return call(operation, tag, data, Duration.ZERO);
        } catch (InterruptedException ex) {
            throw new AssertionError("a " + operation + " never waits", ex);
        }
    }

    /** Issues the next request; the data of a put is the caller's array, copied only if the put leads. */
    private Call.Outcome call(Operation operation, String tag, byte[] data, Duration timeout)
            throws InterruptedException {
        enter();
        try {
            long next = requestNumber + 1;
            Call.Outcome outcome;
            try {
                outcome = dataspace.execute(dataspace.call(operation, processId, next, tag, data, timeout, this));
            } catch (DataspaceTimeoutException | InterruptedException stillPending) {
                leftPending = true;
                throw stillPending;
            } catch (DataspaceCancelledException cancelled) {
                // An outcome: the request is complete, and the replica goes past it.
                leftPending = false;
                requestNumber = next;
                throw cancelled;
            }
            leftPending = false;
            requestNumber = next;
            return outcome;
        } finally {
            running = null;
            busy.set(false);
        }
    }

    /** Claims the handle for one call on this thread. */
    private void enter() {
        if (!busy.compareAndSet(false, true)) {
            throw new IllegalStateException("replica of process " + processId
                    + " is already running a call on another thread; a replica is one sequential process");
        }
        running = Thread.currentThread();
    }

    @Override
    public String toString() {
        return "Replica[process " + processId + ", request " + requestNumber + (closed ? ", closed]" : "]");
    }
}
