package io.github.volpex.testkit.selftest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.volpex.checkpoint.store.AbandonedCommit;
import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.CheckpointStoreException;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.RecoveredCheckpoint;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testkit.FaultSchedule;
import io.github.volpex.testkit.FaultyRepository;
import io.github.volpex.testkit.SimulatedCrash;
import io.github.volpex.testsupport.Scale;
import io.github.volpex.testsupport.SearchDepth;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A process that dies at every repository call of its asynchronous commits, one crash point after another (the
 * enumeration of {@code PowerLossTest}, with the crash delivered by {@link FaultyRepository}). The workload, after a
 * first checkpoint A committed synchronously: three asynchronous commits B, C and D accepted at once on a pool of two
 * threads (so C is usually superseded by D, and which of them the crash meets varies with the threads), then a
 * synchronous commit E, then {@link CheckpointStore#close(Duration)}. For each call N and each way of dying there
 * (before the call takes effect, or after it took effect but before its reply), the process dies at call N, and:
 * <ul>
 *   <li>every stage is decided once the dead store is closed, and close returns within its bound;</li>
 *   <li>a new process recovers, byte for byte, the last commit whose stage completed successfully (or whose
 *       synchronous call returned), or a commit accepted after it — never an older one, never "no checkpoint";</li>
 *   <li>and it commits asynchronously again and recovers that.</li>
 * </ul>
 * Sizes for CI: each crash point with one way of dying, alternating; {@code -Pscale} tries both ways at every point
 * and three times the seeds. The seed is new each run and named in a failure; replay with
 * {@code -Dvolpex.asynccrash.seed=<seed>}.
 */
class AsyncCommitCrashTest {

    private static final String JOB = "job";
    private static final boolean FULL = Scale.full();
    private static final Duration CLOSE_BOUND = Duration.ofSeconds(30);
    /** The seed is new each run (a jqwik parameter of a single try draws from a few small values); named on failure. */
    private static final String SEED_PROPERTY = "volpex.asynccrash.seed";

    /** The stores checked, with how many repositories each gets. */
    enum Mode {
        EPHEMERAL(4, null),
        PERENNIAL(6, IdaCodec.systematic(3, 2).withStripeSizeBytes(16));

        final int repositories;
        final IdaCodec codec;

        Mode(int repositories, IdaCodec codec) {
            this.repositories = repositories;
            this.codec = codec;
        }
    }

    @Test
    void a_crash_at_any_call_of_an_ephemeral_persist_loses_nothing_committed() {
        SearchDepth.eachSeed(SEED_PROPERTY, FULL ? 3 : 1, seed -> everyCrashPointOnce(Mode.EPHEMERAL, seed));
    }

    @Test
    void a_crash_at_any_call_of_a_perennial_persist_loses_nothing_committed() {
        SearchDepth.eachSeed(SEED_PROPERTY, FULL ? 3 : 1, seed -> everyCrashPointOnce(Mode.PERENNIAL, seed));
    }

    private static void everyCrashPointOnce(Mode mode, long seed) throws Exception {
        // The calls of the workload when nothing crashes, with room for the threads to order them otherwise.
        long calls = run(mode, seed, CrashAt.never()) + 20;
        assertTrue(calls > 100, "the workload made only " + calls + " calls");
        try {
            CrashAt.eachCrashPoint(calls, FULL, faults -> run(mode, seed, faults));
        } catch (AssertionError e) {
            throw new AssertionError(mode + ", seed " + seed + ", " + e.getMessage(), e);
        }
    }

    /** Runs the workload dying as {@code faults} says, checks the outcome; returns the calls the workload made. */
    private static long run(Mode mode, long seed, CrashAt faults) throws Exception {
        List<FaultyRepository> repositories = new ArrayList<>();
        for (int i = 0; i < mode.repositories; i++) {
            repositories.add(FaultyRepository.wrap(FragmentRepository.inMemory("r" + i)));
        }
        SplittableRandom random = new SplittableRandom(seed);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            CheckpointStore store = builder(mode, repositories, random.nextLong()).executor(pool).build();
            List<byte[]> accepted = new ArrayList<>();
            accepted.add(bytes(random, 0));
            store.commit(JOB, accepted.get(0));
            // The last commit known durable, as an index into accepted.
            int durable = 0;
            repositories.forEach(r -> r.schedule(faults));
            List<CompletionStage<FragmentIndex>> stages = new ArrayList<>();
            for (int i = 1; i <= 3; i++) {
                accepted.add(bytes(random, i));
                stages.add(store.commitAsync(JOB, accepted.get(i)));
            }
            accepted.add(bytes(random, 4));
            boolean returned = false;
            try {
                store.commit(JOB, accepted.get(4));
                returned = true;
            } catch (SimulatedCrash | CheckpointStoreException e) {
                // The process died, or the commit failed as it may: nothing to count.
            }
            for (int i = 0; i < stages.size(); i++) {
                if (succeeded(stages.get(i))) {
                    durable = i + 1;
                }
            }
            if (returned) {
                durable = 4;
            }
            List<AbandonedCommit> abandoned = store.close(CLOSE_BOUND);
            for (CompletionStage<FragmentIndex> stage : stages) {
                assertTrue(stage.toCompletableFuture().isDone(), "a stage is still undecided after close");
            }
            // Every commit was decided before close (the dead process's calls fail at once): none is abandoned.
            assertEquals(List.of(), abandoned, "close abandoned commits already decided");
            // A new process on the same repositories.
            repositories.forEach(r -> r.schedule(FaultSchedule.none()));
            CheckpointStore restarted = builder(mode, repositories, random.nextLong()).executor(pool).build();
            Optional<RecoveredCheckpoint> recovered = restarted.recover(JOB);
            if (recovered.isEmpty()) {
                fail("no checkpoint recovered, but commit " + durable + " was durable");
            }
            byte[] got = recovered.get().toByteArray();
            int which = -1;
            for (int i = 0; i < accepted.size(); i++) {
                if (java.util.Arrays.equals(accepted.get(i), got)) {
                    which = i;
                }
            }
            assertTrue(which >= 0, "recovered bytes of no commit");
            assertTrue(which >= durable, "recovered commit " + which + ", older than the durable commit " + durable);
            byte[] next = bytes(random, 5);
            restarted.commitAsync(JOB, next).toCompletableFuture().get(CLOSE_BOUND.toSeconds(), TimeUnit.SECONDS);
            assertArrayEquals(next, restarted.recover(JOB).orElseThrow().toByteArray(),
                    "the new process's commit was not recovered");
            assertEquals(List.of(), restarted.close(CLOSE_BOUND));
            return faults.calls();
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "a persist is still running");
        }
    }

    private static CheckpointStore.Builder builder(Mode mode, List<FaultyRepository> repositories, long seed) {
        CheckpointStore.Builder builder = mode.codec == null ? CheckpointStore.ephemeral(repositories)
                : CheckpointStore.perennial(mode.codec, repositories);
        return builder.segmentBytes(32).random(new SplittableRandom(seed)).closeTimeout(CLOSE_BOUND);
    }

    private static byte[] bytes(SplittableRandom random, int commit) {
        byte[] bytes = new byte[60 + 30 * commit + random.nextInt(40)];
        random.nextBytes(bytes);
        return bytes;
    }

    /** Waits for the stage; whether it completed successfully (a crash or a typed failure: not). */
    private static boolean succeeded(CompletionStage<FragmentIndex> stage) throws InterruptedException {
        CompletableFuture<FragmentIndex> future = stage.toCompletableFuture();
        try {
            future.get(CLOSE_BOUND.toSeconds(), TimeUnit.SECONDS);
            return true;
        } catch (TimeoutException e) {
            throw new AssertionError("a stage was not decided within " + CLOSE_BOUND + " though the repositories "
                    + "answer at once", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (!(cause instanceof SimulatedCrash)) {
                assertInstanceOf(CheckpointStoreException.class, cause, "an untyped failure");
            }
            return false;
        }
    }
}
