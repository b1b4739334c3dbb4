package io.github.volpex.examples.tour;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A repository on a volatile storage host: when the host departs, everything it stored is gone (its owner reclaimed
 * the disk), and a fresh, empty host takes its place under the same id. Counts what is lost.
 *
 * <p>Thread-safe: a departure waits for calls in progress and is atomic with respect to them.
 */
public final class VolatileRepository implements FragmentRepository {

    private final FragmentRepository delegate;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final AtomicLong objectsLost = new AtomicLong();
    private final AtomicLong bytesLost = new AtomicLong();

    public VolatileRepository(FragmentRepository delegate) {
        this.delegate = delegate;
    }

    @Override
    public String id() {
        return delegate.id();
    }

    @Override
    public void put(String key, byte[] content) throws IOException {
        lock.readLock().lock();
        try {
            delegate.put(key, content);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        lock.readLock().lock();
        try {
            return delegate.get(key);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public boolean delete(String key) throws IOException {
        lock.readLock().lock();
        try {
            return delegate.delete(key);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        lock.readLock().lock();
        try {
            return delegate.list(prefix);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The host departs: every object it stored is lost.
     *
     * @return the number of objects lost
     * @throws IOException if the underlying storage cannot be wiped
     */
    public int depart() throws IOException {
        lock.writeLock().lock();
        try {
            int lost = 0;
            for (String key : delegate.list("")) {
                Optional<byte[]> content = delegate.get(key);
                if (delegate.delete(key)) {
                    lost++;
                    bytesLost.addAndGet(content.map(bytes -> bytes.length).orElse(0));
                }
            }
            objectsLost.addAndGet(lost);
            return lost;
        } finally {
            lock.writeLock().unlock();
        }
    }

    long objectsLost() {
        return objectsLost.get();
    }

    long bytesLost() {
        return bytesLost.get();
    }
}
