package io.github.volpex.testkit.selftest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.CheckpointStoreException;
import io.github.volpex.checkpoint.store.Chunking;
import io.github.volpex.checkpoint.store.CommitFailedException;
import io.github.volpex.checkpoint.store.CommitSupersededException;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.store.FragmentLocation;
import io.github.volpex.checkpoint.store.RecoveredCheckpoint;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testkit.Fault;
import io.github.volpex.testkit.FaultSchedule;
import io.github.volpex.testkit.FaultyRepository;
import io.github.volpex.testkit.RepositoryCall;
import io.github.volpex.testkit.SimulatedCrash;
import io.github.volpex.testsupport.Scale;
import io.github.volpex.testsupport.SearchDepth;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A process running a differential store dies at every repository call of a history, one crash point after another:
 * for each call index N of the history (its calls counted when nothing crashes) and each way of dying there (before
 * the call takes effect, or after it took effect but before its reply), the process dies at call N — inside a
 * fragment's stream, between a segment's fragments and its index copies, between the markers, halfway through the
 * deletes of a collection or of the checkpoints a commit replaces — and makes no call after it. Then a new process on
 * the same repositories:
 * <ul>
 *   <li>recovers, byte for byte, the state of the last commit that returned (or whose stage completed successfully),
 *       or of a commit accepted after it — never an older one, never "no checkpoint", never a state missing a block
 *       (a block the newest checkpoint refers to that a dead collection or compaction deleted fails the
 *       recovery);</li>
 *   <li>retries the collection the dead one may have left halfway, which must not change what recovers;</li>
 *   <li>then commits two more differential states — a scattered change and an insertion — and collects, dying in
 *       turn at a random call of that (or not, when the call number drawn lies beyond its calls): its base, learned
 *       from what the dead one left, must refer only to blocks still stored; a third process recovers the last
 *       commit of either process that returned, or a newer one, commits once more, and a fourth recovers that byte
 *       for byte.</li>
 * </ul>
 * The histories: after a first checkpoint committed without faults, commits whose states change by every pattern —
 * nothing, a few scattered bytes, everything, growth, shrinkage, an insertion and a deletion in the middle — with a
 * space bound of 1.25, so that compaction drops segments at most commits, and collections between them; on a
 * perennial store in fixed-size blocks and an ephemeral one under content-defined chunking; and, asynchronously,
 * three commits accepted at once on an executor whose tasks wait (so the second is superseded by the third, whose
 * stage must fail typed as superseded whatever crashes), persisted, then a synchronous commit and a collection; and
 * the same on a pool of two threads, where the threads order the calls, every stage must be decided once the dead
 * process is closed, and a stage that completed successfully must find {@code k + 1} commit markers stored; and the
 * synchronous histories with every other commit read from a stream (whose compaction reads the live blocks of the
 * segments it drops back from the repositories, a crash point at each of those reads too) and, before the fourth
 * commit, one from a stream that fails midway, which must fail with the stream's own exception and count for
 * nothing. Every
 * store reads a clock that steps back and forth by up to five seconds at every reading, within a lease of an hour: no
 * clock orders checkpoints, so neither may lose or reorder one.
 *
 * <p>Faults that combine: the same, while up to {@code n − m} repositories (the loss a checkpoint tolerates) are out
 * over ranges of the history's calls drawn from the seed — each from one call to a later one or on to the end, so that
 * outages begin and end mid-commit, mid-collection and mid-persist, and some last into the recovery — and, for half
 * the seeds, one write to one repository (a fragment, an index copy or a marker) is acknowledged but not stored. Store
 * calls may then fail, typed, and the history goes on; a commit that fails saying it never reached its commit point
 * counts for nothing and must never be recovered (one that may have reached it may be), and a stage that failed so
 * likewise; and every commit that returns, and every stage that completes, has its {@code n} fragments stored where
 * its index says (a dropped fragment noticed and replaced). The new process recovers first while the hosts out at
 * the death stay out — at most {@code n − m}, so it must still recover the last commit that returned or a newer one
 * — and then with every host back. On perennial
 * stores with two hosts more than fragments (commits go on while two are out), synchronously and asynchronously; on
 * the perennial store whose five hosts each hold a fragment (a commit fails while any is out); and on the ephemeral
 * one with streams. (Fragments lost behind the process's back are left out of these histories: the outages take up
 * that tolerance.)
 *
 * <p>Sizes for CI: each crash point with one way of dying, alternating, for one seed (under outages every other crash
 * point, which half the seed says); {@code -Pscale} or a search factor above 1 tries both ways at every point, for
 * three seeds under {@code -Pscale} and the factor's multiple of the seeds (each with its own outages) with
 * {@code -Dvolpex.search.factor=N}. The seed is new each run and named in a failure (with the outages it drew); replay
 * with {@code -Dvolpex.crashpoints.seed=<seed>}.
 */
