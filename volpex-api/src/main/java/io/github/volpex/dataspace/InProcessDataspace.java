package io.github.volpex.dataspace;

import io.github.volpex.dataspace.spi.RequestChecks;
import io.github.volpex.dataspace.spi.RequestStatistics;
import io.github.volpex.dataspace.spi.WaitLimit;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;

/**
 * The in-process dataspace. Per tag, its state — the data, or the FIFO queue of reads and gets waiting for it — is one
 * entry of a {@link ConcurrentHashMap}, changed only inside {@code compute} on that tag (atomic per key). Per process,
 * its high-water mark, its pending request, its read log and its counters are guarded by the process's own lock. A new
 * request holds its process's lock around the one atomic step on its tag; a replayed request needs only its process's
 * lock. See the package description for why this is linearizable.
 */
final class InProcessDataspace implements Dataspace, DataspaceServer {

    /** Attempts at a process lock before yielding the processor: its critical sections are a few operations long. */
    private static final int SPINS = 64;
    /** How many maps hold the tags: {@code 1 << TAG_MAP_BITS}. */
    private static final int TAG_MAP_BITS = 6;
    private static final int TAG_MAPS = 1 << TAG_MAP_BITS;
    /** Completes a waiting caller's future when its handle or the dataspace closes; the caller reads the flags. */
    private static final Throwable CLOSED = new IllegalStateException("closed");

    private final RequestChecks checks;

    /**
     * Per tag: its data ({@code byte[]}), or the requests waiting for it ({@link Waiters}); absent when neither. A tag
     * lives in one of {@link #TAG_MAPS} maps, chosen by a mixed hash of its name ({@link #tags(String)}), so that tags
     * with similar names (whose string hashes are consecutive, and would sit in one cache line of one map's table)
     * and the maps' size counters are spread over separate memory.
     */
    private final ConcurrentHashMap<String, Object>[] tagMaps;
    private final ProcessState[] processes;
    private volatile boolean closed;

    InProcessDataspace(int processCount, DataspaceOptions options) {
        this.checks = RequestChecks.of(processCount, options);
        @SuppressWarnings({"unchecked", "rawtypes"})
        ConcurrentHashMap<String, Object>[] maps = new ConcurrentHashMap[TAG_MAPS];
        for (int i = 0; i < TAG_MAPS; i++) {
            maps[i] = new ConcurrentHashMap<>();
        }
        this.tagMaps = maps;
        this.processes = new ProcessState[processCount];
        for (int i = 0; i < processCount; i++) {
            processes[i] = new ProcessState(ReadLog.create(options.readLogCapacity(), options.budgetOrNegative()));
        }
    }

    // ---- Dataspace ------------------------------------------------------------------------------------------------

    @Override
    public int processCount() {
        return checks.processCount();
    }

    @Override
    public DataspaceOptions options() {
        return checks.options();
    }

    @Override
    public Replica open(int processId) {
        return open(processId, 0);
    }

    @Override
    public Replica open(int processId, long savedRequestNumber) {
        checks.checkProcessId(processId);
        ProcessState process = processes[processId];
        long position;
        process.acquire();
        try {
            if (closed) {
                throw RequestChecks.closedOnOpen(processId, savedRequestNumber);
            }
            process.settle();
            Pending pending = process.pending;
            position = checks.openAt(processId, savedRequestNumber, process.issued,
                    pending != null && pending.requestNumber == savedRequestNumber);
        } finally {
            process.release();
        }
        return new ReplicaHandle(this, processId, position);
    }

    @Override
    public DataspaceServer server() {
        return this;
    }

