package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.spi.WaitLimit;
import io.github.volpex.dataspace.zookeeper.ClientMemory.EntryMeta;
import io.github.volpex.dataspace.zookeeper.Planner.Plan;
import io.github.volpex.dataspace.zookeeper.Planner.Reference;
import io.github.volpex.dataspace.zookeeper.Records.LogEntry;
import io.github.volpex.dataspace.zookeeper.Records.ProcessRecord;
import io.github.volpex.dataspace.zookeeper.Records.TagRecord;
import io.github.volpex.dataspace.zookeeper.Records.Value;
import io.github.volpex.dataspace.zookeeper.Records.Waiter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

/**
 * The transaction planner on hand-built states, with no ZooKeeper: which operations a plan commits, at which versions,
 * in which order, what it leaves pending, which waiters a put serves, what it evicts from a read log under each bound,
 * where a value goes (inline, or one pinned blob), how blob reference counts move, and the states it refuses
 * ({@link Retry}) or cannot fit in one transaction.
 */
class PlannerTest {

    private static final Layout LAYOUT = new Layout("/job");
    private static final NamespaceKeys KEYS = new NamespaceKeys(LAYOUT, 0xabcL);
    private static final int LIMIT = TransactionBudget.limit(ZooKeeperDataspace.Builder.DEFAULT_JUTE_MAX_BUFFER);
    private static final byte[] EMPTY = new byte[0];

    /** What the planner reads beyond its state, served from maps, with the questions it asked. */
    private static final class HandReads implements Planner.Reads {
        final Map<Integer, ProcessState> processes = new HashMap<>();
        final Map<Long, EntryMeta> entries = new HashMap<>();
        final Map<String, Reference> references = new HashMap<>();
        final List<List<Waiter>> waiterQuestions = new ArrayList<>();
        final List<Long> entryQuestions = new ArrayList<>();
        int pins;

        @Override
        public List<ProcessState> waiters(Call call, List<Waiter> served) {
            waiterQuestions.add(List.copyOf(served));
            List<ProcessState> states = new ArrayList<>();
            for (Waiter waiter : served) {
                states.add(processes.get(waiter.processId()));
            }
            return states;
        }

        @Override
        public EntryMeta entry(Call call, int processId, long requestNumber) {
            entryQuestions.add(requestNumber);
            EntryMeta meta = entries.get(requestNumber);
            if (meta == null) {
                throw Retry.INSTANCE;
            }
            return meta;
        }

        @Override
        public Reference reference(Call call, String shaHex) {
            Reference reference = references.get(shaHex);
            if (reference == null) {
                throw Retry.INSTANCE;
            }
            return reference;
        }

        @Override
        public Value pin(Call call) {
            pins++;
            byte[] sha = TagNames.sha256().digest(call.owned);
            String shaHex = HexFormat.of().formatHex(sha);
            String path = LAYOUT.referencePath(shaHex) + "/" + HexFormat.of().formatHex(call.token);
            call.pin = new BlobPins.Pin(shaHex, sha, 77, path, call.owned.length, call.attempt);
            return Value.blob(sha, 77, call.owned.length);
        }
    }

    private final HandReads reads = new HandReads();

    private Planner planner(DataspaceOptions options, int inlineLimit, int transactionLimit) {
        return new Planner(options, KEYS, inlineLimit, transactionLimit, reads);
    }

    private Planner planner() {
        return planner(DataspaceOptions.defaults(), 1024, LIMIT);
    }

    private static byte[] token(int processId, long requestNumber) {
        return ByteBuffer.allocate(Records.TOKEN_BYTES).putLong(processId).putLong(requestNumber).array();
    }

    private static Call call(Operation operation, int processId, long requestNumber, String tag, byte[] data) {
        return new Call(operation, processId, requestNumber, tag, data, WaitLimit.unbounded(), Call.Caller.NONE,
                token(processId, requestNumber));
    }

    private static Stat stat(int version, long mzxid) {
        Stat stat = new Stat();
        stat.setVersion(version);
        stat.setMzxid(mzxid);
        return stat;
    }

    /** A state read (not remembered), the process at version {@code processVersion}, the tag at {@code tagVersion}. */
    private static ReadState state(ProcessRecord process, int processVersion, TagRecord tag, int tagVersion,
            int guardVersion) {
        return new ReadState(process, ReadState.versionOnly(processVersion), null, true, tag,
                ReadState.versionOnly(tagVersion), guardVersion, false, true);
    }

