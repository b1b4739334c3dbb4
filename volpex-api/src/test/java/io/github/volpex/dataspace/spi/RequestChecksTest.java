package io.github.volpex.dataspace.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.DataspaceStatistics;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.Request;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The shared checks, the wait limit and the statistics counters, at their bounds. */
class RequestChecksTest {

    private final RequestChecks checks = RequestChecks.of(2, DataspaceOptions.builder().maxTagLength(3).build());

    @Test
    void a_wait_limit_spells_no_bound_as_a_value_and_rejects_what_is_not_a_timeout() {
        assertTrue(WaitLimit.of(Duration.ZERO).isImmediate());
        assertSame(WaitLimit.immediate(), WaitLimit.of(Duration.ZERO));
        Duration longest = Duration.ofSeconds(DataspaceOptions.UNBOUNDED_TIMEOUT_SECONDS - 1, 999_999_999);
        assertEquals(longest, WaitLimit.of(longest).duration());
        assertFalse(WaitLimit.of(longest).isImmediate());
        assertFalse(WaitLimit.of(Duration.ofSeconds(DataspaceOptions.UNBOUNDED_TIMEOUT_SECONDS)).isBounded());
        assertSame(WaitLimit.unbounded(), WaitLimit.of(Duration.ofSeconds(Long.MAX_VALUE)));
        assertEquals("an unbounded wait has no duration",
                assertThrows(IllegalStateException.class, () -> WaitLimit.unbounded().duration()).getMessage());
        assertEquals("timeout must be >= 0: PT-0.001S", assertThrows(IllegalArgumentException.class,
                () -> WaitLimit.of(Duration.ofMillis(-1))).getMessage());
        assertEquals("timeout", assertThrows(NullPointerException.class, () -> WaitLimit.of(null)).getMessage());
        assertEquals(WaitLimit.of(Duration.ofSeconds(2)), WaitLimit.of(Duration.ofMillis(2000)));
    }

    @Test
    void opening_at_a_saved_number_checks_the_range_and_steps_back_into_a_pending_request() {
        assertEquals(0, checks.openAt(1, 0, 0, false));
        assertEquals(5, checks.openAt(1, 5, 9, false));
        assertEquals(8, checks.openAt(1, 9, 9, true), "a checkpoint taken inside request 9 repeats it");
        assertEquals("savedRequestNumber must be in [0, 9] (the high-water mark of process 1): 10",
                assertThrows(IllegalArgumentException.class, () -> checks.openAt(1, 10, 9, false)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> checks.openAt(1, -1, 9, false));
        assertEquals("processId must be in [0, 1]: 2",
                assertThrows(IllegalArgumentException.class, () -> checks.openAt(2, 0, 0, false)).getMessage());
        assertEquals(1, RequestChecks.closedOnOpen(0, 0).requestNumber());
        assertEquals(8, RequestChecks.closedOnOpen(0, 7).requestNumber());
        assertTrue(RequestChecks.closedOnOpen(0, 7).dataspaceClosed());
    }

    @Test
    void requests_are_checked_against_the_process_count_and_the_tag_limit() {
        Request fine = Request.read(1, 1, "abc");
        assertSame(fine, checks.checkRequest(fine));
        assertThrows(IllegalArgumentException.class, () -> checks.checkRequest(Request.read(2, 1, "abc")));
        assertThrows(IllegalArgumentException.class, () -> checks.checkRequest(Request.read(0, 1, "abcd")));
        assertEquals("request", assertThrows(NullPointerException.class, () -> checks.checkRequest(null))
                .getMessage());
        assertThrows(IllegalArgumentException.class, () -> RequestChecks.of(0, DataspaceOptions.defaults()));
        assertThrows(NullPointerException.class, () -> RequestChecks.of(1, null));
    }

    @Test
    void statistics_add_up_keep_the_largest_lag_and_refuse_negative_counts() {
        RequestStatistics counters = new RequestStatistics();
        counters.addRequests(Operation.GET, 3);
        counters.addRequests(Operation.GET, 2);
        counters.addDuplicatesIgnored(1);
        counters.addServedFromLog(2);
        counters.addJoinedPending(3);
        counters.addEvictions(4);
        counters.addEvictedRequests(5);
        counters.recordReplicaLag(7);
        counters.recordReplicaLag(3);
        DataspaceStatistics snapshot = counters.snapshot();
        assertEquals(5, snapshot.requests(Operation.GET));
        assertEquals(0, snapshot.requests(Operation.PUT));
        assertEquals(new DataspaceStatistics(snapshot.requestsByOperation(), 1, 2, 3, 4, 5, 7), snapshot);
        assertEquals("count must be >= 0: -1", assertThrows(IllegalArgumentException.class,
                () -> counters.addEvictions(-1)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> counters.recordReplicaLag(-1));
        assertEquals(snapshot, counters.snapshot(), "a refused count adds nothing");
    }
}