    @Override
    public DataspaceStatistics statistics() {
        // The counters of each process live in its padded state (no shared counter on the request path): summed here.
        RequestStatistics total = new RequestStatistics();
        for (ProcessState process : processes) {
            process.acquire();
            try {
                process.settle();
                for (Operation operation : Operation.values()) {
                    total.addRequests(operation, process.requests(operation));
                }
                total.addDuplicatesIgnored(process.duplicatesIgnored);
                total.addServedFromLog(process.servedFromLog);
                total.addJoinedPending(process.joinedPending);
                total.addEvictions(process.evictions);
                total.addEvictedRequests(process.evictedRequests);
                total.recordReplicaLag(process.maxReplicaLag);
            } finally {
                process.release();
            }
        }
        return total.snapshot();
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Every caller waits on the pending request of its process; callers registering from now on see the flag.
        for (ProcessState process : processes) {
            Pending pending;
            process.acquire();
            try {
                pending = process.pending;
            } finally {
                process.release();
            }
            if (pending != null) {
                pending.failWaiters(CLOSED);
            }
        }
    }

    // ---- DataspaceServer ------------------------------------------------------------------------------------------

    @Override
    public Reply handle(Request request) throws InterruptedException {
        return serve(request, WaitLimit.unbounded());
    }

    @Override
    public Reply handle(Request request, Duration timeout) throws InterruptedException {
        return serve(request, WaitLimit.of(timeout));
    }

    private Reply serve(Request request, WaitLimit wait) throws InterruptedException {
        checkRequest(request);
        Caller caller = new Caller();
        Outcome outcome = execute(request.operation(), request.processId(), request.requestNumber(), request.tag(),
                request.dataUnsafe(), wait, caller);
        if (outcome.cancelled) {
            throw outcome.cancellation(request.processId(), request.requestNumber());
        }
        return new Reply(request.operation(), request.processId(), request.requestNumber(), outcome.data,
                outcome.stored, caller.duplicate);
    }

    @Override
    public CompletableFuture<Reply> submit(Request request) {
        checkRequest(request);
        int processId = request.processId();
        long requestNumber = request.requestNumber();
        Caller caller = new Caller();
        CompletableFuture<Reply> reply = new CompletableFuture<>();
        RequestState begun;
        try {
            begun = begin(request.operation(), processId, requestNumber, request.tag(), request.dataUnsafe(), caller);
        } catch (DataspaceException failed) {
            reply.completeExceptionally(failed);
            return reply;
        }
        boolean duplicate = caller.duplicate;
        if (begun instanceof Outcome outcome) {
            complete(reply, request, outcome, duplicate);
            return reply;
        }
        Pending pending = (Pending) begun;
        CompletableFuture<Outcome> waiter = new CompletableFuture<>();
        if (!pending.register(waiter)) {
            complete(reply, request, pending.outcome(), duplicate);
            return reply;
        }
        waiter.whenComplete((outcome, closing) -> {
            if (outcome != null) {
                complete(reply, request, outcome, duplicate);
            } else {
                reply.completeExceptionally(new DataspaceClosedException(processId, requestNumber, true));
            }
        });
        // However the reply completes (served, cancelled by the caller, timed out), the dataspace forgets the waiter.
        reply.whenComplete((done, failure) -> pending.deregister(waiter));
        if (closed) {
            waiter.completeExceptionally(CLOSED);
        }
        return reply;
    }

    private static void complete(CompletableFuture<Reply> reply, Request request, Outcome outcome, boolean duplicate) {
        if (outcome.cancelled) {
            reply.completeExceptionally(outcome.cancellation(request.processId(), request.requestNumber()));
        } else {
            reply.complete(new Reply(request.operation(), request.processId(), request.requestNumber(), outcome.data,
                    outcome.stored, duplicate));
        }
    }

    @Override
    public Optional<Reply> cancel(int processId, long requestNumber) {
        checks.checkProcessId(processId);
        Outcome outcome = cancel(processId, requestNumber, null);
        return outcome.cancelled ? Optional.empty()
                : Optional.of(new Reply(outcome.operation, processId, requestNumber, outcome.data, outcome.stored,
                        true));
    }

    @Override
    public Optional<Request> pendingRequest(int processId) {
        checks.checkProcessId(processId);
        ProcessState process = processes[processId];
        process.acquire();
        try {
            process.settle();
            Pending pending = process.pending;
            return pending == null ? Optional.empty()
                    : Optional.of(Request.of(pending.operation, processId, pending.requestNumber, pending.tag, null));
        } finally {
            process.release();
        }
    }

