package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.zookeeper.Records.Header;
import io.github.volpex.dataspace.zookeeper.Records.LogEntry;
import io.github.volpex.dataspace.zookeeper.Records.ProcessRecord;
import io.github.volpex.dataspace.zookeeper.Records.TagRecord;
import io.github.volpex.dataspace.zookeeper.Records.Value;
import io.github.volpex.dataspace.zookeeper.Records.Waiter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * Reads a whole dataspace namespace with a client of its own and checks the protocol's invariants: every process's
 * read log holds exactly its window, with the bytes and blob entries its record claims; every pending request is in
 * its tag's queue and every queued waiter is pending; a tag record with a value has no waiters; every blob reference
 * count equals the number of tag records and log entries that refer to it, none is zero unless a put pins it, and the
 * ensemble's blob store holds exactly the referenced (and pinned) blobs; the namespace has its 64 tag guards. After a
 * run that killed clients, collect garbage first: a put killed between storing its blob and committing leaves an
 * unreferenced blob by design.
 */
final class NamespaceInspector implements AutoCloseable {

    private final ZooKeeper zooKeeper;

    private NamespaceInspector(ZooKeeper zooKeeper) {
        this.zooKeeper = zooKeeper;
    }

    /** Connects a client of its own (at most 30 s). */
    static NamespaceInspector connect(String connectString) throws Exception {
        return new NamespaceInspector(Sessions.connect(connectString));
    }

    /** The inspector's own client, to read or damage znodes directly. */
    ZooKeeper zooKeeper() {
        return zooKeeper;
    }

    /** Returns the one blob key of a namespace's ZooKeeper store, asserting that it holds exactly one. */
    String onlyStoreKey(String namespace) throws Exception {
        zooKeeper.sync(namespace);
        List<String> keys = zooKeeper.getChildren(namespace + "/s", false);
        assertEquals(1, keys.size(), keys.toString());
        return keys.get(0);
    }

