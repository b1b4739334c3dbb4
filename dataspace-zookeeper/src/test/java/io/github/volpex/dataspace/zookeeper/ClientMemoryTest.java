package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.spi.WaitLimit;
import io.github.volpex.dataspace.zookeeper.Records.LogEntry;
import io.github.volpex.dataspace.zookeeper.Records.ProcessRecord;
import io.github.volpex.dataspace.zookeeper.Records.TagRecord;
import io.github.volpex.dataspace.zookeeper.Records.Value;
import java.util.List;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

/**
 * A client's memory of the namespace, alone: when a remembered state may be committed on without reading (and when
 * not), which tags and entries it keeps under its count and byte bounds (least recently used first), and what a
 * commit and a forget change.
 */
class ClientMemoryTest {

    private static final byte[] TOKEN = new byte[Records.TOKEN_BYTES];

    private static Call call(int processId, long requestNumber, String tag) {
        return new Call(Operation.PUT, processId, requestNumber, tag, new byte[] {1}, WaitLimit.unbounded(),
                Call.Caller.NONE, TOKEN);
    }

    private static Stat version(int version) {
        Stat stat = new Stat();
        stat.setVersion(version);
        return stat;
    }

    private static ProcessRecord completed(long issued) {
        return new ProcessRecord(issued, 1, 0, null, null, null, new long[0]);
    }

    private static TagRecord holding(int bytes) {
        return new TagRecord(Value.inline(new byte[bytes]), List.of());
    }

    @Test
    void a_remembered_state_serves_the_next_request_of_a_complete_process_on_a_remembered_tag() {
        ClientMemory memory = new ClientMemory(2);
        memory.remember(0, completed(3), version(5));
        memory.remember("x", holding(2), 7, 4);
        ReadState state = memory.rememberedState(call(0, 4, "x"));
        assertNotNull(state);
        assertTrue(state.remembered());
        assertFalse(state.linearizable(), "a remembered state never decides to fail a call");
        assertTrue(state.tagRead());
        assertNull(state.entry());
        assertEquals(5, state.processStat().getVersion());
        assertEquals(7, state.tagStat().getVersion());
        assertEquals(4, state.guardVersion());
    }

    @Test
    void a_remembered_state_is_refused_when_it_cannot_be_the_one_the_request_follows() {
        ClientMemory memory = new ClientMemory(2);
        memory.remember("x", holding(2), 7, 4);
        assertNull(memory.rememberedState(call(0, 1, "x")), "the process was never seen");

        memory.remember(0, new ProcessRecord(3, 1, 0, Operation.READ, "y", TOKEN, new long[0]), version(5));
        assertNull(memory.rememberedState(call(0, 4, "x")), "its request 3 is pending");

        memory.remember(0, completed(3), version(5));
        assertNull(memory.rememberedState(call(0, 5, "x")), "request 4 is not known complete");
        assertNull(memory.rememberedState(call(0, 3, "x")), "request 3 is complete: its outcome must be read");
        assertNull(memory.rememberedState(call(0, 4, "z")), "the tag is not remembered");
        assertNotNull(memory.rememberedState(call(0, 4, "x")));

        memory.sawIssued(0, 4);
        assertNull(memory.rememberedState(call(0, 4, "x")), "another replica has been seen at request 4");
        memory.sawIssued(0, 2);
        assertEquals(4, memory.knownIssued(0), "the known high-water mark never goes down");
    }

    @Test
    void a_process_without_a_record_and_an_absent_tag_are_remembered_as_versionless() {
        ClientMemory memory = new ClientMemory(1);
        memory.remember(0, ProcessRecord.INITIAL, null);
        memory.remember("x", TagRecord.EMPTY, -1, 0);
        ReadState state = memory.rememberedState(call(0, 1, "x"));
        assertNull(state.processStat(), "a commit creates the record");
        assertNull(state.tagStat());
    }

    @Test
    void the_least_recently_used_tag_goes_first_beyond_the_count_bound() {
        ClientMemory memory = new ClientMemory(1, 3, Long.MAX_VALUE, 10);
        memory.remember(0, completed(0), version(0));
        memory.remember("a", holding(1), 0, 0);
        memory.remember("b", holding(1), 0, 0);
        memory.remember("c", holding(1), 0, 0);
        assertNotNull(memory.rememberedState(call(0, 1, "a")), "using a makes b the least recently used");
        memory.remember("d", holding(1), 0, 0);
        assertEquals(3, memory.rememberedTags());
        assertNull(memory.rememberedState(call(0, 1, "b")));
        for (String kept : List.of("a", "c", "d")) {
            assertNotNull(memory.rememberedState(call(0, 1, kept)), kept);
        }
        assertEquals(3, memory.rememberedTagBytes());
    }