    @Override
    public long highWaterMark(int processId) {
        checks.checkProcessId(processId);
        return processes[processId].issued;
    }

    @Override
    public long oldestRetained(int processId) {
        checks.checkProcessId(processId);
        ProcessState process = processes[processId];
        process.acquire();
        try {
            process.settle();
            return process.log.oldest();
        } finally {
            process.release();
        }
    }

    /**
     * Test hook: {@code hook} runs inside every later step on a tag right after the step has decided the outcome of a
     * waiting request (served by a put, or cancelled), before the map installs the tag's new state; null removes it.
     * Call it before the requests it should see; each process's lock hands it to that process's later steps.
     */
    void decisionHook(Runnable hook) {
        for (ProcessState process : processes) {
            process.acquire();
            try {
                process.step.decisionHook = hook;
            } finally {
                process.release();
            }
        }
    }

    /**
     * Tells, without the lock, whether a request number has certainly been issued already (a duplicate); a
     * {@code false} answer may be stale.
     */
    boolean alreadyIssued(int processId, long requestNumber) {
        return requestNumber <= processes[processId].issued;
    }

    // ---- argument checks (outside the locks) --------------------------------------------------------------------

    RequestChecks checks() {
        return checks;
    }

    /** Checks a request of the request-level interface against the process count and the limits. */
    private void checkRequest(Request request) {
        checks.checkRequest(request);
        if (request.operation().isPut()) {
            checks.checkData(request.dataUnsafe());
        }
    }

    // ---- requests -------------------------------------------------------------------------------------------------

    /**
     * Executes one validated request. {@code data} is owned by the dataspace from here on (callers copy first); it may
     * be null for a put that {@link #alreadyIssued} reported as a duplicate.
     */
    Outcome execute(Operation operation, int processId, long requestNumber, String tag, byte[] data,
            WaitLimit wait, Caller caller) throws InterruptedException {
        RequestState begun = begin(operation, processId, requestNumber, tag, data, caller);
        if (begun instanceof Outcome outcome) {
            return outcome;
        }
        Pending waitFor = (Pending) begun;
        if (!caller.duplicate && wait.isImmediate()) {
            // It found no data at its step: a put that serves it afterwards answers the retry, not this call.
            throw timeout(waitFor, wait);
        }
        return await(waitFor, wait, caller);
    }

    /**
     * Runs a validated request up to the point where it would wait: returns its {@link Outcome}, or the {@link Pending}
     * request to wait for (issued by this call when {@code caller.duplicate} is false, joined otherwise).
     */
    private RequestState begin(Operation operation, int processId, long requestNumber, String tag, byte[] data,
            Caller caller) {
        ProcessState process = processes[processId];
        Pending[] served = null;
        process.acquire();
        try {
            caller.duplicate = false;
            process.count(operation);
            if (closed) {
                throw new DataspaceClosedException(processId, requestNumber, true);
            }
            if (caller.closed) {
                throw new DataspaceClosedException(processId, requestNumber, false);
            }
            process.settle();
            long next = process.issued + 1;
            if (requestNumber == next) {
                if (process.pending != null) {
                    throw new IllegalStateException("process " + processId + " issued request " + requestNumber
                            + " while its request " + process.pending.requestNumber + " ("
                            + process.pending.operation + " \"" + process.pending.tag + "\") is still pending");
                }
                ProcessState.ISSUED.setRelease(process, requestNumber);
                Outcome direct = executeDirectly(operation, tag, data);
                if (direct != null) {
                    return process.log(requestNumber, direct);
                }
                TagStep step = process.step;
                ConcurrentHashMap<String, Object> map = tags(tag);
                step.prepare(operation, processId, requestNumber, data, null, map);
                map.compute(tag, step);
                // The step is complete: the outcomes it decided for the waiting requests it served become visible.
                served = step.takeServed();
                if (served != null) {
                    publish(served);
                }
                if (step.waiting == null) {
                    return process.log(requestNumber, step.outcome(tag));
                }
                Pending waiting = step.waiting;
                process.pending = waiting;
                step.waiting = null;
                return waiting;
            } else if (requestNumber > next) {
                throw new IllegalArgumentException("requestNumber must be <= " + next
                        + " (the next request of process " + processId + "): " + requestNumber);
            } else {
                caller.duplicate = true;
                return process.replay(operation, processId, requestNumber, tag);
            }
        } finally {
            process.release();
            if (served != null) {
                fire(served);
            }
        }
    }

