package io.github.volpex.checkpoint.store;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * A repository whose calls the test makes fail: every call ({@link #down}, with a given cause, as an unreachable host
 * would), or only deletes ({@link #refuseDeletes}, which report success and keep the object: a delete dropped on the
 * way).
 */
class Switchable implements FragmentRepository {

    private final FragmentRepository inner;
    private volatile IOException down;
    private volatile boolean refuseDeletes;

    Switchable(FragmentRepository inner) {
        this.inner = inner;
    }

    static List<Switchable> inMemory(int count) {
        return Stores.inMemory(count).stream().map(Switchable::new).toList();
    }

    /** Fails every call with {@code cause} from now on; null brings the repository back. */
    void down(IOException cause) {
        this.down = cause;
    }

    /** Makes deletes report success while keeping the object. */
    void refuseDeletes(boolean refuse) {
        this.refuseDeletes = refuse;
    }

    private void check() throws IOException {
        IOException cause = down;
        if (cause != null) {
            throw cause;
        }
    }

    @Override
    public String id() {
        return inner.id();
    }

    @Override
    public void put(String key, byte[] content) throws IOException {
        check();
        inner.put(key, content);
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        check();
        return inner.get(key);
    }

    @Override
    public boolean delete(String key) throws IOException {
        check();
        return refuseDeletes || inner.delete(key);
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        check();
        return inner.list(prefix);
    }
}
