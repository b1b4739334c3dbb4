package io.github.volpex.dataspace.zookeeper;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;

/**
 * The default blob store: each value in the ensemble itself, under {@code <namespace>/s/<key>}, cut into chunks of
 * {@value #CHUNK_BYTES} bytes ({@code …/<key>/0}, {@code …/<key>/1}, …) written and read pipelined. The key's node
 * is created empty first and receives its header (format byte, length as a long, chunk count as an int) only once
 * every chunk is stored: a key without a header is incomplete and reads as absent. Writes are idempotent (a chunk that
 * exists holds the same bytes), so a write interrupted by a connection loss is simply repeated.
 */
final class ZooKeeperBlobStore implements BlobStore {

    /** Half of ZooKeeper's default request limit: one chunk per create. */
    static final int CHUNK_BYTES = 512 << 10;

    private final Session session;
    private final String root;
    private final long unavailableNanos;

    ZooKeeperBlobStore(Session session, String root, long unavailableNanos) {
        this.session = session;
        this.root = root;
        this.unavailableNanos = unavailableNanos;
    }

    private String path(String key) {
        return root + "/" + key;
    }

    @Override
    public void write(String key, byte[] data) throws IOException {
        int chunks = Math.max(1, (data.length + CHUNK_BYTES - 1) / CHUNK_BYTES);
        byte[] header = Records.encode(out -> {
            out.writeByte(Records.FORMAT);
            out.writeLong(data.length);
            out.writeInt(chunks);
        });
        while (true) {
            Session.Result created = session.create(path(key), new byte[0], CreateMode.PERSISTENT);
            if (retry(created, key, Code.NODEEXISTS)) {
                continue;
            }
            List<CompletableFuture<Session.Result>> writes = new ArrayList<>(chunks);
            for (int i = 0; i < chunks; i++) {
                int from = i * CHUNK_BYTES;
                writes.add(session.createAsync(path(key) + "/" + i,
                        Arrays.copyOfRange(data, from, Math.min(data.length, from + CHUNK_BYTES))));
            }
            boolean again = false;
            for (CompletableFuture<Session.Result> write : writes) {
                again |= retry(session.await(write), key, Code.NODEEXISTS);
            }
            if (again) {
                continue;
            }
            if (!retry(session.setData(path(key), header, -1), key, null)) {
                return;
            }
        }
    }

    @Override
    public Optional<byte[]> read(String key) throws IOException {
        while (true) {
            Session.Result head = session.getData(path(key));
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
                reads.add(session.getDataAsync(path(key) + "/" + i));
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
        while (true) {
            Session.Result children = session.getChildren(path(key));
            if (children.code() == Code.NONODE) {
                return;
            }
            if (retry(children, key, null)) {
                continue;
            }
            List<CompletableFuture<Session.Result>> deletes = new ArrayList<>();
            for (String chunk : children.children()) {
                deletes.add(session.deleteAsync(path(key) + "/" + chunk, -1));
            }
            boolean again = false;
            for (CompletableFuture<Session.Result> delete : deletes) {
                again |= retry(session.await(delete), key, Code.NONODE);
            }
            if (again) {
                continue;
            }
            Session.Result deleted = session.delete(path(key), -1);
            if (deleted.code() != Code.NONODE && deleted.code() != Code.NOTEMPTY && retry(deleted, key, null)) {
                continue;
            }
            if (deleted.code() != Code.NOTEMPTY) {
                return;
            }
        }
    }

    @Override
    public List<String> keys() throws IOException {
        while (true) {
            Session.Result children = session.getChildren(root);
            if (!retry(children, "(all)", null)) {
                return children.children();
            }
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
                throw new IOException("ZooKeeper unreachable while storing blob " + key);
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
