package io.github.volpex.testkit;

import io.github.volpex.dataspace.DataspaceCancelledException;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.Replica;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * A record of the calls made on a dataspace, for {@link LinearizabilityChecker}: for every call, who made it (process
 * and request number), what it asked (operation, tag, a put's data), when it was invoked and when it returned, on one
 * clock, and what it returned. A call that has not returned — it timed out, was interrupted, failed with an eviction or
 * a closed dataspace, or its replica died inside it — has no outcome: the checker treats its request as pending, one
 * that may or may not have taken effect, unless another replica of the process received the request's outcome.
 *
 * <p>Record a call by {@link #invoke invoking} it just before making it and telling the returned {@link Call} what
 * came back just after; or wrap each replica with {@link #recording(Replica)}, which does both for every call:
 *
 * <pre>{@code
 * DataspaceHistory history = DataspaceHistory.create();
 * Replica replica = history.recording(dataspace.open(processId));   // one per replica, on any thread
 * replica.put("x", bytes);                                          // recorded with its times and outcome
 * ...
 * Optional<Reply> answer = dataspace.server().cancel(process, request);   // the middleware's cancel, by hand:
 * DataspaceHistory.Call cancel = history.invokeCancel(process, request);  // (invoke before the cancel, in truth)
 * cancel.returned(CallOutcome.ofCancel(answer));
 * ...
 * LinearizabilityChecker.create().assertLinearizable(history);     // once every call has returned or been given up
 * }</pre>
 *
 * <p>Thread-safe: any number of threads record calls at once. The clock must be one that every recording thread shares
 * and that never goes back ({@link System#nanoTime()} by default); the history orders calls by its readings, so a call
 * is known to precede another only if it returned at a strictly earlier reading than the other was invoked.
 *
 * @since 0.1
 */
public final class DataspaceHistory {

    private final LongSupplier nanoTime;
    private final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();

    private DataspaceHistory(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /**
     * Creates an empty history on {@link System#nanoTime()}.
     *
     * @return a new history
     */
    public static DataspaceHistory create() {
        return new DataspaceHistory(System::nanoTime);
    }

    /**
     * Creates an empty history on the given clock.
     *
     * @param nanoTime the clock, in nanoseconds, shared by every recording thread and never going back
     * @return a new history
     * @throws NullPointerException if {@code nanoTime} is null
     */
    public static DataspaceHistory create(LongSupplier nanoTime) {
        return new DataspaceHistory(Objects.requireNonNull(nanoTime, "nanoTime"));
    }

    /**
     * Records the invocation of a request, now: call it just before the request is made (by a replica, or through
     * {@link io.github.volpex.dataspace.DataspaceServer}).
     *
     * @param processId     the request's process, {@code ≥ 0}
     * @param requestNumber its request number, {@code ≥ 1}
     * @param operation     its kind
     * @param tag           its tag
     * @param data          a put's data (copied), null for every other kind
     * @return the call, to be told its outcome when it returns
     * @throws NullPointerException     if the operation or the tag is null, or a put's data is null
     * @throws IllegalArgumentException if the process id or the request number is out of range, or data is given to a
     *                                  request that is not a put
     */
    public Call invoke(int processId, long requestNumber, Operation operation, String tag, byte[] data) {
        checkRequest(processId, requestNumber);
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(tag, "tag");
        if (operation.isPut()) {
            Objects.requireNonNull(data, "data of a " + operation);
        } else if (data != null) {
            throw new IllegalArgumentException("data must be null for a " + operation + ": " + data.length
                    + " bytes");
        }
        return add(new Call(this, false, processId, requestNumber, operation, tag,
                data == null ? null : data.clone(), nanoTime.getAsLong()));
    }

    /**
     * Records the invocation of a cancel of a waiting request, now: call it just before
     * {@link io.github.volpex.dataspace.DataspaceServer#cancel(int, long)} or
     * {@link Replica#cancelPending()}. Its answer ({@link CallOutcome#ofCancel(Optional)}) is the cancelled request's
     * outcome; the request itself must be recorded too, by {@link #invoke}.
     *
     * @param processId     the process of the request to cancel, {@code ≥ 0}
     * @param requestNumber its request number, {@code ≥ 1}
     * @return the call, to be told its answer when it returns
     * @throws IllegalArgumentException if the process id or the request number is out of range
     */
    public Call invokeCancel(int processId, long requestNumber) {
        checkRequest(processId, requestNumber);
        return add(new Call(this, true, processId, requestNumber, null, null, null, nanoTime.getAsLong()));
    }

    /**
     * Returns a replica that forwards every call to {@code replica} and records it here: invoked just before, returned
     * with its outcome just after (a {@link DataspaceCancelledException} is the outcome {@link
     * CallOutcome#cancelled()}). A call that throws anything else — a timeout, an interrupt, an eviction, a closed
     * replica — stays without outcome; one the replica rejects as a caller error ({@link IllegalArgumentException},
     * {@link IllegalStateException}, {@link NullPointerException}, a {@link
     * io.github.volpex.dataspace.ReplicaDivergenceException}) is forgotten. The request number recorded is the
     * replica's {@link Replica#requestNumber()} plus one, read just before the call.
     *
     * @param replica the replica to record
     * @return the recording replica; it is the same replica (closing it closes {@code replica}), and like it is used
     *         by one thread at a time
     * @throws NullPointerException if {@code replica} is null
     */
    public Replica recording(Replica replica) {
        return new RecordingReplica(this, Objects.requireNonNull(replica, "replica"));
    }

    /**
     * Returns the number of calls recorded (forgotten ones excluded).
     *
     * @return the number of calls
     */
    public int size() {
        return calls.size();
    }

    /**
     * Returns the calls recorded so far, in the order they were invoked (by this history's clock).
     *
     * @return a new list
     */
    List<Call> snapshot() {
        List<Call> list = new ArrayList<>(calls);
        list.sort((a, b) -> Long.compare(a.invokedNanos, b.invokedNanos));
        return list;
    }

    /**
     * Returns every call, one a line, in the order invoked, with times in milliseconds after the first invocation.
     *
     * @return the history as text
     */
    @Override
    public String toString() {
        List<Call> list = snapshot();
        StringBuilder out = new StringBuilder();
        long origin = list.isEmpty() ? 0 : list.get(0).invokedNanos;
        for (Call call : list) {
            out.append(call.describe(origin)).append('\n');
        }
        return out.toString();
    }

    private Call add(Call call) {
        calls.add(call);
        return call;
    }

    private static void checkRequest(int processId, long requestNumber) {
        if (processId < 0) {
            throw new IllegalArgumentException("processId must be >= 0: " + processId);
        }
        if (requestNumber < 1) {
            throw new IllegalArgumentException("requestNumber must be >= 1: " + requestNumber);
        }
    }

    /** Times in milliseconds after {@code origin}, three decimals. */
    static String millis(long nanos, long origin) {
        return String.format(java.util.Locale.ROOT, "%.3f ms", (nanos - origin) / 1e6);
    }

    /**
     * One recorded call: its invocation, and its outcome once it returned.
     *
     * <p>Thread-safe.
     *
     * @since 0.1
     */
    public static final class Call {
        private final DataspaceHistory history;
        final boolean cancel;
        final int processId;
        final long requestNumber;
        /** Null for a cancel. */
        final Operation operation;
        /** Null for a cancel. */
        final String tag;
        /** A put's data; null otherwise. */
        final byte[] data;
        final long invokedNanos;
        private long returnedNanos;
        private CallOutcome outcome;

        private Call(DataspaceHistory history, boolean cancel, int processId, long requestNumber, Operation operation,
                String tag, byte[] data, long invokedNanos) {
            this.history = history;
            this.cancel = cancel;
            this.processId = processId;
            this.requestNumber = requestNumber;
            this.operation = operation;
            this.tag = tag;
            this.data = data;
            this.invokedNanos = invokedNanos;
        }

        /**
         * Records that the call returned, now, with this outcome. A call that never returns an outcome (it timed out,
         * was interrupted, or failed in a way that says nothing about its request) is simply never told.
         *
         * @param outcome what the call returned; for a cancel, its answer
         * @throws NullPointerException  if {@code outcome} is null
         * @throws IllegalStateException if the call was told its outcome already
         */
        public void returned(CallOutcome outcome) {
            Objects.requireNonNull(outcome, "outcome");
            long now = history.nanoTime.getAsLong();
            synchronized (this) {
                if (this.outcome != null) {
                    throw new IllegalStateException("call returned already, with " + this.outcome + ": "
                            + describe(invokedNanos));
                }
                this.returnedNanos = now;
                this.outcome = outcome;
            }
        }

        /**
         * Forgets the call: the dataspace rejected it as a caller error (a bad argument, a replica that diverged from
         * its process), so it never was a request.
         */
        public void rejected() {
            history.calls.remove(this);
        }

        /** The outcome, or null while the call has not returned. */
        synchronized CallOutcome outcome() {
            return outcome;
        }

        /** When the call returned; meaningful only once it has an outcome. */
        synchronized long returnedNanos() {
            return returnedNanos;
        }

        String describe(long origin) {
            CallOutcome out = outcome();
            String span = "[" + millis(invokedNanos, origin) + ", "
                    + (out == null ? "—" : millis(returnedNanos(), origin)) + "]";
            String what = cancel ? "cancel P" + processId + "#" + requestNumber
                    : "P" + processId + "#" + requestNumber + " " + operation + " " + tag
                    + (data == null ? "" : " " + CallOutcome.describe(data));
            return span + " " + what + " -> " + (out == null ? "no response" : out.toString());
        }

        @Override
        public String toString() {
            return describe(0);
        }
    }

    /** A call made through a {@link RecordingReplica}: it may throw any dataspace failure. */
    @FunctionalInterface
    private interface Body<T> {
        T run() throws InterruptedException;
    }

    /** The replica {@link #recording(Replica)} returns. */
    private static final class RecordingReplica implements Replica {
        private final DataspaceHistory history;
        private final Replica replica;

        RecordingReplica(DataspaceHistory history, Replica replica) {
            this.history = history;
            this.replica = replica;
        }

        private <T> T record(Operation operation, String tag, byte[] data, Body<T> body,
                Function<T, CallOutcome> outcome) throws InterruptedException {
            Call call = history.invoke(replica.processId(), replica.requestNumber() + 1, operation,
                    Objects.requireNonNull(tag, "tag"), data);
            return finish(call, body, outcome);
        }

        private static <T> T finish(Call call, Body<T> body, Function<T, CallOutcome> outcome)
                throws InterruptedException {
            T result;
            try {
                result = body.run();
            } catch (DataspaceCancelledException cancelled) {
                call.returned(CallOutcome.cancelled());
                throw cancelled;
            } catch (IllegalArgumentException | IllegalStateException | NullPointerException callerError) {
                call.rejected();
                throw callerError;
            } catch (io.github.volpex.dataspace.ReplicaDivergenceException diverged) {
                call.rejected();
                throw diverged;
            }
            call.returned(outcome.apply(result));
            return result;
        }

        private <T> T recordNonBlocking(Operation operation, String tag, byte[] data, Body<T> body,
                Function<T, CallOutcome> outcome) {
            try {
                return record(operation, tag, data, body, outcome);
            } catch (InterruptedException ex) {
                throw new AssertionError("a " + operation + " never waits", ex);
            }
        }

        @Override
        public int processId() {
            return replica.processId();
        }

        @Override
        public int processCount() {
            return replica.processCount();
        }

        @Override
        public long requestNumber() {
            return replica.requestNumber();
        }

        @Override
        public void put(String tag, byte[] data) {
            Objects.requireNonNull(data, "data");
            recordNonBlocking(Operation.PUT, tag, data, () -> {
                replica.put(tag, data);
                return Boolean.TRUE;
            }, done -> CallOutcome.put());
        }

        @Override
        public boolean putIfAbsent(String tag, byte[] data) {
            Objects.requireNonNull(data, "data");
            return recordNonBlocking(Operation.PUT_IF_ABSENT, tag, data, () -> replica.putIfAbsent(tag, data),
                    CallOutcome::stored);
        }

        @Override
        public byte[] read(String tag) throws InterruptedException {
            return record(Operation.READ, tag, null, () -> replica.read(tag), CallOutcome::data);
        }

        @Override
        public byte[] read(String tag, Duration timeout) throws InterruptedException {
            return record(Operation.READ, tag, null, () -> replica.read(tag, timeout), CallOutcome::data);
        }

        @Override
        public byte[] get(String tag) throws InterruptedException {
            return record(Operation.GET, tag, null, () -> replica.get(tag), CallOutcome::data);
        }

        @Override
        public byte[] get(String tag, Duration timeout) throws InterruptedException {
            return record(Operation.GET, tag, null, () -> replica.get(tag, timeout), CallOutcome::data);
        }

        @Override
        public Optional<byte[]> tryRead(String tag) {
            return recordNonBlocking(Operation.TRY_READ, tag, null, () -> replica.tryRead(tag),
                    found -> found.map(CallOutcome::data).orElse(CallOutcome.absent()));
        }

        @Override
        public Optional<byte[]> tryGet(String tag) {
            return recordNonBlocking(Operation.TRY_GET, tag, null, () -> replica.tryGet(tag),
                    found -> found.map(CallOutcome::data).orElse(CallOutcome.absent()));
        }

        @Override
        public Optional<byte[]> cancelPending() {
            Call call = history.invokeCancel(replica.processId(), replica.requestNumber() + 1);
            try {
                return finish(call, replica::cancelPending,
                        answer -> answer.map(CallOutcome::data).orElse(CallOutcome.cancelled()));
            } catch (InterruptedException ex) {
                throw new AssertionError("a cancel never waits", ex);
            }
        }

        @Override
        public boolean isClosed() {
            return replica.isClosed();
        }

        @Override
        public void close() {
            replica.close();
        }

        @Override
        public String toString() {
            return replica.toString();
        }
    }
}
