package io.github.volpex.dataspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The typed failures, as an adapter or a network client raises them: public constructors that keep the facts. */
class ExceptionsTest {

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
    }
}
