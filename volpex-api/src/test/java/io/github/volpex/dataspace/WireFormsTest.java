package io.github.volpex.dataspace;

import static io.github.volpex.dataspace.TestSupport.bytes;
import static io.github.volpex.dataspace.TestSupport.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What an adapter or a network client builds from the wire: the typed failures (public constructors that keep the
 * facts) and replies ({@link Reply#of}).
 */
class WireFormsTest {

    @Test
    void a_reply_built_from_its_facts_reads_them_back() {
        byte[] data = bytes("v");
        Reply reply = Reply.of(Operation.GET, 2, 9, data, false, true);
        data[0] = 'x';
        assertEquals("v", text(reply.data().orElseThrow()), "the data is copied in");
        assertEquals(Operation.GET, reply.operation());
        assertEquals(2, reply.processId());
        assertEquals(9, reply.requestNumber());
        assertTrue(reply.duplicate());
        assertFalse(reply.stored());
        assertTrue(Reply.of(Operation.TRY_READ, 0, 1, null, false, false).data().isEmpty());
        assertTrue(Reply.of(Operation.PUT_IF_ABSENT, 0, 1, null, false, false).data().isEmpty());
    }

    @Test
    void a_reply_no_dataspace_could_give_is_refused() {
        assertEquals("data must be null for PUT: 1 bytes", assertThrows(IllegalArgumentException.class,
                () -> Reply.of(Operation.PUT, 0, 1, bytes("v"), true, false)).getMessage());
        assertEquals("stored must be true for PUT: false", assertThrows(IllegalArgumentException.class,
                () -> Reply.of(Operation.PUT, 0, 1, null, false, false)).getMessage());
        assertEquals("stored must be false for READ: true", assertThrows(IllegalArgumentException.class,
                () -> Reply.of(Operation.READ, 0, 1, bytes("v"), true, false)).getMessage());
        assertEquals("data of a GET", assertThrows(NullPointerException.class,
                () -> Reply.of(Operation.GET, 0, 1, null, false, false)).getMessage());
        assertEquals("requestNumber must be >= 1: 0", assertThrows(IllegalArgumentException.class,
                () -> Reply.of(Operation.TRY_GET, 0, 0, null, false, false)).getMessage());
    }

    @Test
    void each_failure_carries_the_facts_it_was_given() {
        ReadLogEvictedException evicted = new ReadLogEvictedException(3, 7, 10, 40);
        assertEquals(3, evicted.processId());
        assertEquals(7, evicted.requestNumber());
        assertEquals(10, evicted.oldestRetained());
        assertEquals(40, evicted.highWaterMark());
        assertTrue(evicted.getMessage().contains("lags by 33 requests"), evicted.getMessage());

        ReplicaDivergenceException diverged = new ReplicaDivergenceException(1, 2, Operation.GET, "a", Operation.PUT,
                "b");
        assertEquals(Operation.GET, diverged.loggedOperation());
        assertEquals("a", diverged.loggedTag());
        assertEquals(Operation.PUT, diverged.requestedOperation());
        assertEquals("b", diverged.requestedTag());

        DataspaceTimeoutException timeout = new DataspaceTimeoutException(0, 1, Operation.READ, "t",
                Duration.ofMillis(5));
        assertEquals(Operation.READ, timeout.operation());
        assertEquals("t", timeout.tag());
        assertEquals(Duration.ofMillis(5), timeout.timeout());

        DataspaceCancelledException cancelled = new DataspaceCancelledException(4, 8, Operation.GET, "c");
        assertEquals(4, cancelled.processId());
        assertEquals(8, cancelled.requestNumber());
        assertEquals(Operation.GET, cancelled.operation());
        assertEquals("c", cancelled.tag());

        assertTrue(new DataspaceClosedException(0, 1, true).dataspaceClosed());
        assertFalse(new DataspaceClosedException(0, 1, false).dataspaceClosed());
    }

    @Test
    void impossible_facts_are_refused_with_the_parameter_named() {
        assertEquals("processId must be >= 0: -1",
                assertThrows(IllegalArgumentException.class, () -> new DataspaceClosedException(-1, 1, true))
                        .getMessage());
        assertEquals("requestNumber must be >= 1: 0",
                assertThrows(IllegalArgumentException.class, () -> new ReadLogEvictedException(0, 0, 1, 1))
                        .getMessage());
        assertEquals("tag", assertThrows(NullPointerException.class,
                () -> new DataspaceTimeoutException(0, 1, Operation.GET, null, Duration.ZERO)).getMessage());
        assertEquals("loggedOperation", assertThrows(NullPointerException.class,
                () -> new ReplicaDivergenceException(0, 1, null, "a", Operation.GET, "a")).getMessage());
        assertEquals("operation must be READ or GET: PUT", assertThrows(IllegalArgumentException.class,
                () -> new DataspaceCancelledException(0, 1, Operation.PUT, "a")).getMessage());
        assertEquals("tag", assertThrows(NullPointerException.class,
                () -> new DataspaceCancelledException(0, 1, Operation.READ, null)).getMessage());
    }
}
