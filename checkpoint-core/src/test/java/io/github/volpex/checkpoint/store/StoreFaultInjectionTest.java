package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.erasure.IdaCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Random repository failures, unavailability, corruption and crashes at any step of commit, recovery and repair, in
 * ephemeral mode and in perennial mode with both layouts. After
 * any of them, recovery returns the previous or the new checkpoint byte for byte, never a mixture, and never nothing
 * while one of them has an index copy and {@code m} intact fragments on available repositories; and the next
 * successful commit leaves nothing else behind.
 */
class StoreFaultInjectionTest {

    private static final String JOB = "job";

    /**
     * The store configurations every property runs against, with about how many repository calls a commit and a
     * repair of a few segments make (measured), so that crash points spread over every step.
     */
    enum Mode {
        EPHEMERAL(null, 35, 44),
        PERENNIAL_SYSTEMATIC(IdaCodec.systematic(3, 2).withStripeSizeBytes(16), 87, 115),
        PERENNIAL_RABIN(IdaCodec.rabin(2, 2).withStripeSizeBytes(8), 70, 88);

        private final IdaCodec codec;
        private final int commitCalls;
        private final int repairCalls;

        Mode(IdaCodec codec, int commitCalls, int repairCalls) {
            this.codec = codec;
            this.commitCalls = commitCalls;
            this.repairCalls = repairCalls;
        }

        CheckpointStore.Builder builder(List<FragmentRepository> repositories) {
            return codec == null ? CheckpointStore.ephemeral(repositories)
                    : CheckpointStore.perennial(codec, repositories);
        }

        int m() {
            return codec == null ? 1 : codec.m();
        }

        int n() {
            return codec == null ? CheckpointStore.EPHEMERAL_REPLICAS : codec.n();
        }

        /** The call that crashes, {@code percent} of the way through a commit (past 100: no crash). */
        long commitCrash(int percent) {
            return Math.max(1, (long) percent * commitCalls / 100);
        }

        long repairCrash(int percent) {
            return Math.max(1, (long) percent * repairCalls / 100);
        }
    }

    private static CheckpointStore store(Mode mode, List<FragmentRepository> repositories, long seed) {
        return mode.builder(repositories).random(new SplittableRandom(seed)).segmentBytes(64).build();
    }

