package io.github.volpex.checkpoint.repository;

import io.github.volpex.checkpoint.store.CheckpointStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A place that stores checkpoint fragments: a volatile storage host's disk, a directory, an object store. The
 * {@link CheckpointStore} reaches every repository through this interface; implement it to plug in another kind of
 * storage.
 *
 * <p>A repository is a flat map from keys to byte strings. Keys are 1 to 120 characters from {@code [A-Za-z0-9._-]}
 * and never start with a dot ({@link #isValidKey}); implementations may reserve keys starting with a dot for their
 * own bookkeeping. The contract every implementation honours (and the abstract contract test checks):
 * <ul>
 *   <li><b>atomic replacement</b>: a reader sees either the previous value of a key or the whole new one, never a
 *       part; a failed or abandoned write leaves the previous value;</li>
 *   <li><b>read-your-writes</b>: once {@link #put} or {@link FragmentOutput#commit()} returns, {@link #get},
 *       {@link #open} and {@link #list} see the value;</li>
 *   <li><b>any call may fail</b>: a volatile host may be unreachable or lose its disk at any moment, so every method
 *       may throw {@link IOException} ({@link RepositoryUnavailableException} when the repository is unreachable).
 *       A failed call has either taken full effect or none.</li>
 * </ul>
 *
 * <p>Implementations must be safe for concurrent use by multiple threads.
 *
 * @since 0.1
 */
public interface FragmentRepository {

    /** The longest key, in characters. */
    int MAX_KEY_LENGTH = 120;

    /**
     * Returns this repository's identifier, which fragment indexes record; stable across restarts and unique among the
     * repositories a store uses.
     *
     * @return the identifier, 1 to 255 bytes of UTF-8
     */
    String id();

    /**
     * Stores {@code content} under {@code key}, atomically replacing any previous value.
     *
     * @param key     the key ({@link #isValidKey})
     * @param content the bytes to store; not retained (the repository copies what it keeps)
     * @throws IOException              if the repository is unavailable or the write failed; the previous value, if
     *                                  any, is then unchanged
     * @throws IllegalArgumentException if {@code key} is not valid
     * @throws NullPointerException     if an argument is null
     */
    void put(String key, byte[] content) throws IOException;

    /**
     * Returns the value stored under {@code key}.
     *
     * @param key the key ({@link #isValidKey})
     * @return a copy of the value, or empty if there is none
     * @throws IOException              if the repository is unavailable or the read failed
     * @throws IllegalArgumentException if {@code key} is not valid
     * @throws NullPointerException     if {@code key} is null
     */
    Optional<byte[]> get(String key) throws IOException;

    /**
     * Removes the value stored under {@code key}, if any.
     *
     * @param key the key ({@link #isValidKey})
     * @return {@code true} if a value was removed, {@code false} if there was none
     * @throws IOException              if the repository is unavailable or the removal failed
     * @throws IllegalArgumentException if {@code key} is not valid
     * @throws NullPointerException     if {@code key} is null
     */
    boolean delete(String key) throws IOException;

    /**
     * Returns the keys that start with {@code prefix}, in ascending order.
     *
     * @param prefix the prefix; may be empty (every key)
     * @return the keys, an unmodifiable list
     * @throws IOException          if the repository is unavailable or the listing failed
     * @throws NullPointerException if {@code prefix} is null
     */
    List<String> list(String prefix) throws IOException;

    /**
     * Starts a streaming write of {@code key}: nothing is visible until {@link FragmentOutput#commit()}, which replaces
     * any previous value atomically; closing without committing discards what was written.
     *
     * <p>The default buffers the bytes in memory and {@linkplain #put puts} them on commit; implementations that can
     * stream (a file, a network upload) override it so that a store's memory stays bounded.
     *
     * @param key the key ({@link #isValidKey})
     * @return the output; the caller must close it
     * @throws IOException              if the repository is unavailable
     * @throws IllegalArgumentException if {@code key} is not valid
     * @throws NullPointerException     if {@code key} is null
     */
    default FragmentOutput create(String key) throws IOException {
        requireValidKey(key);
        return new FragmentOutput() {
            private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();

            @Override
            public void write(int b) {
                buffer.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                buffer.write(b, off, len);
            }

            @Override
            protected void publish() throws IOException {
                put(key, buffer.toByteArray());
            }

            @Override
            protected void discard() {
                buffer.reset();
            }
        };
    }

    /**
     * Starts a streaming write of {@code key} whose caller promises to write exactly {@code lengthBytes} bytes before
     * it commits: a repository that must announce a value's length before sending it (an HTTP upload with a {@code
     * Content-Length}) can then start sending with the first bytes written, instead of buffering them. Otherwise as
     * {@link #create(String)}: nothing is visible until {@link FragmentOutput#commit()}, and closing without
     * committing discards what was written.
     *
     * <p>The promise is checked: a write that would take the output past {@code lengthBytes} throws
     * {@link IllegalStateException} before writing anything of it, and so does a {@link FragmentOutput#commit()}
     * after fewer bytes; either way nothing is published under the key, and {@link FragmentOutput#close()} discards
     * what was written.
     *
     * <p>The default is {@link #create(String)} with the promise checked around it; implementations that can stream
     * a value of known length override it.
     *
     * @param key         the key ({@link #isValidKey})
     * @param lengthBytes the exact number of bytes that will be written, {@code >= 0}
     * @return the output; the caller must close it
     * @throws IOException              if the repository is unavailable
     * @throws IllegalArgumentException if {@code key} is not valid or {@code lengthBytes} is negative
     * @throws NullPointerException     if {@code key} is null
     * @since 0.1
     */
    default FragmentOutput create(String key, long lengthBytes) throws IOException {
        requireValidKey(key);
        if (lengthBytes < 0) {
            throw new IllegalArgumentException("lengthBytes must be >= 0: " + lengthBytes);
        }
        return FragmentOutput.checkingLength(key, lengthBytes, create(key));
    }

    /**
     * Opens the value stored under {@code key} for streaming reads.
     *
     * <p>The default reads the whole value with {@link #get}; implementations that can stream override it.
     *
     * @param key the key ({@link #isValidKey})
     * @return a stream over the value, or empty if there is none; the caller must close it, and its reads may throw
     *         {@link IOException} if the repository becomes unavailable
     * @throws IOException              if the repository is unavailable
     * @throws IllegalArgumentException if {@code key} is not valid
     * @throws NullPointerException     if {@code key} is null
     */
    default Optional<InputStream> open(String key) throws IOException {
        return get(key).map(ByteArrayInputStream::new);
    }

    /**
     * Returns whether {@code key} is a valid key: 1 to {@value #MAX_KEY_LENGTH} characters from
     * {@code [A-Za-z0-9._-]}, not starting with a dot.
     *
     * @param key a string
     * @return {@code true} if it is a valid key
     * @throws NullPointerException if {@code key} is null
     */
    static boolean isValidKey(String key) {
        Objects.requireNonNull(key, "key");
        int length = key.length();
        if (length == 0 || length > MAX_KEY_LENGTH || key.charAt(0) == '.') {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = key.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * Returns {@code key} if it is valid, for implementations to check their arguments with.
     *
     * @param key a string
     * @return {@code key}
     * @throws NullPointerException     if {@code key} is null
     * @throws IllegalArgumentException if it is not a valid key
     */
    static String requireValidKey(String key) {
        if (!isValidKey(key)) {
            throw new IllegalArgumentException("key must be 1 to " + MAX_KEY_LENGTH
                    + " characters of [A-Za-z0-9._-] not starting with '.': \"" + key + "\"");
        }
        return key;
    }

    /**
     * Returns a repository that keeps fragments in this JVM's heap: for tests, and for the local copy of a checkpoint
     * when the process itself survives.
     *
     * @param id the repository's identifier
     * @return a new, empty repository; thread-safe
     * @throws NullPointerException     if {@code id} is null
     * @throws IllegalArgumentException if {@code id} is empty or longer than 255 bytes of UTF-8
     */
    static FragmentRepository inMemory(String id) {
        return new InMemoryRepository(id);
    }

    /**
     * Returns a repository that keeps each fragment in a file of {@code directory}, creating the directory if needed.
     * Writes go to a temporary file in the same directory that is then moved over the target atomically, so a crash
     * never leaves a partial fragment under its key. See {@link DirectoryRepository}.
     *
     * @param id        the repository's identifier
     * @param directory the directory
     * @param fsync     whether to force written files and the directory to the storage device before a write or
     *                  delete returns (durable across power loss, slower)
     * @return the repository; thread-safe
     * @throws IOException              if the directory cannot be created or is not a directory
     * @throws NullPointerException     if {@code id} or {@code directory} is null
     * @throws IllegalArgumentException if {@code id} is empty or longer than 255 bytes of UTF-8
     */
    static DirectoryRepository directory(String id, Path directory, boolean fsync) throws IOException {
        return DirectoryRepository.open(id, directory, fsync);
    }
}