    private static ProcessRecord completed(long issued, long oldest) {
        return new ProcessRecord(issued, oldest, 0, null, null, null, new long[0]);
    }

    private static ProcessRecord pending(long issued, Operation operation, String name, byte[] token) {
        return new ProcessRecord(issued, 1, 0, operation, name, token, new long[0]);
    }

    private static Op create(String path, byte[] data) {
        return Op.create(path, data, Records.OPEN_ACL, CreateMode.PERSISTENT);
    }

    private static Value blobValue(String content) {
        byte[] data = content.getBytes();
        return Value.blob(TagNames.sha256().digest(data), 5, data.length);
    }

    // ---- puts -------------------------------------------------------------------------------------------------------

    @Test
    void a_first_put_on_an_absent_tag_creates_the_record_the_process_and_its_entry_guarded_by_name() {
        byte[] data = {1, 2, 3};
        Call call = call(Operation.PUT, 0, 1, "x", data);
        Plan plan = planner().plan(call, state(ProcessRecord.INITIAL, -1, TagRecord.EMPTY, -1, 0));

        TagRecord tag = new TagRecord(Value.inline(data), List.of());
        ProcessRecord process = completed(1, 1);
        LogEntry entry = new LogEntry(Operation.PUT, "x", true, null, call.token, 0);
        assertEquals(List.of(create("/job/t/2d7/x", tag.encode()), create("/job/p/0", process.encode()),
                Op.check(KEYS.guardPath("x"), -1), create("/job/p/0/1", entry.encode())), plan.txn().ops,
                "a create needs no version: the guard is checked only for its name (the namespace id)");
        assertFalse(plan.pending());
        assertTrue(plan.stored());
        assertNull(plan.value());
        assertTrue(plan.txn().tagCreated);
        assertEquals(tag.value, plan.txn().tagAfter.value);
        assertEquals(0, plan.txn().tagVersionAfter);
        assertEquals(0, plan.txn().processesAfter.get(0).version());
        assertTrue(reads.waiterQuestions.isEmpty(), "no waiter to read");
        assertEquals(0, reads.pins, "a small value goes inline");
        data[0] = 9;
        assertEquals(1, plan.txn().tagAfter.value.inline[0], "the plan holds its own copy of the caller's data");
    }

    @Test
    void a_put_serves_the_waiters_up_to_the_first_get_in_arrival_order_and_leaves_the_rest_queued() {
        byte[] token1 = token(1, 5);
        byte[] token2 = token(2, 3);
        reads.processes.put(1, new ProcessState(pending(5, Operation.READ, "x", token1), stat(7, 1001)));
        reads.processes.put(2, new ProcessState(pending(3, Operation.GET, "x", token2), stat(2, 1002)));
        List<Waiter> queue = List.of(new Waiter(1, 5, Operation.READ), new Waiter(2, 3, Operation.GET),
                new Waiter(3, 9, Operation.READ));
        byte[] data = "value".getBytes();
        Call call = call(Operation.PUT, 0, 4, "x", data);
        Plan plan = planner().plan(call, state(completed(3, 1), 3, new TagRecord(null, queue), 6, 11));

        assertEquals(List.of(queue.subList(0, 2)), reads.waiterQuestions, "the read and the get that takes it");
        assertNull(plan.txn().tagAfter.value, "the get took the value");
        assertEquals(List.of(queue.get(2)), plan.txn().tagAfter.waiters);
        assertEquals(7, plan.txn().tagVersionAfter);
        assertTrue(plan.txn().ops.contains(Op.setData("/job/t/2d7/x", plan.txn().tagAfter.encode(), 6)));
        assertTrue(plan.txn().ops.contains(Op.check(KEYS.guardPath("x"), 11)), "a set is guarded at its version");

        LogEntry served1 = plan.txn().created.get(ClientMemory.entryKey(1, 5));
        LogEntry served2 = plan.txn().created.get(ClientMemory.entryKey(2, 3));
        assertEquals(Value.inline(data), served1.value);
        assertArrayEquals(token1, served1.token, "a served entry carries its issuing call's token");
        assertEquals(1001, served1.issueZxid, "and the zxid that issued it");
        assertEquals(Operation.GET, served2.operation);
        assertEquals(1002, served2.issueZxid);
        LogEntry own = plan.txn().created.get(ClientMemory.entryKey(0, 4));
        assertTrue(own.stored);
        assertNull(own.value);
        assertEquals(3, plan.txn().created.size());

        assertFalse(plan.txn().processesAfter.get(1).record().pending(), "the waiter's request completed");
        assertEquals(5, plan.txn().processesAfter.get(1).record().issued);
        assertEquals(8, plan.txn().processesAfter.get(1).version());
        assertEquals(3, plan.txn().processesAfter.get(2).version());
        assertEquals(4, plan.txn().processesAfter.get(0).version());
        assertEquals(4, plan.txn().processesAfter.get(0).record().issued);
        int entryOps = 0;
        for (int i = plan.txn().ops.size() - 3; i < plan.txn().ops.size(); i++) {
            entryOps += plan.txn().ops.get(i).getPath().matches("/job/p/\\d/\\d") ? 1 : 0;
        }
        assertEquals(3, entryOps, "the entries are created last, after every process record");
    }

