package io.github.volpex.dataspace.zookeeper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;

/**
 * The default blob store: each value in the ensemble itself, under {@code <namespace>/s/<bucket>/<key>}, cut into
 * chunks of {@value #CHUNK_BYTES} bytes ({@code …/<key>/0}, {@code …/<key>/1}, …) written and read pipelined. The
 * bucket is one of {@value Layout#BLOB_BUCKETS}, named by the first two hex digits of the value's SHA-256 ({@link
 * Layout#blobBucketOf(String)}), so that no znode has more children than one answer can list; a bucket is created by
 * the first write into it. The key's node is created empty first and receives its header (format byte, length as a
 * long, chunk count as an int) only once every chunk is stored: a key without a header is incomplete and reads as
 * absent.
 * Writes are idempotent (a chunk that exists holds the same bytes), so a write interrupted by a connection loss, or
 * whose key a concurrent delete removed, is simply repeated.
 */
final class ZooKeeperBlobStore implements BlobStore {

    /** Half of ZooKeeper's default request limit: one chunk per create. */
    static final int CHUNK_BYTES = 512 << 10;
    /** The longest chunk name: values are shorter than 2 GiB, so they have at most 4,096 chunks. */
    static final int MAX_CHUNK_NAME = 4;

    private final Session session;
    private final String root;
    private final long unavailableNanos;
    private final Listing listing;

    ZooKeeperBlobStore(Session session, String root, long unavailableNanos) {
        this.session = session;
        this.root = root;
        this.unavailableNanos = unavailableNanos;
        this.listing = new Listing(session, session.maxAnswerBytes(), during -> {
            if (!session.awaitConnected(System.nanoTime() + unavailableNanos)) {
                throw new UncheckedIOException(new IOException("ZooKeeper unreachable while " + during));
            }
        });
    }

    private String bucketPath(int bucket) {
        return root + "/" + Layout.blobBucketName(bucket);
    }

    private String path(String key) {
        return bucketPath(Layout.blobBucketOf(key)) + "/" + key;
    }

    @Override
    public void write(String key, byte[] data) throws IOException {
        int chunks = Math.max(1, (data.length + CHUNK_BYTES - 1) / CHUNK_BYTES);
        byte[] header = Records.encode(out -> {
            out.writeByte(Records.FORMAT);
            out.writeLong(data.length);
            out.writeInt(chunks);
        });
        String path = path(key);
        while (true) {
            Session.Result created = session.create(path, new byte[0], CreateMode.PERSISTENT);
            if (created.code() == Code.NONODE) {
                Session.Result bucket = session.create(bucketPath(Layout.blobBucketOf(key)), new byte[0],
                        CreateMode.PERSISTENT);
                if (bucket.code() == Code.NONODE) {
                    throw new IOException("blob store " + root + " no longer exists (its namespace was destroyed)");
                }
                retry(bucket, key, Code.NODEEXISTS);
                continue;
            }
            if (retry(created, key, Code.NODEEXISTS)) {
                continue;
            }
            List<CompletableFuture<Session.Result>> writes = new ArrayList<>(chunks);
            for (int i = 0; i < chunks; i++) {
                int from = i * CHUNK_BYTES;
                writes.add(session.createAsync(path + "/" + i,
                        Arrays.copyOfRange(data, from, Math.min(data.length, from + CHUNK_BYTES))));
            }
            boolean again = false;
            for (CompletableFuture<Session.Result> write : writes) {
                Session.Result written = session.await(write);
                // NONODE: a delete removed the key meanwhile; write it again.
                again |= written.code() == Code.NONODE || retry(written, key, Code.NODEEXISTS);
            }
            if (again) {
                continue;
            }
            Session.Result completed = session.setData(path, header, -1);
            if (completed.code() != Code.NONODE && !retry(completed, key, null)) {
                return;
            }
        }
    }

