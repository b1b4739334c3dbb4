package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testsupport.Scale;
import io.github.volpex.testsupport.SearchDepth;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Thousands of differential checkpoints of one job: a state of 64 to 160 blocks changes by a random pattern at every
 * commit — not at all, a few scattered bytes, all of it, growing, shrinking, and under content-defined chunking an
 * insertion or a deletion in the middle — while fragments of the checkpoints present are lost now and then, the job
 * is repaired now and then, and collections run between commits. After every commit:
 * <ul>
 *   <li>the store recovers the state byte for byte (and a restarted store, every 50 commits);</li>
 *   <li>exactly the newest checkpoint and the segments its manifest lists are present (collection and compaction
 *       keep up), and they are at most 65;</li>
 *   <li>the block bytes they hold are at most the space bound (2) times the bytes of the state's distinct blocks;</li>
 * </ul>
 * and over the run, the repository calls a commit makes do not grow with the number of past checkpoints: the median
 * of the last hundred commits is at most 1.5 times that of commits 100 to 199 (plus 20 calls), and no commit makes more
 * calls than a bound fixed by the store's shape — a listing, its own segment's fragments, index copies and markers, the
 * index reads of the 65 segments it may refer to, and the deletes of those it frees — whatever the checkpoint's number.
 *
 * <p>Here nothing fails while an operation runs; {@link DifferentialFaultScaleTest} runs such histories with faults
 * inside the commits, collections and repairs.
 *
 * <p>A third history commits every other checkpoint from a stream, which cuts, stores and compacts the same blocks
 * with the blocks it moves read back from the repositories: every check above holds for it too.
 *
 * <p>Sizes for CI: 700 checkpoints in fixed-size blocks (each history) and 300 content-defined; {@code -Pscale}, or a
 * search factor above 1, runs 5,000 and 2,000 ({@code -Dvolpex.search.factor=N}: for {@code N} seeds). The seed is
 * new each run and named in every failure; replay with {@code -Dvolpex.differential.scale.seed=<seed>}.
 */
class DifferentialScaleTest {

    private static final String JOB = "job";
    private static final boolean LONG = Scale.full() || SearchDepth.deep();
    private static final String SEED_PROPERTY = "volpex.differential.scale.seed";
    private static final int BLOCK = Chunking.MIN_BLOCK_BYTES;
    private static final int M = 4;
    private static final int K = 2;
    private static final double BOUND = CheckpointStore.DEFAULT_MAX_SPACE_AMPLIFICATION;

