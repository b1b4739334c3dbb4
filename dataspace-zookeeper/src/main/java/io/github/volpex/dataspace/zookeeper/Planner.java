package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.zookeeper.ClientMemory.EntryMeta;
import io.github.volpex.dataspace.zookeeper.ClientMemory.KnownProcess;
import io.github.volpex.dataspace.zookeeper.Records.LogEntry;
import io.github.volpex.dataspace.zookeeper.Records.ProcessRecord;
import io.github.volpex.dataspace.zookeeper.Records.TagRecord;
import io.github.volpex.dataspace.zookeeper.Records.Value;
import io.github.volpex.dataspace.zookeeper.Records.Waiter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.data.Stat;

/**
 * Plans the one transaction that commits a request at the leading front, or a cancel, from the state read: the writes
 * to the tag record, the process records and read-log entries (with the evictions they cause), the blob reference
 * counts and the tag guard, every write conditional on the version read. It reads nothing itself: what a plan needs
 * beyond the state — the records of the waiters a put serves, an evicted entry's size and value, a blob's reference
 * count, a put's pinned blob — comes from {@link Reads}, which throws {@link Retry} when the state moved on. Stateless
 * but for its settings; thread-safe.
 */
final class Planner {

    private static final byte[] EMPTY = new byte[0];

    /** What a plan reads beyond the state it is given (through ZooKeeper, or the client's memory). */
    interface Reads {
        /** The records of the waiters a put serves, each showing its request pending; {@link Retry} otherwise. */
        List<ProcessState> waiters(Call call, List<Waiter> served);

        /** The size and value of a retained log entry the plan evicts; {@link Retry} if it is gone. */
        EntryMeta entry(Call call, int processId, long requestNumber);

        /** A blob's reference node; {@link Retry} if it is gone. */
        Reference reference(Call call, String shaHex);

        /** Stores the put's value ({@code call.owned}) as a blob pinned for the call, and returns it. */
        Value pin(Call call);
    }

    /**
     * A blob reference node: how many records refer to the blob, its version, its children (pins) and its creation
     * zxid (the blob's incarnation).
     */
    record Reference(long count, int version, int children, long incarnation) {
    }

    /** A transaction under construction. */
    static final class Txn {
        final List<Op> ops = new ArrayList<>();
        /** Log entries to create, added after every process record (a process's first request creates its record). */
        final List<Op> entries = new ArrayList<>();
        int bytes;
        /** Blob reference changes by SHA-256 hex. */
        final Map<String, Integer> blobDeltas = new HashMap<>();
        /** Blob keys to delete from the store once the transaction committed. */
        final List<String> orphanedBlobs = new ArrayList<>();
        /** Log entries this transaction creates: {@link ClientMemory#entryKey} → entry. */
        final Map<Long, LogEntry> created = new HashMap<>();
        int evictions;
        /** The version of the tag's guard the plan's state was read with. */
        final int guardVersion;
        /** Whether an operation on the tag record is conditional on its version, and whether it deletes the record. */
        boolean tagVersioned;
        boolean tagDeleted;
        /** Whether the transaction creates the tag record (in a bucket that may not exist yet). */
        boolean tagCreated;
        /** The tag record once committed (empty: absent) and its version (−1: absent); every plan decides it. */
        TagRecord tagAfter;
        int tagVersionAfter;
        /** The process records the transaction writes, once committed. */
        final Map<Integer, KnownProcess> processesAfter = new HashMap<>();

        Txn(int guardVersion) {
            if (guardVersion < 0) {
                throw new AssertionError("a transaction planned without its tag guard's version");
            }
            this.guardVersion = guardVersion;
        }

        void decideTag(TagRecord record, int version) {
            tagAfter = record;
            tagVersionAfter = version;
        }

        void add(Op op, int dataBytes) {
            ops.add(op);
            bytes += TransactionBudget.opBytes(op.getPath(), dataBytes);
        }

