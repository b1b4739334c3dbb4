package io.github.volpex.examples.tour;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.FragmentIndex;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the bytes a store writes to a repository: in all, and for each checkpoint. A store keeps every object of a
 * checkpoint under {@code <job>.<epoch>.<sequence>.<commit id>.<suffix>} ({@link FragmentIndex}, "Keys"), so the
 * bytes put under a checkpoint's keys until its commit is durable are what that commit wrote — fragments (or a
 * differential checkpoint's segment) and index copies, a fragment regenerated during the commit included — and
 * writes of other commits are not. A later repair of the checkpoint writes under the same keys: read a commit's count
 * when its stage completes.
 *
 * <p>Thread-safe; the count per checkpoint keeps one entry for every checkpoint written, for as long as the
 * repository lives.
 */
public final class CountingRepository implements FragmentRepository {

    private final FragmentRepository delegate;
    private final LongAdder bytesWritten = new LongAdder();
    private final Map<String, LongAdder> bytesByCheckpoint = new ConcurrentHashMap<>();

    /**
     * Counts what is written to {@code delegate}.
     *
     * @param delegate the repository that stores
     */
    public CountingRepository(FragmentRepository delegate) {
        this.delegate = delegate;
    }

    @Override
    public String id() {
        return delegate.id();
    }

    @Override
    public void put(String key, byte[] content) throws IOException {
        delegate.put(key, content);
        bytesWritten.add(content.length);
        int dot = key.lastIndexOf('.');
        if (dot > 0) {
            bytesByCheckpoint.computeIfAbsent(key.substring(0, dot), k -> new LongAdder()).add(content.length);
        }
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        return delegate.get(key);
    }

    @Override
    public boolean delete(String key) throws IOException {
        return delegate.delete(key);
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        return delegate.list(prefix);
    }

    /**
     * Returns the bytes written so far, under every key.
     *
     * @return bytes put and accepted
     */
    public long bytesWritten() {
        return bytesWritten.sum();
    }

    /**
     * Returns the bytes written so far under the keys of the checkpoint {@code index} describes.
     *
     * @param index the checkpoint's index
     * @return bytes put and accepted under its keys
     */
    public long bytesWritten(FragmentIndex index) {
        String marker = index.markerKey();
        LongAdder bytes = bytesByCheckpoint.get(marker.substring(0, marker.lastIndexOf('.')));
        return bytes == null ? 0 : bytes.sum();
    }

    /**
     * Returns what {@code repositories} wrote so far, in all.
     *
     * @param repositories the repositories
     * @return the sum of their {@link #bytesWritten()}
     */
    public static long bytesWritten(List<CountingRepository> repositories) {
        return repositories.stream().mapToLong(CountingRepository::bytesWritten).sum();
    }

    /**
     * Returns what {@code repositories} wrote so far under the keys of one checkpoint.
     *
     * @param repositories the repositories
     * @param index        the checkpoint's index
     * @return the sum of their {@link #bytesWritten(FragmentIndex)}
     */
    public static long bytesWritten(List<CountingRepository> repositories, FragmentIndex index) {
        return repositories.stream().mapToLong(repository -> repository.bytesWritten(index)).sum();
    }
}