    @Test
    void thousandsOfFixedSizeCheckpoints() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1,
                seed -> run(Chunking.fixed(BLOCK), seed, LONG ? 5_000 : 700, false, false));
    }

    /** The same history with every other checkpoint committed from a stream instead of an array. */
    @Test
    void thousandsOfCheckpointsFromStreamsAndArrays() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1,
                seed -> run(Chunking.fixed(BLOCK), seed, LONG ? 5_000 : 700, false, true));
    }

    /**
     * The same history on a pool of four threads: every recovery reads its segments at once, through the losses and
     * repairs that accumulate over the run.
     */
    @Test
    void thousandsOfCheckpointsRecoveredOnAPool() throws InterruptedException {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            SearchDepth.eachSeed(SEED_PROPERTY, 1,
                    seed -> run(Chunking.fixed(BLOCK), seed, LONG ? 5_000 : 700, false, false, pool));
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS), "the pool did not stop");
        }
    }

    @Test
    void thousandsOfContentDefinedCheckpoints() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1,
                seed -> run(Chunking.contentDefined(BLOCK), seed, LONG ? 2_000 : 300, true, false));
    }

    private static CheckpointStore store(List<FragmentRepository> repositories, Chunking chunking, long seed,
                                         java.util.concurrent.Executor executor) {
        return CheckpointStore.perennial(IdaCodec.systematic(M, K), repositories).differential(chunking)
                .segmentBytes(16 * BLOCK).random(new SplittableRandom(seed)).executor(executor).build();
    }

    private static void run(Chunking chunking, long seed, int commits, boolean shifts, boolean streams)
            throws Exception {
        run(chunking, seed, commits, shifts, streams, Runnable::run);
    }

    private static void run(Chunking chunking, long seed, int commits, boolean shifts, boolean streams,
                            java.util.concurrent.Executor executor) throws Exception {
        AtomicLong calls = new AtomicLong();
        List<FragmentRepository> repositories = new ArrayList<>();
        for (FragmentRepository repository : Stores.inMemory(M + K)) {
            repositories.add(new Stores.Counting(repository, calls));
        }
        SplittableRandom random = new SplittableRandom(seed);
        CheckpointStore store = store(repositories, chunking, random.nextLong(), executor);
        byte[] state = Stores.data(random.nextLong(), 96 * BLOCK);
        long[] perCommit = new long[commits];
        int lost = 0;
        int repairs = 0;
        for (int c = 0; c < commits; c++) {
            String where = chunking + ", commit " + c + ", seed " + seed;
            state = change(state, random, shifts);
            long before = calls.get();
            FragmentIndex index = streams && c % 2 == 1 ? store.commit(JOB, new ByteArrayInputStream(state))
                    : store.commit(JOB, state);
            perCommit[c] = calls.get() - before;
            assertArrayEquals(state, store.recover(JOB).orElseThrow().toByteArray(), where);
            if (c % 50 == 49) {
                assertArrayEquals(state, store(repositories, chunking, random.nextLong(), executor).recover(JOB)
                        .orElseThrow().toByteArray(), "restarted, " + where);
            }
            Set<CheckpointId> present = kept(store, index, BOUND, where);
            // Now and then, a fragment of a checkpoint present is lost; now and then, the job is repaired.
            if (random.nextInt(40) == 0) {
                lost += lose(repositories, new ArrayList<>(present), random);
            }
            if (random.nextInt(100) == 0) {
                repairs++;
                store.repair(JOB);
            }
            if (random.nextInt(25) == 0) {
                assertEquals(0, store.collectGarbage(JOB), "a commit left something to collect, " + where);
            }
        }
        long early = median(perCommit, 100, 200);
        long late = median(perCommit, commits - 100, commits);
        long most = Arrays.stream(perCommit).max().orElseThrow();
        // A listing per repository, its own fragments, n index copies and markers, reads of the index copies of up to
        // 65 segments, the deletes of the segments it frees: each at most 65 checkpoints of 3 n objects.
        long shape = 10L * (M + K) + 65L * (M + K) + 65L * 3 * (M + K);
        double earlyMean = mean(perCommit, 100, 200);
        double lateMean = mean(perCommit, commits - 100, commits);
        System.out.printf("%s, %d commits (%d fragments lost, %d repairs): repository calls per commit, commits"
                + " 100-199 median %d mean %.1f, the last 100 median %d mean %.1f, most %d%n", chunking, commits, lost,
                repairs, early, earlyMean, late, lateMean, most);
        assertTrue(late <= 1.5 * early + 20, "calls per commit grew from a median of " + early + " (commits 100-199)"
                + " to " + late + " (the last 100), " + chunking + ", seed " + seed);
        assertTrue(lateMean <= 1.5 * earlyMean + 20, "calls per commit grew from a mean of " + earlyMean
                + " (commits 100-199) to " + lateMean + " (the last 100), " + chunking + ", seed " + seed);
        assertTrue(most <= shape, "a commit made " + most + " calls, more than " + shape + ", seed " + seed);
    }

    /**
     * Checks what the job keeps once a commit or a collection ran undisturbed: exactly its newest checkpoint
     * ({@code index}) and the segments its manifest lists, at most 65, whose block bytes are at most {@code bound}
     * times the bytes of the state's distinct blocks; returns the checkpoints present.
     */
    static Set<CheckpointId> kept(CheckpointStore store, FragmentIndex index, double bound, String where) {
        Manifest manifest = Manifest.ofPayload(new Reads(store.context()).rebuild(index).bytes());
        Set<CheckpointId> expected = new TreeSet<>(Differential.segments(manifest));
        expected.add(index.checkpointId());
        Set<CheckpointId> present = new TreeSet<>();
        store.checkpoints(JOB).forEach(i -> present.add(i.checkpointId()));
        assertEquals(expected, present, "present checkpoints, " + where);
        assertTrue(present.size() <= 65, present.size() + " checkpoints present, " + where);
        long stored = manifest.ownBlockBytes;
        for (Manifest.Segment segment : manifest.segments) {
            stored += segment.blockBytes();
        }
        long live = distinctBlockBytes(manifest);
        assertTrue(stored <= bound * live, "stored block bytes " + stored + " > " + bound + " × " + live
                + " live, " + where);
        return present;
    }

    /** The bytes of the distinct blocks a manifest lists. */
    private static long distinctBlockBytes(Manifest manifest) {
        Set<Manifest.BlockHash> seen = new HashSet<>();
        long bytes = 0;
        for (int i = 0; i < manifest.blocks; i++) {
            if (seen.add(manifest.hash(i))) {
                bytes += manifest.length[i];
            }
        }
        return bytes;
    }

    static long median(long[] values, int from, int to) {
        long[] window = Arrays.copyOfRange(values, Math.max(0, from), to);
        Arrays.sort(window);
        return window[window.length / 2];
    }

    static double mean(long[] values, int from, int to) {
        return Arrays.stream(values, Math.max(0, from), to).average().orElseThrow();
    }

    /** Deletes one fragment of one of {@code ids}; returns how many were deleted (0 or 1). */
    private static int lose(List<FragmentRepository> repositories, List<CheckpointId> ids, SplittableRandom random)
            throws IOException {
        CheckpointId id = ids.get(random.nextInt(ids.size()));
        FragmentRepository repository = repositories.get(random.nextInt(repositories.size()));
        for (String key : repository.list("")) {
            StoreKeys.Parsed parsed = StoreKeys.parse(key);
            if (parsed != null && parsed.id().equals(id) && parsed.kind() == StoreKeys.Kind.FRAGMENT) {
                repository.delete(key);
                return 1;
            }
        }
        return 0;
    }

    /** The next state: unchanged, a few bytes changed, all new, grown, shrunk, or with a stretch inserted or cut. */
    static byte[] change(byte[] state, SplittableRandom random, boolean shifts) {
        int length = state.length;
        int pattern = random.nextInt(shifts ? 100 : 80);
        if (pattern < 15) {
            return state;
        }
        if (pattern < 60) {
            byte[] next = state.clone();
            for (int i = 0, count = 1 + random.nextInt(10); i < count; i++) {
                next[random.nextInt(length)] ^= (byte) (1 + random.nextInt(255));
            }
            return next;
        }
        if (pattern < 63) {
            return Stores.data(random.nextLong(), length);
        }
        if (pattern < 72) {
            byte[] next = Arrays.copyOf(state, Math.max(length, Math.min(160 * BLOCK,
                    length + 1 + random.nextInt(8 * BLOCK))));
            byte[] tail = Stores.data(random.nextLong(), next.length - length);
            System.arraycopy(tail, 0, next, length, tail.length);
            return next;
        }
        if (pattern < 80) {
            return Arrays.copyOf(state, Math.max(64 * BLOCK, length - 1 - random.nextInt(8 * BLOCK)));
        }
        int at = random.nextInt(length);
        if (pattern < 90 && length < 160 * BLOCK) {
            byte[] inserted = Stores.data(random.nextLong(), 1 + random.nextInt(2 * BLOCK));
            byte[] next = new byte[length + inserted.length];
            System.arraycopy(state, 0, next, 0, at);
            System.arraycopy(inserted, 0, next, at, inserted.length);
            System.arraycopy(state, at, next, at + inserted.length, length - at);
            return next;
        }
        int cut = Math.min(Math.min(length - at, length - 64 * BLOCK), 1 + random.nextInt(2 * BLOCK));
        if (cut <= 0) {
            return state;
        }
        byte[] next = new byte[length - cut];
        System.arraycopy(state, 0, next, 0, at);
        System.arraycopy(state, at + cut, next, at, length - at - cut);
        return next;
    }
}
