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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;
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
        List<String> keys = new ArrayList<>(bucketed(namespace + "/s").keySet());
        assertEquals(1, keys.size(), keys.toString());
        return keys.get(0);
    }

    /** Returns the path of a key in a namespace's ZooKeeper store. */
    static String storePath(String namespace, String key) {
        return namespace + "/s/" + Layout.blobBucketName(Layout.blobBucketOf(key)) + "/" + key;
    }

    /**
     * Reads a directory spread over buckets: every child of every bucket, by name, with its bucket's path. Asserts
     * that bucket names are hex digits.
     */
    private Map<String, String> bucketed(String directory) throws Exception {
        Map<String, String> children = new HashMap<>();
        List<CompletableFuture<List<String>>> listings = new ArrayList<>();
        List<String> buckets = zooKeeper.getChildren(directory, false);
        for (String bucket : buckets) {
            assertTrue(bucket.matches("[0-9a-f]{2,3}"), "a bucket of " + directory + ": " + bucket);
            CompletableFuture<List<String>> listed = new CompletableFuture<>();
            zooKeeper.getChildren(directory + "/" + bucket, false, (rc, p, ctx, names) -> {
                if (rc == 0) {
                    listed.complete(names);
                } else {
                    listed.completeExceptionally(new AssertionError("listing " + p + ": "
                            + KeeperException.Code.get(rc)));
                }
            }, null);
            listings.add(listed);
        }
        for (int i = 0; i < buckets.size(); i++) {
            String bucketPath = directory + "/" + buckets.get(i);
            for (String child : listings.get(i).get(60, TimeUnit.SECONDS)) {
                assertEquals(null, children.put(child, bucketPath), "in one bucket only: " + child);
            }
        }
        return children;
    }

    /** A znode's data and stat, read by {@link #read(List)}. */
    private record Read(byte[] data, Stat stat) {
    }

    /** Reads znodes that must exist, pipelined. */
    private Map<String, Read> read(List<String> paths) throws Exception {
        Map<String, Read> reads = new HashMap<>();
        for (int from = 0; from < paths.size(); from += 1_000) {
            List<String> some = paths.subList(from, Math.min(paths.size(), from + 1_000));
            List<CompletableFuture<Read>> answers = new ArrayList<>();
            for (String path : some) {
                CompletableFuture<Read> answer = new CompletableFuture<>();
                zooKeeper.getData(path, false, (rc, p, ctx, data, stat) -> {
                    if (rc == 0) {
                        answer.complete(new Read(data, stat));
                    } else {
                        answer.completeExceptionally(new AssertionError("reading " + p + ": "
                                + KeeperException.Code.get(rc)));
                    }
                }, null);
                answers.add(answer);
            }
            for (int i = 0; i < some.size(); i++) {
                reads.put(some.get(i), answers.get(i).get(60, TimeUnit.SECONDS));
            }
        }
        return reads;
    }

    /**
     * What walking a whole subtree found: znodes, the most children one listing returned (and where), the largest
     * listing's answer in bytes, and ZooKeeper's approximate data size of the subtree (its paths and data, in bytes).
     */
    record Walk(long znodes, int maxChildren, String fullest, long largestAnswerBytes, long dataBytes) {
    }

    /** A listing's children and the listed znode's stat. */
    private record Listed(List<String> children, Stat stat) {
    }

    /**
     * Lists every znode of a subtree with this client's default {@code jute.maxbuffer}, pipelining the listings of
     * siblings; a listing that fails fails the walk.
     */
    Walk walk(String root) throws Exception {
        zooKeeper.sync(root);
        long znodes = 0;
        int maxChildren = 0;
        String fullest = root;
        long largestAnswer = 0;
        long dataBytes = 0;
        List<String> level = List.of(root);
        while (!level.isEmpty()) {
            List<String> next = new ArrayList<>();
            for (int from = 0; from < level.size(); from += 256) {
                List<String> some = level.subList(from, Math.min(level.size(), from + 256));
                List<CompletableFuture<Listed>> answers = new ArrayList<>();
                for (String path : some) {
                    CompletableFuture<Listed> answer = new CompletableFuture<>();
                    zooKeeper.getChildren(path, false, (rc, p, ctx, children, stat) -> {
                        if (rc == 0) {
                            answer.complete(new Listed(children, stat));
                        } else {
                            answer.completeExceptionally(new AssertionError("listing " + p + " failed: "
                                    + KeeperException.Code.get(rc)));
                        }
                    }, null);
                    answers.add(answer);
                }
                for (int i = 0; i < some.size(); i++) {
                    Listed listed = answers.get(i).get(60, TimeUnit.SECONDS);
                    String path = some.get(i);
                    znodes++;
                    dataBytes += path.length() + listed.stat().getDataLength();
                    long answerBytes = Layout.LISTING_BYTES;
                    for (String child : listed.children()) {
                        answerBytes += Layout.CHILD_BYTES + child.length();
                        next.add(path + "/" + child);
                    }
                    largestAnswer = Math.max(largestAnswer, answerBytes);
                    if (listed.children().size() > maxChildren) {
                        maxChildren = listed.children().size();
                        fullest = path;
                    }
                }
            }
            level = next;
        }
        return new Walk(znodes, maxChildren, fullest, largestAnswer, dataBytes);
    }

    /**
     * Checks every invariant and returns what the namespace holds, for further assertions. Call it when no client
     * writes to the namespace: its reads see every write completed before the call, but are not one snapshot.
     */
    Snapshot check(String namespace) throws Exception {
        // The inspector's server may lag behind the writes other sessions made through other servers: catch it up.
        zooKeeper.sync(namespace);
        Header header = Header.decodeOrNull(zooKeeper.getData(namespace, false, null), namespace);
        assertNotNull(header, namespace + " holds a header");
        assertFalse(header.destroying());
        List<String> guards = zooKeeper.getChildren(namespace + "/g", false);
        String guardPrefix = Long.toHexString(header.namespaceId()) + "-";
        assertEquals(NamespaceKeys.GUARDS, guards.size(), "the namespace's tag guards: " + guards);
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
            List<String> entryPaths = new ArrayList<>();
            for (long entry : entries) {
                entryPaths.add(path + "/" + entry);
            }
            Map<String, Read> logged = read(entryPaths);
            for (long entry : entries) {
                LogEntry logEntry = LogEntry.decode(logged.get(path + "/" + entry).data());
                bytes += logEntry.dataBytes();
                if (logEntry.value != null && logEntry.value.isBlob()) {
                    blobEntries.add(entry);
                    references.merge(logEntry.value.shaHex() + "-" + Long.toHexString(logEntry.value.incarnation), 1,
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
        Layout layout = new Layout(namespace);
        Map<String, String> tagBuckets = bucketed(namespace + "/t");
        Map<String, Read> tagRecords = read(tagBuckets.keySet().stream().map(layout::tagPath).toList());
        for (Map.Entry<String, String> child : tagBuckets.entrySet()) {
            String name = child.getKey();
            assertEquals(layout.tagBucketPath(name), child.getValue(), "the bucket of " + name);
            TagRecord tag = TagRecord.decode(tagRecords.get(layout.tagPath(name)).data());
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
        Map<String, String> dictionaryBuckets = bucketed(namespace + "/n");
        Map<String, Read> dictionary = read(dictionaryBuckets.keySet().stream().map(layout::dictionaryPath).toList());
        for (Map.Entry<String, String> child : dictionaryBuckets.entrySet()) {
            assertEquals(layout.dictionaryBucketPath(child.getKey()), child.getValue(), "the bucket of "
                    + child.getKey());
            assertTrue(TagNames.isHashed(child.getKey()), "only hashed names are in the dictionary");
            assertEquals(child.getKey(), TagNames.name(Records.decodeTag(dictionary.get(
                    layout.dictionaryPath(child.getKey())).data())), "a dictionary entry's tag has its name");
        }
        Map<String, Long> counts = new HashMap<>();
        Set<String> pinned = new HashSet<>();
        Map<String, String> referenceBuckets = bucketed(namespace + "/b");
        Map<String, Read> referenceNodes = read(referenceBuckets.keySet().stream().map(layout::referencePath)
                .toList());
        for (Map.Entry<String, String> child : referenceBuckets.entrySet()) {
            String shaHex = child.getKey();
            assertEquals(layout.referenceBucketPath(shaHex), child.getValue(), "the bucket of " + shaHex);
            Read reference = referenceNodes.get(layout.referencePath(shaHex));
            Stat stat = reference.stat();
            long count = Records.decodeCount(reference.data());
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
            for (Map.Entry<String, String> child : bucketed(namespace + "/s").entrySet()) {
                String key = child.getKey();
                assertEquals(storePath(namespace, key), child.getValue() + "/" + key, "the bucket of " + key);
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