    @Test
    void a_value_too_large_to_inline_goes_to_one_pinned_blob_whose_reference_the_commit_counts() {
        byte[] data = new byte[100];
        Call call = call(Operation.PUT, 0, 1, "x", data);
        String sha = HexFormat.of().formatHex(TagNames.sha256().digest(data));
        reads.references.put(sha, new Reference(0, 4, 1, 77));
        Plan plan = planner(DataspaceOptions.defaults(), 50, LIMIT)
                .plan(call, state(completed(0, 1), 0, TagRecord.EMPTY, -1, 0));

        assertEquals(1, reads.pins);
        assertTrue(plan.txn().tagAfter.value.isBlob());
        assertEquals(Map.of(sha, 1), plan.txn().blobDeltas);
        assertTrue(plan.txn().ops.contains(Op.setData(LAYOUT.referencePath(sha), Records.encodeCount(1), 4)));
        assertTrue(plan.txn().ops.contains(Op.delete(call.pin.path(), -1)), "the commit takes the pin's place");
    }

    @Test
    void a_value_that_fits_inline_goes_to_a_blob_when_its_copies_to_many_waiters_would_crowd_the_transaction() {
        List<Waiter> queue = new ArrayList<>();
        for (int p = 1; p <= 30; p++) {
            queue.add(new Waiter(p, 1, Operation.READ));
            reads.processes.put(p, new ProcessState(pending(1, Operation.READ, "x", token(p, 1)), stat(0, p)));
        }
        byte[] data = new byte[40];
        String sha = HexFormat.of().formatHex(TagNames.sha256().digest(data));
        reads.references.put(sha, new Reference(0, 0, 1, 77));

        Plan few = planner(DataspaceOptions.defaults(), 50, 400_000).plan(call(Operation.PUT, 0, 1, "x", data),
                state(completed(0, 1), 0, new TagRecord(null, queue), 0, 0));
        assertFalse(few.txn().tagAfter.value.isBlob(), "31 copies of 40 bytes fit half of 400,000 bytes");
        assertEquals(0, reads.pins);

        Plan many = planner(DataspaceOptions.defaults(), 50, 200_000).plan(call(Operation.PUT, 0, 1, "x", data),
                state(completed(0, 1), 0, new TagRecord(null, queue), 0, 0));
        assertTrue(many.txn().tagAfter.value.isBlob(), "with 4,096 bytes per record they do not fit 100,000");
        assertEquals(1, reads.pins);
        assertEquals(Map.of(sha, 31), many.txn().blobDeltas, "the tag record and the 30 entries refer to it");
        assertTrue(many.txn().ops.contains(Op.setData(LAYOUT.referencePath(sha), Records.encodeCount(31), 0)));
    }

