package io.github.volpex.testkit.selftest;

import static io.github.volpex.testkit.selftest.ScriptedHistory.NEVER;
import static io.github.volpex.testkit.selftest.ScriptedHistory.data;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Operation;
import io.github.volpex.testkit.CallOutcome;
import io.github.volpex.testkit.DataspaceHistory;
import io.github.volpex.testkit.LinearizabilityChecker;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The checker on histories known to be linearizable and known not to be, written out by hand (times in nanoseconds,
 * though only their order counts).
 */
class LinearizabilityCheckerTest {

    private static final LinearizabilityChecker CHECKER = LinearizabilityChecker.create();

    private static LinearizabilityChecker.Result check(ScriptedHistory history) {
        return CHECKER.check(history.build());
    }

    private static void assertLinearizable(ScriptedHistory history) {
        LinearizabilityChecker.Result result = check(history);
        assertTrue(result.isLinearizable(), result::toString);
    }

    private static void assertNotLinearizable(ScriptedHistory history) {
        LinearizabilityChecker.Result result = check(history);
        assertFalse(result.isLinearizable(), result::toString);
        assertEquals(1, result.violations().size() + result.disagreements().size(), result::toString);
        assertTrue(result.undecided().isEmpty(), result::toString);
    }

    /**
     * The history that showed a served read visible before its put's step: P0's read returned P4's value at 1,944 µs,
     * so the put took effect by then; P3's tryRead began later and found nothing, and nothing removed the value.
     */
    private static ScriptedHistory readBeforePutInstalled(long tryReadInvokedMicros) {
        long us = 1_000;
        return new ScriptedHistory()
                .call(0, 12, Operation.READ, "b5", null, 0, 1_944 * us, data("p4.9"))
                .call(4, 9, Operation.PUT, "b5", "p4.9", 1_727 * us, 2_196 * us, CallOutcome.put())
                .call(3, 29, Operation.TRY_READ, "b5", null, tryReadInvokedMicros * us, 2_149 * us,
                        CallOutcome.absent())
                .call(5, 1, Operation.TRY_GET, "b5", null, 4_223 * us, 4_224 * us, data("p4.9"));
    }

    @Test
    void the_four_requests_of_a_read_served_before_its_put_took_effect_are_not_linearizable() {
        LinearizabilityChecker.Result result = check(readBeforePutInstalled(2_149));
        assertFalse(result.isLinearizable());
        assertEquals(1, result.violations().size(), result::toString);
        String violation = result.violations().get(0);
        assertTrue(violation.startsWith("tag \"b5\""), violation);
        assertTrue(violation.contains("[0.000 ms, 1.944 ms] P0#12 READ -> \"p4.9\""), violation);
        assertTrue(violation.contains("[2.149 ms, 2.149 ms] P3#29 TRY_READ -> absent"), violation);
    }

    @Test
    void the_same_requests_are_linearizable_when_the_try_read_began_before_the_read_returned() {
        // Then the try-read may precede the put, and the read follow it.
        assertLinearizable(readBeforePutInstalled(1_900));
    }

    @Test
    void an_empty_history_and_a_sequential_one_are_linearizable() {
        assertLinearizable(new ScriptedHistory());
        assertLinearizable(new ScriptedHistory()
                .put(0, "t", "a", 0, 1)
                .request(1, Operation.READ, "t", 2, 3, data("a"))
                .request(2, Operation.TRY_GET, "t", 4, 5, data("a"))
                .request(3, Operation.TRY_READ, "t", 6, 7, CallOutcome.absent())
                .call(4, 1, Operation.PUT_IF_ABSENT, "t", "b", 8, 9, CallOutcome.stored(true))
                .call(5, 1, Operation.PUT_IF_ABSENT, "t", "c", 10, 11, CallOutcome.stored(false))
                .request(6, Operation.GET, "t", 12, 13, data("b")));
    }