class DifferentialCrashPointsTest {

    private static final String JOB = "job";
    private static final boolean WIDE = Scale.full() || SearchDepth.deep();
    /** Seeds per history: one in CI, three under -Pscale; the search factor multiplies them. */
    private static final int SEEDS = Scale.full() ? 3 : 1;
    private static final String SEED_PROPERTY = "volpex.crashpoints.seed";
    private static final int BLOCK = Chunking.MIN_BLOCK_BYTES;

    /** The stores and histories checked. */
    enum Variant {
        PERENNIAL_FIXED(5, IdaCodec.systematic(3, 2), Chunking.fixed(BLOCK), false, false, false),
        EPHEMERAL_CONTENT_DEFINED(4, null, Chunking.contentDefined(BLOCK), false, false, false),
        PERENNIAL_FIXED_ASYNCHRONOUS(5, IdaCodec.systematic(3, 2), Chunking.fixed(BLOCK), true, false, false),
        PERENNIAL_CONTENT_DEFINED_ASYNCHRONOUS(5, IdaCodec.rabin(3, 2), Chunking.contentDefined(BLOCK), true, false,
                false),
        PERENNIAL_FIXED_ASYNCHRONOUS_ON_A_POOL(5, IdaCodec.systematic(3, 2), Chunking.fixed(BLOCK), true, true, false),
        PERENNIAL_FIXED_STREAMS(5, IdaCodec.systematic(3, 2), Chunking.fixed(BLOCK), false, false, true),
        EPHEMERAL_CONTENT_DEFINED_STREAMS(4, null, Chunking.contentDefined(BLOCK), false, false, true),
        /** Two hosts more than fragments, so that commits can go on while two are out. */
        PERENNIAL_FIXED_SPARE_HOSTS(7, IdaCodec.systematic(3, 2), Chunking.fixed(BLOCK), false, false, false),
        PERENNIAL_CONTENT_DEFINED_ASYNCHRONOUS_SPARE_HOSTS(7, IdaCodec.rabin(3, 2), Chunking.contentDefined(BLOCK),
                true, false, false);

        final int repositories;
        final IdaCodec codec;
        final Chunking chunking;
        final boolean asynchronous;
        /** Whether persists and repository calls run on a pool of two threads, in an order the threads decide. */
        final boolean pooled;
        /** Whether every other commit reads its state from a stream, and one stream fails midway. */
        final boolean streams;

        Variant(int repositories, IdaCodec codec, Chunking chunking, boolean asynchronous, boolean pooled,
                boolean streams) {
            this.streams = streams;
            this.repositories = repositories;
            this.codec = codec;
            this.chunking = chunking;
            this.asynchronous = asynchronous;
            this.pooled = pooled;
        }

        /** How many repositories a checkpoint's fragments (or replicas) may lose: {@code n − m}. */
        int tolerance() {
            return codec == null ? 1 : codec.k();
        }
    }

    /** How a state changes from one commit to the next. */
    enum Change { NONE, SCATTERED, ALL, GROW, SHRINK, INSERT, DELETE }

    @Test
    void a_crash_at_any_call_of_a_perennial_differential_history() {
        everyCrashPoint(Variant.PERENNIAL_FIXED);
    }

