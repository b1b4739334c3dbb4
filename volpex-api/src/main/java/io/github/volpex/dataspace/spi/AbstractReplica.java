package io.github.volpex.dataspace.spi;

import io.github.volpex.dataspace.DataspaceCancelledException;
import io.github.volpex.dataspace.DataspaceClosedException;
import io.github.volpex.dataspace.DataspaceTimeoutException;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.Replica;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The state machine of a {@link Replica} handle, for implementers of a dataspace: it checks the arguments, claims the
 * handle for one call at a time, numbers the calls, tracks the request a call left pending and advances the request
 * number exactly when a request completes. A subclass supplies the one {@link #call} that executes a numbered request,
 * the {@link #cancel} of the request a call left pending and, if its calls can block, a way to wake them on
 * {@link #close()} ({@link #onClose()}).
 *
 * <p>The rules, which every method of {@link Replica} documents for the caller:
 * <ul>
 *   <li>A call made while another thread's call (or {@link #cancelPending()}) runs on the handle fails with
 *       {@link IllegalStateException} and changes nothing.</li>
 *   <li>A call issues request {@code requestNumber() + 1}. It completes — and the request number advances — when
 *       {@link #call} returns or throws {@link DataspaceCancelledException} (a cancelled request is complete too).</li>
 *   <li>When {@link #call} throws {@link DataspaceTimeoutException} or {@link InterruptedException}, the request stays
 *       pending: the number does not advance, and {@link #cancelPending()} may end it. Any other failure leaves
 *       everything as it was.</li>
 *   <li>{@link #cancelPending()} needs a request left pending since the last completed one; it completes it.</li>
 * </ul>
 *
 * <p>The fields every call writes lie after sixty-four bytes of padding; a subclass that cares about sharing cache
 * lines with other threads' objects adds padding of its own after its fields.
 *
 * <p>Thread-safe in the sense of {@link Replica}: one call at a time, {@link #close()} and the getters from any thread.
 *
 * @since 0.1
 */
public abstract class AbstractReplica extends ReplicaPadding implements Replica {

    /** Stores to the request number need only release order: its readers only need a recent value. */
    private static final VarHandle REQUEST_NUMBER;
    /** 1 while a thread runs a call on this handle: set by compare-and-set, cleared with a release store. */
    private static final VarHandle BUSY;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            REQUEST_NUMBER = lookup.findVarHandle(AbstractReplica.class, "requestNumber", long.class);
            BUSY = lookup.findVarHandle(AbstractReplica.class, "busy", int.class);
        } catch (ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final RequestChecks checks;
    private final int processId;
    /** 1 while a thread runs a call on the handle (see {@link #BUSY}). */
    private volatile int busy;
    /** Written by the thread that owns the call (see {@link #busy}); read by any thread. */
    private volatile long requestNumber;
    /** Whether a call left request {@code requestNumber + 1} pending (a timeout or an interrupt). Guarded by busy. */
    private boolean leftPending;
    /** Set once by {@link #close()}. */
    private volatile boolean closed;

    /**
     * Creates a handle of a process at a request number.
     *
     * @param checks        the dataspace's request checks
     * @param processId     the process, in {@code [0, checks.processCount())}
     * @param requestNumber the number of the last request the replica completed, {@code ≥ 0}
     * @throws NullPointerException     if {@code checks} is null
     * @throws IllegalArgumentException if {@code processId} or {@code requestNumber} is out of range
     */
    protected AbstractReplica(RequestChecks checks, int processId, long requestNumber) {
        this.checks = Objects.requireNonNull(checks, "checks");
        this.processId = checks.checkProcessId(processId);
        if (requestNumber < 0) {
            throw new IllegalArgumentException("requestNumber must be >= 0: " + requestNumber);
        }
        this.requestNumber = requestNumber;
    }

    /**
     * Executes request {@code requestNumber} of this replica's process. Called with the handle claimed by the calling
     * thread, so never concurrently with itself or {@link #cancel}; the arguments are checked.
     *
     * @param operation     the kind of request
     * @param requestNumber its number: {@link #requestNumber()} + 1
     * @param tag           the tag
     * @param data          a put's data: the caller's own array, which the implementation copies if it keeps it;
     *                      null for every other kind
     * @param wait          how long the call may wait; {@link WaitLimit#immediate()} for puts and try-operations
     * @return what the request returned
     * @throws DataspaceTimeoutException   if the limit elapsed first (the request stays pending)
     * @throws InterruptedException        if interrupted while waiting (the request stays pending)
     * @throws DataspaceCancelledException if the request's outcome is "cancelled" (it is complete)
     */
    protected abstract CallResult call(Operation operation, long requestNumber, String tag, byte[] data,
            WaitLimit wait) throws InterruptedException;

    /**
     * Cancels request {@code requestNumber}, which a call of this handle left pending: see
     * {@link Replica#cancelPending()}. Called with the handle claimed, like {@link #call}.
     *
     * @param requestNumber the pending request's number: {@link #requestNumber()} + 1
     * @return empty if the request ended cancelled; otherwise the data it received, for the caller to keep
     */
    protected abstract Optional<byte[]> cancel(long requestNumber);

    /**
     * Wakes a call of this handle that blocks, once {@link #isClosed()} is true; runs on every {@link #close()}, from
     * any thread, and must be idempotent. Does nothing unless overridden.
     */
    protected void onClose() {
    }

    /**
     * Returns the checks this handle applies.
     *
     * @return the request checks
     */
    protected final RequestChecks checks() {
        return checks;
    }

    @Override
    public final int processId() {
        return processId;
    }

    @Override
    public final int processCount() {
        return checks.processCount();
    }

    @Override
    public final long requestNumber() {
        return requestNumber;
    }

    @Override
    public final void put(String tag, byte[] data) {
        checks.checkTag(tag);
        checks.checkData(data);
        callNow(Operation.PUT, tag, data);
    }

    @Override
    public final boolean putIfAbsent(String tag, byte[] data) {
        checks.checkTag(tag);
        checks.checkData(data);
        return callNow(Operation.PUT_IF_ABSENT, tag, data).stored();
    }

    @Override
    public final byte[] read(String tag) throws InterruptedException {
        return receive(Operation.READ, tag, WaitLimit.unbounded());
    }

    @Override
    public final byte[] read(String tag, Duration timeout) throws InterruptedException {
        return receive(Operation.READ, tag, WaitLimit.of(timeout));
    }

    @Override
    public final byte[] get(String tag) throws InterruptedException {
        return receive(Operation.GET, tag, WaitLimit.unbounded());
    }

    @Override
    public final byte[] get(String tag, Duration timeout) throws InterruptedException {
        return receive(Operation.GET, tag, WaitLimit.of(timeout));
    }

    @Override
    public final Optional<byte[]> tryRead(String tag) {
        checks.checkTag(tag);
        return Optional.ofNullable(callNow(Operation.TRY_READ, tag, null).dataForCaller());
    }

    @Override
    public final Optional<byte[]> tryGet(String tag) {
        checks.checkTag(tag);
        return Optional.ofNullable(callNow(Operation.TRY_GET, tag, null).dataForCaller());
    }

    @Override
    public final Optional<byte[]> cancelPending() {
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
            Optional<byte[]> data = cancel(next);
            completed(next);
            return data;
        } finally {
            BUSY.setRelease(this, 0);
        }
    }

    @Override
    public final boolean isClosed() {
        return closed;
    }

    @Override
    public final void close() {
        closed = true;
        onClose();
    }

    private byte[] receive(Operation operation, String tag, WaitLimit wait) throws InterruptedException {
        checks.checkTag(tag);
        return run(operation, tag, null, wait).dataForCaller();
    }

    private CallResult callNow(Operation operation, String tag, byte[] data) {
        try {
            return run(operation, tag, data, WaitLimit.immediate());
        } catch (InterruptedException ex) {
            throw new AssertionError("a " + operation + " never waits", ex);
        }
    }

    /** Issues the next request on this thread. */
    private CallResult run(Operation operation, String tag, byte[] data, WaitLimit wait)
            throws InterruptedException {
        enter();
        try {
            long next = requestNumber + 1;
            CallResult outcome;
            try {
                outcome = call(operation, next, tag, data, wait);
            } catch (DataspaceTimeoutException | InterruptedException stillPending) {
                leftPending = true;
                throw stillPending;
            } catch (DataspaceCancelledException cancelled) {
                completed(next); // an outcome: the request is complete, and the replica goes past it
                throw cancelled;
            }
            completed(next);
            return outcome;
        } finally {
            BUSY.setRelease(this, 0);
        }
    }

    private void completed(long requestNumber) {
        leftPending = false;
        REQUEST_NUMBER.setRelease(this, requestNumber);
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