    @Test
    void a_put_over_a_blob_drops_its_reference_and_deletes_the_last_one_with_its_blob() {
        Value old = blobValue("old");
        String sha = old.shaHex();
        Call call = call(Operation.PUT, 0, 2, "x", new byte[] {1});
        ReadState state = state(completed(1, 1), 1, new TagRecord(old, List.of()), 3, 0);

        reads.references.put(sha, new Reference(2, 8, 0, 5));
        Plan shared = planner().plan(call, state);
        assertTrue(shared.txn().ops.contains(Op.setData(LAYOUT.referencePath(sha), Records.encodeCount(1), 8)));
        assertTrue(shared.txn().orphanedBlobs.isEmpty());

        reads.references.put(sha, new Reference(1, 8, 0, 5));
        Plan last = planner().plan(call(Operation.PUT, 0, 2, "x", new byte[] {1}), state);
        assertTrue(last.txn().ops.contains(Op.delete(LAYOUT.referencePath(sha), 8)));
        assertEquals(List.of(KEYS.blobKey(sha, 5)), last.txn().orphanedBlobs);

        reads.references.put(sha, new Reference(1, 8, 1, 5));
        Plan pinned = planner().plan(call(Operation.PUT, 0, 2, "x", new byte[] {1}), state);
        assertTrue(pinned.txn().ops.contains(Op.setData(LAYOUT.referencePath(sha), Records.encodeCount(0), 8)),
                "a pinned reference stays, at count 0");
        assertTrue(pinned.txn().orphanedBlobs.isEmpty());
    }

    @Test
    void a_reference_count_that_would_go_negative_is_a_state_read_across_a_commit_and_the_plan_retries() {
        Value old = blobValue("old");
        reads.references.put(old.shaHex(), new Reference(0, 8, 0, 5));
        Call call = call(Operation.PUT, 0, 2, "x", new byte[] {1});
        assertSame(Retry.INSTANCE, assertThrows(Retry.class, () -> planner().plan(call,
                state(completed(1, 1), 1, new TagRecord(old, List.of()), 3, 0))));
    }

    @Test
    void put_if_absent_on_a_present_tag_only_checks_it_and_stores_nothing() {
        Value current = Value.inline(new byte[] {7});
        Call call = call(Operation.PUT_IF_ABSENT, 0, 2, "x", new byte[] {1});
        Plan plan = planner().plan(call, state(completed(1, 1), 1, new TagRecord(current, List.of()), 3, 4));
        assertEquals(Op.check("/job/t/2d7/x", 3), plan.txn().ops.get(0));
        assertTrue(plan.txn().ops.contains(Op.check(KEYS.guardPath("x"), 4)));
        assertFalse(plan.stored());
        assertFalse(plan.txn().created.get(ClientMemory.entryKey(0, 2)).stored);
        assertEquals(current, plan.txn().tagAfter.value, "the value stays");
    }

    // ---- reads and gets ---------------------------------------------------------------------------------------------

    @Test
    void a_get_takes_the_value_and_deletes_the_emptied_record_moving_its_guard() {
        Value current = Value.inline("v".getBytes());
        Call call = call(Operation.GET, 0, 2, "x", null);
        Plan plan = planner().plan(call, state(completed(1, 1), 1, new TagRecord(current, List.of()), 4, 9));
        assertEquals(Op.delete("/job/t/2d7/x", 4), plan.txn().ops.get(0));
        assertTrue(plan.txn().ops.contains(Op.setData(KEYS.guardPath("x"), EMPTY, 9)),
                "a deletion moves the guard, so that a record created again cannot pass for the one read");
        assertTrue(plan.txn().tagDeleted);
        assertEquals(current, plan.value());
        assertEquals(current, plan.txn().created.get(ClientMemory.entryKey(0, 2)).value);
        assertTrue(plan.txn().tagAfter.isEmpty());
        assertEquals(-1, plan.txn().tagVersionAfter);
    }

    @Test
    void a_read_of_a_blob_adds_a_reference_for_its_log_entry() {
        Value current = blobValue("big");
        reads.references.put(current.shaHex(), new Reference(1, 2, 0, 5));
        Plan plan = planner().plan(call(Operation.READ, 0, 2, "x", null),
                state(completed(1, 1), 1, new TagRecord(current, List.of()), 4, 9));
        assertEquals(Map.of(current.shaHex(), 1), plan.txn().blobDeltas);
        assertTrue(plan.txn().ops.contains(
                Op.setData(LAYOUT.referencePath(current.shaHex()), Records.encodeCount(2), 2)));
        assertEquals(Op.check("/job/t/2d7/x", 4), plan.txn().ops.get(0));
    }

