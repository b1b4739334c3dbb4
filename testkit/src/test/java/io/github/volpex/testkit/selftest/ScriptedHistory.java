package io.github.volpex.testkit.selftest;

import io.github.volpex.dataspace.Operation;
import io.github.volpex.testkit.CallOutcome;
import io.github.volpex.testkit.DataspaceHistory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Histories written out by hand or drawn at random: calls with given invocation and response times, fed to a
 * {@link DataspaceHistory} on a clock set to each event's time in turn.
 */
final class ScriptedHistory {

    /** Stands for "no response": the call never returned. */
    static final long NEVER = Long.MAX_VALUE;

    /**
     * One call: a request (its operation non-null) or a cancel of {@code process}'s request {@code request} (operation
     * null); {@code outcome} is null when the call never returned ({@code returned} is then {@link #NEVER}).
     */
    record Call(int process, long request, Operation operation, String tag, String data, long invoked, long returned,
            CallOutcome outcome) {

        boolean pending() {
            return returned == NEVER;
        }
    }

    private final List<Call> calls = new ArrayList<>();

    ScriptedHistory call(int process, long request, Operation operation, String tag, String data, long invoked,
            long returned, CallOutcome outcome) {
        calls.add(new Call(process, request, operation, tag, data, invoked, returned, outcome));
        return this;
    }

    ScriptedHistory put(int process, String tag, String value, long invoked, long returned) {
        return call(process, 1, Operation.PUT, tag, value, invoked, returned,
                returned == NEVER ? null : CallOutcome.put());
    }

    ScriptedHistory request(int process, Operation operation, String tag, long invoked, long returned,
            CallOutcome outcome) {
        return call(process, 1, operation, tag, null, invoked, returned, outcome);
    }

    ScriptedHistory cancel(int process, long request, long invoked, long returned, CallOutcome answer) {
        return call(process, request, null, null, null, invoked, returned, answer);
    }

    List<Call> calls() {
        return calls;
    }

    /** Records the calls, each at its times, into a new history. */
    DataspaceHistory build() {
        long[] clock = new long[1];
        DataspaceHistory history = DataspaceHistory.create(() -> clock[0]);
        record Event(long time, boolean response, int index) {
        }
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            events.add(new Event(calls.get(i).invoked(), false, i));
            if (!calls.get(i).pending()) {
                events.add(new Event(calls.get(i).returned(), true, i));
            }
        }
        events.sort(Comparator.comparingLong(Event::time).thenComparing(Event::response)
                .thenComparingInt(Event::index));
        Map<Integer, DataspaceHistory.Call> recorded = new HashMap<>();
        for (Event event : events) {
            clock[0] = event.time();
            Call call = calls.get(event.index());
            if (event.response()) {
                recorded.get(event.index()).returned(call.outcome());
            } else if (call.operation() == null) {
                recorded.put(event.index(), history.invokeCancel(call.process(), call.request()));
            } else {
                recorded.put(event.index(), history.invoke(call.process(), call.request(), call.operation(),
                        call.tag(), call.data() == null ? null : bytes(call.data())));
            }
        }
        return history;
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static CallOutcome data(String text) {
        return CallOutcome.data(bytes(text));
    }
}