        void addEntry(Op op, int dataBytes) {
            entries.add(op);
            bytes += TransactionBudget.opBytes(op.getPath(), dataBytes);
        }

        void blob(Value value, int delta) {
            if (value != null && value.isBlob()) {
                blobDeltas.merge(value.shaHex(), delta, Integer::sum);
            }
        }
    }

    /**
     * What committing a transaction does: the request completes with {@code value} (null for puts and for try-ops
     * that found the tag absent) and {@code stored}, or it becomes pending.
     */
    record Plan(Txn txn, Value value, boolean stored, boolean pending) {
    }

    private final DataspaceOptions options;
    private final NamespaceKeys keys;
    private final Layout layout;
    private final int inlineLimit;
    private final int transactionLimit;
    private final Reads reads;

    Planner(DataspaceOptions options, NamespaceKeys keys, int inlineLimit, int transactionLimit, Reads reads) {
        this.options = options;
        this.keys = keys;
        this.layout = keys.layout();
        this.inlineLimit = inlineLimit;
        this.transactionLimit = transactionLimit;
        this.reads = reads;
    }

    /** Plans a request at the leading front against the state read; throws {@link Retry} if the state moved. */
    Plan plan(Call call, ReadState state) {
        TagRecord tag = state.tag();
        Value current = tag.value;
        switch (call.operation) {
            case PUT -> {
                return planPut(call, state, true);
            }
            case PUT_IF_ABSENT -> {
                if (current != null) {
                    Txn txn = new Txn(state.guardVersion());
                    checkTag(txn, call.name, state.tagStat(), tag);
                    complete(txn, call, state, null, false);
                    return finish(txn, call, null, false, false);
                }
                return planPut(call, state, true);
            }
            case READ, TRY_READ -> {
                if (current != null) {
                    Txn txn = new Txn(state.guardVersion());
                    checkTag(txn, call.name, state.tagStat(), tag);
                    complete(txn, call, state, current, false);
                    txn.blob(current, 1);
                    return finish(txn, call, current, false, false);
                }
            }
            case GET, TRY_GET -> {
                if (current != null) {
                    Txn txn = new Txn(state.guardVersion());
                    TagRecord left = new TagRecord(null, tag.waiters);
                    writeTag(txn, call.name, state.tagStat(), left);
                    complete(txn, call, state, current, false);
                    return finish(txn, call, current, false, false);
                }
            }
            default -> throw new AssertionError(call.operation);
        }
        Txn txn = new Txn(state.guardVersion());
        if (call.operation.isBlocking()) {
            List<Waiter> waiters = new ArrayList<>(tag.waiters);
            waiters.add(new Waiter(call.processId, call.requestNumber, call.operation));
            writeTag(txn, call.name, state.tagStat(), new TagRecord(null, waiters));
            ProcessRecord process = state.process();
            ProcessRecord pending = new ProcessRecord(call.requestNumber, process.oldest, process.logBytes,
                    call.operation, call.name, call.token, process.blobEntries);
            writeProcess(txn, call.processId, state.processStat(), pending);
            return finish(txn, call, null, false, true);
        }
        // A try-op on an absent tag: assert the absence in the same transaction.
        if (state.tagStat() != null) {
            checkTag(txn, call.name, state.tagStat(), tag);
        } else {
            txn.add(Op.create(layout.tagPath(call.name), EMPTY, Records.OPEN_ACL, CreateMode.PERSISTENT), 0);
            txn.add(Op.delete(layout.tagPath(call.name), 0), 0);
            txn.tagCreated = true;
            txn.decideTag(TagRecord.EMPTY, -1);
        }
        complete(txn, call, state, null, false);
        return finish(txn, call, null, false, false);
    }