    /** The map that holds a tag: picked by the string hash, mixed (Fibonacci hashing) so that similar names part. */
    private ConcurrentHashMap<String, Object> tags(String tag) {
        return tagMaps[(tag.hashCode() * 0x9E3779B9) >>> (Integer.SIZE - TAG_MAP_BITS)];
    }

    /**
     * Executes a new request with one of the map's own atomic operations when no request waits for its tag (the
     * common case, and the same operations a plain {@link ConcurrentHashMap} user pays for); returns null when the
     * request needs the general step ({@link TagStep}): the tag has waiters, or the request must wait, or a
     * concurrent change made the map's conditional operation fail.
     */
    private Outcome executeDirectly(Operation operation, String tag, byte[] data) {
        ConcurrentHashMap<String, Object> tags = tags(tag);
        Object state;
        switch (operation) {
            case PUT -> {
                return tags.putIfAbsent(tag, data) == null ? new Outcome(operation, tag, null, true) : null;
            }
            case PUT_IF_ABSENT -> {
                state = tags.putIfAbsent(tag, data);
                return state == null ? new Outcome(operation, tag, null, true)
                        : state instanceof byte[] ? new Outcome(operation, tag, null, false) : null;
            }
            case TRY_READ -> {
                state = tags.get(tag);
                return new Outcome(operation, tag, state instanceof byte[] ? (byte[]) state : null, false);
            }
            case READ -> {
                state = tags.get(tag);
                return state instanceof byte[] ? new Outcome(operation, tag, (byte[]) state, false) : null;
            }
            case TRY_GET, GET -> {
                state = tags.get(tag);
                if (state instanceof byte[]) {
                    return tags.remove(tag, state) ? new Outcome(operation, tag, (byte[]) state, false) : null;
                }
                return operation == Operation.TRY_GET ? new Outcome(operation, tag, null, false) : null;
            }
            default -> throw new AssertionError(operation);
        }
    }

    /**
     * Cancels a request if it is still waiting; returns its final outcome (cancelled, or what it completed with).
     * {@code caller} is the replica handle cancelling its own request, or null for middleware.
     */
    Outcome cancel(int processId, long requestNumber, Caller caller) {
        ProcessState process = processes[processId];
        Pending pending;
        process.acquire();
        try {
            if (closed) {
                throw new DataspaceClosedException(processId, Math.max(1, requestNumber), true);
            }
            if (caller != null && caller.closed) {
                throw new DataspaceClosedException(processId, requestNumber, false);
            }
            if (requestNumber < 1) {
                throw new IllegalArgumentException("requestNumber must be >= 1: " + requestNumber);
            }
            if (requestNumber > process.issued) {
                throw new IllegalArgumentException("requestNumber must be <= " + process.issued
                        + " (the high-water mark of process " + processId + "): " + requestNumber);
            }
            process.settle();
            pending = process.pending;
            if (pending == null || pending.requestNumber != requestNumber) {
                return process.logged(processId, requestNumber);
            }
            TagStep step = process.step;
            ConcurrentHashMap<String, Object> map = tags(pending.tag);
            step.prepare(null, processId, requestNumber, null, pending, map);
            map.compute(pending.tag, step);
            // Cancelled by this step, or served by a put's step on the same tag before it, which is complete by now
            // though its thread may not have published the outcome yet: publish it (again), then settle it.
            pending.publish();
            process.settle();
        } finally {
            process.release();
        }
        pending.fire();
        return pending.outcome();
    }

