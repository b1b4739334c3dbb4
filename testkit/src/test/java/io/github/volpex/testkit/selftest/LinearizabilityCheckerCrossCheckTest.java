package io.github.volpex.testkit.selftest;

import static io.github.volpex.testkit.selftest.ScriptedHistory.NEVER;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.volpex.dataspace.Operation;
import io.github.volpex.testkit.CallOutcome;
import io.github.volpex.testkit.LinearizabilityChecker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;

/**
 * The checker against a brute force on small random histories of one tag (up to six calls, one replica each, cancels
 * included): the brute force tries every order of every admissible subset of the calls, runs the model written out
 * again here, and accepts an order if every recorded outcome matches and instants can be placed within the calls' spans
 * in that order. Half the histories are drawn from a sequential run whose steps are then given overlapping spans
 * around them (linearizable by construction), the other half get random outcomes (mostly not linearizable); both
 * verdicts must be equal on every one.
 */
class LinearizabilityCheckerCrossCheckTest {

    private static final String TAG = "t";
    private static final String[] VALUES = {"a", "b", "c"};
    private static final Operation[] OPERATIONS = Operation.values();

    @Property(tries = 3_000)
    void the_checker_agrees_with_a_brute_force_search(@ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        boolean fromRun = random.nextBoolean();
        ScriptedHistory history = fromRun ? fromSequentialRun(random) : randomOutcomes(random);
        boolean expected = BruteForce.linearizable(history.calls());
        boolean actual = LinearizabilityChecker.create().check(history.build()).isLinearizable();
        Statistics.label("linearizable").collect(expected);
        Statistics.label("drawn from a sequential run").collect(fromRun);
        Statistics.label("linearizable").coverage(c -> {
            c.check(true).percentage(p -> p >= 25);
            c.check(false).percentage(p -> p >= 25);
        });
        assertEquals(expected, actual, () -> "seed " + seed + ": brute force says " + expected + " for\n"
                + history.build());
    }

