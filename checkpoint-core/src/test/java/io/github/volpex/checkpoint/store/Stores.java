package io.github.volpex.checkpoint.store;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.repository.RepositoryUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

/** Fixtures for store tests. */
final class Stores {

    private Stores() {
    }

    static List<FragmentRepository> inMemory(int count) {
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            repositories.add(FragmentRepository.inMemory("r" + i));
        }
        return repositories;
    }

    static byte[] data(long seed, int length) {
        byte[] data = new byte[length];
        new SplittableRandom(seed).nextBytes(data);
        return data;
    }

    /** A repository that passes every call to another: extend it and override the calls to watch or change. */
    abstract static class Forwarding implements FragmentRepository {
        final FragmentRepository delegate;

        Forwarding(FragmentRepository delegate) {
            this.delegate = delegate;
        }

        @Override
        public String id() {
            return delegate.id();
        }

        @Override
        public void put(String key, byte[] content) throws java.io.IOException {
            delegate.put(key, content);
        }

        @Override
        public java.util.Optional<byte[]> get(String key) throws java.io.IOException {
            return delegate.get(key);
        }

        @Override
        public boolean delete(String key) throws java.io.IOException {
            return delegate.delete(key);
        }

        @Override
        public List<String> list(String prefix) throws java.io.IOException {
            return delegate.list(prefix);
        }
    }

    /**
     * Counts what a store asks of a repository: every call (into a counter of its own or one shared by several
     * repositories), the bytes put, and the reads of each key.
     */
    static final class Counting extends Forwarding {
        final java.util.concurrent.atomic.AtomicLong calls;
        final java.util.concurrent.atomic.AtomicLong putBytes = new java.util.concurrent.atomic.AtomicLong();
        /** The keys asked to be deleted, in order. */
        final List<String> deletes = new java.util.concurrent.CopyOnWriteArrayList<>();
        final java.util.Map<String, java.util.concurrent.atomic.AtomicLong> gets =
                new java.util.concurrent.ConcurrentHashMap<>();

        Counting(FragmentRepository delegate) {
            this(delegate, new java.util.concurrent.atomic.AtomicLong());
        }

        Counting(FragmentRepository delegate, java.util.concurrent.atomic.AtomicLong calls) {
            super(delegate);
            this.calls = calls;
        }

        @Override
        public void put(String key, byte[] content) throws java.io.IOException {
            calls.incrementAndGet();
            putBytes.addAndGet(content.length);
            super.put(key, content);
        }

        @Override
        public java.util.Optional<byte[]> get(String key) throws java.io.IOException {
            calls.incrementAndGet();
            gets.computeIfAbsent(key, k -> new java.util.concurrent.atomic.AtomicLong()).incrementAndGet();
            return super.get(key);
        }

        @Override
        public boolean delete(String key) throws java.io.IOException {
            calls.incrementAndGet();
            deletes.add(key);
            return super.delete(key);
        }

        @Override
        public List<String> list(String prefix) throws java.io.IOException {
            calls.incrementAndGet();
            return super.list(prefix);
        }
    }

    /** A clock the test moves by hand. */
    static final class ManualClock implements InstantSource {
        private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-03-01T00:00:00Z"));

        @Override
        public Instant instant() {
            return now.get();
        }

        void advance(Duration d) {
            now.updateAndGet(t -> t.plus(d));
        }
    }

    /** Every key on every repository, as "repository/key". */
    static List<String> everything(List<? extends FragmentRepository> repositories) throws Exception {
        List<String> all = new ArrayList<>();
        for (FragmentRepository r : repositories) {
            for (String key : r.list("")) {
                all.add(r.id() + "/" + key);
            }
        }
        return all;
    }

    /**
     * Damage that piece CRCs cannot see: changes one byte in every piece of fragment {@code f} of {@code index} and
     * recomputes each piece's CRC-32C; only the fragment's SHA-256 tells.
     */
    static void disguise(List<? extends FragmentRepository> repositories, CheckpointStore store, FragmentIndex index,
                         int f, SplittableRandom random) throws java.io.IOException {
        damagePieces(repositories, store, index, f, random, true);
    }

    /**
     * Changes one byte in every piece of fragment {@code f} of {@code index}; recomputes each piece's CRC-32C when
     * {@code hideFromCrc} (only the fragment's SHA-256 then tells), else leaves them (every piece fails its CRC).
     */
    static void damagePieces(List<? extends FragmentRepository> repositories, CheckpointStore store,
                             FragmentIndex index, int f, SplittableRandom random, boolean hideFromCrc)
            throws java.io.IOException {
        FragmentLocation location = index.fragments().get(f);
        FragmentRepository holder = repositories.stream().filter(r -> r.id().equals(location.repositoryId()))
                .findFirst().orElseThrow();
        byte[] fragment = holder.get(index.fragmentKey(f)).orElseThrow();
        Dispersal d = store.context().dispersalFor(index);
        Framing framing = new Framing(d, index.segmentBytes(), index.checkpointBytes());
        int at = 0;
        for (long s = 0; s < framing.segments(); s++) {
            int length = d.pieceLength(framing.segmentLength(s));
            fragment[at + random.nextInt(length)] ^= (byte) (1 + random.nextInt(255));
            if (hideFromCrc) {
                byte[] crc = new byte[Framing.CRC_BYTES];
                Framing.putCrc(Framing.crc(java.util.Arrays.copyOfRange(fragment, at, at + length), length), crc);
                System.arraycopy(crc, 0, fragment, at + length, Framing.CRC_BYTES);
            }
            at += length + Framing.CRC_BYTES;
        }
        if (fragment.length != at) {
            throw new IllegalStateException("fragment " + f + " has " + fragment.length + " bytes, framed " + at);
        }
        holder.put(index.fragmentKey(f), fragment);
    }

    /** Runs each task on a thread of {@code pool} after a random pause of up to {@code maxMicros}. */
    static java.util.concurrent.Executor late(java.util.concurrent.ExecutorService pool, long seed, int maxMicros) {
        SplittableRandom random = new SplittableRandom(seed);
        return task -> {
            long pause;
            synchronized (random) {
                pause = random.nextInt(maxMicros + 1) * 1_000L;
            }
            pool.execute(() -> {
                java.util.concurrent.locks.LockSupport.parkNanos(pause);
                task.run();
            });
        };
    }

    /** Flips one byte of a stored object. */
    static void corrupt(FragmentRepository repository, String key, int position) throws Exception {
        byte[] bytes = repository.get(key).orElseThrow();
        if (bytes.length == 0) {
            repository.put(key, new byte[] {1});
            return;
        }
        bytes[Math.floorMod(position, bytes.length)] ^= 0x5A;
        repository.put(key, bytes);
    }

    /** A simulated death of the process using a store: it makes no repository call after it. */
    static final class Crash extends Error {
        private static final long serialVersionUID = 1L;

        Crash(String message) {
            super(message, null, false, false);
        }
    }

    /** What one call of a {@link Switchable} does besides what it asks for. */
    enum Fault {
        /** The call runs. */
        NONE,
        /** The call fails without effect, as a request to an unreachable host does. */
        FAIL,
        /** A put reports success without storing anything (any other call runs). */
        DROP,
        /** The process dies before the call takes effect. */
        CRASH_BEFORE,
        /** The call takes effect, and the process dies before its reply. */
        CRASH_AFTER
    }

    /** Decides the fault of each call of the repositories it is installed on; the test replaces it as it goes. */
    @FunctionalInterface
    interface Faults {
        /** No fault, ever. */
        Faults NONE = (repository, call, key) -> Fault.NONE;

        /**
         * The fault of the next call.
         *
         * @param repository the repository called
         * @param call       {@code put}, {@code get}, {@code delete} or {@code list}
         * @param key        the key, or the prefix listed
         * @return the fault
         */
        Fault next(Switchable repository, String call, String key);

        /**
         * Told that a delete met the failing or vanishing deletes of {@code repository} (before a crash drawn after it
         * strikes); does nothing unless overridden.
         *
         * @param repository the repository called
         * @param deletes    what its deletes do, {@link Switchable.Deletes#FAIL} or {@link Switchable.Deletes#VANISH}
         * @param key        the key
         */
        default void deleteHit(Switchable repository, Switchable.Deletes deletes, String key) {
            // Nothing.
        }
    }

    /**
     * A repository whose host the test takes away ({@link #reachable}), whose deletes of some keys it makes fail or
     * vanish ({@link #deletes}), and whose calls fail, drop their write or crash the process as {@link #faults} says
     * (asked first, so that a dead process's calls never reach the host).
     */
    static class Switchable implements FragmentRepository {
        /** What deletes of the keys {@link #deletesOf} matches do. */
        enum Deletes {
            WORK,
            FAIL,
            VANISH
        }

        final FragmentRepository delegate;
        volatile boolean reachable = true;
        volatile Deletes deletes = Deletes.WORK;
        volatile java.util.function.Predicate<String> deletesOf = key -> true;
        volatile Faults faults = Faults.NONE;

        Switchable(FragmentRepository delegate) {
            this.delegate = delegate;
        }

        static List<Switchable> inMemory(int count) {
            List<Switchable> repositories = new ArrayList<>();
            for (FragmentRepository repository : Stores.inMemory(count)) {
                repositories.add(new Switchable(repository));
            }
            return repositories;
        }

        private void check() throws RepositoryUnavailableException {
            if (!reachable) {
                throw new RepositoryUnavailableException(id(), id() + " is away", null);
            }
        }

        /** Asks {@link #faults} about a call; fails or dies before it as the answer says, else returns the answer. */
        private Fault before(String call, String key) throws RepositoryUnavailableException {
            Fault fault = faults.next(this, call, key);
            if (fault == Fault.CRASH_BEFORE || fault == Fault.CRASH_AFTER && !reachable) {
                // A call to a host away takes no effect: a crash drawn after it strikes before it instead.
                throw new Crash("the process died before " + call + " " + key + " on " + id());
            }
            check();
            if (fault == Fault.FAIL) {
                throw new RepositoryUnavailableException(id(), call + " " + key + " failed", null);
            }
            return fault;
        }

        private static void after(Fault fault, String call, String key, String id) {
            if (fault == Fault.CRASH_AFTER) {
                throw new Crash("the process died after " + call + " " + key + " on " + id);
            }
        }

        @Override
        public String id() {
            return delegate.id();
        }

        @Override
        public void put(String key, byte[] content) throws java.io.IOException {
            Fault fault = before("put", key);
            if (fault != Fault.DROP) {
                delegate.put(key, content);
            }
            after(fault, "put", key, id());
        }

        @Override
        public java.util.Optional<byte[]> get(String key) throws java.io.IOException {
            Fault fault = before("get", key);
            java.util.Optional<byte[]> value = delegate.get(key);
            after(fault, "get", key, id());
            return value;
        }

        @Override
        public boolean delete(String key) throws java.io.IOException {
            Fault fault = before("delete", key);
            if (deletesOf.test(key) && deletes != Deletes.WORK) {
                faults.deleteHit(this, deletes, key);
                after(fault, "delete", key, id());
                switch (deletes) {
                    case FAIL -> throw new RepositoryUnavailableException(id(), "the delete of " + key + " failed",
                            null);
                    case VANISH -> {
                        return true;
                    }
                    default -> {
                        // Below.
                    }
                }
            }
            boolean deleted = delegate.delete(key);
            after(fault, "delete", key, id());
            return deleted;
        }

        @Override
        public List<String> list(String prefix) throws java.io.IOException {
            Fault fault = before("list", prefix);
            List<String> keys = delegate.list(prefix);
            after(fault, "list", prefix, id());
            return keys;
        }
    }
}
