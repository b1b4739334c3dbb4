package io.github.volpex.testkit;

import io.github.volpex.checkpoint.repository.FragmentOutput;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.repository.RepositoryUnavailableException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * A {@link FragmentRepository} wrapper that injects the faults of a volatile storage host: it can be made unreachable
 * and brought back ({@link #setReachable}), its stored bytes can be corrupted ({@link #corrupt}), and every call asks
 * a {@link FaultSchedule} whether to fail, time out, lose its reply, drop its write silently or crash the simulated
 * process ({@link Fault}).
 *
 * <p>The wrapper stands for the host and lives as long as the test; the schedule stands for the process using it and
 * is replaced ({@link #schedule(FaultSchedule)}) when that process restarts. A call first asks the schedule (so a
 * crash stops the process whatever the host's state), then fails if the host is unreachable, then applies the fault.
 *
 * <p>Thread-safe if the wrapped repository is.
 *
 * @since 0.1
 */
public final class FaultyRepository implements FragmentRepository {

    private final FragmentRepository delegate;
    private volatile FaultSchedule schedule = FaultSchedule.none();
    private volatile boolean reachable = true;

    private FaultyRepository(FragmentRepository delegate) {
        this.delegate = delegate;
    }

    /**
     * Wraps a repository; it is reachable and injects nothing until told otherwise.
     *
     * @param delegate the repository that stores the values
     * @return the wrapper, with the delegate's identifier
     * @throws NullPointerException if {@code delegate} is null
     */
    public static FaultyRepository wrap(FragmentRepository delegate) {
        return new FaultyRepository(Objects.requireNonNull(delegate, "delegate"));
    }

    /**
     * Wraps every repository of a list.
     *
     * @param delegates the repositories
     * @return the wrappers, in the same order; a new modifiable list
     * @throws NullPointerException if the list or one of its elements is null
     */
    public static List<FaultyRepository> wrapAll(List<? extends FragmentRepository> delegates) {
        List<FaultyRepository> wrapped = new ArrayList<>(delegates.size());
        for (FragmentRepository delegate : delegates) {
            wrapped.add(wrap(delegate));
        }
        return wrapped;
    }

    /**
     * Installs the schedule that decides the faults of the following calls (those of a restarted process, say).
     *
     * @param schedule the schedule
     * @throws NullPointerException if {@code schedule} is null
     */
    public void schedule(FaultSchedule schedule) {
        this.schedule = Objects.requireNonNull(schedule, "schedule");
    }

    /**
     * Makes the host unreachable ({@code false}: every call, streams already open included, fails with a
     * {@link RepositoryUnavailableException} without effect) or reachable again ({@code true}) with what it stored.
     *
     * @param reachable whether calls reach the host
     */
    public void setReachable(boolean reachable) {
        this.reachable = reachable;
    }

    /**
     * Tells whether calls reach the host.
     *
     * @return {@code false} while the host is unreachable
     */
    public boolean isReachable() {
        return reachable;
    }

    /**
     * Returns the wrapped repository, through which a test sees what is really stored.
     *
     * @return the delegate
     */
    public FragmentRepository delegate() {
        return delegate;
    }

    /**
     * Flips one byte of a stored value (an empty value becomes one byte), as bit rot or a faulty disk would: the key
     * stays, its content is wrong. Bypasses the schedule and reachability.
     *
     * @param key      the key
     * @param position which byte to flip, taken modulo the value's length
     * @return {@code true} if a value was stored under the key and was corrupted
     * @throws IOException              if the wrapped repository fails
     * @throws IllegalArgumentException if {@code key} is not valid
     */
    public boolean corrupt(String key, long position) throws IOException {
        Optional<byte[]> stored = delegate.get(key);
        if (stored.isEmpty()) {
            return false;
        }
        byte[] bytes = stored.get();
        if (bytes.length == 0) {
            delegate.put(key, new byte[] {(byte) 0xA5});
        } else {
            bytes[(int) Math.floorMod(position, (long) bytes.length)] ^= 0x5A;
            delegate.put(key, bytes);
        }
        return true;
    }

    /**
     * Corrupts each stored value whose key starts with {@code prefix} with probability {@code probability}.
     *
     * @param prefix      the keys concerned; empty for all
     * @param probability the chance of each value, in {@code [0, 1]}
     * @param random      the source of the choices
     * @return the keys corrupted
     * @throws IOException              if the wrapped repository fails
     * @throws IllegalArgumentException if {@code probability} is out of range
     * @throws NullPointerException     if an argument is null
     */
    public List<String> corruptRandomly(String prefix, double probability, RandomGenerator random)
            throws IOException {
        if (!(probability >= 0 && probability <= 1)) {
            throw new IllegalArgumentException("probability must be in [0, 1]: " + probability);
        }
        Objects.requireNonNull(random, "random");
        List<String> corrupted = new ArrayList<>();
        for (String key : delegate.list(prefix)) {
            if (random.nextDouble() < probability && corrupt(key, random.nextLong(Long.MAX_VALUE))) {
                corrupted.add(key);
            }
        }
        return corrupted;
    }

    /** Runs a call as the schedule and the host's state say. */
    private <T> T call(RepositoryCall kind, String key, IoCall<T> effect, T dropped) throws IOException {
        FaultSchedule current = schedule;
        Fault fault = current.next(delegate.id(), kind, key);
        String what = kind.name().toLowerCase(Locale.ROOT) + " " + key;
        if (fault == Fault.CRASH_BEFORE) {
            throw new SimulatedCrash("crashed before " + what + " on " + delegate.id());
        }
        if (!reachable) {
            throw new RepositoryUnavailableException(delegate.id(), delegate.id() + " is unreachable: " + what,
                    null);
        }
        switch (fault) {
            case FAIL -> throw new RepositoryUnavailableException(delegate.id(), "injected failure of " + what, null);
            case TIMEOUT -> {
                sleep(current);
                throw new RepositoryUnavailableException(delegate.id(), what + " timed out after "
                        + current.timeout(), null);
            }
            case REPLY_LOST -> {
                if (kind.hasEffect()) {
                    effect.run();
                }
                throw new RepositoryUnavailableException(delegate.id(), "lost the reply of " + what, null);
            }
            case DROP -> {
                if (kind.hasEffect()) {
                    return dropped;
                }
                return effect.run();
            }
            case CRASH_AFTER -> {
                effect.run();
                throw new SimulatedCrash("crashed after " + what + " on " + delegate.id());
            }
            default -> {
                return effect.run();
            }
        }
    }

    private static void sleep(FaultSchedule schedule) throws InterruptedIOException {
        try {
            Thread.sleep(schedule.timeout().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted = new InterruptedIOException("interrupted while timing out");
            interrupted.initCause(e);
            throw interrupted;
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
        FragmentRepository.requireValidKey(key);
        Objects.requireNonNull(content, "content");
        call(RepositoryCall.PUT, key, () -> {
            delegate.put(key, content);
            return null;
        }, null);
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        FragmentRepository.requireValidKey(key);
        return call(RepositoryCall.GET, key, () -> delegate.get(key), null);
    }

    @Override
    public boolean delete(String key) throws IOException {
        FragmentRepository.requireValidKey(key);
        // A dropped delete answers as if the value were gone.
        return call(RepositoryCall.DELETE, key, () -> delegate.delete(key), Boolean.TRUE);
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        Objects.requireNonNull(prefix, "prefix");
        return call(RepositoryCall.LIST, prefix, () -> delegate.list(prefix), null);
    }

    @Override
    public FragmentOutput create(String key) throws IOException {
        FragmentRepository.requireValidKey(key);
        return faulty(key, call(RepositoryCall.CREATE, key, () -> delegate.create(key), null));
    }

    /**
     * {@inheritDoc}
     *
     * <p>The promise reaches the wrapped repository (which may stream the value, as an S3 repository can), and the
     * output's calls meet the same faults as those of {@link #create(String)}.
     */
    @Override
    public FragmentOutput create(String key, long lengthBytes) throws IOException {
        FragmentRepository.requireValidKey(key);
        if (lengthBytes < 0) {
            throw new IllegalArgumentException("lengthBytes must be >= 0: " + lengthBytes);
        }
        return faulty(key, call(RepositoryCall.CREATE, key, () -> delegate.create(key, lengthBytes), null));
    }

    /** The output over the delegate's {@code out} whose writes and commit ask the schedule first. */
    private FragmentOutput faulty(String key, FragmentOutput out) {
        return new FragmentOutput() {
            @Override
            public void write(int b) throws IOException {
                call(RepositoryCall.WRITE, key, () -> {
                    out.write(b);
                    return null;
                }, null);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                call(RepositoryCall.WRITE, key, () -> {
                    out.write(b, off, len);
                    return null;
                }, null);
            }

            @Override
            protected void publish() throws IOException {
                boolean[] dropped = {true};
                call(RepositoryCall.COMMIT, key, () -> {
                    out.commit();
                    dropped[0] = false;
                    return null;
                }, null);
                if (dropped[0]) {
                    out.close();
                }
            }

            @Override
            protected void discard() throws IOException {
                // Local clean-up of an abandoned write: it happens whatever the faults, as closing a socket does.
                out.close();
            }
        };
    }

    @Override
    public Optional<InputStream> open(String key) throws IOException {
        FragmentRepository.requireValidKey(key);
        Optional<InputStream> in = call(RepositoryCall.OPEN, key, () -> delegate.open(key), null);
        return in.map(stream -> new FilterInputStream(stream) {
            @Override
            public int read() throws IOException {
                return call(RepositoryCall.READ, key, stream::read, null);
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return call(RepositoryCall.READ, key, () -> stream.read(b, off, len), null);
            }
        });
    }

    @Override
    public String toString() {
        return "FaultyRepository[" + delegate + (reachable ? "" : ", unreachable") + "]";
    }
}
