package io.github.volpex.dataspace;

import java.time.Duration;
import java.util.Optional;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A replica of one logical process: numbers its calls and forwards them to the dataspace. Its fields that every call
 * writes ({@link Caller}'s and {@link ReplicaFields}'s) lie between padding: {@link PaddedBefore}'s, and this class's
 * own {@code long} fields, which the JVM lays out after every superclass field.
 */
final class ReplicaHandle extends ReplicaFields implements Replica {

    /** Stores to the request number need only release order (no full fence): its readers only need a recent value. */
    private static final VarHandle REQUEST_NUMBER;
    /** 1 while a thread runs a call on this handle: set by compare-and-set, cleared with a release store. */
    private static final VarHandle BUSY;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            REQUEST_NUMBER = lookup.findVarHandle(ReplicaFields.class, "requestNumber", long.class);
            BUSY = lookup.findVarHandle(ReplicaFields.class, "busy", int.class);
        } catch (ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    long q00;
    long q01;
    long q02;
    long q03;
    long q04;
    long q05;
    long q06;
    long q07;
    private final InProcessDataspace dataspace;
    private final int processId;

    ReplicaHandle(InProcessDataspace dataspace, int processId, long requestNumber) {
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
        return callNonBlocking(Operation.PUT_IF_ABSENT, tag, data).stored;
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
        return tryReceive(Operation.TRY_READ, tag);
    }

    @Override
    public Optional<byte[]> tryGet(String tag) {
        return tryReceive(Operation.TRY_GET, tag);
    }

    private byte[] receive(Operation operation, String tag, Duration timeout) throws InterruptedException {
        dataspace.checkTag(tag);
        return call(operation, tag, null, timeout).data.clone();
    }

    private Optional<byte[]> tryReceive(Operation operation, String tag) {
        dataspace.checkTag(tag);
        byte[] data = callNonBlocking(operation, tag, null).data;
        return data == null ? Optional.empty() : Optional.of(data.clone());
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
            Outcome outcome = dataspace.cancel(processId, next, this);
            leftPending = false;
            REQUEST_NUMBER.setRelease(this, next);
            return outcome.data == null ? Optional.empty() : Optional.of(outcome.data.clone());
        } finally {
            BUSY.setRelease(this, 0);
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        if (!closed) {
            InProcessDataspace.closeCaller(this);
        }
    }

    private Outcome callNonBlocking(Operation operation, String tag, byte[] data) {
        try {
            return call(operation, tag, data, Duration.ZERO);
        } catch (InterruptedException ex) {
            throw new AssertionError("a " + operation + " never waits", ex);
        }
    }

    /**
     * Issues the next request; a put's {@code data} is the caller's array, copied here unless the put is a duplicate.
     */
    private Outcome call(Operation operation, String tag, byte[] data, Duration timeout)
            throws InterruptedException {
        enter();
        try {
            long next = requestNumber + 1;
            // A duplicate put is ignored, so its data need not be copied (the paper's trailing puts send nothing).
            byte[] owned = data == null || dataspace.alreadyIssued(processId, next) ? null : data.clone();
            Outcome outcome;
            try {
                outcome = dataspace.execute(operation, processId, next, tag, owned, timeout, this);
            } catch (DataspaceTimeoutException | InterruptedException stillPending) {
                leftPending = true;
                throw stillPending;
            }
            leftPending = false;
            REQUEST_NUMBER.setRelease(this, next);
            if (outcome.cancelled) {
                throw outcome.cancellation(processId, next);
            }
            return outcome;
        } finally {
            BUSY.setRelease(this, 0);
        }
    }

    /** Claims the handle for one call on this thread. */
    private void enter() {
        if (!BUSY.compareAndSet(this, 0, 1)) {
            throw new IllegalStateException("replica of process " + processId
                    + " is already running a call on another thread; a replica is one sequential process");
        }
    }

    @Override
    public String toString() {
        return "Replica[process " + processId + ", request " + requestNumber + (closed ? ", closed]" : "]");
    }
}