    /**
     * Plans the cancel of the process's pending request, against its process record and the tag's guard version and
     * record (null stat: absent): it leaves its tag's queue, and its outcome "cancelled" is logged like any outcome
     * (with the evictions that causes). Throws {@link Retry} if the tag record no longer queues it (a put served it,
     * or it was cancelled, since the process record was read).
     */
    Plan planCancel(Call call, ProcessRecord process, Stat processStat, int guardVersion, TagRecord tag,
            Stat tagStat) {
        if (tagStat == null) {
            throw Retry.INSTANCE;
        }
        List<Waiter> left = new ArrayList<>(tag.waiters);
        if (!left.remove(new Waiter(call.processId, call.requestNumber, call.operation))) {
            throw Retry.INSTANCE;
        }
        Txn txn = new Txn(guardVersion);
        writeTag(txn, call.name, tagStat, new TagRecord(tag.value, left));
        LogEntry entry = LogEntry.cancelled(call.operation, call.name, process.pendingToken,
                processStat.getMzxid());
        ProcessRecord after = appendEntry(txn, call, call.processId, process, call.requestNumber, entry);
        writeProcess(txn, call.processId, processStat, new ProcessRecord(call.requestNumber, after.oldest,
                after.logBytes, null, null, null, after.blobEntries));
        return finish(txn, call, null, false, false);
    }

    /**
     * Plans a put (or a single-assignment put of an absent tag): the tag's waiters are served in arrival order — every
     * read before the first get receives the value, the first get takes it — and the value stays unless a get took it.
     * The value goes inline while its copies fit half a transaction, and as one pinned blob otherwise.
     */
    private Plan planPut(Call call, ReadState state, boolean stored) {
        if (call.owned == null) {
            call.owned = call.data.clone();
        }
        TagRecord tag = state.tag();
        List<Waiter> served = new ArrayList<>();
        boolean taken = false;
        for (Waiter waiter : tag.waiters) {
            served.add(waiter);
            if (waiter.operation() == Operation.GET) {
                taken = true;
                break;
            }
        }
        List<Waiter> left = tag.waiters.subList(served.size(), tag.waiters.size());
        List<ProcessState> waiterStates = served.isEmpty() ? List.of() : reads.waiters(call, served);
        int copies = served.size() + (taken ? 0 : 1);
        Value value = null;
        if (call.owned.length <= inlineLimit
                && (long) copies * call.owned.length + 4096L * (1 + served.size()) < transactionLimit / 2) {
            value = Value.inline(call.owned);
        }
        while (true) {
            if (value == null) {
                value = reads.pin(call);
            }
            Txn txn = new Txn(state.guardVersion());
            writeTag(txn, call.name, state.tagStat(), new TagRecord(taken ? null : value, left));
            if (!taken) {
                txn.blob(value, 1);
            }
            txn.blob(tag.value, -1);
            for (int i = 0; i < served.size(); i++) {
                Waiter waiter = served.get(i);
                ProcessState waiterState = waiterStates.get(i);
                ProcessRecord before = waiterState.record();
                LogEntry entry = new LogEntry(waiter.operation(), call.name, false, value, before.pendingToken,
                        waiterState.stat().getMzxid());
                ProcessRecord after = appendEntry(txn, call, waiter.processId(), before, waiter.requestNumber(),
                        entry);
                writeProcess(txn, waiter.processId(), waiterState.stat(), new ProcessRecord(before.issued,
                        after.oldest, after.logBytes, null, null, null, after.blobEntries));
                txn.blob(value, 1);
            }
            complete(txn, call, state, null, stored);
            if (txn.bytes > transactionLimit && !value.isBlob()) {
                value = null; // too many inline copies: store the value once, as a blob
                continue;
            }
            return finish(txn, call, null, stored, false);
        }
    }