    /** Waits, holding no lock, until the request completes, the timeout elapses or the caller is closed. */
    private Outcome await(Pending pending, WaitLimit wait, Caller caller) throws InterruptedException {
        Outcome outcome = pending.outcome();
        if (outcome != null) {
            return outcome;
        }
        long nanos = wait.isBounded() ? wait.duration().toNanos() : -1;
        if (nanos == 0) {
            throw timeout(pending, wait);
        }
        CompletableFuture<Outcome> waiter = new CompletableFuture<>();
        if (!pending.register(waiter)) {
            return pending.outcome();
        }
        caller.waiting = waiter;
        try {
            if (closed || caller.closed) {
                waiter.completeExceptionally(CLOSED);
            }
            return nanos < 0 ? waiter.get() : waiter.get(nanos, TimeUnit.NANOSECONDS);
        } catch (ExecutionException failed) {
            pending.deregister(waiter);
            throw new DataspaceClosedException(pending.processId, pending.requestNumber, closed || !caller.closed);
        } catch (TimeoutException late) {
            pending.deregister(waiter);
            outcome = pending.outcome();
            if (outcome != null) {
                return outcome;
            }
            throw timeout(pending, wait);
        } catch (InterruptedException interrupted) {
            pending.deregister(waiter);
            outcome = pending.outcome();
            if (outcome == null) {
                throw interrupted;
            }
            Thread.currentThread().interrupt();
            return outcome;
        } finally {
            caller.waiting = null;
        }
    }

    private static DataspaceTimeoutException timeout(Pending pending, WaitLimit wait) {
        return new DataspaceTimeoutException(pending.processId, pending.requestNumber, pending.operation, pending.tag,
                wait.duration());
    }

    private static void publish(Pending[] served) {
        for (Pending pending : served) {
            pending.publish();
        }
    }

    private static void fire(Pending[] served) {
        for (Pending pending : served) {
            pending.fire();
        }
    }

    /** Marks a replica handle closed and wakes its blocked call. */
    static void closeCaller(Caller caller) {
        caller.closed = true;
        CompletableFuture<Outcome> waiting = caller.waiting;
        if (waiting != null) {
            waiting.completeExceptionally(CLOSED);
        }
    }

    /**
     * A tag's queue of waiting requests, in arrival order. Only ever non-empty: an empty queue leaves the map.
     */
    private static final class Waiters extends ArrayDeque<Pending> {
        private static final long serialVersionUID = 1L;

        Waiters() {
            super(4);
        }
    }

    /**
     * One request's atomic step on its tag, run by {@link ConcurrentHashMap#compute}: maps the tag's state (null,
     * {@code byte[]} data, or {@link Waiters}) to its next state and records what the request received. One instance
     * per process, reused under the process's lock; not thread-safe otherwise.
     */
    private static final class TagStep implements BiFunction<String, Object, Object> {
        // Inputs.
        private Operation operation;
        private int processId;
        private long requestNumber;
        private byte[] data;
        /** For a cancel: the waiting request to remove (the operation is then null). */
        private Pending target;
        /** The map that holds the tag. */
        private ConcurrentHashMap<String, Object> map;
        // Outputs.
        private byte[] received;
        private boolean stored;
        /** The request itself, when it had to wait. */
        Pending waiting;
        /**
         * Waiting requests of other processes this step served: their outcomes are decided inside the step, published
         * once it is complete and fired once the locks are released.
         */
        private final ArrayList<Pending> served = new ArrayList<>();
        /** See {@link InProcessDataspace#decisionHook(Runnable)}; null outside tests. */
        Runnable decisionHook;

        void prepare(Operation operation, int processId, long requestNumber, byte[] data, Pending target,
                ConcurrentHashMap<String, Object> map) {
            this.operation = operation;
            this.map = map;
            this.processId = processId;
            this.requestNumber = requestNumber;
            this.data = data;
            this.target = target;
            this.received = null;
            this.stored = false;
            this.waiting = null;
        }

