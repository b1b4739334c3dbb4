package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testsupport.SearchDepth;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A differential recovery reads the segments its manifest lists at once, on the store's executor, each segment's
 * blocks copied into their own ranges of the state: the segments are read at the same time (a fetch of the first
 * waits until a later one's has begun), the state is rebuilt byte for byte with an executor that starts its tasks
 * late and in any order while segments have lost fragments or carry damaged ones (and are read again whole), the first
 * unreadable segment in the manifest's order is the one a failed recovery names and no read outlives the call, and
 * the calling thread alone, or one pool thread, suffices. The randomised examples run once per seed ({@link
 * SearchDepth#eachSeed}: more in a deeper search); {@code -Dvolpex.differential.parallel.seed=<seed>} replays one
 * (the history, the losses and the damage; which thread runs a task first is up to the scheduler).
 */
class DifferentialParallelRecoveryTest {

    private static final String SEED_PROPERTY = "volpex.differential.parallel.seed";
    private static final String JOB = "job";
    private static final int M = 4;
    private static final int K = 2;
    private static final int BLOCK = Chunking.MIN_BLOCK_BYTES;
    private static final int STATE = 64 * BLOCK;

    /** The newest checkpoint of a history, its state, and the segments its manifest lists, in the manifest's order. */
    private record History(FragmentIndex newest, byte[] state, List<CheckpointId> segments) {
    }

    private static CheckpointStore store(List<? extends FragmentRepository> repositories, Executor executor) {
        return CheckpointStore.perennial(IdaCodec.systematic(M, K), new ArrayList<>(repositories))
                .differential(Chunking.fixed(BLOCK)).segmentBytes(4 * BLOCK).executor(executor).build();
    }

    /** Twelve commits, each changing a byte in about a tenth of the blocks: the newest lists several segments. */
    private static History history(List<? extends FragmentRepository> repositories, SplittableRandom random) {
        CheckpointStore store = store(repositories, Runnable::run);
        byte[] state = Stores.data(random.nextLong(), STATE);
        FragmentIndex newest = null;
        for (int c = 0; c < 12; c++) {
            state = state.clone();
            for (int b = 0; b < STATE / BLOCK; b++) {
                if (random.nextInt(10) == 0) {
                    state[b * BLOCK + random.nextInt(BLOCK)] ^= (byte) (1 + random.nextInt(255));
                }
            }
            newest = store.commit(JOB, state);
        }
        Manifest manifest = Manifest.ofPayload(new Reads(store.context()).rebuild(newest).bytes());
        List<CheckpointId> segments = new ArrayList<>();
        manifest.segments.forEach(segment -> segments.add(segment.id()));
        assertTrue(segments.size() >= 3, "the newest lists " + segments.size() + " segments");
        return new History(newest, state, segments);
    }

    /** Repositories that pass every call to in-memory ones after {@code before} has seen the key. */
    private static List<FragmentRepository> watched(List<FragmentRepository> repositories,
                                                    Consumer<String> before, AtomicLong calls) {
        return watched(repositories, before, () -> { }, calls);
    }

    /** As {@link #watched(List, Consumer, AtomicLong)}, running {@code after} once each get has returned its value. */
    private static List<FragmentRepository> watched(List<FragmentRepository> repositories,
                                                    Consumer<String> before, Runnable after, AtomicLong calls) {
        List<FragmentRepository> watched = new ArrayList<>();
        for (FragmentRepository repository : repositories) {
            watched.add(new Stores.Forwarding(repository) {
                @Override
                public Optional<byte[]> get(String key) throws IOException {
                    calls.incrementAndGet();
                    before.accept(key);
                    Optional<byte[]> value = super.get(key);
                    after.run();
                    return value;
                }

                @Override
                public List<String> list(String prefix) throws IOException {
                    calls.incrementAndGet();
                    return super.list(prefix);
                }
            });
        }
        return watched;
    }

    private static CheckpointId fragmentOf(String key) {
        StoreKeys.Parsed parsed = StoreKeys.parse(key);
        return parsed != null && parsed.kind() == StoreKeys.Kind.FRAGMENT ? parsed.id() : null;
    }

    private static void stop(ExecutorService pool) throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "the pool did not stop");
    }

    @Test
    void the_segments_are_read_at_the_same_time() throws Exception {
        List<FragmentRepository> repositories = Stores.inMemory(M + K);
        History history = history(repositories, new SplittableRandom(7));
        CheckpointId first = history.segments().get(0);
        CountDownLatch laterBegun = new CountDownLatch(1);
        AtomicBoolean waitedInVain = new AtomicBoolean();
        AtomicBoolean firstFetched = new AtomicBoolean();
        List<FragmentRepository> watched = watched(repositories, key -> {
            CheckpointId id = fragmentOf(key);
            if (first.equals(id)) {
                firstFetched.set(true);
                try {
                    if (!laterBegun.await(20, TimeUnit.SECONDS)) {
                        waitedInVain.set(true);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            } else if (id != null && history.segments().contains(id)) {
                laterBegun.countDown();
            }
        }, new AtomicLong());
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            RecoveredCheckpoint recovered = store(watched, pool).recover(JOB).orElseThrow();
            assertArrayEquals(history.state(), recovered.toByteArray());
            assertTrue(firstFetched.get(), "no fragment of the first listed segment was fetched");
            assertEquals(false, waitedInVain.get(), "no other segment's fragment was fetched while the first"
                    + " segment's fetch waited for one (20 s): the segments were read one after the other");
        } finally {
            stop(pool);
        }
    }

    @Test
    void late_tasks_lost_fragments_and_hidden_damage_still_rebuild_the_state() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, DifferentialParallelRecoveryTest::lateLossesAndDamage);
    }

    private static void lateLossesAndDamage(long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        List<FragmentRepository> repositories = Stores.inMemory(M + K);
        History history = history(repositories, random);
        CheckpointStore writer = store(repositories, Runnable::run);
        // Every listed segment loses up to k fragments, but some lose none and carry damage in one of the m fragments
        // a recovery reads first: those are read again whole, every fragment verified.
        List<CheckpointId> disguised = new ArrayList<>();
        for (CheckpointId segment : history.segments()) {
            if (random.nextInt(3) == 0 || disguised.isEmpty() && segment.equals(history.segments().get(
                    history.segments().size() - 1))) {
                FragmentIndex index = writer.checkpoints(JOB).stream().filter(i -> i.checkpointId().equals(segment))
                        .findFirst().orElseThrow();
                Stores.damagePieces(repositories, writer, index, random.nextInt(M), random, false);
                disguised.add(segment);
            } else {
                DifferentialDurabilityTest.lose(repositories, segment, random.nextInt(K + 1), random);
            }
        }
        Map<String, AtomicLong> gets = new ConcurrentHashMap<>();
        List<FragmentRepository> watched = watched(repositories,
                key -> gets.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet(), new AtomicLong());
        ExecutorService pool = Executors.newFixedThreadPool(1 + random.nextInt(6));
        try {
            RecoveredCheckpoint recovered = store(watched, Stores.late(pool, seed, 400)).recover(JOB).orElseThrow();
            assertEquals(history.newest().checkpointId(), recovered.index().checkpointId(), "seed " + seed);
            assertArrayEquals(history.state(), recovered.toByteArray(), "seed " + seed);
        } finally {
            stop(pool);
        }
        for (CheckpointId segment : disguised) {
            assertTrue(gets.entrySet().stream().anyMatch(e -> segment.equals(fragmentOf(e.getKey()))
                    && e.getValue().get() >= 2), "segment " + segment + " has a damaged fragment, but no"
                    + " fragment of it was read again, seed " + seed);
        }
    }

    @Test
    void the_first_unreadable_segment_fails_the_recovery_and_no_read_outlives_it() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, DifferentialParallelRecoveryTest::firstUnreadableSegment);
    }

    /**
     * Segments a and a + 1 cannot be read; a's fetches wait until a + 1's have begun, so that both fail while the
     * other is being read, in either order. The recovery must report a, and no repository call may start or return
     * once it has thrown.
     */
    private static void firstUnreadableSegment(long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        List<FragmentRepository> repositories = Stores.inMemory(M + K);
        History history = history(repositories, random);
        int count = history.segments().size();
        int a = random.nextInt(count - 1);
        CheckpointId first = history.segments().get(a);
        CheckpointId second = history.segments().get(a + 1);
        DifferentialDurabilityTest.lose(repositories, first, K + 1, random);
        DifferentialDurabilityTest.lose(repositories, second, K + 1, random);
        CountDownLatch secondBegun = new CountDownLatch(1);
        AtomicBoolean overlapped = new AtomicBoolean(true);
        AtomicBoolean thrown = new AtomicBoolean();
        AtomicBoolean late = new AtomicBoolean();
        AtomicLong calls = new AtomicLong();
        List<FragmentRepository> watched = watched(repositories, key -> {
            CheckpointId id = fragmentOf(key);
            if (second.equals(id)) {
                secondBegun.countDown();
            } else if (first.equals(id)) {
                try {
                    if (!secondBegun.await(10, TimeUnit.SECONDS)) {
                        overlapped.set(false);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, () -> {
            if (thrown.get()) {
                late.set(true);
            }
        }, calls);
        // Segment a's fetches may hold m pool threads and its task one more: the pool has room for a + 1 beside them.
        ExecutorService pool = Executors.newFixedThreadPool(M + 2 + random.nextInt(4));
        long atFailure;
        CheckpointUnavailableException failure;
        try {
            CheckpointStore store = store(watched, Stores.late(pool, seed, 400));
            failure = assertThrows(CheckpointUnavailableException.class,
                    () -> store.recover(history.newest()));
            thrown.set(true);
            atFailure = calls.get();
            // Let the pool run whatever is still queued (a task nobody awaited would call a repository now).
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "the pool did not drain");
        } finally {
            stop(pool);
        }
        String where = "segments " + a + " and " + (a + 1) + " of " + count + " unreadable, seed " + seed;
        assertTrue(overlapped.get(), "segment " + (a + 1) + " was not read while segment " + a + " was, " + where);
        assertEquals(first.sequence(), failure.sequence(), where + ": " + failure.getMessage());
        assertEquals(atFailure, calls.get(), "repository calls after the recovery failed, " + where);
        assertEquals(false, late.get(), "a repository call returned after the recovery failed, " + where);
    }

    @Test
    void once_a_segment_fails_no_later_one_is_read() {
        List<FragmentRepository> repositories = Stores.inMemory(M + K);
        History history = history(repositories, new SplittableRandom(13));
        CheckpointId first = history.segments().get(0);
        try {
            DifferentialDurabilityTest.lose(repositories, first, K + 1, new SplittableRandom(13));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        List<String> fetched = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<FragmentRepository> watched = watched(repositories, key -> {
            StoreKeys.Parsed parsed = StoreKeys.parse(key);
            if (parsed != null && !parsed.id().equals(first) && history.segments().contains(parsed.id())) {
                fetched.add(key);
            }
        }, new AtomicLong());
        // The calling thread runs every task as it starts it: the first segment fails before any other starts.
        assertThrows(CheckpointUnavailableException.class,
                () -> store(watched, Runnable::run).recover(history.newest()));
        assertEquals(List.of(), fetched, "keys of later segments read after the first listed one failed");
    }

    @Test
    void the_calling_thread_alone_or_one_pool_thread_suffices() throws Exception {
        List<FragmentRepository> repositories = Stores.inMemory(M + K);
        History history = history(repositories, new SplittableRandom(11));
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            assertArrayEquals(history.state(), store(repositories, Runnable::run).recover(JOB).orElseThrow()
                    .toByteArray(), "calling thread");
            ExecutorService one = Executors.newSingleThreadExecutor();
            try {
                assertArrayEquals(history.state(), store(repositories, one).recover(JOB).orElseThrow()
                        .toByteArray(), "one pool thread");
                // A recovery run from the pool's only thread: every task it starts waits behind it.
                byte[] fromPool = one.submit(() -> store(repositories, one).recover(JOB).orElseThrow().toByteArray())
                        .get(50, TimeUnit.SECONDS);
                assertArrayEquals(history.state(), fromPool, "from the pool's only thread");
            } finally {
                stop(one);
            }
        });
    }
}
