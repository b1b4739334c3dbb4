package io.github.volpex.dataspace.zookeeper;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where a ZooKeeper dataspace keeps values too large for a ZooKeeper transaction (a request is limited to about 1 MiB):
 * a flat store of immutable byte arrays under keys the dataspace chooses. Every replica of every process must see the
 * same store, so across machines it is shared storage: an object store, a network file system
 * ({@link #directory(Path)}), or by default the ensemble itself.
 *
 * <p>Keys are lowercase hex and dashes ({@code [0-9a-f-]}, at most 100 characters): the namespace's id, the value's
 * SHA-256 and a number that tells apart successive stores of the same value, so namespaces can share a store. A key
 * is written once with the same bytes by whoever writes it (writes of one key may race and must all succeed), read
 * any number of times, and deleted once no tuple or read-log entry refers to it. The dataspace verifies every value it
 * reads against its SHA-256 and length, so a store need not check integrity itself; it must never return part of a
 * value as if it were the whole of it.
 *
 * <p>Implementations must be thread-safe. The dataspace calls them from its callers' threads.
 *
 * @since 0.1
 */
public interface BlobStore {

    /**
     * Stores a value under a key, replacing nothing: if the key exists, it already holds these bytes.
     *
     * @param key  the key
     * @param data the value (not modified, not retained after the call)
     * @throws IOException if the value could not be stored; the dataspace then fails the put and leaves nothing
     *                     visible
     */
    void write(String key, byte[] data) throws IOException;

    /**
     * Reads the value under a key.
     *
     * @param key the key
     * @return the whole value, or empty if the key is absent
     * @throws IOException if the store could not be read
     */
    Optional<byte[]> read(String key) throws IOException;

    /**
     * Deletes the value under a key; deleting an absent key does nothing.
     *
     * @param key the key
     * @throws IOException if the store could not be changed
     */
    void delete(String key) throws IOException;

    /**
     * Lists the keys stored, so that values orphaned by a crashed writer can be collected.
     *
     * @return the keys, in any order
     * @throws IOException if the store could not be listed
     */
    List<String> keys() throws IOException;

    /**
     * Returns a store that keeps each value in a file of a directory — on a file system every host mounts, such as
     * NFS, when replicas run on several machines. Files are written to a temporary name and moved into place
     * atomically, so a reader never sees part of a value.
     *
     * @param directory the directory, created if absent
     * @return the store
     * @throws NullPointerException if {@code directory} is null
     */
    static BlobStore directory(Path directory) {
        return new DirectoryBlobStore(directory);
    }
}
