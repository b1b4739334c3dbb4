package io.github.volpex.dataspace.zookeeper;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;

/**
 * Collects the blobs of one namespace that nothing refers to, bucket by bucket ({@link Layout#BLOB_BUCKETS} of them,
 * {@value #GROUP} at a time), so that no listing holds more than one bucket and the time grows with the number of
 * blobs. In each bucket it reads every reference node (pipelined) and
 * <ul>
 *   <li>deletes each whose count is 0 and that has no pin, at the version read (a put that pins it meanwhile makes the
 *       delete fail), then its blob;</li>
 *   <li>deletes each stored blob of this namespace whose incarnation's reference node is gone, once a linearizable
 *       read confirms it: a put creates the reference node before it stores the blob, and a server lagging behind
 *       that creation must not make the blob look orphaned.</li>
 * </ul>
 * Everything it deletes is garbage whatever happened before, so a collection cut short is simply run again.
 *
 * <p>Not thread-safe: one collection per instance.
 */
final class GarbageCollector {

    /** Buckets listed and read at once. */
    static final int GROUP = 16;

    private final Session session;
    private final Layout layout;
    private final Listing listing;
    /** Whether the blobs are in the default store (listed bucket by bucket under the namespace). */
    private final boolean storeInZooKeeper;
    /** An external store, listed whole ({@link BlobStore#keys()}); null for the default store. */
    private final BlobStore externalStore;
    /** The prefix of this namespace's blob keys: its id in hex and a dash. */
    private final String blobPrefix;
    /** Runs a linearizable read-only multi. */
    private final Function<List<Op>, List<OpResult>> linearizableRead;
    /** Deletes a blob from the store, logging a failure (the next collection deletes it). */
    private final Consumer<String> deleteBlob;
    private final String during;
    private int removed;

    GarbageCollector(Session session, Layout layout, Listing listing, BlobStore store, boolean storeInZooKeeper,
            String blobPrefix, Function<List<Op>, List<OpResult>> linearizableRead, Consumer<String> deleteBlob) {
        this.session = session;
        this.layout = layout;
        this.listing = listing;
        this.storeInZooKeeper = storeInZooKeeper;
        this.externalStore = storeInZooKeeper ? null : store;
        this.blobPrefix = blobPrefix;
        this.linearizableRead = linearizableRead;
        this.deleteBlob = deleteBlob;
        this.during = "collecting garbage in " + layout.namespace;
    }

    /**
     * Collects every bucket.
     *
     * @return the number of blobs deleted
     * @throws BlobStoreException       if the store cannot be listed
     * @throws ListingTooLargeException if a bucket has more children than one answer can list
     */
    int collect() {
        Map<Integer, List<String>> external = new HashMap<>();
        if (externalStore != null) {
            List<String> keys;
            try {
                keys = externalStore.keys();
            } catch (IOException | RuntimeException ex) {
                throw new BlobStoreException("(all)", "listing " + externalStore + " failed", ex);
            }
            for (String key : keys) {
                if (key.startsWith(blobPrefix) && Layout.shaOfKey(key) != null) {
                    external.computeIfAbsent(Layout.blobBucketOf(key), b -> new ArrayList<>()).add(key);
                }
            }
        }
        for (int from = 0; from < Layout.BLOB_BUCKETS; from += GROUP) {
            List<Integer> buckets = new ArrayList<>();
            for (int bucket = from; bucket < from + GROUP; bucket++) {
                buckets.add(bucket);
            }
            collect(buckets, external);
        }
        return removed;
    }