    private static List<FragmentRepository> repositories(boolean onDisk, int count) throws IOException {
        if (!onDisk) {
            return Stores.inMemory(count);
        }
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            repositories.add(FragmentRepository.directory("d" + i, DirectoryRepositoryTest.freshDirectory(), false));
        }
        return repositories;
    }

    /** Takes some repositories down and corrupts some objects, at random; returns the availability. */
    private static FaultPlan damage(List<FragmentRepository> raw, SplittableRandom random, int downPercent,
                                    int corruptPercent) throws Exception {
        FaultPlan availability = FaultPlan.none();
        for (FragmentRepository repository : raw) {
            if (random.nextInt(100) < downPercent) {
                availability.down(repository.id());
            }
            for (String key : repository.list("")) {
                if (random.nextInt(100) < corruptPercent) {
                    Stores.corrupt(repository, key, random.nextInt(1 << 20));
                }
            }
        }
        return availability;
    }

    /** A fresh store with no faults commits once more: afterwards only that checkpoint's objects exist. */
    private static void assertNextCommitLeavesOnlyItself(Mode mode, List<FragmentRepository> raw, long seed)
            throws Exception {
        CheckpointStore clean = store(mode, raw, seed + 1);
        byte[] last = Stores.data(seed + 3, 77);
        FragmentIndex index = clean.commit(JOB, last);
        String prefix = StoreKeys.checkpointPrefix(JOB, index.sequence(), index.commitId());
        for (String object : Stores.everything(raw)) {
            assertTrue(object.substring(object.indexOf('/') + 1).startsWith(prefix), "left behind: " + object);
        }
        assertEquals(new GroundTruth.Checkpoint(index.sequence(), Sha256.of(last)),
                GroundTruth.observed(store(mode, raw, seed + 2), JOB));
    }

    @Property(tries = 400)
    void a_crash_or_failures_anywhere_in_a_commit_leave_the_previous_or_the_new_checkpoint(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 125) int crashPercent,
            @ForAll @IntRange(min = 0, max = 25) int failurePercent, @ForAll @IntRange(min = 0, max = 3) int spare,
            @ForAll boolean streamed, @ForAll boolean onDisk, @ForAll Mode mode) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        List<FragmentRepository> raw = repositories(onDisk, mode.n() + spare);
        byte[] previous = Stores.data(seed, random.nextInt(300));
        byte[] next = Stores.data(seed + 1, random.nextInt(300));
        store(mode, raw, seed).commit(JOB, previous);

        FaultPlan plan = new FaultPlan(seed, mode.commitCrash(crashPercent), failurePercent / 100.0);
        CheckpointStore crashing = store(mode, FaultyRepository.wrap(raw, plan), seed + 7);
        boolean committed = false;
        try {
            if (streamed) {
                crashing.commit(JOB, new ByteArrayInputStream(next));
            } else {
                crashing.commit(JOB, next);
            }
            committed = true;
        } catch (SimulatedCrash | CommitFailedException e) {
            // The process died, or the commit gave up: the previous checkpoint must be intact.
        }
        GroundTruth.Expected undamaged = GroundTruth.of(raw, FaultPlan.none(), JOB);
        Sha256 expectedSha = Sha256.of(committed ? next : previous);
        if (committed) {
            assertEquals(new GroundTruth.Checkpoint(1, expectedSha), undamaged);
        } else {
            assertTrue(undamaged instanceof GroundTruth.Checkpoint c
                    && (c.sha256().equals(Sha256.of(previous)) || c.sha256().equals(Sha256.of(next))), undamaged
                    .toString());
        }
        assertEquals(undamaged, GroundTruth.observed(store(mode, raw, seed + 9), JOB));

        FaultPlan availability = damage(raw, random, 25, 10);
        GroundTruth.Expected expected = GroundTruth.of(raw, availability, JOB);
        if (expected instanceof GroundTruth.Checkpoint c) {
            assertTrue(c.sha256().equals(Sha256.of(previous)) || c.sha256().equals(Sha256.of(next)));
        }
        assertEquals(expected, GroundTruth.observed(store(mode, FaultyRepository.wrap(raw, availability), seed + 11),
                JOB));
        assertNextCommitLeavesOnlyItself(mode, raw, seed);
    }

    @Property(tries = 300)
    void a_crash_or_failures_anywhere_in_a_repair_never_lose_the_checkpoint(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 125) int crashPercent,
            @ForAll @IntRange(min = 0, max = 25) int failurePercent, @ForAll @IntRange(min = 0, max = 2) int spare,
            @ForAll Mode mode) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        int lose = mode.n() - mode.m();
        List<FragmentRepository> raw = Stores.inMemory(mode.n() + lose + spare);
        byte[] data = Stores.data(seed, 1 + random.nextInt(300));
        FragmentIndex index = store(mode, raw, seed).commit(JOB, data);
        // Lose n − m fragments, each deleted, corrupted, or on a repository that is down for good: m remain, fewer
        // than the reconstruction threshold.
        FaultPlan plan = new FaultPlan(seed, mode.repairCrash(crashPercent), failurePercent / 100.0);
        FaultPlan availability = FaultPlan.none();
        List<FragmentLocation> shuffled = new ArrayList<>(index.fragments());
        Collections.shuffle(shuffled, new Random(seed));
        for (FragmentLocation lost : shuffled.subList(0, lose)) {
            FragmentRepository lostOn = raw.stream().filter(r -> r.id().equals(lost.repositoryId())).findFirst()
                    .orElseThrow();
            switch (random.nextInt(3)) {
                case 0 -> lostOn.delete(index.fragmentKey(lost.fragmentIndex()));
                case 1 -> Stores.corrupt(lostOn, index.fragmentKey(lost.fragmentIndex()), random.nextInt(1000));
                default -> {
                    plan.down(lostOn.id());
                    availability.down(lostOn.id());
                }
            }
        }
        try {
            store(mode, FaultyRepository.wrap(raw, plan), seed + 5).repair(JOB);
        } catch (SimulatedCrash | CheckpointUnavailableException | CommitFailedException e) {
            // Died or gave up: the surviving fragments must still be there.
        }
        GroundTruth.Checkpoint intact = new GroundTruth.Checkpoint(0, Sha256.of(data));
        assertEquals(intact, GroundTruth.of(raw, availability, JOB));
        // A repair without failures restores every fragment (with the threshold at n, a crashed repair that already
        // regenerated some is finished), and then there is nothing left to do.
        CheckpointStore clean = mode.builder(FaultyRepository.wrap(raw, availability)).random(new SplittableRandom(seed))
                .segmentBytes(64).reconstructionThreshold(mode.n()).build();
        assertEquals(intact, GroundTruth.observed(clean, JOB));
        RepairReport report = clean.repair(JOB);
        assertTrue(report.status() == RepairReport.Status.REPAIRED || report.status() == RepairReport.Status.HEALTHY,
                report.toString());
        assertEquals(mode.n(), report.availableAfter());
        assertEquals(RepairReport.Status.HEALTHY, clean.repair(JOB).status());
        assertNextCommitLeavesOnlyItself(mode, raw, seed);
    }

    @Property(tries = 200)
    void recovery_under_transient_failures_returns_the_whole_checkpoint_or_a_typed_error(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 60) int failurePercent,
            @ForAll @IntRange(min = 0, max = 1) int extraFetches, @ForAll Mode mode) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        List<FragmentRepository> raw = Stores.inMemory(mode.n() + 1);
        byte[] data = Stores.data(seed, random.nextInt(400));
        store(mode, raw, seed).commit(JOB, data);
        FaultPlan flaky = new FaultPlan(seed, Long.MAX_VALUE, failurePercent / 100.0);
        CheckpointStore store = mode.builder(FaultyRepository.wrap(raw, flaky))
                .random(new SplittableRandom(seed)).extraFetches(extraFetches).build();
        GroundTruth.Expected observed = GroundTruth.observed(store, JOB);
        if (observed instanceof GroundTruth.Checkpoint c) {
            assertEquals(new GroundTruth.Checkpoint(0, Sha256.of(data)), c);
        }
        if (failurePercent == 0) {
            assertEquals(new GroundTruth.Checkpoint(0, Sha256.of(data)), observed);
        }
        // Streamed, the output is the checkpoint whenever the call returns.
        FragmentIndex index = store(mode, raw, seed).latestIndex(JOB).orElseThrow();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            assertEquals(data.length, store.recoverTo(index, out));
            assertEquals(Sha256.of(data), Sha256.of(out.toByteArray()));
        } catch (CheckpointUnavailableException e) {
            assertTrue(failurePercent > 0, e.getMessage());
        }
    }
}