    /** Random calls, spans and outcomes: each call its own process. */
    private static ScriptedHistory randomOutcomes(SplittableRandom random) {
        ScriptedHistory history = new ScriptedHistory();
        int calls = 2 + random.nextInt(5);
        List<Integer> waiters = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            long invoked = random.nextInt(20);
            long returned = random.nextInt(5) == 0 ? NEVER : invoked + random.nextInt(10);
            if (!waiters.isEmpty() && random.nextInt(6) == 0) {
                int target = waiters.get(random.nextInt(waiters.size()));
                history.cancel(target, 1, invoked, returned, returned == NEVER ? null
                        : random.nextBoolean() ? CallOutcome.cancelled() : ScriptedHistory.data(value(random)));
                continue;
            }
            Operation operation = OPERATIONS[random.nextInt(OPERATIONS.length)];
            CallOutcome outcome = returned == NEVER ? null : randomOutcome(operation, random);
            history.call(i, 1, operation, TAG, operation.isPut() ? value(random) : null, invoked, returned, outcome);
            if (operation.isBlocking()) {
                waiters.add(i);
            }
        }
        return history;
    }

    private static CallOutcome randomOutcome(Operation operation, SplittableRandom random) {
        return switch (operation) {
            case PUT -> CallOutcome.put();
            case PUT_IF_ABSENT -> CallOutcome.stored(random.nextBoolean());
            case READ, GET -> random.nextInt(4) == 0 ? CallOutcome.cancelled() : ScriptedHistory.data(value(random));
            default -> random.nextInt(3) == 0 ? CallOutcome.absent() : ScriptedHistory.data(value(random));
        };
    }

    /**
     * A sequential run of random calls at instants 10, 20, 30, ...; each call's span then covers its instant (and, for
     * a waiting request, the instant that completed it) with a random margin; some calls never return.
     */
    private static ScriptedHistory fromSequentialRun(SplittableRandom random) {
        int calls = 2 + random.nextInt(5);
        BruteForce.Model model = new BruteForce.Model();
        List<Operation> operations = new ArrayList<>();
        List<String> data = new ArrayList<>();
        List<Integer> targets = new ArrayList<>();
        long[] instant = new long[calls];
        for (int i = 0; i < calls; i++) {
            instant[i] = 10L * (i + 1);
            List<Integer> waiting = model.waiting();
            if (!waiting.isEmpty() && random.nextInt(5) == 0) {
                int target = waiting.get(random.nextInt(waiting.size()));
                operations.add(null);
                data.add(null);
                targets.add(target);
                model.cancel(i, target, instant[i]);
                continue;
            }
            Operation operation = OPERATIONS[random.nextInt(OPERATIONS.length)];
            String value = operation.isPut() ? value(random) : null;
            operations.add(operation);
            data.add(value);
            targets.add(-1);
            model.apply(i, operation, value, instant[i]);
        }
        ScriptedHistory history = new ScriptedHistory();
        for (int i = 0; i < calls; i++) {
            long completedAt = model.completedAt.getOrDefault(i, NEVER);
            long invoked = instant[i] - random.nextInt(15);
            boolean abandoned = completedAt == NEVER || random.nextInt(6) == 0;
            long returned = abandoned ? NEVER : completedAt + random.nextInt(15);
            CallOutcome outcome = abandoned ? null : model.outcomes.get(i);
            if (operations.get(i) == null) {
                history.cancel(targets.get(i), 1, invoked, returned, outcome);
            } else {
                history.call(i, 1, operations.get(i), TAG, data.get(i), invoked, returned, outcome);
            }
        }
        return history;
    }

    private static String value(SplittableRandom random) {
        return VALUES[random.nextInt(VALUES.length)];
    }

    /** The brute force, and the sequential model of one tag written out a second time. */
    static final class BruteForce {

        /** The model: data, the queue of waiting calls, and each call's outcome and completion instant. */
        static final class Model {
            String value;
            final List<Integer> queue = new ArrayList<>();
            final Map<Integer, Operation> waitingKind = new HashMap<>();
            final Map<Integer, CallOutcome> outcomes = new HashMap<>();
            final Map<Integer, Long> completedAt = new HashMap<>();

            List<Integer> waiting() {
                return new ArrayList<>(queue);
            }

            /** Runs request {@code call}; {@code at} is its instant. */
            void apply(int call, Operation operation, String data, long at) {
                switch (operation) {
                    case PUT -> {
                        complete(call, CallOutcome.put(), at);
                        put(data, at);
                    }
                    case PUT_IF_ABSENT -> {
                        complete(call, CallOutcome.stored(value == null), at);
                        if (value == null) {
                            put(data, at);
                        }
                    }
                    case TRY_READ -> complete(call, value == null ? CallOutcome.absent() : ScriptedHistory.data(value),
                            at);
                    case TRY_GET -> {
                        complete(call, value == null ? CallOutcome.absent() : ScriptedHistory.data(value), at);
                        value = null;
                    }
                    default -> {
                        if (value != null) {
                            complete(call, ScriptedHistory.data(value), at);
                            if (operation == Operation.GET) {
                                value = null;
                            }
                        } else {
                            queue.add(call);
                            waitingKind.put(call, operation);
                        }
                    }
                }
            }

            /** Cancel {@code call} of {@code target}; returns false if the target has not run yet. */
            boolean cancel(int call, int target, long at) {
                if (queue.remove((Integer) target)) {
                    complete(target, CallOutcome.cancelled(), at);
                    complete(call, CallOutcome.cancelled(), at);
                    return true;
                }
                if (!outcomes.containsKey(target)) {
                    return false;
                }
                complete(call, outcomes.get(target), at);
                return true;
            }

            private void put(String data, long at) {
                while (!queue.isEmpty()) {
                    int waiter = queue.remove(0);
                    complete(waiter, ScriptedHistory.data(data), at);
                    if (waitingKind.get(waiter) == Operation.GET) {
                        return;
                    }
                }
                value = data;
            }

            private void complete(int call, CallOutcome outcome, long at) {
                outcomes.put(call, outcome);
                completedAt.put(call, at);
            }
        }

        /** Whether some order of the calls explains the history. */
        static boolean linearizable(List<ScriptedHistory.Call> calls) {
            int n = calls.size();
            // Each request's known outcome: its own, and its cancels' answers, which must agree.
            Map<Integer, CallOutcome> known = new HashMap<>();
            Map<Integer, Integer> requestIndex = new HashMap<>();
            for (int i = 0; i < n; i++) {
                if (calls.get(i).operation() != null) {
                    requestIndex.put(calls.get(i).process(), i);
                }
            }
            for (int i = 0; i < n; i++) {
                ScriptedHistory.Call call = calls.get(i);
                if (call.outcome() == null) {
                    continue;
                }
                int request = call.operation() != null ? i : requestIndex.get(call.process());
                CallOutcome before = known.put(request, call.outcome());
                if (before != null && !before.equals(call.outcome())) {
                    return false;
                }
            }
            return search(calls, known, requestIndex, new ArrayList<>(), new boolean[n]);
        }

        private static boolean search(List<ScriptedHistory.Call> calls, Map<Integer, CallOutcome> known,
                Map<Integer, Integer> requestIndex, List<Integer> order, boolean[] used) {
            if (admissible(calls, known, requestIndex, order)) {
                return true;
            }
            for (int i = 0; i < calls.size(); i++) {
                if (!used[i]) {
                    used[i] = true;
                    order.add(i);
                    boolean found = search(calls, known, requestIndex, order, used);
                    order.remove(order.size() - 1);
                    used[i] = false;
                    if (found) {
                        return true;
                    }
                }
            }
            return false;
        }

        /**
         * Whether the order explains the history: it holds every call that returned, the model reproduces every known
         * outcome, every call that returned is complete, and instants fit the spans: position {@code p} (a call's own
         * step, which may also complete waiting calls) needs an instant in {@code [lo(p), hi(p)]}, where {@code lo} is
         * the call's invocation and {@code hi} the earliest response among the calls it completes or starts, and
         * instants increase along the order: {@code lo(i) <= hi(j)} for every {@code i <= j}.
         */
        private static boolean admissible(List<ScriptedHistory.Call> calls, Map<Integer, CallOutcome> known,
                Map<Integer, Integer> requestIndex, List<Integer> order) {
            for (int i = 0; i < calls.size(); i++) {
                if (!calls.get(i).pending() && !order.contains(i)) {
                    return false;
                }
            }
            Model model = new Model();
            long[] lo = new long[order.size()];
            long[] hi = new long[order.size()];
            for (int p = 0; p < order.size(); p++) {
                int i = order.get(p);
                ScriptedHistory.Call call = calls.get(i);
                if (call.operation() == null) {
                    if (!model.cancel(i, requestIndex.get(call.process()), p)) {
                        return false;
                    }
                } else {
                    model.apply(i, call.operation(), call.data(), p);
                }
                lo[p] = call.invoked();
                hi[p] = call.returned();
            }
            for (Map.Entry<Integer, Long> completion : model.completedAt.entrySet()) {
                int p = (int) (long) completion.getValue();
                hi[p] = Math.min(hi[p], calls.get(completion.getKey()).returned());
            }
            for (int i = 0; i < calls.size(); i++) {
                ScriptedHistory.Call call = calls.get(i);
                if (!call.pending() && !model.completedAt.containsKey(i)) {
                    return false;
                }
                CallOutcome outcome = call.operation() == null ? call.outcome() : known.get(i);
                if (outcome != null && model.outcomes.containsKey(i) && !outcome.equals(model.outcomes.get(i))) {
                    return false;
                }
                if (call.operation() == null && outcome != null && model.outcomes.containsKey(i)
                        && !outcome.equals(model.outcomes.get(requestIndex.get(call.process())))) {
                    return false;
                }
            }
            for (int i = 0; i < order.size(); i++) {
                for (int j = i; j < order.size(); j++) {
                    if (lo[i] > hi[j]) {
                        return false;
                    }
                }
            }
            return true;
        }
    }
}