    @Test
    void a_blocking_read_of_an_absent_tag_queues_itself_and_leaves_its_request_pending() {
        Call call = call(Operation.READ, 0, 2, "x", null);
        Plan plan = planner().plan(call, state(completed(1, 1), 5, TagRecord.EMPTY, -1, 3));
        assertTrue(plan.pending());
        TagRecord queued = new TagRecord(null, List.of(new Waiter(0, 2, Operation.READ)));
        ProcessRecord pending = pending(2, Operation.READ, "x", call.token);
        assertEquals(List.of(create("/job/t/2d7/x", queued.encode()), Op.setData("/job/p/0", pending.encode(), 5),
                Op.check(KEYS.guardPath("x"), -1)), plan.txn().ops);
        assertTrue(plan.txn().created.isEmpty(), "no outcome yet");
        assertArrayEquals(call.token, plan.txn().processesAfter.get(0).record().pendingToken);
    }

    @Test
    void a_try_read_of_an_absent_tag_asserts_the_absence_in_its_transaction() {
        Call call = call(Operation.TRY_READ, 0, 2, "x", null);
        Plan plan = planner().plan(call, state(completed(1, 1), 5, TagRecord.EMPTY, -1, 3));
        assertEquals(create("/job/t/2d7/x", EMPTY), plan.txn().ops.get(0));
        assertEquals(Op.delete("/job/t/2d7/x", 0), plan.txn().ops.get(1));
        assertFalse(plan.pending());
        assertNull(plan.value());
        assertNull(plan.txn().created.get(ClientMemory.entryKey(0, 2)).value);
        assertTrue(plan.txn().tagAfter.isEmpty());
    }

    // ---- the read log -----------------------------------------------------------------------------------------------

    @Test
    void a_full_read_log_evicts_its_oldest_entry_without_reading_it_when_nothing_is_learnt_from_it() {
        DataspaceOptions options = DataspaceOptions.builder().readLogCapacity(3).build();
        Plan plan = planner(options, 1024, LIMIT).plan(call(Operation.PUT, 0, 4, "x", new byte[] {1}),
                state(completed(3, 1), 3, TagRecord.EMPTY, -1, 0));
        assertTrue(plan.txn().ops.contains(Op.delete("/job/p/0/1", -1)));
        assertEquals(1, plan.txn().evictions);
        assertEquals(2, plan.txn().processesAfter.get(0).record().oldest);
        assertTrue(reads.entryQuestions.isEmpty());
    }

    @Test
    void a_byte_budget_evicts_the_oldest_entries_until_the_log_fits_but_never_the_newest() {
        DataspaceOptions options = DataspaceOptions.builder().readLogBudgetBytes(10).build();
        reads.entries.put(1L, new EntryMeta(4, null));
        reads.entries.put(2L, new EntryMeta(4, null));
        reads.entries.put(3L, new EntryMeta(0, null));
        ProcessRecord process = new ProcessRecord(3, 1, 8, null, null, null, new long[0]);

        Plan fits = planner(options, 1024, LIMIT).plan(call(Operation.READ, 0, 4, "x", null),
                state(process, 3, new TagRecord(Value.inline(new byte[6]), List.of()), 0, 0));
        assertEquals(2, fits.txn().processesAfter.get(0).record().oldest, "14 bytes less entry 1's 4 fit 10");
        assertEquals(10, fits.txn().processesAfter.get(0).record().logBytes);
        assertEquals(List.of(1L), reads.entryQuestions);

        Plan alone = planner(options, 1024, LIMIT).plan(call(Operation.READ, 0, 4, "x", null),
                state(process, 3, new TagRecord(Value.inline(new byte[30]), List.of()), 0, 0));
        assertEquals(4, alone.txn().processesAfter.get(0).record().oldest, "the newest entry stays, over budget");
        assertEquals(30, alone.txn().processesAfter.get(0).record().logBytes);
        assertEquals(3, alone.txn().evictions);
    }

    @Test
    void evicting_an_entry_that_holds_a_blob_drops_its_reference() {
        Value blob = blobValue("kept");
        DataspaceOptions options = DataspaceOptions.builder().readLogCapacity(1).build();
        reads.entries.put(1L, new EntryMeta(blob.length, blob));
        reads.references.put(blob.shaHex(), new Reference(1, 3, 0, 5));
        ProcessRecord process = new ProcessRecord(1, 1, 0, null, null, null, new long[] {1});
        Plan plan = planner(options, 1024, LIMIT).plan(call(Operation.PUT, 0, 2, "x", new byte[] {1}),
                state(process, 0, TagRecord.EMPTY, -1, 0));
        assertEquals(List.of(1L), reads.entryQuestions, "the entry named in blobEntries is read for its value");
        assertEquals(0, plan.txn().processesAfter.get(0).record().blobEntries.length);
        assertTrue(plan.txn().ops.contains(Op.delete(LAYOUT.referencePath(blob.shaHex()), 3)));
        assertEquals(List.of(KEYS.blobKey(blob.shaHex(), 5)), plan.txn().orphanedBlobs);
    }

