package io.github.volpex.testkit;

import io.github.volpex.dataspace.Operation;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks a {@link DataspaceHistory} for linearizability: whether every request can be given one instant between its
 * invocation and its response at which it took effect, such that the requests, run one at a time in the order of those
 * instants, return what they returned. The sequential model is the dataspace of one tag (Kanna et al., §II): a put
 * overwrites; a read returns the data, or waits in the tag's FIFO queue; a get returns and removes it, or waits; a put
 * serves the waiting requests in arrival order — every read before the first get receives its data, the first get
 * takes it — and the data stays only if no get took it; a single-assignment put stores only into an empty tag;
 * {@code tryRead} and {@code tryGet} return the data or "absent" at once; a cancel removes a waiting request from the
 * queue (the request's outcome is then "cancelled") or, when the request has completed, answers with its outcome. A
 * waiting read or get thus takes effect in two steps: it joins the queue within its own span, and receives its outcome
 * at the step of the put or cancel that serves it, which must also lie before its response.
 *
 * <h2>What is checked</h2>
 * <ol>
 *   <li><b>One outcome per request.</b> Calls with equal (process, request number) are replicas of one request: they
 *       must name the same operation, tag and put data, and every one that returned, and every cancel of the request
 *       that answered, must report the same outcome. The request spans from its earliest invocation to its earliest
 *       response; a request no call of which returned is <em>pending</em>: it may or may not have taken effect, at any
 *       instant after its invocation. Its outcome is still known when a cancel of it answered.</li>
 *   <li><b>Linearizability per tag.</b> Each tag's requests, and the cancels of them, must have a linearization
 *       against the model above. Linearizability is local (Herlihy and Wing, 1990: a history is linearizable iff each
 *       object's sub-history is), so checking tags one by one is exact.</li>
 * </ol>
 *
 * <h2>The algorithm, and its limits</h2>
 * Per tag, the search of Wing and Gong (1993) in the form Lowe gave it (2017, "just-in-time linearization"), with the
 * memoisation of Porcupine and of Elasticsearch's checker: the tag's invocations and responses form one list in time
 * order; the search linearizes, one at a time, a request invoked before the first response still in the list, if the
 * model accepts its recorded outcome, and removes it (and the response of every waiting request its step completes)
 * from the list; when the first entry left is a response, it backtracks. A configuration — the set of requests
 * linearized and the model's state (the data and the queue) — is explored once only. The search stops at success, at
 * a proof that none exists, or after {@link #maxStatesPerTag(long)} configurations (the verdict is then "undecided",
 * never "linearizable").
 *
 * <p>Checking linearizability is NP-complete (Gibbons and Korach, 1997). The work per tag grows with the number of
 * configurations, at most {@code n · 2^w} model states for a tag of {@code n} requests of which at most {@code w} are
 * ever open at one instant — concurrent, or pending, since a pending request stays open to the end — and each costs
 * {@code O(n)} time and about {@code n / 8 + 64} bytes of memory. Histories of a few hundred requests per tag with
 * a handful open at a time check in milliseconds; some twenty requests open at once, or many pending ones on one tag,
 * can exhaust the default budget of {@value #DEFAULT_MAX_STATES} configurations per tag (some hundred megabytes at
 * the most). Keep tags many and calls that never return few: an abandoned call's request is pending for the rest of the
 * history.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class LinearizabilityChecker {

    /** The default budget of configurations explored per tag. */
    public static final long DEFAULT_MAX_STATES = 1_000_000;

    /** Outcome codes; data received is coded by the index of its value, {@code >= 0}. */
    static final int UNKNOWN = Integer.MIN_VALUE;
    static final int ABSENT = -1;
    static final int PUT = -2;
    static final int STORED = -3;
    static final int KEPT = -4;
    static final int CANCELLED = -5;

    private final long maxStatesPerTag;

    private LinearizabilityChecker(long maxStatesPerTag) {
        this.maxStatesPerTag = maxStatesPerTag;
    }

    /**
     * Returns a checker with the default budget of {@value #DEFAULT_MAX_STATES} configurations per tag.
     *
     * @return the checker
     */
    public static LinearizabilityChecker create() {
        return new LinearizabilityChecker(DEFAULT_MAX_STATES);
    }

    /**
     * Returns a checker that gives up on a tag after exploring this many configurations, and reports it undecided.
     *
     * @param maxStates the budget per tag, {@code ≥ 1}
     * @return a new checker
     * @throws IllegalArgumentException if {@code maxStates < 1}
     */
    public LinearizabilityChecker maxStatesPerTag(long maxStates) {
        if (maxStates < 1) {
            throw new IllegalArgumentException("maxStates must be >= 1: " + maxStates);
        }
        return new LinearizabilityChecker(maxStates);
    }

    /**
     * Checks the calls recorded so far. Check once every call has returned or been given up: a call still running is
     * taken as pending.
     *
     * @param history the history
     * @return the verdict, with the facts of every failure
     * @throws NullPointerException     if {@code history} is null
     * @throws IllegalArgumentException if the history holds a cancel of a request no call of which it holds
     */
    public Result check(DataspaceHistory history) {
        List<DataspaceHistory.Call> calls = Objects.requireNonNull(history, "history").snapshot();
        long origin = calls.isEmpty() ? 0 : calls.get(0).invokedNanos;
        Map<String, Request> requests = new LinkedHashMap<>();
        List<String> disagreements = new ArrayList<>();
        for (DataspaceHistory.Call call : calls) {
            if (!call.cancel) {
                requests.computeIfAbsent(key(call.processId, call.requestNumber), k -> new Request(call))
                        .add(call, disagreements, origin);
            }
        }
        Map<String, List<Op>> byTag = new TreeMap<>();
        for (Request request : requests.values()) {
            byTag.computeIfAbsent(request.tag, t -> new ArrayList<>()).add(request.op);
        }
        for (DataspaceHistory.Call call : calls) {
            if (call.cancel) {
                Request request = requests.get(key(call.processId, call.requestNumber));
                if (request == null) {
                    throw new IllegalArgumentException("the history holds a cancel of P" + call.processId + "#"
                            + call.requestNumber + " but no call of that request: record the request too");
                }
                request.addCancel(call, disagreements, origin);
                byTag.get(request.tag).add(request.cancelOp(call));
            }
        }
        List<String> violations = new ArrayList<>();
        List<String> undecided = new ArrayList<>();
        long explored = 0;
        for (Map.Entry<String, List<Op>> entry : byTag.entrySet()) {
            List<Op> ops = entry.getValue();
            TagSearch search = new TagSearch(ops, maxStatesPerTag);
            TagSearch.Verdict verdict = search.run();
            explored += search.statesExplored();
            if (verdict != TagSearch.Verdict.LINEARIZABLE) {
                String text = "tag \"" + entry.getKey() + "\" (" + ops.size() + " calls"
                        + (verdict == TagSearch.Verdict.UNDECIDED ? ", undecided after " + search.statesExplored()
                        + " configurations" : "") + "):\n" + describe(ops, origin);
                (verdict == TagSearch.Verdict.UNDECIDED ? undecided : violations).add(text);
            }
        }
        return new Result(calls.size(), byTag.size(), explored, disagreements, violations, undecided);
    }

    /**
     * Checks the history and fails unless it is linearizable.
     *
     * @param history the history
     * @throws AssertionError           if replicas of a request disagree, a tag's history is not linearizable, or
     *                                  a tag's check exceeded the budget; the message lists the facts
     * @throws NullPointerException     if {@code history} is null
     * @throws IllegalArgumentException if the history holds a cancel of a request no call of which it holds
     */
    public void assertLinearizable(DataspaceHistory history) {
        Result result = check(history);
        if (!result.isLinearizable()) {
            throw new AssertionError(result.toString());
        }
    }

    private static String key(int processId, long requestNumber) {
        return processId + "#" + requestNumber;
    }

    private static String describe(List<Op> ops, long origin) {
        List<Op> sorted = new ArrayList<>(ops);
        sorted.sort(Comparator.comparingLong((Op op) -> op.invoked).thenComparingLong(op -> op.returned));
        StringBuilder out = new StringBuilder();
        for (Op op : sorted) {
            out.append("  ").append(op.describe(origin)).append('\n');
        }
        return out.toString();
    }

    /** One process-level request being assembled from its replicas' calls. */
    private static final class Request {
        final String tag;
        final Op op;
        private final DataspaceHistory.Call first;
        private CallOutcome outcome;

        Request(DataspaceHistory.Call first) {
            this.first = first;
            this.tag = first.tag;
            this.op = new Op(first.processId, first.requestNumber, first.operation, first.data, first.invokedNanos);
        }

        void add(DataspaceHistory.Call call, List<String> disagreements, long origin) {
            if (call != first && (call.operation != first.operation || !call.tag.equals(first.tag)
                    || !Arrays.equals(call.data, first.data))) {
                disagreements.add("replicas of P" + call.processId + "#" + call.requestNumber
                        + " issued different requests:\n  " + first.describe(origin) + "\n  " + call.describe(origin));
                return;
            }
            op.invoked = Math.min(op.invoked, call.invokedNanos);
            CallOutcome returned = call.outcome();
            if (returned != null) {
                op.returned = Math.min(op.returned, call.returnedNanos());
                merge(returned, call, disagreements, origin);
            }
        }

        void addCancel(DataspaceHistory.Call cancel, List<String> disagreements, long origin) {
            CallOutcome answer = cancel.outcome();
            if (answer != null) {
                merge(answer, cancel, disagreements, origin);
            }
        }

        private void merge(CallOutcome returned, DataspaceHistory.Call call, List<String> disagreements,
                long origin) {
            if (outcome == null) {
                outcome = returned;
                op.expected = returned;
            } else if (!outcome.equals(returned)) {
                disagreements.add("P" + call.processId + "#" + call.requestNumber + " received different outcomes: "
                        + outcome + " and " + returned + " (" + call.describe(origin) + ")");
            }
        }

        Op cancelOp(DataspaceHistory.Call cancel) {
            Op cancelOp = new Op(cancel.processId, cancel.requestNumber, null, null, cancel.invokedNanos);
            cancelOp.target = op;
            CallOutcome answer = cancel.outcome();
            if (answer != null) {
                cancelOp.returned = cancel.returnedNanos();
                cancelOp.expected = answer;
            }
            return cancelOp;
        }
    }

    /** One request (its operation non-null) or one cancel (its target non-null) on a tag. */
    static final class Op {
        final int processId;
        final long requestNumber;
        /** Null for a cancel. */
        final Operation operation;
        final byte[] data;
        long invoked;
        /** {@link Long#MAX_VALUE} while pending. */
        long returned = Long.MAX_VALUE;
        /** Null when unknown. */
        CallOutcome expected;
        /** For a cancel: the request it cancels. */
        Op target;
        // Set by the search.
        int index;
        int valueId = UNKNOWN;
        int expectedCode = UNKNOWN;

        Op(int processId, long requestNumber, Operation operation, byte[] data, long invoked) {
            this.processId = processId;
            this.requestNumber = requestNumber;
            this.operation = operation;
            this.data = data;
            this.invoked = invoked;
        }

        boolean pending() {
            return returned == Long.MAX_VALUE;
        }

        String describe(long origin) {
            String span = "[" + DataspaceHistory.millis(invoked, origin) + ", "
                    + (pending() ? "—" : DataspaceHistory.millis(returned, origin)) + "]";
            String what = operation == null ? "cancel P" + processId + "#" + requestNumber
                    : "P" + processId + "#" + requestNumber + " " + operation
                    + (data == null ? "" : " " + CallOutcome.describe(data));
            String result = pending() ? (expected == null ? "pending" : "pending, known outcome " + expected)
                    : String.valueOf(expected);
            return span + " " + what + " -> " + result;
        }
    }

    /**
     * The verdict on a history: linearizable, or the facts of each failure.
     *
     * <p>Immutable and thread-safe.
     *
     * @since 0.1
     */
    public static final class Result {
        private final int calls;
        private final int tags;
        private final long statesExplored;
        private final List<String> disagreements;
        private final List<String> violations;
        private final List<String> undecided;

        Result(int calls, int tags, long statesExplored, List<String> disagreements, List<String> violations,
                List<String> undecided) {
            this.calls = calls;
            this.tags = tags;
            this.statesExplored = statesExplored;
            this.disagreements = List.copyOf(disagreements);
            this.violations = List.copyOf(violations);
            this.undecided = List.copyOf(undecided);
        }

        /**
         * Tells whether the history passed: every request has one outcome, and every tag was shown linearizable.
         *
         * @return whether nothing failed and nothing is undecided
         */
        public boolean isLinearizable() {
            return disagreements.isEmpty() && violations.isEmpty() && undecided.isEmpty();
        }

        /**
         * Returns the requests whose replicas (or cancels) reported different outcomes, or that replicas issued
         * differently, one description each.
         *
         * @return an unmodifiable list, empty if none
         */
        public List<String> disagreements() {
            return disagreements;
        }

        /**
         * Returns the tags whose history has no linearization, each with its history (times in milliseconds after the
         * history's first invocation).
         *
         * @return an unmodifiable list, empty if none
         */
        public List<String> violations() {
            return violations;
        }

        /**
         * Returns the tags whose check exceeded the budget, each with its history.
         *
         * @return an unmodifiable list, empty if none
         */
        public List<String> undecided() {
            return undecided;
        }

        /**
         * Returns how many configurations the search explored over all tags.
         *
         * @return the number of configurations
         */
        public long statesExplored() {
            return statesExplored;
        }

        /**
         * Returns the verdict, then every failure with its facts.
         *
         * @return the report
         */
        @Override
        public String toString() {
            StringBuilder out = new StringBuilder();
            out.append(isLinearizable() ? "linearizable" : "not shown linearizable").append(": ").append(calls)
                    .append(" calls on ").append(tags).append(" tags, ").append(statesExplored)
                    .append(" configurations explored");
            for (String disagreement : disagreements) {
                out.append("\nreplicas disagree: ").append(disagreement);
            }
            for (String violation : violations) {
                out.append("\nnot linearizable: ").append(violation);
            }
            for (String tag : undecided) {
                out.append("\nundecided: ").append(tag);
            }
            return out.toString();
        }
    }

    /** The search on one tag's history. */
    static final class TagSearch {

        enum Verdict { LINEARIZABLE, NOT_LINEARIZABLE, UNDECIDED }

        private static final int[] EMPTY = new int[0];

        private final Op[] ops;
        private final long maxStates;
        private final Entry head = new Entry(null, false);
        /** Each op's return entry, or null while pending. */
        private final Entry[] returns;
        private final Set<Configuration> seen = new HashSet<>();
        private int remainingReturns;

        TagSearch(List<Op> tagOps, long maxStates) {
            this.ops = tagOps.toArray(new Op[0]);
            this.maxStates = maxStates;
            this.returns = new Entry[ops.length];
            Map<ByteBuffer, Integer> values = new HashMap<>();
            List<Entry> entries = new ArrayList<>();
            for (int i = 0; i < ops.length; i++) {
                Op op = ops[i];
                op.index = i;
                if (op.data != null) {
                    op.valueId = values.computeIfAbsent(ByteBuffer.wrap(op.data), v -> values.size());
                }
            }
            for (Op op : ops) {
                op.expectedCode = code(op.expected, values);
                entries.add(new Entry(op, true));
                if (!op.pending()) {
                    returns[op.index] = new Entry(op, false);
                    entries.add(returns[op.index]);
                    remainingReturns++;
                }
            }
            // Time order; at one reading, invocations first: only a strictly earlier response orders two calls.
            entries.sort(Comparator.comparingLong(Entry::time).thenComparing(e -> !e.call)
                    .thenComparingInt(e -> e.op.index));
            Entry last = head;
            for (Entry entry : entries) {
                last.next = entry;
                entry.prev = last;
                last = entry;
            }
        }

        /** An outcome's code: a value's index (a value no put wrote gets an index of its own), or a kind's code. */
        private static int code(CallOutcome outcome, Map<ByteBuffer, Integer> values) {
            if (outcome == null) {
                return UNKNOWN;
            }
            return switch (outcome.kind()) {
                case PUT -> PUT;
                case STORED -> STORED;
                case KEPT -> KEPT;
                case ABSENT -> ABSENT;
                case CANCELLED -> CANCELLED;
                case DATA -> values.computeIfAbsent(ByteBuffer.wrap(outcome.dataUnsafe()), v -> values.size());
                default -> throw new AssertionError(outcome);
            };
        }

        long statesExplored() {
            return seen.size();
        }

        Verdict run() {
            State state = State.INITIAL;
            BitSet linearized = new BitSet(ops.length);
            ArrayList<Frame> stack = new ArrayList<>();
            Entry entry = head.next;
            while (remainingReturns > 0) {
                if (entry.call) {
                    Step step = step(state, entry.op, linearized);
                    if (step != null) {
                        BitSet next = (BitSet) linearized.clone();
                        next.set(entry.op.index);
                        if (seen.add(new Configuration(next, step.state))) {
                            if (seen.size() > maxStates) {
                                return Verdict.UNDECIDED;
                            }
                            stack.add(new Frame(entry, state, lift(entry, step.completed)));
                            state = step.state;
                            linearized = next;
                            entry = head.next;
                            continue;
                        }
                    }
                    entry = entry.next;
                } else {
                    if (stack.isEmpty()) {
                        return Verdict.NOT_LINEARIZABLE;
                    }
                    Frame frame = stack.remove(stack.size() - 1);
                    unlift(frame.lifted);
                    state = frame.state;
                    linearized.clear(frame.call.op.index);
                    entry = frame.call.next;
                }
            }
            return Verdict.LINEARIZABLE;
        }

        /** Removes the call and the responses of the requests completed by its step; returns them in that order. */
        private Entry[] lift(Entry call, int[] completed) {
            Entry[] lifted = new Entry[1 + completed.length];
            lifted[0] = call;
            int n = 1;
            for (int index : completed) {
                Entry response = returns[index];
                if (response != null) {
                    lifted[n++] = response;
                    remainingReturns--;
                }
            }
            for (int i = 0; i < n; i++) {
                Entry e = lifted[i];
                e.prev.next = e.next;
                if (e.next != null) {
                    e.next.prev = e.prev;
                }
            }
            return n == lifted.length ? lifted : Arrays.copyOf(lifted, n);
        }

        /** Puts lifted entries back, in the reverse order of their removal. */
        private void unlift(Entry[] lifted) {
            for (int i = lifted.length - 1; i >= 0; i--) {
                Entry e = lifted[i];
                e.prev.next = e;
                if (e.next != null) {
                    e.next.prev = e;
                }
                if (!e.call) {
                    remainingReturns++;
                }
            }
        }

        /** The model's step for {@code op} from {@code state}: null if the recorded outcomes rule it out here. */
        private Step step(State state, Op op, BitSet linearized) {
            if (op.operation == null) {
                return cancel(state, op, linearized);
            }
            int expected = op.expectedCode;
            int self = op.index;
            switch (op.operation) {
                case PUT -> {
                    return accepts(expected, PUT) ? put(state, op.valueId, self) : null;
                }
                case PUT_IF_ABSENT -> {
                    if (state.value != ABSENT) {
                        return accepts(expected, KEPT) ? new Step(state, new int[] {self}) : null;
                    }
                    return accepts(expected, STORED) ? put(state, op.valueId, self) : null;
                }
                case TRY_READ -> {
                    return accepts(expected, state.value) ? new Step(state, new int[] {self}) : null;
                }
                case TRY_GET -> {
                    if (!accepts(expected, state.value)) {
                        return null;
                    }
                    return new Step(state.value == ABSENT ? state : State.EMPTY, new int[] {self});
                }
                case READ, GET -> {
                    if (state.value != ABSENT) {
                        if (!accepts(expected, state.value)) {
                            return null;
                        }
                        return new Step(op.operation == Operation.GET ? State.EMPTY : state, new int[] {self});
                    }
                    if (expected == ABSENT || expected == PUT || expected == STORED || expected == KEPT) {
                        return null;
                    }
                    int[] queue = Arrays.copyOf(state.queue, state.queue.length + 1);
                    queue[state.queue.length] = self;
                    return new Step(new State(ABSENT, queue), EMPTY);
                }
                default -> throw new AssertionError(op.operation);
            }
        }

        /** A put of value {@code value}: serves the queue in order, stops at the first get. */
        private Step put(State state, int value, int self) {
            int[] queue = state.queue;
            int served = 0;
            boolean taken = false;
            while (served < queue.length) {
                Op waiter = ops[queue[served]];
                if (!accepts(waiter.expectedCode, value)) {
                    return null;
                }
                served++;
                if (waiter.operation == Operation.GET) {
                    taken = true;
                    break;
                }
            }
            int[] completed = new int[served + 1];
            completed[0] = self;
            System.arraycopy(queue, 0, completed, 1, served);
            State next = taken ? new State(ABSENT, Arrays.copyOfRange(queue, served, queue.length))
                    : new State(value, EMPTY);
            return new Step(next, completed);
        }

        private Step cancel(State state, Op cancel, BitSet linearized) {
            Op target = cancel.target;
            if (!linearized.get(target.index)) {
                return null;
            }
            int position = -1;
            for (int i = 0; i < state.queue.length; i++) {
                if (state.queue[i] == target.index) {
                    position = i;
                    break;
                }
            }
            if (position < 0) {
                // The target completed: the cancel answers with its outcome (the same by construction).
                return new Step(state, new int[] {cancel.index});
            }
            if (!accepts(target.expectedCode, CANCELLED)) {
                return null;
            }
            int[] queue = new int[state.queue.length - 1];
            System.arraycopy(state.queue, 0, queue, 0, position);
            System.arraycopy(state.queue, position + 1, queue, position, queue.length - position);
            return new Step(new State(ABSENT, queue), new int[] {cancel.index, target.index});
        }

        private static boolean accepts(int expected, int actual) {
            return expected == UNKNOWN || expected == actual;
        }

        /** The model's state on the tag: the data's value index (or {@link #ABSENT}), and the waiting requests. */
        private static final class State {
            static final State EMPTY = new State(ABSENT, TagSearch.EMPTY);
            static final State INITIAL = EMPTY;
            final int value;
            final int[] queue;
            private final int hash;

            State(int value, int[] queue) {
                this.value = value;
                this.queue = queue;
                this.hash = 31 * value + Arrays.hashCode(queue);
            }

            @Override
            public boolean equals(Object other) {
                return other instanceof State && ((State) other).value == value
                        && Arrays.equals(((State) other).queue, queue);
            }

            @Override
            public int hashCode() {
                return hash;
            }
        }

        /** A step's next state and the ops it completed (whose responses leave the list). */
        private record Step(State state, int[] completed) {
        }

        /** A configuration of the search: the requests linearized and the state they led to. */
        private record Configuration(BitSet linearized, State state) {
        }

        /** A linearized call, with the state before it and the entries its step lifted. */
        private record Frame(Entry call, State state, Entry[] lifted) {
        }

        /** An invocation ({@code call}) or a response in the list. */
        private static final class Entry {
            final Op op;
            final boolean call;
            Entry prev;
            Entry next;

            Entry(Op op, boolean call) {
                this.op = op;
                this.call = call;
            }

            long time() {
                return call ? op.invoked : op.returned;
            }
        }
    }
}