    @Override
    public Optional<byte[]> read(String key) throws IOException {
        String path = path(key);
        while (true) {
            Session.Result head = session.getData(path);
            if (head.code() == Code.NONODE) {
                return Optional.empty();
            }
            if (retry(head, key, null)) {
                continue;
            }
            if (head.data().length == 0) {
                return Optional.empty();
            }
            ByteBuffer header = ByteBuffer.wrap(head.data());
            if (header.get() != Records.FORMAT) {
                throw new IOException("blob " + key + " has an unknown format");
            }
            long length = header.getLong();
            int chunks = header.getInt();
            if (length < 0 || length > Integer.MAX_VALUE || chunks < 1) {
                throw new IOException("blob " + key + " has a corrupt header: length " + length + ", chunks "
                        + chunks);
            }
            List<CompletableFuture<Session.Result>> reads = new ArrayList<>(chunks);
            for (int i = 0; i < chunks; i++) {
                reads.add(session.getDataAsync(path + "/" + i));
            }
            byte[] value = new byte[(int) length];
            int filled = 0;
            boolean again = false;
            for (CompletableFuture<Session.Result> read : reads) {
                Session.Result chunk = session.await(read);
                if (chunk.code() == Code.NONODE) {
                    return Optional.empty();
                }
                again |= retry(chunk, key, null);
                if (!again) {
                    byte[] data = chunk.data();
                    if (data.length > value.length - filled) {
                        throw new IOException("blob " + key + " holds more than its header's " + length + " bytes");
                    }
                    System.arraycopy(data, 0, value, filled, data.length);
                    filled += data.length;
                }
            }
            if (!again) {
                if (filled != value.length) {
                    throw new IOException("blob " + key + " holds " + filled + " of its header's " + length
                            + " bytes");
                }
                return Optional.of(value);
            }
        }
    }

    @Override
    public void delete(String key) throws IOException {
        String path = path(key);
        while (true) {
            List<String> chunks = list(path, MAX_CHUNK_NAME, "deleting blob " + key);
            if (chunks == null) {
                return;
            }
            List<CompletableFuture<Session.Result>> deletes = new ArrayList<>();
            for (String chunk : chunks) {
                deletes.add(session.deleteAsync(path + "/" + chunk, -1));
            }
            boolean again = false;
            for (CompletableFuture<Session.Result> delete : deletes) {
                again |= retry(session.await(delete), key, Code.NONODE);
            }
            if (again) {
                continue;
            }
            Session.Result deleted = session.delete(path, -1);
            if (deleted.code() != Code.NONODE && deleted.code() != Code.NOTEMPTY && retry(deleted, key, null)) {
                continue;
            }
            if (deleted.code() != Code.NOTEMPTY) {
                return;
            }
        }
    }

    /**
     * Lists every key, bucket by bucket ({@value Layout#BLOB_BUCKETS} listings, none of them of everything).
     *
     * @throws ListingTooLargeException if a bucket holds more keys than one answer can list
     */
    @Override
    public List<String> keys() throws IOException {
        List<String> keys = new ArrayList<>();
        for (int bucket = 0; bucket < Layout.BLOB_BUCKETS; bucket++) {
            keys.addAll(keys(bucket));
        }
        return keys;
    }

    /**
     * Lists the keys of one bucket ({@link Layout#blobBucketOf(String)}).
     *
     * @throws ListingTooLargeException if the bucket holds more keys than one answer can list
     */
    private List<String> keys(int bucket) throws IOException {
        List<String> keys = list(bucketPath(bucket), Layout.MAX_STORE_KEY, "listing the blob store " + root);
        return keys == null ? List.of() : keys;
    }

    /** Lists a znode's children (null if it does not exist), unwrapping a connection that did not come back. */
    private List<String> list(String path, int maxNameBytes, String during) throws IOException {
        try {
            return listing.children(path, maxNameBytes, during);
        } catch (UncheckedIOException unreachable) {
            throw unreachable.getCause();
        }
    }

    /**
     * Returns whether to repeat the step: after waiting for the connection when the outcome is unknown. A success or
     * the accepted code returns false; any other code is an {@link IOException}.
     */
    private boolean retry(Session.Result result, String key, Code accepted) throws IOException {
        if (result.ok() || result.code() == accepted) {
            return false;
        }
        if (result.unknown()) {
            if (!session.awaitConnected(System.nanoTime() + unavailableNanos)) {
                throw new IOException("ZooKeeper unreachable while working on blob " + key);
            }
            return true;
        }
        throw new IOException("ZooKeeper answered " + result.code() + " for blob " + key);
    }

    @Override
    public String toString() {
        return "ZooKeeperBlobStore(" + root + ")";
    }
}