    @Test
    void a_crash_at_any_call_of_an_ephemeral_content_defined_history() {
        everyCrashPoint(Variant.EPHEMERAL_CONTENT_DEFINED);
    }

    @Test
    void a_crash_at_any_call_of_superseding_asynchronous_differential_commits() {
        everyCrashPoint(Variant.PERENNIAL_FIXED_ASYNCHRONOUS);
    }

    @Test
    void a_crash_at_any_call_of_asynchronous_content_defined_commits() {
        everyCrashPoint(Variant.PERENNIAL_CONTENT_DEFINED_ASYNCHRONOUS);
    }

    @Test
    void a_crash_at_any_call_of_asynchronous_differential_commits_on_a_pool() {
        everyCrashPoint(Variant.PERENNIAL_FIXED_ASYNCHRONOUS_ON_A_POOL);
    }

    @Test
    void a_crash_at_any_call_of_stream_and_array_commits_interleaved() {
        everyCrashPoint(Variant.PERENNIAL_FIXED_STREAMS);
    }

    @Test
    void a_crash_at_any_call_of_content_defined_stream_commits() {
        everyCrashPoint(Variant.EPHEMERAL_CONTENT_DEFINED_STREAMS);
    }

    @Test
    void a_crash_at_any_call_while_hosts_are_out_and_a_write_is_dropped() {
        everyCrashPointWithOutages(Variant.PERENNIAL_FIXED_SPARE_HOSTS);
    }

    @Test
    void a_crash_at_any_call_of_asynchronous_commits_while_hosts_are_out() {
        everyCrashPointWithOutages(Variant.PERENNIAL_CONTENT_DEFINED_ASYNCHRONOUS_SPARE_HOSTS);
    }

    @Test
    void a_crash_at_any_call_of_ephemeral_stream_commits_while_a_host_is_out() {
        everyCrashPointWithOutages(Variant.EPHEMERAL_CONTENT_DEFINED_STREAMS);
    }

    @Test
    void a_crash_at_any_call_while_hosts_that_every_commit_needs_are_out() {
        everyCrashPointWithOutages(Variant.PERENNIAL_FIXED);
    }

    private static void everyCrashPoint(Variant variant) {
        SearchDepth.eachSeed(SEED_PROPERTY, SEEDS, seed -> everyCrashPoint(variant, seed, null));
    }

    /** Each seed draws its own outages (and dropped write) over the calls of the history without them. */
    private static void everyCrashPointWithOutages(Variant variant) {
        SearchDepth.eachSeed(SEED_PROPERTY, SEEDS, seed -> {
            long calls = run(variant, seed, CrashAt.never(), null);
            everyCrashPoint(variant, seed, Outages.draw(new SplittableRandom(~seed), variant, calls));
        });
    }

    private static void everyCrashPoint(Variant variant, long seed, Outages outages) throws Exception {
        try {
            // Every run of a seed makes the same calls up to its crash when the executor runs tasks on the test's
            // thread; on a pool the threads order them, so the count leaves room.
            long calls = run(variant, seed, CrashAt.never(), outages) + (variant.pooled ? 20 : 0);
            assertTrue(calls > 150, "the history made only " + calls + " calls");
            // Under outages, every other crash point in CI (which half the seed says), dying before and after in turn.
            int stride = outages == null || WIDE ? 1 : 2;
            CrashAt.eachCrashPoint(calls, WIDE, stride, 1 + Math.floorMod(seed, stride),
                    faults -> run(variant, seed, faults, outages));
        } catch (AssertionError e) {
            throw new AssertionError(variant + (outages == null ? "" : ", " + outages) + ", " + e.getMessage(), e);
        }
    }

    /**
     * Repositories out over ranges of the history's calls — each from a call to a later one, or to the end and on
     * into the first recovery — at most {@code n − m} of them, and optionally one write to one repository acknowledged
     * but not stored: the first at or after a given call that reaches it, of a fragment (a stream's commit) or of an
     * index copy or a marker (a put).
     *
     * @param out      for each repository out, its index and the first call it misses and the first it answers again
     * @param dropOn   the repository whose write is dropped, or -1 for none
     * @param dropAt   the call from which the next write to {@code dropOn} is dropped
     * @param dropKind the kind of write dropped
     */
    private record Outages(List<long[]> out, int dropOn, long dropAt, RepositoryCall dropKind) {