    @Test
    void a_value_no_put_wrote_or_a_stale_value_is_not_linearizable() {
        assertNotLinearizable(new ScriptedHistory()
                .put(0, "t", "a", 0, 1)
                .request(1, Operation.READ, "t", 2, 3, data("z")));
        assertNotLinearizable(new ScriptedHistory()
                .put(0, "t", "a", 0, 1)
                .put(1, "t", "b", 2, 3)
                .request(2, Operation.TRY_READ, "t", 4, 5, data("a")));
    }

    @Test
    void a_value_taken_twice_is_not_linearizable_and_overlapping_gets_cannot_share_one() {
        assertNotLinearizable(new ScriptedHistory()
                .put(0, "t", "a", 0, 1)
                .request(1, Operation.GET, "t", 2, 3, data("a"))
                .request(2, Operation.GET, "t", 4, 5, data("a")));
        assertNotLinearizable(new ScriptedHistory()
                .put(0, "t", "a", 0, 1)
                .request(1, Operation.TRY_GET, "t", 2, 10, data("a"))
                .request(2, Operation.GET, "t", 3, 9, data("a")));
    }

    @Test
    void a_blocking_read_completes_within_its_span_at_the_step_of_the_put_that_serves_it() {
        // The read waits from before the put to after it.
        assertLinearizable(new ScriptedHistory()
                .request(0, Operation.READ, "t", 0, 10, data("a"))
                .put(1, "t", "a", 5, 6));
        // The read returned before the put began.
        assertNotLinearizable(new ScriptedHistory()
                .request(0, Operation.READ, "t", 0, 4, data("a"))
                .put(1, "t", "a", 5, 6));
    }

    @Test
    void a_put_serves_the_waiting_reads_and_the_first_waiting_get_which_takes_the_value() {
        // A read and a get wait; the put serves both and the get takes the value: a later try-read finds nothing.
        assertLinearizable(new ScriptedHistory()
                .request(0, Operation.READ, "t", 0, 20, data("a"))
                .request(1, Operation.GET, "t", 1, 20, data("a"))
                .request(2, Operation.TRY_READ, "t", 2, 3, CallOutcome.absent())
                .put(3, "t", "a", 10, 11)
                .request(4, Operation.TRY_READ, "t", 30, 31, CallOutcome.absent()));
        // Two gets waited through both puts: each takes one value, so the tag is empty afterwards.
        assertNotLinearizable(new ScriptedHistory()
                .request(0, Operation.GET, "t", 0, 50, data("a"))
                .request(1, Operation.GET, "t", 1, 50, data("b"))
                .request(2, Operation.TRY_READ, "t", 2, 3, CallOutcome.absent())
                .put(3, "t", "a", 10, 11)
                .put(4, "t", "b", 20, 21)
                .request(5, Operation.TRY_READ, "t", 60, 61, data("b")));
    }

    @Test
    void single_assignment_puts_store_only_into_an_empty_tag() {
        assertNotLinearizable(new ScriptedHistory()
                .put(0, "t", "a", 0, 1)
                .call(1, 1, Operation.PUT_IF_ABSENT, "t", "b", 2, 3, CallOutcome.stored(true)));
        assertNotLinearizable(new ScriptedHistory()
                .call(1, 1, Operation.PUT_IF_ABSENT, "t", "b", 2, 3, CallOutcome.stored(false)));
        // One of two racing ones stores.
        assertLinearizable(new ScriptedHistory()
                .call(0, 1, Operation.PUT_IF_ABSENT, "t", "a", 0, 10, CallOutcome.stored(false))
                .call(1, 1, Operation.PUT_IF_ABSENT, "t", "b", 1, 9, CallOutcome.stored(true))
                .request(2, Operation.TRY_READ, "t", 11, 12, data("b")));
    }

