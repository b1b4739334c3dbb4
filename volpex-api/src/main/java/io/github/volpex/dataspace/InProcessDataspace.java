package io.github.volpex.dataspace;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The in-process dataspace: one lock gives the global serial order; a table of current data by tag; per tag, a FIFO
 * queue of pending reads and gets; per process, its high-water mark, its one pending request and its read log.
 */
final class InProcessDataspace implements Dataspace, DataspaceServer {

    /** Attempts at the lock before parking: the critical sections are a few hash-map operations long. */
    private static final int SPINS = 100;
    /** Waits at least this long are treated as unbounded (about 292 years of nanoseconds). */
    private static final long MAX_TIMEOUT_SECONDS = Long.MAX_VALUE / 1_000_000_000L - 1;

    private final int processCount;
    private final DataspaceOptions options;

    private final ReentrantLock lock = new ReentrantLock();
    private final HashMap<String, byte[]> table = new HashMap<>();
    private final HashMap<String, ArrayDeque<Pending>> waiters = new HashMap<>();
    private final ProcessState[] processes;
    private volatile boolean closed;


    InProcessDataspace(int processCount, DataspaceOptions options) {
        if (processCount < 1) {
            throw new IllegalArgumentException("processCount must be >= 1: " + processCount);
        }
        this.processCount = processCount;
        this.options = Objects.requireNonNull(options, "options");
        this.processes = new ProcessState[processCount];
        for (int i = 0; i < processCount; i++) {
            processes[i] = new ProcessState(new ReadLog(options.readLogCapacity(), options.budgetOrNegative()));
        }
    }

    // ---- Dataspace ------------------------------------------------------------------------------------------------

    @Override
    public int processCount() {
        return processCount;
    }

    @Override
    public DataspaceOptions options() {
        return options;
    }

    @Override
    public Replica open(int processId) {
        return open(processId, 0);
    }

    @Override
    public Replica open(int processId, long savedRequestNumber) {
        checkProcessId(processId);
        acquire();
        try {
            if (closed) {
                throw new DataspaceClosedException(processId, savedRequestNumber + 1, true);
            }
            long issued = processes[processId].issued;
            if (savedRequestNumber < 0 || savedRequestNumber > issued) {
                throw new IllegalArgumentException("savedRequestNumber must be in [0, " + issued
                        + "] (the high-water mark of process " + processId + "): " + savedRequestNumber);
            }
        } finally {
            lock.unlock();
        }
        return new ReplicaHandle(this, processId, savedRequestNumber);
    }

    @Override
    public DataspaceServer server() {
        return this;
    }

    @Override
    public DataspaceStatistics statistics() {
        acquire();
        try {
            long[] requests = new long[Operation.values().length];
            long duplicatesIgnored = 0;
            long servedFromLog = 0;
            long joinedPending = 0;
            long evictions = 0;
            long evictedRequests = 0;
            long maxReplicaLag = 0;
            for (ProcessState process : processes) {
                for (int i = 0; i < requests.length; i++) {
                    requests[i] += process.requests[i];
                }
                duplicatesIgnored += process.duplicatesIgnored;
                servedFromLog += process.servedFromLog;
                joinedPending += process.joinedPending;
                evictions += process.evictions;
                evictedRequests += process.evictedRequests;
                maxReplicaLag = Math.max(maxReplicaLag, process.maxReplicaLag);
            }
            EnumMap<Operation, Long> byOperation = new EnumMap<>(Operation.class);
            for (Operation operation : Operation.values()) {
                byOperation.put(operation, requests[operation.ordinal()]);
            }
            return new DataspaceStatistics(byOperation, duplicatesIgnored, servedFromLog, joinedPending, evictions,
                    evictedRequests, maxReplicaLag);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        acquire();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (ProcessState process : processes) {
                if (process.pending != null) {
                    process.pending.done.signalAll();
                }
            }
        } finally {
            lock.unlock();
        }
    }

    // ---- DataspaceServer ------------------------------------------------------------------------------------------

    @Override
    public Reply handle(Request request) throws InterruptedException {
        return serve(request, null);
    }

    @Override
    public Reply handle(Request request, Duration timeout) throws InterruptedException {
        return serve(request, checkTimeout(timeout));
    }

    /** Handles a request; {@code checkedTimeout} is valid, null for an unbounded wait. */
    private Reply serve(Request request, Duration checkedTimeout) throws InterruptedException {
        Objects.requireNonNull(request, "request");
        checkProcessId(request.processId());
        checkTag(request.tag());
        if (request.operation().isPut()) {
            checkData(request.dataUnsafe());
        }
        Caller caller = new Caller();
        Outcome outcome = execute(request.operation(), request.processId(), request.requestNumber(), request.tag(),
                request.dataUnsafe(), checkedTimeout, caller);
        return new Reply(request.operation(), request.processId(), request.requestNumber(), outcome.data,
                outcome.stored, caller.duplicate);
    }