    @Test
    void an_evicted_entry_that_is_gone_means_the_state_moved_on() {
        DataspaceOptions options = DataspaceOptions.builder().readLogBudgetBytes(1000).readLogCapacity(2).build();
        assertThrows(Retry.class, () -> planner(options, 1024, LIMIT).plan(
                call(Operation.PUT, 0, 3, "x", new byte[] {1}), state(completed(2, 1), 2, TagRecord.EMPTY, -1, 0)));
    }

    // ---- limits and refusals ----------------------------------------------------------------------------------------

    @Test
    void a_transaction_over_the_budget_fails_naming_its_size_and_the_limit() {
        String tag = "t".repeat(200);
        IllegalStateException tooLarge = assertThrows(IllegalStateException.class, () -> planner(
                DataspaceOptions.defaults(), 1024, 400).plan(call(Operation.TRY_READ, 0, 1, tag, null),
                        state(completed(0, 1), 0, TagRecord.EMPTY, -1, 0)));
        assertTrue(tooLarge.getMessage().matches("the transaction of process 0, request 1 \\(TRY_READ \"t+\"\\) needs "
                + "\\d+ bytes, more than jute.maxbuffer allows \\(400 after ZooKeeper's headers\\)"),
                tooLarge.getMessage());
    }

    @Test
    void a_plan_needs_the_guard_version_it_was_read_with() {
        assertThrows(AssertionError.class, () -> planner().plan(call(Operation.TRY_GET, 0, 1, "x", null),
                state(completed(0, 1), 0, TagRecord.EMPTY, -1, -1)));
    }

    // ---- cancel -----------------------------------------------------------------------------------------------------

    @Test
    void a_cancel_takes_the_request_out_of_the_queue_and_logs_it_cancelled() {
        byte[] token = token(0, 2);
        Waiter self = new Waiter(0, 2, Operation.GET);
        Waiter other = new Waiter(1, 7, Operation.READ);
        Call call = call(Operation.GET, 0, 2, "x", null);
        Plan plan = planner().planCancel(call, pending(2, Operation.GET, "x", token), stat(4, 900), 6,
                new TagRecord(null, List.of(self, other)), stat(2, 0));
        assertEquals(List.of(other), plan.txn().tagAfter.waiters);
        LogEntry entry = plan.txn().created.get(ClientMemory.entryKey(0, 2));
        assertTrue(entry.cancelled);
        assertArrayEquals(token, entry.token, "the issuing call's token, not the cancel's");
        assertEquals(900, entry.issueZxid);
        assertFalse(plan.txn().processesAfter.get(0).record().pending());
        assertTrue(plan.txn().ops.contains(Op.check(KEYS.guardPath("x"), 6)));

        Plan last = planner().planCancel(call, pending(2, Operation.GET, "x", token), stat(4, 900), 6,
                new TagRecord(null, List.of(self)), stat(2, 0));
        assertTrue(last.txn().ops.contains(Op.delete("/job/t/2d7/x", 2)), "the emptied record goes");
        assertTrue(last.txn().ops.contains(Op.setData(KEYS.guardPath("x"), EMPTY, 6)));
    }

    @Test
    void a_cancel_of_a_request_no_longer_queued_retries() {
        Call call = call(Operation.GET, 0, 2, "x", null);
        ProcessRecord process = pending(2, Operation.GET, "x", token(0, 2));
        assertThrows(Retry.class, () -> planner().planCancel(call, process, stat(4, 900), 6,
                new TagRecord(Value.inline(new byte[] {1}), List.of(new Waiter(1, 7, Operation.READ))), stat(2, 0)),
                "a put served it since the process record was read");
        assertThrows(Retry.class, () -> planner().planCancel(call, process, stat(4, 900), 6, TagRecord.EMPTY, null),
                "the tag record is gone");
        assertThrows(Retry.class, () -> planner().planCancel(call, process, stat(4, 900), 6,
                new TagRecord(null, List.of(new Waiter(0, 2, Operation.READ))), stat(2, 0)),
                "the queue holds the request as another kind");
    }
}