        static Outages draw(SplittableRandom random, Variant variant, long calls) {
            List<Integer> hosts = new ArrayList<>();
            for (int i = 0; i < variant.repositories; i++) {
                hosts.add(i);
            }
            Collections.shuffle(hosts, new Random(random.nextLong()));
            List<long[]> out = new ArrayList<>();
            for (int i = 0, count = 1 + random.nextInt(variant.tolerance()); i < count; i++) {
                long from = 1 + random.nextLong(calls);
                long to = random.nextInt(4) == 0 ? Long.MAX_VALUE : from + 1 + random.nextLong(calls / 2);
                out.add(new long[] {hosts.get(i), from, to});
            }
            boolean drop = random.nextBoolean();
            return new Outages(out, drop ? random.nextInt(variant.repositories) : -1, 1 + random.nextLong(calls),
                    random.nextBoolean() ? RepositoryCall.COMMIT : RepositoryCall.PUT);
        }

        /** A schedule that dies as {@code crash} says and takes the repositories out and back as these outages say. */
        FaultSchedule around(CrashAt crash, List<FaultyRepository> repositories) {
            boolean[] dropped = {dropOn < 0};
            return (repositoryId, call, key) -> {
                synchronized (dropped) {
                    Fault fault = crash.next(repositoryId, call, key);
                    long at = crash.calls();
                    for (long[] outage : out) {
                        repositories.get((int) outage[0]).setReachable(at < outage[1] || at >= outage[2]);
                    }
                    if (fault == Fault.NONE && !dropped[0] && at >= dropAt
                            && call == dropKind
                            && repositories.get(dropOn).id().equals(repositoryId)
                            && repositories.get(dropOn).isReachable()) {
                        dropped[0] = true;
                        return Fault.DROP;
                    }
                    return fault;
                }
            };
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder("outages");
            for (long[] outage : out) {
                text.append(" r").append(outage[0]).append(" from call ").append(outage[1])
                        .append(outage[2] == Long.MAX_VALUE ? " on" : " to " + outage[2]);
            }
            return text + (dropOn < 0 ? ", no write dropped" : ", a " + (dropKind == RepositoryCall.PUT ? "put"
                    : "fragment") + " to r" + dropOn + " dropped from call " + dropAt);
        }
    }

    /** A clock that steps back or forward by up to five seconds at every reading, as NTP steps a bad one. */
    private static final class SteppingClock implements InstantSource {
        private final SplittableRandom random;
        private Instant now = Instant.parse("2026-06-01T00:00:00Z");

        SteppingClock(long seed) {
            this.random = new SplittableRandom(seed);
        }

        @Override
        public synchronized Instant instant() {
            now = now.plusMillis(random.nextLong(-5_000, 5_001));
            return now;
        }
    }

    /**
     * The states accepted, in order, and which of them is known durable; a commit that failed and says it did not
     * reach its commit point is taken back, and may never be recovered.
     */
    private static final class Truth {
        final List<byte[]> accepted = new ArrayList<>();
        int durable;

        int accept(byte[] state) {
            accepted.add(state.clone());
            return accepted.size() - 1;
        }

        /** Takes back commit {@code index} if {@code failure} says it never reached its commit point. */
        void failed(int index, Throwable failure) {
            if (failure instanceof CommitFailedException failed && !failed.reachedCommitPoint()) {
                accepted.set(index, null);
            }
        }

