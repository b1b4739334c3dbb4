package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.zookeeper.Records.LogEntry;
import io.github.volpex.dataspace.zookeeper.Records.Value;
import org.junit.jupiter.api.Test;

/**
 * The read-log entry's format: the outcome "cancelled" (flag 4) round-trips, and flag bytes that no outcome has — a
 * cancelled put, a cancelled entry that also holds a value or says stored, unknown bits — are refused as corrupt
 * rather than read as some other outcome.
 */
class LogEntryFormatTest {

    private static final byte[] TOKEN = new byte[Records.TOKEN_BYTES];
    /** Offset of the flag byte: format, then kind. */
    private static final int FLAGS = 2;

    @Test
    void a_cancelled_get_round_trips_with_its_token_and_issue_zxid() {
        byte[] token = TOKEN.clone();
        token[3] = 7;
        LogEntry decoded = LogEntry.decode(LogEntry.cancelled(Operation.GET, "x", token, 42).encode());
        assertTrue(decoded.cancelled);
        assertEquals(Operation.GET, decoded.operation);
        assertEquals("x", decoded.name);
        assertNull(decoded.value);
        assertFalse(decoded.stored);
        assertArrayEquals(token, decoded.token);
        assertEquals(42, decoded.issueZxid);
        assertEquals(0, decoded.dataBytes());
    }

    @Test
    void outcomes_other_than_cancelled_are_not_cancelled() {
        LogEntry read = LogEntry.decode(new LogEntry(Operation.READ, "x", false, Value.inline(new byte[] {1}), TOKEN, 0)
                .encode());
        assertFalse(read.cancelled);
        assertArrayEquals(new byte[] {1}, read.value.inline);
        assertFalse(LogEntry.decode(new LogEntry(Operation.PUT, "x", true, null, TOKEN, 0).encode()).cancelled);
    }

    @Test
    void flags_no_outcome_has_are_corrupt() {
        byte[] cancelledGet = LogEntry.cancelled(Operation.GET, "x", TOKEN, 0).encode();
        assertCorrupt(withFlags(cancelledGet, 4 | 1), "cancelled and stored");
        assertCorrupt(withFlags(cancelledGet, 8), "an unknown bit");
        byte[] cancelledPut = cancelledGet.clone();
        cancelledPut[1] = (byte) Operation.PUT.ordinal();
        assertCorrupt(cancelledPut, "a cancelled put");
        byte[] withValue = new LogEntry(Operation.GET, "x", false, Value.inline(new byte[] {1}), TOKEN, 0).encode();
        assertCorrupt(withFlags(withValue, 4 | 2), "cancelled with a value");
    }

    private static byte[] withFlags(byte[] entry, int flags) {
        byte[] changed = entry.clone();
        changed[FLAGS] = (byte) flags;
        return changed;
    }

    private static void assertCorrupt(byte[] entry, String what) {
        IllegalStateException corrupt = assertThrows(IllegalStateException.class, () -> LogEntry.decode(entry), what);
        assertTrue(corrupt.getMessage().startsWith("corrupt read-log entry"), corrupt.getMessage());
    }
}