    @Test
    void a_cancelled_get_consumes_nothing_and_a_late_cancel_answers_with_the_outcome() {
        assertLinearizable(new ScriptedHistory()
                .request(0, Operation.GET, "t", 0, 100, CallOutcome.cancelled())
                .cancel(0, 1, 10, 11, CallOutcome.cancelled())
                .put(1, "t", "a", 20, 21)
                .request(2, Operation.TRY_READ, "t", 30, 31, data("a")));
        assertNotLinearizable(new ScriptedHistory()
                .request(0, Operation.GET, "t", 0, 100, CallOutcome.cancelled())
                .cancel(0, 1, 10, 11, CallOutcome.cancelled())
                .put(1, "t", "a", 20, 21)
                .request(2, Operation.TRY_READ, "t", 30, 31, CallOutcome.absent()));
        // The put served the get before the cancel came: the cancel answers with the data.
        assertLinearizable(new ScriptedHistory()
                .request(0, Operation.GET, "t", 0, 100, data("a"))
                .put(1, "t", "a", 5, 6)
                .cancel(0, 1, 10, 11, data("a")));
        // A cancel cannot take effect before the request it cancels was issued.
        assertNotLinearizable(new ScriptedHistory()
                .cancel(0, 1, 0, 1, CallOutcome.cancelled())
                .request(0, Operation.GET, "t", 2, 3, CallOutcome.cancelled()));
    }

    @Test
    void a_cancel_whose_answer_differs_from_the_requests_outcome_is_a_disagreement() {
        LinearizabilityChecker.Result result = check(new ScriptedHistory()
                .request(0, Operation.GET, "t", 0, 100, data("a"))
                .put(1, "t", "a", 5, 6)
                .cancel(0, 1, 10, 11, CallOutcome.cancelled()));
        assertFalse(result.isLinearizable());
        assertEquals(1, result.disagreements().size(), result::toString);
    }

    @Test
    void a_pending_request_may_take_effect_at_any_instant_after_its_invocation_or_never() {
        // A put that never returned took effect between two try-reads.
        assertLinearizable(new ScriptedHistory()
                .put(0, "t", "a", 0, NEVER)
                .request(1, Operation.TRY_READ, "t", 10, 11, CallOutcome.absent())
                .request(2, Operation.TRY_READ, "t", 20, 21, data("a")));
        // ... or never.
        assertLinearizable(new ScriptedHistory()
                .put(0, "t", "a", 0, NEVER)
                .request(1, Operation.TRY_READ, "t", 10, 11, CallOutcome.absent()));
        // But not twice, and nothing else removes the value.
        assertNotLinearizable(new ScriptedHistory()
                .put(0, "t", "a", 0, NEVER)
                .request(1, Operation.TRY_READ, "t", 10, 11, data("a"))
                .request(2, Operation.TRY_READ, "t", 20, 21, CallOutcome.absent()));
        // A get that never returned may have taken the value, a read never.
        assertLinearizable(new ScriptedHistory()
                .put(0, "t", "a", 0, 1)
                .request(1, Operation.GET, "t", 2, NEVER, null)
                .request(2, Operation.TRY_READ, "t", 10, 11, CallOutcome.absent()));
        assertNotLinearizable(new ScriptedHistory()
                .put(0, "t", "a", 0, 1)
                .request(1, Operation.READ, "t", 2, NEVER, null)
                .request(2, Operation.TRY_READ, "t", 10, 11, CallOutcome.absent()));
        // A waiting read whose replicas all gave up never has to be served.
        assertLinearizable(new ScriptedHistory()
                .request(0, Operation.READ, "t", 0, NEVER, null));
    }

