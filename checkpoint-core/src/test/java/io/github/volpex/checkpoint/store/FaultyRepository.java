package io.github.volpex.checkpoint.store;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Wraps a repository so that each call first asks a {@link FaultPlan} whether to proceed, fail or crash. */
final class FaultyRepository implements FragmentRepository {

    private final FragmentRepository delegate;
    private final FaultPlan plan;

    FaultyRepository(FragmentRepository delegate, FaultPlan plan) {
        this.delegate = delegate;
        this.plan = plan;
    }

    static List<FragmentRepository> wrap(List<? extends FragmentRepository> repositories, FaultPlan plan) {
        List<FragmentRepository> wrapped = new ArrayList<>();
        for (FragmentRepository r : repositories) {
            wrapped.add(new FaultyRepository(r, plan));
        }
        return wrapped;
    }

    /** Runs {@code effect} as the plan says; for reads, {@code CRASH_AFTER} is no different from a crash. */
    private <T> T call(String what, IoCall<T> effect) throws IOException {
        FaultPlan.Action action = plan.next(delegate.id());
        switch (action) {
            case FAIL -> throw new RepositoryUnavailableException(delegate.id(), what, null);
            case CRASH_BEFORE -> throw new SimulatedCrash("crash before " + what + " on " + delegate.id());
            case CRASH_AFTER -> {
                effect.run();
                throw new SimulatedCrash("crash after " + what + " on " + delegate.id());
            }
            default -> {
                return effect.run();
            }
        }
    }

    @FunctionalInterface
    private interface IoCall<T> {
        T run() throws IOException;
    }

    @Override
    public String id() {
        return delegate.id();
    }

    @Override
    public void put(String key, byte[] content) throws IOException {
        call("put " + key, () -> {
            delegate.put(key, content);
            return null;
        });
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        return call("get " + key, () -> delegate.get(key));
    }

    @Override
    public boolean delete(String key) throws IOException {
        return call("delete " + key, () -> delegate.delete(key));
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        return call("list " + prefix, () -> delegate.list(prefix));
    }

    @Override
    public FragmentOutput create(String key) throws IOException {
        FragmentOutput out = call("create " + key, () -> delegate.create(key));
        return new FragmentOutput() {
            @Override
            public void write(int b) throws IOException {
                call("write " + key, () -> {
                    out.write(b);
                    return null;
                });
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                call("write " + key, () -> {
                    out.write(b, off, len);
                    return null;
                });
            }

            @Override
            protected void publish() throws IOException {
                call("commit " + key, () -> {
                    out.commit();
                    return null;
                });
            }

            @Override
            protected void discard() throws IOException {
                // Closing is local clean-up: it happens even after a crash would have stopped everything else, which
                // only leaves less garbage; the directory repository's temporary files are tested on their own.
                out.close();
            }
        };
    }

    @Override
    public Optional<InputStream> open(String key) throws IOException {
        Optional<InputStream> in = call("open " + key, () -> delegate.open(key));
        return in.map(stream -> new FilterInputStream(stream) {
            @Override
            public int read() throws IOException {
                return call("read " + key, stream::read);
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return call("read " + key, () -> stream.read(b, off, len));
            }
        });
    }

    @Override
    public String toString() {
        return "Faulty[" + delegate + "]";
    }
}