    @Override
    public long highWaterMark(int processId) {
        checkProcessId(processId);
        acquire();
        try {
            return processes[processId].issued;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long oldestRetained(int processId) {
        checkProcessId(processId);
        acquire();
        try {
            return processes[processId].log.oldest();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Tells, without the lock, whether a request number has certainly been issued already (a duplicate); a
     * {@code false} answer may be stale.
     */
    boolean alreadyIssued(int processId, long requestNumber) {
        return requestNumber <= processes[processId].issued;
    }

    // ---- argument checks (outside the lock) ---------------------------------------------------------------------

    void checkProcessId(int processId) {
        if (processId < 0 || processId >= processCount) {
            throw new IllegalArgumentException("processId must be in [0, " + (processCount - 1) + "]: " + processId);
        }
    }

    void checkTag(String tag) {
        options.checkTag(tag);
    }

    void checkData(byte[] data) {
        options.checkData(data);
    }

    /** Returns the timeout if it is valid; null stands for an unbounded wait. */
    static Duration checkTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be >= 0: " + timeout);
        }
        return timeout.getSeconds() >= MAX_TIMEOUT_SECONDS ? null : timeout;
    }

    // ---- the serial order -----------------------------------------------------------------------------------------

    /**
     * Executes one validated request. {@code data} is owned by the dataspace from here on (callers copy first); it may
     * be null for a put that {@link #alreadyIssued} reported as a duplicate. {@code timeout} null waits as long as
     * needed.
     */
    Outcome execute(Operation operation, int processId, long requestNumber, String tag, byte[] data,
            Duration timeout, Caller caller) throws InterruptedException {
        acquire();
        try {
            caller.duplicate = false;
            ProcessState process = processes[processId];
            process.requests[operation.ordinal()]++;
            if (closed) {
                throw new DataspaceClosedException(processId, requestNumber, true);
            }
            if (caller.closed) {
                throw new DataspaceClosedException(processId, requestNumber, false);
            }
            long next = process.issued + 1;
            if (requestNumber == next) {
                if (process.pending != null) {
                    throw new IllegalStateException("process " + processId + " issued request " + requestNumber
                            + " while its request " + process.pending.requestNumber + " ("
                            + process.pending.operation + " \"" + process.pending.tag + "\") is still pending");
                }
                ProcessState.ISSUED.setRelease(process, requestNumber);
                Outcome outcome = executeNew(operation, process, processId, requestNumber, tag, data);
                return outcome != null ? outcome : await(process.pending, timeout, caller);
            }
            if (requestNumber > next) {
                throw new IllegalArgumentException("requestNumber must be <= " + next
                        + " (the next request of process " + processId + "): " + requestNumber);
            }
            return replay(operation, process, processId, requestNumber, tag, timeout, caller);
        } finally {
            lock.unlock();
        }
    }

    /** Executes a request at the leading front. Returns null when the request is left pending. */
    private Outcome executeNew(Operation operation, ProcessState process, int processId, long requestNumber,
            String tag, byte[] data) {
        assert !operation.isPut() || data != null : "a new put carries its data";
        byte[] value;
        switch (operation) {
            case PUT:
                deliver(tag, data);
                return log(process, requestNumber, new Outcome(operation, tag, null, true));
            case PUT_IF_ABSENT:
                if (table.containsKey(tag)) {
                    return log(process, requestNumber, new Outcome(operation, tag, null, false));
                }
                deliver(tag, data);
                return log(process, requestNumber, new Outcome(operation, tag, null, true));
            case TRY_READ:
                return log(process, requestNumber, new Outcome(operation, tag, table.get(tag), false));
            case TRY_GET:
                return log(process, requestNumber, new Outcome(operation, tag, table.remove(tag), false));
            case READ:
                value = table.get(tag);
                break;
            case GET:
                value = table.remove(tag);
                break;
            default:
                throw new AssertionError(operation);
        }
        if (value != null) {
            return log(process, requestNumber, new Outcome(operation, tag, value, false));
        }
        Pending pending = new Pending(operation, processId, requestNumber, tag, lock.newCondition());
        process.pending = pending;
        waiters.computeIfAbsent(tag, t -> new ArrayDeque<>()).addLast(pending);
        return null;
    }

    /**
     * Puts {@code data} under {@code tag}: the tag's waiters are served in arrival order — every read before the
     * first get receives the data, the first get takes it — and the data stays in the table unless a get took it.
     */
    private void deliver(String tag, byte[] data) {
        if (!waiters.isEmpty()) {
            ArrayDeque<Pending> queue = waiters.get(tag);
            if (queue != null) {
                Pending pending;
                while ((pending = queue.pollFirst()) != null) {
                    complete(pending, data);
                    if (pending.operation == Operation.GET) {
                        if (queue.isEmpty()) {
                            waiters.remove(tag);
                        }
                        return;
                    }
                }
                waiters.remove(tag);
            }
        }
        table.put(tag, data);
    }

    private void complete(Pending pending, byte[] data) {
        ProcessState process = processes[pending.processId];
        Outcome outcome = new Outcome(pending.operation, pending.tag, data, false);
        pending.result = outcome;
        process.pending = null;
        log(process, pending.requestNumber, outcome);
        pending.done.signalAll();
    }

    private Outcome log(ProcessState process, long requestNumber, Outcome outcome) {
        process.evictions += process.log.append(requestNumber, outcome);
        return outcome;
    }

    /** Answers a request the process has issued before, from its pending request or its read log. */
    private Outcome replay(Operation operation, ProcessState process, int processId, long requestNumber, String tag,
            Duration timeout, Caller caller) throws InterruptedException {
        caller.duplicate = true;
        long lag = process.issued - requestNumber;
        if (lag > process.maxReplicaLag) {
            process.maxReplicaLag = lag;
        }
        Pending pending = process.pending;
        if (pending != null && pending.requestNumber == requestNumber) {
            checkSame(processId, requestNumber, pending.operation, pending.tag, operation, tag);
            process.joinedPending++;
            return await(pending, timeout, caller);
        }
        Outcome logged = process.log.get(requestNumber);
        if (logged == null) {
            if (operation == Operation.PUT) {
                // The single-put rule needs no outcome: the first replica's put took effect long ago.
                process.duplicatesIgnored++;
                return new Outcome(operation, tag, null, true);
            }
            process.evictedRequests++;
            throw new ReadLogEvictedException(processId, requestNumber, process.log.oldest(), process.issued);
        }
        checkSame(processId, requestNumber, logged.operation, logged.tag, operation, tag);
        if (operation.isPut()) {
            process.duplicatesIgnored++;
        } else {
            process.servedFromLog++;
        }
        return logged;
    }

    private static void checkSame(int processId, long requestNumber, Operation loggedOperation, String loggedTag,
            Operation operation, String tag) {
        if (loggedOperation != operation || !loggedTag.equals(tag)) {
            throw new ReplicaDivergenceException(processId, requestNumber, loggedOperation, loggedTag, operation,
                    tag);
        }
    }

    /** Waits, under the lock, until the pending request completes, the timeout elapses or the caller is closed. */
    private Outcome await(Pending pending, Duration timeout, Caller caller) throws InterruptedException {
        long nanos = timeout == null ? -1 : timeout.toNanos();
        try {
            while (pending.result == null) {
                if (closed) {
                    throw new DataspaceClosedException(pending.processId, pending.requestNumber, true);
                }
                if (caller.closed) {
                    throw new DataspaceClosedException(pending.processId, pending.requestNumber, false);
                }
                if (nanos < 0) {
                    pending.done.await();
                } else if (nanos == 0) {
                    throw new DataspaceTimeoutException(pending.processId, pending.requestNumber, pending.operation,
                            pending.tag, timeout);
                } else {
                    nanos = Math.max(0, pending.done.awaitNanos(nanos));
                }
            }
        } catch (InterruptedException ex) {
            if (pending.result == null) {
                throw ex;
            }
            Thread.currentThread().interrupt();
        }
        return pending.result;
    }

    /** Marks a replica handle closed and wakes its blocked calls. */
    void closeCaller(Caller caller, int processId) {
        acquire();
        try {
            caller.closed = true;
            Pending pending = processes[processId].pending;
            if (pending != null) {
                pending.done.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    private void acquire() {
        ReentrantLock l = lock;
        if (l.tryLock()) {
            return;
        }
        for (int i = 0; i < SPINS; i++) {
            Thread.onSpinWait();
            if (l.tryLock()) {
                return;
            }
        }
        l.lock();
    }

    /**
     * Per-process state, counters included (so that processes on different threads write no common cache line apart
     * from the lock's and the table's). Guarded by the lock.
     */
    private static final class ProcessState extends PaddedBefore {
        /** Stores need only release order: the lock orders them for readers under it, and hints may be stale. */
        static final VarHandle ISSUED;

        static {
            try {
                ISSUED = MethodHandles.lookup().findVarHandle(ProcessState.class, "issued", long.class);
            } catch (ReflectiveOperationException ex) {
                throw new ExceptionInInitializerError(ex);
            }
        }

        /**
         * The highest request number issued: the leading front. Written under the lock; volatile so that a replica
         * can tell, without the lock, that its put is a duplicate and skip copying its data (it never decreases).
         */
        volatile long issued;
        /** The request at {@code issued} while it waits for data; null otherwise. */
        Pending pending;
        final ReadLog log;
        /** Requests handled, by {@link Operation#ordinal()}. */
        final long[] requests = new long[Operation.values().length];
        long duplicatesIgnored;
        long servedFromLog;
        long joinedPending;
        long evictions;
        long evictedRequests;
        long maxReplicaLag;

        ProcessState(ReadLog log) {
            this.log = log;
        }
    }

    /** A read or get waiting for its tag; every replica issuing the same request waits on it. Guarded by the lock. */
    private static final class Pending {
        final Operation operation;
        final int processId;
        final long requestNumber;
        final String tag;
        final Condition done;
        Outcome result;

        Pending(Operation operation, int processId, long requestNumber, String tag, Condition done) {
            this.operation = operation;
            this.processId = processId;
            this.requestNumber = requestNumber;
            this.tag = tag;
            this.done = done;
        }
    }
}