    /** Logs the issuing process's own outcome and advances its high-water mark. */
    private void complete(Txn txn, Call call, ReadState state, Value value, boolean stored) {
        LogEntry entry = new LogEntry(call.operation, call.name, stored, value, call.token, 0);
        ProcessRecord after = appendEntry(txn, call, call.processId, state.process(), call.requestNumber, entry);
        writeProcess(txn, call.processId, state.processStat(), new ProcessRecord(call.requestNumber, after.oldest,
                after.logBytes, null, null, null, after.blobEntries));
    }

    /**
     * Adds a log entry for {@code requestNumber} and the evictions it causes: the oldest entry when the log is full,
     * then the oldest ones while the byte budget is exceeded (never the newest), and, when the entry holds a blob,
     * the oldest ones while more than {@value TransactionBudget#MAX_BLOB_ENTRIES} entries hold blobs. Returns the
     * record's new log window; the caller sets the rest.
     */
    private ProcessRecord appendEntry(Txn txn, Call call, int processId, ProcessRecord record, long requestNumber,
            LogEntry entry) {
        long oldest = record.oldest;
        long bytes = record.logBytes;
        List<Long> blobEntries = new ArrayList<>(record.blobEntries.length + 1);
        for (long blobEntry : record.blobEntries) {
            blobEntries.add(blobEntry);
        }
        long size = requestNumber - oldest;
        if (size >= options.readLogCapacity()) {
            bytes -= evict(txn, call, processId, oldest, blobEntries);
            oldest++;
            size--;
        }
        txn.addEntry(Op.create(layout.entryPath(processId, requestNumber), entry.encode(), Records.OPEN_ACL,
                CreateMode.PERSISTENT), entry.estimatedBytes());
        txn.created.put(ClientMemory.entryKey(processId, requestNumber), entry);
        size++;
        long budget = options.readLogBudgetBytes().orElse(-1);
        if (budget >= 0) {
            bytes += entry.dataBytes(); // tracked for the budget only: eviction reads no sizes without one
        }
        if (entry.value != null && entry.value.isBlob()) {
            blobEntries.add(requestNumber);
        }
        while ((budget >= 0 && bytes > budget || blobEntries.size() > TransactionBudget.MAX_BLOB_ENTRIES)
                && size > 1) {
            bytes -= evict(txn, call, processId, oldest, blobEntries);
            oldest++;
            size--;
        }
        long[] blobs = new long[blobEntries.size()];
        for (int i = 0; i < blobs.length; i++) {
            blobs[i] = blobEntries.get(i);
        }
        return new ProcessRecord(record.issued, oldest, bytes, record.pendingOperation, record.pendingName,
                record.pendingToken, blobs);
    }

    /** Deletes one log entry and drops its blob reference; returns its data bytes when a budget counts them. */
    private long evict(Txn txn, Call call, int processId, long requestNumber, List<Long> blobEntries) {
        txn.add(Op.delete(layout.entryPath(processId, requestNumber), -1), 0);
        txn.evictions++;
        boolean blob = blobEntries.remove(Long.valueOf(requestNumber));
        boolean budget = options.readLogBudgetBytes().isPresent();
        if (!blob && !budget) {
            return 0; // nothing to learn from the entry: read nothing
        }
        EntryMeta meta = reads.entry(call, processId, requestNumber);
        txn.blob(meta.value(), -1);
        return budget ? meta.bytes() : 0;
    }

    private void writeProcess(Txn txn, int processId, Stat stat, ProcessRecord record) {
        byte[] data = record.encode();
        if (stat == null) {
            txn.add(Op.create(layout.processPath(processId), data, Records.OPEN_ACL, CreateMode.PERSISTENT),
                    data.length);
            txn.processesAfter.put(processId, new KnownProcess(record, 0));
        } else {
            txn.add(Op.setData(layout.processPath(processId), data, stat.getVersion()), data.length);
            txn.processesAfter.put(processId, new KnownProcess(record, stat.getVersion() + 1));
        }
    }