    @Test
    void the_byte_bound_counts_inline_values_only_and_drops_a_value_larger_than_it() {
        ClientMemory memory = new ClientMemory(1, 100, 10, 10);
        memory.remember("a", holding(6), 0, 0);
        memory.remember("b", holding(6), 0, 0);
        assertEquals(6, memory.rememberedTagBytes(), "a went to make room for b");
        assertEquals(1, memory.rememberedTags());
        memory.remember("b", holding(2), 1, 0);
        assertEquals(2, memory.rememberedTagBytes(), "a record replaced is counted once");
        memory.remember("blob", new TagRecord(Value.blob(new byte[32], 1, 1 << 20), List.of()), 0, 0);
        assertEquals(2, memory.rememberedTagBytes(), "a blob is remembered by reference");
        assertEquals(2, memory.rememberedTags());
        memory.remember("huge", holding(11), 0, 0);
        assertEquals(0, memory.rememberedTags(), "a value over the bound alone is not kept, nor anything older");
        assertEquals(0, memory.rememberedTagBytes());
    }

    @Test
    void forgetting_drops_the_process_and_the_tag_and_their_bytes() {
        ClientMemory memory = new ClientMemory(1);
        memory.remember(0, completed(0), version(0));
        memory.remember("x", holding(5), 0, 0);
        memory.forget(0, "x");
        assertEquals(0, memory.rememberedTagBytes());
        memory.remember("x", holding(5), 0, 0);
        assertNull(memory.rememberedState(call(0, 1, "x")), "the process was forgotten");
    }

    @Test
    void a_commit_is_remembered_as_written_and_a_deletion_as_moving_the_guard() {
        ClientMemory memory = new ClientMemory(1);
        Planner.Txn txn = new Planner.Txn(8);
        txn.processesAfter.put(0, new ClientMemory.KnownProcess(completed(1), 3));
        txn.decideTag(TagRecord.EMPTY, -1);
        txn.tagDeleted = true;
        LogEntry entry = new LogEntry(Operation.GET, "x", false, Value.inline(new byte[4]), TOKEN, 0);
        txn.created.put(ClientMemory.entryKey(0, 1), entry);
        memory.committed(call(0, 1, "x"), txn);
        assertEquals(1, memory.knownIssued(0));
        assertEquals(4, memory.cachedEntry(0, 1).bytes(), "the entries it created, for later evictions");
        ReadState state = memory.rememberedState(call(0, 2, "x"));
        assertEquals(3, state.processStat().getVersion());
        assertNull(state.tagStat(), "the record was deleted");
        assertEquals(9, state.guardVersion(), "the deletion moved the guard by one");
    }

    @Test
    void the_entry_cache_keeps_the_most_recently_used_entries() {
        ClientMemory memory = new ClientMemory(2, 10, 10, 2);
        LogEntry entry = new LogEntry(Operation.PUT, "x", true, null, TOKEN, 0);
        memory.cacheEntry(0, 1, entry);
        memory.cacheEntry(1, 1, entry);
        assertNotNull(memory.cachedEntry(0, 1), "using it makes (1, 1) the eldest");
        memory.cacheEntry(0, 2, entry);
        assertNull(memory.cachedEntry(1, 1));
        assertNotNull(memory.cachedEntry(0, 1));
        assertNotNull(memory.cachedEntry(0, 2));
        assertTrue(ClientMemory.entryKey(1, 1) != ClientMemory.entryKey(0, 1)
                && ClientMemory.entryKey(0, 1) != ClientMemory.entryKey(0, 2), "processes and requests differ");
    }

    @Test
    void the_dictionary_memory_knows_the_names_added() {
        ClientMemory memory = new ClientMemory(1);
        assertFalse(memory.inDictionary("~ab"));
        memory.addedToDictionary("~ab");
        assertTrue(memory.inDictionary("~ab"));
        assertFalse(memory.inDictionary("~cd"));
    }
}