    private void collect(List<Integer> buckets, Map<Integer, List<String>> external) {
        List<String> referenceBuckets = new ArrayList<>();
        List<String> storeBuckets = new ArrayList<>();
        for (int bucket : buckets) {
            referenceBuckets.add(layout.references + "/" + Layout.blobBucketName(bucket));
            storeBuckets.add(layout.store + "/" + Layout.blobBucketName(bucket));
        }
        List<List<String>> references = list(referenceBuckets, Layout.MAX_REFERENCE_NAME);
        List<List<String>> stored = storeInZooKeeper ? list(storeBuckets, Layout.MAX_STORE_KEY) : null;

        // Every reference node of the group, read pipelined.
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < buckets.size(); i++) {
            for (String shaHex : references.get(i)) {
                paths.add(referenceBuckets.get(i) + "/" + shaHex);
            }
        }
        Map<String, Session.Result> read = readAll(paths);
        Set<String> deletedKeys = new HashSet<>();
        List<String> keys = new ArrayList<>();
        List<CompletableFuture<Session.Result>> deletes = new ArrayList<>();
        for (Map.Entry<String, Session.Result> reference : read.entrySet()) {
            Session.Result node = reference.getValue();
            if (node.ok() && Records.decodeCount(node.data()) == 0 && node.stat().getNumChildren() == 0) {
                String shaHex = reference.getKey().substring(reference.getKey().lastIndexOf('/') + 1);
                keys.add(blobPrefix + shaHex + "-" + Long.toHexString(node.stat().getCzxid()));
                deletes.add(session.deleteAsync(reference.getKey(), node.stat().getVersion()));
            }
        }
        for (int i = 0; i < deletes.size(); i++) {
            if (session.await(deletes.get(i)).ok()) {
                deleteBlob.accept(keys.get(i));
                deletedKeys.add(keys.get(i));
                removed++;
            }
        }

        // Every stored blob of this namespace whose reference node, of its incarnation, was not read.
        List<String> suspects = new ArrayList<>();
        for (int i = 0; i < buckets.size(); i++) {
            List<String> keysInBucket = stored != null ? stored.get(i)
                    : external.getOrDefault(buckets.get(i), List.of());
            for (String key : keysInBucket) {
                String shaHex = key.startsWith(blobPrefix) ? Layout.shaOfKey(key) : null;
                if (shaHex == null || deletedKeys.contains(key)) {
                    continue;
                }
                Session.Result node = read.get(layout.referencePath(shaHex));
                if (node == null || !node.ok() || node.stat().getCzxid() != incarnationOf(key)) {
                    suspects.add(key);
                }
            }
        }
        for (int from = 0; from < suspects.size(); from += 256) {
            List<String> some = suspects.subList(from, Math.min(suspects.size(), from + 256));
            List<Op> confirm = new ArrayList<>(some.size());
            for (String key : some) {
                confirm.add(Op.getData(layout.referencePath(Layout.shaOfKey(key))));
            }
            List<OpResult> now = linearizableRead.apply(confirm);
            for (int i = 0; i < some.size(); i++) {
                if (!(now.get(i) instanceof OpResult.GetDataResult found)
                        || found.getStat().getCzxid() > incarnationOf(some.get(i))) {
                    deleteBlob.accept(some.get(i));
                    removed++;
                }
            }
        }
    }

    /** Lists buckets, pipelined; a bucket that does not exist lists as empty. */
    private List<List<String>> list(List<String> buckets, int maxNameBytes) {
        List<List<String>> children = new ArrayList<>(buckets.size());
        for (List<String> names : listing.children(buckets, maxNameBytes, during)) {
            children.add(names == null ? List.of() : names);
        }
        return children;
    }

    /** Reads znodes, pipelined {@value Eraser#BATCH} at a time; a read whose outcome is unknown is left out. */
    private Map<String, Session.Result> readAll(List<String> paths) {
        Map<String, Session.Result> read = new HashMap<>();
        for (int from = 0; from < paths.size(); from += Eraser.BATCH) {
            List<String> some = paths.subList(from, Math.min(paths.size(), from + Eraser.BATCH));
            List<CompletableFuture<Session.Result>> answers = new ArrayList<>(some.size());
            for (String path : some) {
                answers.add(session.getDataAsync(path));
            }
            for (int i = 0; i < some.size(); i++) {
                Session.Result answer = session.await(answers.get(i));
                if (!answer.unknown()) {
                    read.put(some.get(i), answer);
                }
            }
        }
        return read;
    }

    /** The incarnation a blob key of this package names (its last part, in hex). */
    static long incarnationOf(String key) {
        return Long.parseUnsignedLong(key.substring(key.lastIndexOf('-') + 1), 16);
    }
}