    /**
     * Writes a tag record at the version read: creates it (no guard needed: a create fails on any record there),
     * sets it, or deletes it when it holds nothing. {@link #finish} adds the guard of a set or delete.
     */
    private void writeTag(Txn txn, String name, Stat stat, TagRecord record) {
        if (record.isEmpty()) {
            if (stat != null) {
                txn.add(Op.delete(layout.tagPath(name), stat.getVersion()), 0);
                txn.tagVersioned = true;
                txn.tagDeleted = true;
            }
            txn.decideTag(TagRecord.EMPTY, -1);
            return;
        }
        byte[] data = record.encode();
        if (stat == null) {
            txn.add(Op.create(layout.tagPath(name), data, Records.OPEN_ACL, CreateMode.PERSISTENT), data.length);
            txn.tagCreated = true;
            txn.decideTag(record, 0);
        } else {
            txn.add(Op.setData(layout.tagPath(name), data, stat.getVersion()), data.length);
            txn.tagVersioned = true;
            txn.decideTag(record, stat.getVersion() + 1);
        }
    }

    /** Asserts that the tag record is still the one read (its version, and its guard's in {@link #finish}). */
    private void checkTag(Txn txn, String name, Stat stat, TagRecord record) {
        txn.add(Op.check(layout.tagPath(name), stat.getVersion()), 0);
        txn.tagVersioned = true;
        txn.decideTag(record, stat.getVersion());
    }

    /**
     * Completes a transaction: the tag guard, the blob reference counts it changes (a count reaching zero deletes its
     * reference node, unless a writer pins it, and the blob with it after the commit), and the put's pin; the log
     * entries go last. Throws if the transaction exceeds the budget.
     */
    private Plan finish(Txn txn, Call call, Value value, boolean stored, boolean pending) {
        String guard = keys.guardPath(call.name);
        if (txn.tagVersioned) {
            // A version of a tag record proves it unchanged only while the record was not deleted and created again
            // (versions restart at 0): the guard's version, read no later than the record, proves that. Whoever
            // deletes a tag record moves its guard's version.
            if (txn.tagDeleted) {
                txn.add(Op.setData(guard, EMPTY, txn.guardVersion), 0);
            } else {
                txn.add(Op.check(guard, txn.guardVersion), 0);
            }
        } else {
            // No version to check, but the guard's name carries the namespace id: a transaction planned for a
            // namespace destroyed and created again since (by others) fails instead of applying to the new one.
            txn.add(Op.check(guard, -1), 0);
        }
        List<String> changed = new ArrayList<>();
        for (Map.Entry<String, Integer> delta : txn.blobDeltas.entrySet()) {
            if (delta.getValue() != 0) {
                changed.add(delta.getKey());
            }
        }
        for (String shaHex : changed) {
            Reference reference = reads.reference(call, shaHex);
            long count = reference.count() + txn.blobDeltas.get(shaHex);
            if (count < 0) {
                // Planning reads are not one snapshot: the count was read after a commit that the records read
                // earlier do not show yet. The commit would fail on their versions; read again.
                throw Retry.INSTANCE;
            }
            if (count == 0 && reference.children() == 0) {
                txn.add(Op.delete(layout.referencePath(shaHex), reference.version()), 0);
                txn.orphanedBlobs.add(keys.blobKey(shaHex, reference.incarnation()));
            } else {
                txn.add(Op.setData(layout.referencePath(shaHex), Records.encodeCount(count), reference.version()),
                        8);
            }
        }
        if (call.pin != null && txn.blobDeltas.containsKey(call.pin.shaHex())) {
            txn.add(Op.delete(call.pin.path(), -1), 0);
        }
        txn.ops.addAll(txn.entries);
        txn.entries.clear();
        if (txn.bytes > transactionLimit) {
            throw new IllegalStateException("the transaction of " + call.describe() + " needs " + txn.bytes
                    + " bytes, more than jute.maxbuffer allows (" + transactionLimit + " after ZooKeeper's headers)");
        }
        return new Plan(txn, value, stored, pending);
    }
}