    /**
     * Checks every invariant and returns what the namespace holds, for further assertions. Call it when no client
     * writes to the namespace: its reads see every write completed before the call, but are not one snapshot.
     */
    Snapshot check(String namespace) throws Exception {
        // The inspector's server may lag behind the writes other sessions made through other servers: catch it up.
        zooKeeper.sync(namespace);
        Header header = Header.decodeOrNull(zooKeeper.getData(namespace, false, null));
        assertNotNull(header, namespace + " holds a header");
        assertFalse(header.destroying());
        List<String> guards = zooKeeper.getChildren(namespace + "/g", false);
        String guardPrefix = Long.toHexString(header.namespaceId()) + "-";
        assertEquals(ZkDataspace.GUARDS, guards.size(), "the namespace's tag guards: " + guards);
        for (String guard : guards) {
            assertTrue(guard.startsWith(guardPrefix), guard + " is a guard of namespace id " + guardPrefix);
        }
        Map<String, Integer> references = new HashMap<>();
        Map<Integer, ProcessRecord> processes = new HashMap<>();
        Set<String> pending = new HashSet<>();
        for (String child : zooKeeper.getChildren(namespace + "/p", false)) {
            int processId = Integer.parseInt(child);
            assertTrue(processId >= 0 && processId < header.processCount(), "process " + child);
            String path = namespace + "/p/" + child;
            ProcessRecord record = ProcessRecord.decode(zooKeeper.getData(path, false, null));
            processes.put(processId, record);
            TreeSet<Long> entries = new TreeSet<>();
            for (String entry : zooKeeper.getChildren(path, false)) {
                entries.add(Long.parseLong(entry));
            }
            long last = record.lastCompleted();
            long size = Math.max(0, last - record.oldest + 1);
            assertEquals(size, entries.size(), "process " + processId + " retains " + entries);
            assertTrue(size <= header.readLogCapacity(), "process " + processId + " log within capacity");
            if (size > 0) {
                assertEquals(record.oldest, entries.first(), "process " + processId + " oldest entry");
                assertEquals(last, entries.last(), "process " + processId + " newest entry");
            }
            long bytes = 0;
            List<Long> blobEntries = new ArrayList<>();
            for (long entry : entries) {
                LogEntry logged = LogEntry.decode(zooKeeper.getData(path + "/" + entry, false, null));
                bytes += logged.dataBytes();
                if (logged.value != null && logged.value.isBlob()) {
                    blobEntries.add(entry);
                    references.merge(logged.value.shaHex() + "-" + Long.toHexString(logged.value.incarnation), 1,
                            Integer::sum);
                }
            }
            assertEquals(header.readLogBudgetBytes() >= 0 ? bytes : 0, record.logBytes,
                    "process " + processId + " log bytes (tracked for a budget only)");
            if (header.readLogBudgetBytes() >= 0 && size > 1) {
                assertTrue(bytes <= header.readLogBudgetBytes(), "process " + processId + " within the budget");
            }
            List<Long> claimed = new ArrayList<>();
            for (long entry : record.blobEntries) {
                claimed.add(entry);
            }
            assertEquals(blobEntries, claimed, "process " + processId + " blob entries");
            if (record.pending()) {
                pending.add(processId + "/" + record.issued + "/" + record.pendingOperation + "/"
                        + record.pendingName);
            }
        }
        Set<String> queued = new HashSet<>();
        Map<String, TagRecord> tags = new HashMap<>();
        for (String name : zooKeeper.getChildren(namespace + "/t", false)) {
            TagRecord tag = TagRecord.decode(zooKeeper.getData(namespace + "/t/" + name, false, null));
            tags.put(name, tag);
            assertFalse(tag.isEmpty(), "an empty tag record is deleted: " + name);
            assertTrue(tag.value == null || tag.waiters.isEmpty(), "a present value has no waiters: " + name);
            if (tag.value != null && tag.value.isBlob()) {
                references.merge(tag.value.shaHex() + "-" + Long.toHexString(tag.value.incarnation), 1,
                        Integer::sum);
            }
            for (Waiter waiter : tag.waiters) {
                assertTrue(queued.add(waiter.processId() + "/" + waiter.requestNumber() + "/" + waiter.operation()
                        + "/" + name), "queued once: " + waiter);
            }
        }
        assertEquals(pending, queued, "pending requests are exactly the queued waiters");
        Map<String, Long> counts = new HashMap<>();
        Set<String> pinned = new HashSet<>();
        for (String shaHex : zooKeeper.getChildren(namespace + "/b", false)) {
            Stat stat = new Stat();
            long count = Records.decodeCount(zooKeeper.getData(namespace + "/b/" + shaHex, false, stat));
            String key = shaHex + "-" + Long.toHexString(stat.getCzxid());
            if (count == 0 && stat.getNumChildren() > 0) {
                pinned.add(key); // a put in flight, or one whose expired session the ensemble has not yet closed
                continue;
            }
            counts.put(key, count);
        }
        Map<String, Long> expected = new HashMap<>();
        references.forEach((key, count) -> expected.put(key, (long) count));
        assertEquals(expected, counts, "blob reference counts equal the references");
        if (header.blobsInZooKeeper()) {
            Set<String> stored = new HashSet<>();
            String prefix = Long.toHexString(header.namespaceId()) + "-";
            for (String key : zooKeeper.getChildren(namespace + "/s", false)) {
                assertTrue(key.startsWith(prefix), "blob key " + key);
                stored.add(key.substring(prefix.length()));
            }
            stored.removeAll(pinned);
            assertEquals(counts.keySet(), stored, "the blob store holds exactly the referenced blobs");
        }
        return new Snapshot(header, processes, tags, counts);
    }

    /** What a namespace held when it was checked. */
    record Snapshot(Header header, Map<Integer, ProcessRecord> processes, Map<String, TagRecord> tags,
            Map<String, Long> blobs) {
        Value value(String tag) {
            TagRecord record = tags.get(TagNames.name(tag));
            return record == null ? null : record.value;
        }
    }

    @Override
    public void close() {
        try {
            zooKeeper.close();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
