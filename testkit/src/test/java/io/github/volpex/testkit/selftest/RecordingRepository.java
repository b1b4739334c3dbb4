package io.github.volpex.testkit.selftest;

import io.github.volpex.checkpoint.repository.FragmentOutput;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * A repository that tells a listener of every value that really was stored or removed: what a fault-injecting wrapper
 * in front of it let through. The ground truth of the store's properties.
 */
final class RecordingRepository implements FragmentRepository {

    /** Told of every change that took effect, in the order they took effect. */
    interface Listener {
        void stored(String repositoryId, String key);

        void deleted(String repositoryId, String key);
    }

    private final FragmentRepository delegate;
    private final Listener listener;

    RecordingRepository(FragmentRepository delegate, Listener listener) {
        this.delegate = delegate;
        this.listener = listener;
    }

    @Override
    public String id() {
        return delegate.id();
    }

    @Override
    public void put(String key, byte[] content) throws IOException {
        delegate.put(key, content);
        listener.stored(id(), key);
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        return delegate.get(key);
    }

    @Override
    public boolean delete(String key) throws IOException {
        boolean deleted = delegate.delete(key);
        if (deleted) {
            listener.deleted(id(), key);
        }
        return deleted;
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        return delegate.list(prefix);
    }

    @Override
    public Optional<InputStream> open(String key) throws IOException {
        return delegate.open(key);
    }

    @Override
    public FragmentOutput create(String key) throws IOException {
        FragmentOutput out = delegate.create(key);
        return new FragmentOutput() {
            @Override
            public void write(int b) throws IOException {
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            protected void publish() throws IOException {
                out.commit();
                listener.stored(id(), key);
            }

            @Override
            protected void discard() throws IOException {
                out.close();
            }
        };
    }
}