        /** The index of the newest accepted state equal to {@code bytes}, or -1. */
        int which(byte[] bytes) {
            for (int i = accepted.size() - 1; i >= 0; i--) {
                if (accepted.get(i) != null && Arrays.equals(accepted.get(i), bytes)) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** Runs the history, dying as {@code faults} says, and checks the new processes; returns the calls it made. */
    private static long run(Variant variant, long seed, CrashAt faults, Outages outages) throws InterruptedException {
        ExecutorService pool = variant.pooled ? Executors.newFixedThreadPool(2) : null;
        long calls;
        try {
            calls = run(variant, seed, faults, outages, pool);
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
        // Checked after the history, so that a failure of the history is not hidden by this one.
        if (pool != null) {
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "a persist is still running");
        }
        return calls;
    }

    private static long run(Variant variant, long seed, CrashAt faults, Outages outages, ExecutorService pool)
            throws InterruptedException {
        List<FaultyRepository> repositories = new ArrayList<>();
        for (int i = 0; i < variant.repositories; i++) {
            repositories.add(FaultyRepository.wrap(FragmentRepository.inMemory("r" + i)));
        }
        SplittableRandom random = new SplittableRandom(seed);
        SteppingClock clock = new SteppingClock(seed);
        DeferredExecutor deferred = new DeferredExecutor();
        Truth truth = new Truth();
        byte[] state = bytes(random, 24 * BLOCK);
        CheckpointStore store = builder(variant, repositories, clock, random.nextLong())
                .executor(pool != null ? pool : deferred).build();
        List<CompletionStage<FragmentIndex>> stages = new ArrayList<>();
        List<AssertionError> violations = Collections.synchronizedList(new ArrayList<>());
        store.commit(JOB, state);
        truth.accept(state);
        FaultSchedule schedule = outages == null ? faults : outages.around(faults, repositories);
        repositories.forEach(r -> r.schedule(schedule));
        // Under outages a store call may fail (typed) though the process lives on: the history goes on after it.
        Attempt attempt = outages == null ? Runnable::run : operation -> {
            try {
                operation.run();
            } catch (CheckpointStoreException e) {
                if (faults.died()) {
                    throw e;
                }
            }
        };
        CompletionStage<FragmentIndex> superseded = null;
        try {
            if (variant.asynchronous) {
                List<Integer> which = new ArrayList<>();
                for (Change change : List.of(Change.SCATTERED, Change.INSERT, Change.ALL)) {
                    state = change(state, change, random);
                    which.add(truth.accept(state));
                    CompletionStage<FragmentIndex> stage = store.commitAsync(JOB, state);
                    stage.thenAccept(index -> {
                        try {
                            durableAtCompletion(repositories, index);
                        } catch (AssertionError e) {
                            violations.add(e);
                        }
                    });
                    stages.add(stage);
                }
                superseded = pool != null ? null : stages.get(1);
                try {
                    persist(deferred, stages);
                } finally {
                    for (int i = 0; i < stages.size(); i++) {
                        if (succeeded(stages.get(i))) {
                            truth.durable = Math.max(truth.durable, which.get(i));
                        } else if (stages.get(i).toCompletableFuture().isCompletedExceptionally()) {
                            truth.failed(which.get(i), failure(stages.get(i)));
                        }
                    }
                }
                byte[] shrunk = change(state, Change.SHRINK, random);
                attempt.run(() -> commit(variant, store, truth, shrunk, repositories));
                attempt.run(() -> store.collectGarbage(JOB));
                persist(deferred, stages);
            } else {
                Change[] changes = Change.values();
                for (int i = 0; i < 9; i++) {
                    state = change(state, changes[(i + 1) % changes.length], random);
                    if (variant.streams && i == 2) {
                        byte[] failing = change(state, Change.SCATTERED, random);
                        attempt.run(() -> failingStream(store, failing, random));
                    }
                    byte[] next = state;
                    attempt.run(() -> commit(variant, store, truth, next, repositories));
                    if (i % 3 == 2) {
                        attempt.run(() -> store.collectGarbage(JOB));
                    }
                    if (i == 4 && outages == null) {
                        // Older segments lose a fragment each (behind the process's back), and it repairs them;
                        // not under outages, whose hosts already take up the loss a checkpoint tolerates.
                        loseOneFragmentOfEach(repositories, random);
                        store.repair(JOB);
                    }
                }
            }
        } catch (SimulatedCrash | CheckpointStoreException e) {
            // The process died (a store call may report the death as a failed operation): the history stops here.
            assertTrue(faults.died(), "a store call failed though nothing crashed: " + e);
        }
        if (pool != null) {
            // The process stops: close waits for what its threads still run (every call fails at once once it died).
            store.close(Duration.ofSeconds(30));
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "a persist is still running after close");
            for (CompletionStage<FragmentIndex> stage : stages) {
                assertTrue(stage.toCompletableFuture().isDone(), "a stage is still undecided after close");
            }
        }
        if (!violations.isEmpty()) {
            throw violations.get(0);
        }
        if (superseded != null) {
            Throwable cause = failure(superseded);
            assertInstanceOf(CommitSupersededException.class, cause, "the second of three commits accepted at once");
        }
        long calls = faults.calls();
        // A new process on the same repositories; the dead one's executor never runs again.
        repositories.forEach(r -> r.schedule(FaultSchedule.none()));
        if (repositories.stream().anyMatch(r -> !r.isReachable())) {
            // First while the hosts out at the end stay out: at most n − m of them, so it must recover all the same.
            Optional<RecoveredCheckpoint> whileOut = builder(variant, repositories, clock, random.nextLong()).build()
                    .recover(JOB);
            if (whileOut.isEmpty()) {
                fail("no checkpoint recovered while hosts are out, but commit " + truth.durable + " was durable");
            }
            int recoveredWhileOut = truth.which(whileOut.get().toByteArray());
            assertTrue(recoveredWhileOut >= truth.durable, "while hosts are out, recovered commit "
                    + recoveredWhileOut + " (-1: the bytes of none accepted), not the durable commit "
                    + truth.durable + " or a newer one");
            repositories.forEach(r -> r.setReachable(true));
        }
        CheckpointStore restarted = builder(variant, repositories, clock, random.nextLong()).build();
        Optional<RecoveredCheckpoint> recovered = restarted.recover(JOB);
        if (recovered.isEmpty()) {
            fail("no checkpoint recovered, but commit " + truth.durable + " was durable");
        }
        byte[] got = recovered.get().toByteArray();
        int which = truth.which(got);
        assertTrue(which >= 0, "recovered the bytes of no commit accepted");
        assertTrue(which >= truth.durable, "recovered commit " + which + ", older than the durable commit "
                + truth.durable);
        // It retries the collection the dead process may have left halfway: what recovers stays the same.
        restarted.collectGarbage(JOB);
        assertArrayEquals(got, restarted.recover(JOB).orElseThrow().toByteArray(),
                "a collection by the new process changed what recovers");
        // It goes on from what it recovered, differentially, and collects — and dies too, at a random call of that.
        CrashAt second = new CrashAt(1 + random.nextInt(400), random.nextBoolean() ? Fault.CRASH_BEFORE
                : Fault.CRASH_AFTER);
        repositories.forEach(r -> r.schedule(second));
        byte[] next = got;
        try {
            for (Change change : List.of(Change.SCATTERED, Change.INSERT)) {
                next = change(next, change, random);
                commit(variant, restarted, truth, next, repositories);
            }
            restarted.collectGarbage(JOB);
        } catch (SimulatedCrash | CheckpointStoreException e) {
            assertTrue(second.died(), "a store call of the second process failed though nothing crashed: " + e);
        }
        // A third process recovers what the second left, goes on and is recovered by a fourth.
        repositories.forEach(r -> r.schedule(FaultSchedule.none()));
        CheckpointStore third = builder(variant, repositories, clock, random.nextLong()).build();
        byte[] again = third.recover(JOB).orElseThrow().toByteArray();
        int recoveredAgain = truth.which(again);
        assertTrue(recoveredAgain >= truth.durable, "after the second process died at call " + second.calls()
                + ", recovered commit " + recoveredAgain + ", older than the durable commit " + truth.durable);
        byte[] last = change(again, Change.SCATTERED, random);
        third.commit(JOB, last);
        third.collectGarbage(JOB);
        CheckpointStore fourth = builder(variant, repositories, clock, random.nextLong()).build();
        assertArrayEquals(last, fourth.recover(JOB).orElseThrow().toByteArray(),
                "a fourth process did not recover the third's commit");
        return calls;
    }

    /** Runs the persists: drains the deferred executor, or waits for the stages a pool completes. */
    private static void persist(DeferredExecutor deferred, List<CompletionStage<FragmentIndex>> stages) {
        deferred.drain();
        for (CompletionStage<FragmentIndex> stage : stages) {
            try {
                stage.toCompletableFuture().get(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            } catch (TimeoutException e) {
                throw new AssertionError("a stage was not decided within 30 s though the repositories answer at once",
                        e);
            } catch (ExecutionException e) {
                // Failed, superseded, or the process died: judged by the stage's outcome, not here.
            }
        }
    }

    /**
     * At a stage's successful completion (or a commit's return), {@code k + 1} repositories hold the checkpoint's
     * commit marker, and each of its {@code n} fragments is stored where its index says — a write dropped on the way
     * must have been noticed and replaced.
     */
    private static void durableAtCompletion(List<FaultyRepository> repositories, FragmentIndex index) {
        int markers = 0;
        try {
            for (FaultyRepository repository : repositories) {
                markers += repository.delegate().get(index.markerKey()).isPresent() ? 1 : 0;
            }
            for (FragmentLocation location : index.fragments()) {
                String key = index.fragmentKey(location.fragmentIndex());
                boolean stored = false;
                for (FaultyRepository repository : repositories) {
                    stored |= repository.id().equals(location.repositoryId())
                            && repository.delegate().get(key).isPresent();
                }
                assertTrue(stored, "a commit completed without fragment " + key + " on " + location.repositoryId()
                        + ", where its index says it is");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (markers < index.k() + 1) {
            throw new AssertionError("a stage completed with " + markers + " commit markers stored, "
                    + (index.k() + 1) + " (k + 1) make it durable");
        }
    }

    /**
     * Deletes one fragment of every checkpoint present but the newest, straight from the stored objects; the newest
     * is left alone, so that no checkpoint loses more than one fragment and none is lost.
     */
    private static void loseOneFragmentOfEach(List<FaultyRepository> repositories, SplittableRandom random) {
        try {
            TreeMap<String, String[]> first = new TreeMap<>();
            String newest = null;
            for (FaultyRepository repository : repositories) {
                for (String key : repository.delegate().list("")) {
                    String checkpoint = key.substring(0, key.lastIndexOf('.'));
                    if (key.charAt(checkpoint.length() + 1) == 'f' && random.nextBoolean()) {
                        first.putIfAbsent(checkpoint, new String[] {repository.id(), key});
                    }
                    newest = newest == null || checkpoint.compareTo(newest) > 0 ? checkpoint : newest;
                }
            }
            first.remove(newest);
            for (String[] doomed : first.values()) {
                for (FaultyRepository repository : repositories) {
                    if (repository.id().equals(doomed[0])) {
                        repository.delegate().delete(doomed[1]);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs a store operation of the dead process's history. */
    @FunctionalInterface
    private interface Attempt {
        void run(Runnable operation);
    }

    /**
     * Commits {@code state}: from a stream every other time when the variant streams, else from the array; a failure
     * that says the commit never reached its commit point takes it back.
     */
    private static void commit(Variant variant, CheckpointStore store, Truth truth, byte[] state,
                               List<FaultyRepository> repositories) {
        int index = truth.accept(state);
        try {
            FragmentIndex committed = variant.streams && index % 2 == 1
                    ? store.commit(JOB, new ByteArrayInputStream(state)) : store.commit(JOB, state);
            if (!variant.pooled) {
                // (On a pool, a persist accepted earlier may already run and replace it.)
                durableAtCompletion(repositories, committed);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("a byte array stream cannot fail", e);
        } catch (CommitFailedException e) {
            truth.failed(index, e);
            throw e;
        }
        truth.durable = index;
    }

    /**
     * A commit from a stream that fails after a random part of {@code state}: it must throw the stream's failure (or
     * the process dies during it), and nothing may count — the history goes on with the state before it.
     */
    private static void failingStream(CheckpointStore store, byte[] state, SplittableRandom random) {
        int failAfter = random.nextInt(state.length + 1);
        InputStream failing = new SequenceInputStream(new ByteArrayInputStream(state, 0, failAfter),
                InputStream.nullInputStream()) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n < 0) {
                    throw new IOException("the stream failed after " + failAfter + " bytes");
                }
                return n;
            }
        };
        try {
            store.commit(JOB, failing);
            fail("a commit from a stream that failed returned");
        } catch (IOException expected) {
            assertTrue(expected.getMessage().startsWith("the stream failed after"), expected.getMessage());
        }
    }

    private static CheckpointStore.Builder builder(Variant variant, List<FaultyRepository> repositories,
                                                   InstantSource clock, long seed) {
        CheckpointStore.Builder builder = variant.codec == null ? CheckpointStore.ephemeral(repositories)
                : CheckpointStore.perennial(variant.codec, repositories);
        return builder.differential(variant.chunking).maxSpaceAmplification(1.25).segmentBytes(16 * BLOCK)
                .clock(clock).lease(Duration.ofHours(1)).random(new SplittableRandom(seed));
    }

    /** Whether the stage completed successfully; a stage still undecided (its persist never ran) did not. */
    private static boolean succeeded(CompletionStage<FragmentIndex> stage) {
        CompletableFuture<FragmentIndex> future = stage.toCompletableFuture();
        return future.isDone() && !future.isCompletedExceptionally();
    }

    /** The failure of a stage that must have failed. */
    private static Throwable failure(CompletionStage<FragmentIndex> stage) {
        CompletableFuture<FragmentIndex> future = stage.toCompletableFuture();
        assertTrue(future.isCompletedExceptionally(), "the stage did not fail: " + future);
        try {
            future.join();
            throw new AssertionError("unreachable");
        } catch (CompletionException e) {
            return e.getCause();
        }
    }

    private static byte[] bytes(SplittableRandom random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    /** The state after {@code change}; states stay between 4 and 48 blocks long. */
    static byte[] change(byte[] state, Change change, SplittableRandom random) {
        int length = state.length;
        return switch (change) {
            case NONE -> state.clone();
            case SCATTERED -> {
                byte[] next = state.clone();
                for (int i = 0, count = 1 + random.nextInt(3); i < count && length > 0; i++) {
                    next[random.nextInt(length)] ^= (byte) (1 + random.nextInt(255));
                }
                yield next;
            }
            case ALL -> bytes(random, length);
            case GROW -> {
                byte[] next = Arrays.copyOf(state, Math.min(48 * BLOCK, length + BLOCK + random.nextInt(3 * BLOCK)));
                byte[] tail = bytes(random, next.length - length);
                System.arraycopy(tail, 0, next, length, tail.length);
                yield next;
            }
            case SHRINK -> Arrays.copyOf(state, Math.max(4 * BLOCK, length - BLOCK - random.nextInt(3 * BLOCK)));
            case INSERT -> {
                int at = random.nextInt(length + 1);
                byte[] inserted = bytes(random, 1 + random.nextInt(BLOCK));
                byte[] next = new byte[length + inserted.length];
                System.arraycopy(state, 0, next, 0, at);
                System.arraycopy(inserted, 0, next, at, inserted.length);
                System.arraycopy(state, at, next, at + inserted.length, length - at);
                yield next;
            }
            case DELETE -> {
                int cut = Math.min(length - 4 * BLOCK, 1 + random.nextInt(BLOCK));
                if (cut <= 0) {
                    yield state.clone();
                }
                int at = random.nextInt(length - cut + 1);
                byte[] next = new byte[length - cut];
                System.arraycopy(state, 0, next, 0, at);
                System.arraycopy(state, at + cut, next, at, length - at - cut);
                yield next;
            }
        };
    }
}