    @Test
    void replicas_of_a_request_span_from_the_first_invocation_to_the_first_response_and_must_agree() {
        // Process 0's request 1 by two replicas: the second one's response at 5 ends the span, so the put, invoked at
        // 6, cannot be what the read received.
        assertNotLinearizable(new ScriptedHistory()
                .call(0, 1, Operation.READ, "t", null, 0, 100, data("a"))
                .call(0, 1, Operation.READ, "t", null, 3, 5, data("a"))
                .put(1, "t", "a", 6, 7));
        // Trailing replicas that return later are fine.
        assertLinearizable(new ScriptedHistory()
                .call(0, 1, Operation.READ, "t", null, 0, 10, data("a"))
                .call(0, 1, Operation.READ, "t", null, 50, 51, data("a"))
                .put(1, "t", "a", 5, 6));
        // Replicas that received different outcomes.
        LinearizabilityChecker.Result result = check(new ScriptedHistory()
                .put(1, "t", "a", 0, 1)
                .call(0, 1, Operation.TRY_READ, "t", null, 2, 3, data("a"))
                .call(0, 1, Operation.TRY_READ, "t", null, 4, 5, CallOutcome.absent()));
        assertFalse(result.isLinearizable());
        assertEquals(1, result.disagreements().size(), result::toString);
        // Replicas that issued different requests under one number.
        result = check(new ScriptedHistory()
                .call(0, 1, Operation.TRY_READ, "t", null, 2, 3, CallOutcome.absent())
                .call(0, 1, Operation.TRY_GET, "t", null, 4, 5, CallOutcome.absent()));
        assertEquals(1, result.disagreements().size(), result::toString);
    }

    @Test
    void tags_are_checked_apart() {
        LinearizabilityChecker.Result result = check(new ScriptedHistory()
                .put(0, "x", "a", 0, 1)
                .request(1, Operation.TRY_READ, "y", 2, 3, CallOutcome.absent())
                .request(2, Operation.TRY_READ, "y", 4, 5, data("a")));
        assertEquals(1, result.violations().size(), result::toString);
        assertTrue(result.violations().get(0).startsWith("tag \"y\""), result::toString);
    }

    @Test
    void a_search_beyond_the_budget_is_undecided_never_linearizable() {
        ScriptedHistory history = new ScriptedHistory();
        for (int i = 0; i < 12; i++) {
            history.put(i, "t", "v" + i, i, 1_000);
        }
        history.request(12, Operation.TRY_READ, "t", 2_000, 2_001, data("v0"));
        LinearizabilityChecker.Result full = CHECKER.check(history.build());
        assertTrue(full.isLinearizable(), full::toString);
        LinearizabilityChecker.Result limited = CHECKER.maxStatesPerTag(5).check(history.build());
        assertFalse(limited.isLinearizable());
        assertEquals(1, limited.undecided().size(), limited::toString);
        assertTrue(limited.toString().contains("undecided after 6 configurations"), limited::toString);
        assertThrows(IllegalArgumentException.class, () -> CHECKER.maxStatesPerTag(0));
    }

    @Test
    void assert_linearizable_fails_with_the_report_and_a_cancel_of_an_unrecorded_request_is_refused() {
        DataspaceHistory history = readBeforePutInstalled(2_149).build();
        AssertionError failure = assertThrows(AssertionError.class, () -> CHECKER.assertLinearizable(history));
        assertTrue(failure.getMessage().contains("not linearizable: tag \"b5\""), failure::getMessage);
        DataspaceHistory orphan = new ScriptedHistory().cancel(7, 3, 0, 1, CallOutcome.cancelled()).build();
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> CHECKER.check(orphan));
        assertTrue(refused.getMessage().contains("P7#3"), refused::getMessage);
    }

    @Test
    void calls_are_recorded_with_validated_arguments_and_one_outcome() {
        DataspaceHistory history = DataspaceHistory.create();
        assertThrows(IllegalArgumentException.class, () -> history.invoke(-1, 1, Operation.READ, "t", null));
        assertThrows(IllegalArgumentException.class, () -> history.invoke(0, 0, Operation.READ, "t", null));
        assertThrows(NullPointerException.class, () -> history.invoke(0, 1, Operation.PUT, "t", null));
        assertThrows(IllegalArgumentException.class, () -> history.invoke(0, 1, Operation.READ, "t", new byte[1]));
        DataspaceHistory.Call call = history.invoke(0, 1, Operation.TRY_READ, "t", null);
        call.returned(CallOutcome.absent());
        assertThrows(IllegalStateException.class, () -> call.returned(CallOutcome.absent()));
        DataspaceHistory.Call rejected = history.invoke(0, 2, Operation.TRY_READ, "t", null);
        rejected.rejected();
        assertEquals(1, history.size());
        assertEquals(List.of(), CHECKER.check(history).violations());
    }
}