        /** The outcome of a request that did not wait. */
        Outcome outcome(String tag) {
            Outcome outcome = new Outcome(operation, tag, received, stored);
            data = null;
            received = null;
            return outcome;
        }

        /** The requests this step served, or null; clears them. */
        Pending[] takeServed() {
            data = null;
            if (served.isEmpty()) {
                return null;
            }
            Pending[] taken = served.toArray(new Pending[0]);
            served.clear();
            return taken;
        }

        @Override
        public Object apply(String tag, Object state) {
            if (operation == null) {
                return cancel(state);
            }
            switch (operation) {
                case PUT -> {
                    stored = true;
                    return deliver(tag, state);
                }
                case PUT_IF_ABSENT -> {
                    if (state instanceof byte[]) {
                        return state;
                    }
                    stored = true;
                    return deliver(tag, state);
                }
                case TRY_READ -> {
                    received = state instanceof byte[] ? (byte[]) state : null;
                    return state;
                }
                case TRY_GET -> {
                    if (state instanceof byte[]) {
                        received = (byte[]) state;
                        return null;
                    }
                    return state;
                }
                case READ -> {
                    if (state instanceof byte[]) {
                        received = (byte[]) state;
                        return state;
                    }
                    return enqueue(tag, state);
                }
                case GET -> {
                    if (state instanceof byte[]) {
                        received = (byte[]) state;
                        return null;
                    }
                    return enqueue(tag, state);
                }
                default -> throw new AssertionError(operation);
            }
        }

        /** The request waits: it joins the end of the tag's queue. */
        private Object enqueue(String tag, Object state) {
            Waiters queue = state == null ? new Waiters() : (Waiters) state;
            waiting = new Pending(operation, processId, requestNumber, tag, map);
            queue.addLast(waiting);
            return queue;
        }

        /**
         * Puts the data: the waiting requests are served in arrival order — every read before the first get receives
         * it, the first get takes it — and the data stays unless a get took it.
         */
        private Object deliver(String tag, Object state) {
            if (state instanceof Waiters) {
                Waiters queue = (Waiters) state;
                Pending pending;
                while ((pending = queue.pollFirst()) != null) {
                    pending.decide(new Outcome(pending.operation, tag, data, false));
                    served.add(pending);
                    decided();
                    if (pending.operation == Operation.GET) {
                        return queue.isEmpty() ? null : queue;
                    }
                }
            }
            return data;
        }

        private void decided() {
            Runnable hook = decisionHook;
            if (hook != null) {
                hook.run();
            }
        }

        /** Removes the target from its tag's queue and cancels it, unless a put has served it already. */
        private Object cancel(Object state) {
            if (state instanceof Waiters && ((Waiters) state).remove(target)) {
                target.decide(Outcome.cancelled(target.operation, target.tag));
                decided();
                return ((Waiters) state).isEmpty() ? null : state;
            }
            return state;
        }
    }

    /**
     * Per-process state, counters included, laid out between padding (before, from {@link PaddedBefore}, and after,
     * from {@link ProcessState}) so that processes on different threads write no common cache line wherever the
     * collector moves them. Guarded by {@link #locked}.
     */
    private abstract static class ProcessFields extends PaddedBefore {
        /**
         * The process's lock: 1 while held. A field here rather than a lock object of its own, so that it stays
         * between this state's padding wherever the collector moves it. See {@link ProcessState#acquire()}.
         */
        volatile int locked;
        /**
         * The highest request number issued: the leading front. Written under the lock; volatile so that a replica
         * can tell, without the lock, that its put is a duplicate and skip copying its data (it never decreases).
         */
        volatile long issued;
        /**
         * The request at {@code issued} that had to wait, until it is settled into the log; it may have been served or
         * cancelled since by a step on its tag that did not take this lock (its result is then published, once that
         * step is complete).
         */
        Pending pending;
        final ReadLog log;
        final TagStep step = new TagStep();
        /** Requests handled, by kind. */
        long puts;
        long putsIfAbsent;
        long reads;
        long gets;
        long tryReads;
        long tryGets;
        long duplicatesIgnored;
        long servedFromLog;
        long joinedPending;
        long evictions;
        long evictedRequests;
        long maxReplicaLag;

