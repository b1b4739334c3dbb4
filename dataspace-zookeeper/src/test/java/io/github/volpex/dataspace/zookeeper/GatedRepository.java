package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.checkpoint.store.FragmentRepository;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A repository view that, once armed, holds the first write of an index copy ({@code …idx}, the step of a commit
 * just before the store asks its epoch source) until released: a commit frozen between its fragments and its commit
 * point, as a writer paused by a long GC or a partition would be. Shares one {@link Gate} among the views of a store.
 */
final class GatedRepository implements FragmentRepository {

    /** The gate the views of one store share. */
    static final class Gate {
        private final AtomicReference<CountDownLatch[]> armed = new AtomicReference<>();

        /** Arms the gate: the next index write blocks until {@link #release()}. */
        void arm() {
            armed.set(new CountDownLatch[] {new CountDownLatch(1), new CountDownLatch(1)});
        }

        /** Waits until a write is held. */
        boolean awaitHeld(long seconds) throws InterruptedException {
            CountDownLatch[] latches = armed.get();
            return latches != null && latches[0].await(seconds, TimeUnit.SECONDS);
        }

        /** Lets the held write (and every later one) through. */
        void release() {
            CountDownLatch[] latches = armed.getAndSet(null);
            if (latches != null) {
                latches[0].countDown();
                latches[1].countDown();
            }
        }

        void pass(String key) throws IOException {
            CountDownLatch[] latches = armed.get();
            if (latches == null || !key.endsWith(".idx") || latches[0].getCount() == 0) {
                return;
            }
            latches[0].countDown();
            try {
                if (!latches[1].await(60, TimeUnit.SECONDS)) {
                    throw new IOException("the gate was not released within 60 s");
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted at the gate");
            }
        }
    }

    private final FragmentRepository delegate;
    private final Gate gate;

    GatedRepository(FragmentRepository delegate, Gate gate) {
        this.delegate = delegate;
        this.gate = gate;
    }

    @Override
    public String id() {
        return delegate.id();
    }

    @Override
    public void put(String key, byte[] content) throws IOException {
        gate.pass(key);
        delegate.put(key, content);
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
}