        ProcessFields(ReadLog log) {
            this.log = log;
        }
    }

    /** The per-process state with its methods; its own fields are the padding after {@link ProcessFields}. */
    private static final class ProcessState extends ProcessFields {
        /** Stores need only release order: the lock orders them for readers under it, and hints may be stale. */
        static final VarHandle ISSUED;
        /** Acquired by compare-and-set, released by a release store. */
        static final VarHandle LOCKED;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                ISSUED = lookup.findVarHandle(ProcessFields.class, "issued", long.class);
                LOCKED = lookup.findVarHandle(ProcessFields.class, "locked", int.class);
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

        ProcessState(ReadLog log) {
            super(log);
        }

        void count(Operation operation) {
            switch (operation) {
                case PUT -> puts++;
                case PUT_IF_ABSENT -> putsIfAbsent++;
                case READ -> reads++;
                case GET -> gets++;
                case TRY_READ -> tryReads++;
                case TRY_GET -> tryGets++;
                default -> throw new AssertionError(operation);
            }
        }

        long requests(Operation operation) {
            return switch (operation) {
                case PUT -> puts;
                case PUT_IF_ABSENT -> putsIfAbsent;
                case READ -> reads;
                case GET -> gets;
                case TRY_READ -> tryReads;
                case TRY_GET -> tryGets;
                default -> throw new AssertionError(operation);
            };
        }

        /**
         * Takes the process's lock. It is held only for a few operations and never while waiting (no request waits
         * under it), so a contender spins briefly, then yields its processor to the holder, instead of parking; it
         * is not reentrant, and no code path takes it twice.
         */
        void acquire() {
            if (LOCKED.compareAndSet(this, 0, 1)) {
                return;
            }
            for (int spins = 0; ; spins++) {
                if (locked == 0 && LOCKED.compareAndSet(this, 0, 1)) {
                    return;
                }
                if (spins < SPINS) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
        }

        void release() {
            LOCKED.setRelease(this, 0);
        }

        /** Moves the pending request into the log once it has an outcome. Under the lock. */
        void settle() {
            Pending p = pending;
            if (p != null) {
                Outcome outcome = p.outcome();
                if (outcome != null) {
                    pending = null;
                    log(p.requestNumber, outcome);
                }
            }
        }

        Outcome log(long requestNumber, Outcome outcome) {
            evictions += log.append(requestNumber, outcome);
            return outcome;
        }

        /** The logged outcome of an issued request that is not pending. Under the lock, settled. */
        Outcome logged(int processId, long requestNumber) {
            Outcome logged = log.get(requestNumber);
            if (logged == null) {
                throw new ReadLogEvictedException(processId, requestNumber, log.oldest(), issued);
            }
            return logged;
        }

        /**
         * Answers a request the process has issued before: its logged outcome, or the pending request to wait for.
         * Under the lock, settled.
         */
        RequestState replay(Operation operation, int processId, long requestNumber, String tag) {
            long lag = issued - requestNumber;
            if (lag > maxReplicaLag) {
                maxReplicaLag = lag;
            }
            Pending p = pending;
            if (p != null && p.requestNumber == requestNumber) {
                checkSame(processId, requestNumber, p.operation, p.tag, operation, tag);
                joinedPending++;
                return p;
            }
            Outcome logged = log.get(requestNumber);
            if (logged == null) {
                if (operation == Operation.PUT) {
                    // The single-put rule needs no outcome: the first replica's put took effect long ago.
                    duplicatesIgnored++;
                    return new Outcome(operation, tag, null, true);
                }
                evictedRequests++;
                throw new ReadLogEvictedException(processId, requestNumber, log.oldest(), issued);
            }
            checkSame(processId, requestNumber, logged.operation, logged.tag, operation, tag);
            if (operation.isPut()) {
                duplicatesIgnored++;
            } else {
                servedFromLog++;
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
    }
}
