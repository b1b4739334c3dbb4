package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testsupport.SearchDepth;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Differential commits, example by example: what each writes (its segment holds exactly the blocks its base does not
 * refer to) and that every state is recovered byte for byte, by this store and by a restarted one. Each example that
 * draws from a seed runs once per seed ({@link SearchDepth#eachSeed}: more in a deeper search), each seed on fresh
 * repositories; {@code -Dvolpex.differential.commit.seed=<seed>} replays one.
 */
class DifferentialCommitTest {

    private static final int BLOCK = Chunking.DEFAULT_BLOCK_BYTES;
    private static final int STATE = 64 * BLOCK;
    private static final String JOB = "job";
    private static final String SEED_PROPERTY = "volpex.differential.commit.seed";

    private List<Stores.Counting> repositories;
    /** The seed of the check running now. */
    private long seed;

    @BeforeEach
    void repositories() {
        repositories = new ArrayList<>();
        for (FragmentRepository r : Stores.inMemory(6)) {
            repositories.add(new Stores.Counting(r));
        }
    }

    /** Runs {@code check} once per seed that {@link SearchDepth#eachSeed} gives, each on fresh repositories. */
    private void eachSeed(Check check) {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, drawn -> {
            repositories();
            seed = drawn;
            check.run();
        });
    }

    /** A check that draws from {@link #seed}. */
    @FunctionalInterface
    private interface Check {
        void run() throws Exception;
    }

    private CheckpointStore store(Chunking chunking) {
        return CheckpointStore.perennial(IdaCodec.systematic(4, 2), repositories).differential(chunking)
                .segmentBytes(64 * 1024).build();
    }

    private long written() {
        return repositories.stream().mapToLong(r -> r.putBytes.get()).sum();
    }

    /** Commits {@code state}, checks what it wrote and that it (and a restarted store) recovers it exactly. */
    private FragmentIndex commit(CheckpointStore store, byte[] state, long expectedOwnBlockBytes) throws Exception {
        long before = written();
        FragmentIndex index = store.commit(JOB, state);
        long wrote = written() - before;
        assertTrue(index.isDifferential(), "seed " + seed);
        Manifest manifest = Manifest.ofPayload(payload(store, index));
        assertEquals(expectedOwnBlockBytes, manifest.ownBlockBytes, "own block bytes, seed " + seed);
        long payload = expectedOwnBlockBytes + manifest.toBytes().length + 4;
        assertEquals(payload, index.checkpointBytes(), "payload bytes, seed " + seed);
        // Fragments: the payload times n/m, rounded up per fragment and framed; plus an index copy per holder.
        long fragments = index.fragments().stream().mapToLong(FragmentLocation::lengthBytes).sum();
        long indexCopies = (long) index.n() * index.toBytes().length;
        assertTrue(fragments <= payload * 6 / 4 + 6 * 256L, "fragments " + fragments + " for " + payload);
        assertTrue(wrote <= fragments + indexCopies + 6 * 64, "wrote " + wrote + ", seed " + seed);
        assertArrayEquals(state, store.recover(JOB).orElseThrow().toByteArray(), "seed " + seed);
        assertArrayEquals(state, store.recover(index).toByteArray(), "seed " + seed);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(state.length, store.recoverTo(index, out));
        assertArrayEquals(state, out.toByteArray());
        CheckpointStore restarted = store(Chunking.fixed());
        assertArrayEquals(state, restarted.recover(JOB).orElseThrow().toByteArray(), "restarted, seed " + seed);
        return index;
    }

    /** The decoded payload of a differential checkpoint (segment and manifest), through the package's reads. */
    private byte[] payload(CheckpointStore store, FragmentIndex index) {
        return new Reads(store.context()).rebuild(index).bytes();
    }

    @Test
    void noChangeWritesTheManifestOnlyUnderOnePercentOfTheState() {
        eachSeed(this::noChangeWritesTheManifestOnlyUnderOnePercentOfTheStateWithSeed);
    }

    private void noChangeWritesTheManifestOnlyUnderOnePercentOfTheStateWithSeed() throws Exception {
        CheckpointStore store = store(Chunking.fixed());
        byte[] state = Stores.data(seed, STATE);
        commit(store, state, STATE);
        long before = written();
        commit(store, state, 0);
        long wrote = written() - before;
        assertTrue(wrote <= STATE / 100, "an unchanged commit wrote " + wrote + " bytes of a " + STATE
                + "-byte state");
    }

    @Test
    void scatteredChangesStoreTheirBlocksOnly() {
        eachSeed(this::scatteredChangesStoreTheirBlocksOnlyWithSeed);
    }

    private void scatteredChangesStoreTheirBlocksOnlyWithSeed() throws Exception {
        CheckpointStore store = store(Chunking.fixed());
        byte[] state = Stores.data(seed, STATE);
        commit(store, state, STATE);
        SplittableRandom random = new SplittableRandom(seed);
        TreeSet<Integer> changed = new TreeSet<>();
        while (changed.size() < 7) {
            int block = random.nextInt(STATE / BLOCK);
            if (changed.add(block)) {
                state[block * BLOCK + random.nextInt(BLOCK)] ^= 0x11;
            }
        }
        commit(store, state, 7L * BLOCK);
        // Unchanged blocks stay in the first segment, which is kept; nothing else is.
        assertEquals(2, store.checkpoints(JOB).size());
    }

    @Test
    void allChangedStoresEveryBlockAndFreesTheOldSegment() {
        eachSeed(this::allChangedStoresEveryBlockAndFreesTheOldSegmentWithSeed);
    }

    private void allChangedStoresEveryBlockAndFreesTheOldSegmentWithSeed() throws Exception {
        CheckpointStore store = store(Chunking.fixed());
        commit(store, Stores.data(seed, STATE), STATE);
        commit(store, Stores.data(seed + 1, STATE), STATE);
        assertEquals(1, store.checkpoints(JOB).size(), "the first segment is no longer referred to");
    }

    @Test
    void growingAndShrinkingStates() {
        eachSeed(this::growingAndShrinkingStatesWithSeed);
    }

    private void growingAndShrinkingStatesWithSeed() throws Exception {
        CheckpointStore store = store(Chunking.fixed());
        byte[] state = Stores.data(seed, STATE + 100);
        commit(store, state, STATE + 100);
        byte[] grown = java.util.Arrays.copyOf(state, STATE + 3 * BLOCK + 5);
        System.arraycopy(Stores.data(~seed, grown.length - state.length), 0, grown, state.length,
                grown.length - state.length);
        // The partial last block changed, and three blocks and five bytes follow it.
        commit(store, grown, grown.length - (long) STATE);
        byte[] shrunk = java.util.Arrays.copyOf(grown, 40 * BLOCK + 7);
        // Only the new partial last block is new; 40 whole blocks are still live in the first segment (more than half).
        commit(store, shrunk, 7);
        byte[] tiny = java.util.Arrays.copyOf(shrunk, 3 * BLOCK);
        // Three of 64 blocks live: the first segment is compacted — its live blocks stored again, the segment freed.
        commit(store, tiny, 3L * BLOCK);
        assertEquals(1, store.checkpoints(JOB).size());
        commit(store, new byte[0], 0);
    }

    @Test
    void contentDefinedChunkingStoresLittleAfterAnInsertion() {
        eachSeed(this::contentDefinedChunkingStoresLittleAfterAnInsertionWithSeed);
    }

    private void contentDefinedChunkingStoresLittleAfterAnInsertionWithSeed() throws Exception {
        Chunking cdc = Chunking.contentDefined(4096);
        CheckpointStore store = store(cdc);
        byte[] state = Stores.data(seed, STATE);
        FragmentIndex first = store.commit(JOB, state);
        assertArrayEquals(state, store.recover(JOB).orElseThrow().toByteArray());
        int at = new SplittableRandom(seed).nextInt(STATE);
        byte[] inserted = new byte[STATE + 100];
        System.arraycopy(state, 0, inserted, 0, at);
        System.arraycopy(Stores.data(~seed, 100), 0, inserted, at, 100);
        System.arraycopy(state, at, inserted, at + 100, STATE - at);
        FragmentIndex second = store.commit(JOB, inserted);
        assertArrayEquals(inserted, store.recover(JOB).orElseThrow().toByteArray(), "seed " + seed);
        Manifest manifest = Manifest.ofPayload(payload(store, second));
        assertTrue(manifest.ownBlockBytes <= 3L * cdc.maxBytes(), "an insertion of 100 bytes stored "
                + manifest.ownBlockBytes + " bytes, seed " + seed);
        assertTrue(second.checkpointBytes() * 10 < first.checkpointBytes(), "seed " + seed);
        // Fixed-size blocks would store every block after the insertion.
        CheckpointStore fixed = CheckpointStore.perennial(IdaCodec.systematic(4, 2), Stores.inMemory(6))
                .differential(Chunking.fixed(4096)).build();
        fixed.commit(JOB, state);
        Manifest shifted = Manifest.ofPayload(payload(fixed, fixed.commit(JOB, inserted)));
        assertTrue(shifted.ownBlockBytes >= STATE - at, "seed " + seed);
    }

    @Test
    void aRestartedStoreReadsItsBaseBackAndStillStoresOnlyWhatChanged() {
        eachSeed(this::aRestartedStoreReadsItsBaseBackAndStillStoresOnlyWhatChangedWithSeed);
    }

    private void aRestartedStoreReadsItsBaseBackAndStillStoresOnlyWhatChangedWithSeed() throws Exception {
        byte[] state = Stores.data(seed, STATE);
        commit(store(Chunking.fixed()), state, STATE);
        state[5] ^= 1;
        commit(store(Chunking.fixed()), state, BLOCK);
    }

    /** How many times the fragments of {@code index} were read, over every repository. */
    private long fragmentReads(FragmentIndex index) {
        long reads = 0;
        for (FragmentLocation location : index.fragments()) {
            for (Stores.Counting repository : repositories) {
                AtomicLong gets = repository.gets.get(index.fragmentKey(location.fragmentIndex()));
                reads += gets == null ? 0 : gets.get();
            }
        }
        return reads;
    }

    /**
     * A restarted writer recovers the newest checkpoint, repairs it and commits again: its segment is read once for
     * its manifest, by the recovery; the repair reads it only to check every fragment (n reads) and the commit not at
     * all. A restarted store that repairs first reads it for the manifest in the repair, and its commit does not.
     */
    @Test
    void aRestartedWriterReadsTheNewestSegmentForItsManifestOnce() {
        eachSeed(this::aRestartedWriterReadsTheNewestSegmentForItsManifestOnceWithSeed);
    }

    private void aRestartedWriterReadsTheNewestSegmentForItsManifestOnceWithSeed() throws Exception {
        byte[] state = Stores.data(seed, STATE);
        CheckpointStore writer = store(Chunking.fixed());
        writer.commit(JOB, state);
        state[5] ^= 1;
        FragmentIndex newest = writer.commit(JOB, state);

        CheckpointStore recovered = store(Chunking.fixed());
        long before = fragmentReads(newest);
        assertArrayEquals(state, recovered.recover(JOB).orElseThrow().toByteArray(), "seed " + seed);
        assertTrue(fragmentReads(newest) - before >= newest.m(), "the recovery reads m fragments");
        before = fragmentReads(newest);
        assertEquals(RepairReport.Status.HEALTHY, recovered.repair(JOB).status());
        assertEquals(newest.n(), fragmentReads(newest) - before, "the repair after the recovery, seed " + seed);
        state[3 * BLOCK] ^= 1;
        before = fragmentReads(newest);
        FragmentIndex next = recovered.commit(JOB, state);
        assertEquals(0, fragmentReads(newest) - before, "the commit after the repair, seed " + seed);
        assertEquals(BLOCK, Manifest.ofPayload(payload(recovered, next)).ownBlockBytes, "seed " + seed);

        CheckpointStore repaired = store(Chunking.fixed());
        before = fragmentReads(next);
        assertEquals(RepairReport.Status.HEALTHY, repaired.repair(JOB).status());
        long repair = fragmentReads(next) - before;
        assertTrue(repair >= next.n() + next.m(), "a repair without the manifest reads the segment: " + repair);
        state[7 * BLOCK] ^= 1;
        before = fragmentReads(next);
        FragmentIndex last = repaired.commit(JOB, state);
        assertEquals(0, fragmentReads(next) - before, "the commit after the repair, seed " + seed);
        assertEquals(BLOCK, Manifest.ofPayload(payload(repaired, last)).ownBlockBytes, "seed " + seed);
        assertArrayEquals(state, store(Chunking.fixed()).recover(JOB).orElseThrow().toByteArray(), "seed " + seed);
    }

    /** How many times the index copies of {@code index}'s checkpoint were read, over every repository. */
    private long indexReads(FragmentIndex index) {
        return repositories.stream().map(r -> r.gets.get(index.indexKey())).mapToLong(g -> g == null ? 0 : g.get())
                .sum();
    }

    /** Deletes fragment 0 of {@code index} where {@code index} records it. */
    private void loseFirstFragment(FragmentIndex index) throws IOException {
        FragmentLocation location = index.fragments().get(0);
        for (Stores.Counting repository : repositories) {
            if (repository.id().equals(location.repositoryId())) {
                assertTrue(repository.delete(index.fragmentKey(location.fragmentIndex())));
            }
        }
    }

    /**
     * The check that a base is whole reads the base's index again only when another revision of it could list it
     * whole: a base that only lost a fragment is stored again without its index copies being read; once another
     * store's repair has moved the lost fragment to a seventh repository and revised the index, the next commit reads
     * the new revision and refers to the base again.
     */
    @Test
    void aBaseIndexIsReadAgainOnlyWhenARepairMayHaveMovedItsFragments() {
        eachSeed(this::aBaseIndexIsReadAgainOnlyWhenARepairMayHaveMovedItsFragmentsWithSeed);
    }

    private void aBaseIndexIsReadAgainOnlyWhenARepairMayHaveMovedItsFragmentsWithSeed() throws Exception {
        repositories.add(new Stores.Counting(FragmentRepository.inMemory("seventh")));
        CheckpointStore writer = store(Chunking.fixed());
        byte[] state = Stores.data(seed, STATE);
        FragmentIndex first = writer.commit(JOB, state);
        loseFirstFragment(first);
        state[5] ^= 1;
        long before = indexReads(first);
        FragmentIndex second = writer.commit(JOB, state);
        assertEquals(0, indexReads(first) - before, "a base that only lost a fragment, seed " + seed);
        assertEquals(STATE, Manifest.ofPayload(payload(writer, second)).ownBlockBytes, "stored again, seed " + seed);

        loseFirstFragment(second);
        CheckpointStore repairer = CheckpointStore.perennial(IdaCodec.systematic(4, 2), repositories)
                .differential(Chunking.fixed()).segmentBytes(64 * 1024).reconstructionThreshold(6).build();
        RepairReport repaired = repairer.repair(JOB);
        assertEquals(RepairReport.Status.REPAIRED, repaired.status(), repaired + ", seed " + seed);
        assertTrue(repaired.index().revision() > second.revision(), "the repair moved the fragment: " + repaired);
        state[3 * BLOCK] ^= 1;
        before = indexReads(second);
        FragmentIndex third = writer.commit(JOB, state);
        assertTrue(indexReads(second) - before > 0, "the revised index is read, seed " + seed);
        assertEquals(BLOCK, Manifest.ofPayload(payload(writer, third)).ownBlockBytes, "refers again, seed " + seed);
        assertArrayEquals(state, store(Chunking.fixed()).recover(JOB).orElseThrow().toByteArray(), "seed " + seed);
    }

    /**
     * A repository away during a repair keeps its copy of a segment's fragment, which the repair regenerated
     * elsewhere; back, that old copy sits where the segment's first index records the fragment. When the new copy is
     * then lost, the segment has lost a fragment under its newest index: a commit must not count it whole (it would
     * then tolerate one loss fewer than n − m). The store's own repair updates what it remembers.
     */
    @Test
    void aFragmentLeftBehindByItsOwnRepairDoesNotMakeASegmentWhole() {
        eachSeed(this::aFragmentLeftBehindByItsOwnRepairDoesNotMakeASegmentWholeWithSeed);
    }

    private void aFragmentLeftBehindByItsOwnRepairDoesNotMakeASegmentWholeWithSeed() throws Exception {
        List<Stores.Switchable> hosts = Stores.Switchable.inMemory(7);
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(4, 2), hosts)
                .differential(Chunking.fixed()).segmentBytes(64 * 1024).reconstructionThreshold(6).build();
        leftBehind(hosts, store, store);
    }

    /**
     * As {@link #aFragmentLeftBehindByItsOwnRepairDoesNotMakeASegmentWhole}, the repair made by another store: a
     * commit that lists the fragment both where the index it remembers records it and elsewhere reads the index
     * again, and so knows the newest locations when the new copy is lost.
     */
    @Test
    void aFragmentLeftBehindByAnotherStoresRepairIsNoticedWhileBothCopiesAreListed() {
        eachSeed(this::aFragmentLeftBehindByAnotherStoresRepairIsNoticedWhileBothCopiesAreListedWithSeed);
    }

    private void aFragmentLeftBehindByAnotherStoresRepairIsNoticedWhileBothCopiesAreListedWithSeed() throws Exception {
        List<Stores.Switchable> hosts = Stores.Switchable.inMemory(7);
        CheckpointStore writer = CheckpointStore.perennial(IdaCodec.systematic(4, 2), hosts)
                .differential(Chunking.fixed()).segmentBytes(64 * 1024).build();
        CheckpointStore repairer = CheckpointStore.perennial(IdaCodec.systematic(4, 2), hosts)
                .differential(Chunking.fixed()).segmentBytes(64 * 1024).reconstructionThreshold(6).build();
        leftBehind(hosts, writer, repairer);
    }

    private void leftBehind(List<Stores.Switchable> hosts, CheckpointStore writer, CheckpointStore repairer)
            throws Exception {
        byte[] state = Stores.data(seed, STATE);
        FragmentIndex first = writer.commit(JOB, state);
        state[5] ^= 1;
        writer.commit(JOB, state);
        assertEquals(2, writer.checkpoints(JOB).size(), "the second refers to the first's segment, seed " + seed);
        FragmentLocation moved = first.fragments().get(0);
        Stores.Switchable away = host(hosts, moved.repositoryId());
        away.reachable = false;
        RepairReport repaired = repairer.repair(JOB);
        assertEquals(RepairReport.Status.REPAIRED, repaired.status(), repaired + ", seed " + seed);
        away.reachable = true;
        FragmentIndex revised = writer.checkpoints(JOB).stream()
                .filter(index -> index.checkpointId().equals(first.checkpointId())).findFirst().orElseThrow();
        String newHolder = revised.fragments().stream()
                .filter(location -> location.fragmentIndex() == moved.fragmentIndex()).findFirst().orElseThrow()
                .repositoryId();
        assertNotEquals(moved.repositoryId(), newHolder, "the repair moved the fragment, seed " + seed);
        assertTrue(away.delegate.get(first.fragmentKey(moved.fragmentIndex())).isPresent(), "left behind");
        if (writer != repairer) {
            // Both copies listed: the writer reads the revised index.
            state[2 * BLOCK] ^= 1;
            FragmentIndex both = writer.commit(JOB, state);
            assertTrue(Differential.segments(Manifest.ofPayload(payload(writer, both)))
                    .contains(first.checkpointId()), "a segment listed whole is referred to, seed " + seed);
        }
        assertTrue(host(hosts, newHolder).delete(first.fragmentKey(moved.fragmentIndex())));
        state[3 * BLOCK] ^= 1;
        FragmentIndex next = writer.commit(JOB, state);
        assertFalse(Differential.segments(Manifest.ofPayload(payload(writer, next))).contains(first.checkpointId()),
                "a commit referred to a segment that lost a fragment under its newest index, seed " + seed);
        assertArrayEquals(state, writer.recover(JOB).orElseThrow().toByteArray(), "seed " + seed);
    }

    private static Stores.Switchable host(List<Stores.Switchable> hosts, String id) {
        return hosts.stream().filter(host -> host.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void aStreamCommitIsDifferentialAndStoresOnlyTheChangedBlocks() {
        eachSeed(this::aStreamCommitIsDifferentialAndStoresOnlyTheChangedBlocksWithSeed);
    }

    private void aStreamCommitIsDifferentialAndStoresOnlyTheChangedBlocksWithSeed() throws Exception {
        CheckpointStore store = store(Chunking.fixed());
        byte[] state = Stores.data(seed, STATE);
        commit(store, state, STATE);
        state[7 * BLOCK + 1] ^= 1;
        FragmentIndex streamed = store.commit(JOB, new ByteArrayInputStream(state));
        assertTrue(streamed.isDifferential());
        assertEquals(BLOCK, Manifest.ofPayload(payload(store, streamed)).ownBlockBytes);
        assertEquals(2, store.checkpoints(JOB).size(), "the first segment is still referred to");
        assertArrayEquals(state, store.recover(JOB).orElseThrow().toByteArray());
        state[9 * BLOCK] ^= 1;
        commit(store, state, BLOCK);
    }

    @Test
    void repairRegeneratesTheFragmentsOfTheSegmentsTheNewestLists() {
        eachSeed(this::repairRegeneratesTheFragmentsOfTheSegmentsTheNewestListsWithSeed);
    }

    private void repairRegeneratesTheFragmentsOfTheSegmentsTheNewestListsWithSeed() throws Exception {
        CheckpointStore store = store(Chunking.fixed());
        byte[] state = Stores.data(seed, STATE);
        FragmentIndex first = store.commit(JOB, state);
        state[BLOCK + 3] ^= 1;
        FragmentIndex second = store.commit(JOB, state);
        assertEquals(2, store.checkpoints(JOB).size(), "the first checkpoint holds 63 of the 64 blocks");
        // Damage beyond the threshold on the first checkpoint's segment, over and over: without its repair, three
        // rounds would take it below m = 4 of 6 fragments.
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 3; round++) {
            FragmentIndex current = store.checkpoints(JOB).get(1);
            assertEquals(first.checkpointId(), current.checkpointId());
            for (int lost = 0; lost < 2; ) {
                FragmentLocation victim = current.fragments().get(random.nextInt(current.n()));
                FragmentRepository holder = repositories.stream()
                        .filter(r -> r.id().equals(victim.repositoryId())).findFirst().orElseThrow();
                if (holder.delete(current.fragmentKey(victim.fragmentIndex()))) {
                    lost++;
                }
            }
            RepairReport report = store.repair(JOB);
            assertEquals(RepairReport.Status.REPAIRED, report.status(), "round " + round + ": " + report);
            assertEquals(second.checkpointId(), report.index().checkpointId());
            assertArrayEquals(state, store.recover(JOB).orElseThrow().toByteArray(), "round " + round);
        }
        // A segment the newest lists that is gone altogether cannot be repaired, and repair says so.
        FragmentIndex segment = store.checkpoints(JOB).get(1);
        for (FragmentRepository repository : repositories) {
            for (String key : repository.list(JOB + ".")) {
                if (key.startsWith(segment.markerKey().substring(0, segment.markerKey().length() - 2))) {
                    repository.delete(key);
                }
            }
        }
        CheckpointUnavailableException e = org.junit.jupiter.api.Assertions.assertThrows(
                CheckpointUnavailableException.class, () -> store.repair(JOB));
        assertTrue(e.failures().stream().anyMatch(f -> f.detail().contains(segment.checkpointId().toString())
                && f.detail().contains("which the block manifest lists")), e.failures() + ", seed " + seed);
    }

    @Test
    void segmentsTheNewestDoesNotListAreCollectedAndListedOnesKept() {
        eachSeed(this::segmentsTheNewestDoesNotListAreCollectedAndListedOnesKeptWithSeed);
    }

    private void segmentsTheNewestDoesNotListAreCollectedAndListedOnesKeptWithSeed() throws Exception {
        collectsAndCompactsWithin(store(Chunking.fixed()), CheckpointStore.DEFAULT_MAX_SPACE_AMPLIFICATION);
    }

    @Test
    void everySpaceBoundHoldsFromTheTightestToALooseOne() {
        eachSeed(this::everySpaceBoundHoldsFromTheTightestToALooseOneWithSeed);
    }

    private void everySpaceBoundHoldsFromTheTightestToALooseOneWithSeed() throws Exception {
        for (double bound : new double[] {1.0, 1.3, 4.0}) {
            repositories();
            collectsAndCompactsWithin(CheckpointStore.perennial(IdaCodec.systematic(4, 2), repositories)
                    .differential(Chunking.fixed()).maxSpaceAmplification(bound).segmentBytes(64 * 1024).build(),
                    bound);
        }
    }

    @Test
    void aSpaceBoundOutsideItsRangeIsRefusedByName() {
        CheckpointStore.Builder builder = CheckpointStore.perennial(IdaCodec.systematic(4, 2), repositories);
        for (double bad : new double[] {0.99, 0, -1, 64.5, Double.NaN, Double.POSITIVE_INFINITY}) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                    IllegalArgumentException.class, () -> builder.maxSpaceAmplification(bad));
            assertEquals("maxSpaceAmplification must be in [1, 64.0]: " + bad, e.getMessage());
        }
        builder.maxSpaceAmplification(1).maxSpaceAmplification(64);
    }

    /**
     * Thirty commits of random changes: after each, exactly the newest checkpoint and the segments its manifest
     * lists are present, the block bytes they hold are at most {@code bound} times the state's, the state is
     * recovered, and nothing is left to collect.
     */
    private void collectsAndCompactsWithin(CheckpointStore store, double bound) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        byte[] state = Stores.data(seed, STATE);
        long stateBytes = state.length;
        for (int round = 0; round < 30; round++) {
            int changes = random.nextInt(20);
            for (int c = 0; c < changes; c++) {
                state[random.nextInt(state.length)] ^= (byte) (1 + random.nextInt(255));
            }
            FragmentIndex index = store.commit(JOB, state);
            Manifest manifest = Manifest.ofPayload(payload(store, index));
            TreeSet<CheckpointId> expected = new TreeSet<>(Differential.segments(manifest));
            expected.add(index.checkpointId());
            TreeSet<CheckpointId> present = new TreeSet<>();
            store.checkpoints(JOB).forEach(i -> present.add(i.checkpointId()));
            assertEquals(expected, present, "round " + round + ", seed " + seed);
            long stored = 0;
            for (FragmentIndex i : store.checkpoints(JOB)) {
                stored += Manifest.ofPayload(payload(store, i)).ownBlockBytes;
            }
            assertTrue(stored <= bound * stateBytes, "stored block bytes " + stored + " > " + bound + " × "
                    + stateBytes + ", round " + round + ", seed " + seed);
            assertArrayEquals(state, store.recover(JOB).orElseThrow().toByteArray(), "round " + round);
            assertEquals(0, store.collectGarbage(JOB), "a commit leaves nothing to collect");
        }
    }

    /**
     * Damage that piece CRCs cannot see: bytes of an older segment's fragments changed and each piece's CRC-32C
     * recomputed, on up to {@code k} fragments (then repairable), and on more than {@code k} (then not). Recovery
     * decodes such a segment's stripes after checking only CRCs; the SHA-256 of every block it copies must catch the
     * damage: it returns the state exactly, by reading the segment again with every fragment verified, or fails —
     * never different bytes.
     */
    @Test
    void damageThatPassesThePieceChecksIsCaughtByTheBlockDigests() {
        eachSeed(this::damageThatPassesThePieceChecksIsCaughtByTheBlockDigestsWithSeed);
    }

    private void damageThatPassesThePieceChecksIsCaughtByTheBlockDigestsWithSeed() throws Exception {
        CheckpointStore store = store(Chunking.fixed());
        SplittableRandom random = new SplittableRandom(seed);
        byte[] state = Stores.data(seed, STATE);
        FragmentIndex first = store.commit(JOB, state);
        state[random.nextInt(STATE)] ^= 1;
        store.commit(JOB, state);
        assertEquals(2, store.checkpoints(JOB).size(), "seed " + seed);
        List<Integer> order = new ArrayList<>(List.of(0, 1, 2, 3, 4, 5));
        java.util.Collections.shuffle(order, new java.util.Random(seed));
        for (int damaged = 1; damaged <= first.n(); damaged++) {
            disguise(store, first, order.get(damaged - 1), random);
            if (damaged <= first.n() - first.m()) {
                assertArrayEquals(state, store.recover(JOB).orElseThrow().toByteArray(),
                        damaged + " fragments damaged, seed " + seed);
            } else {
                int count = damaged;
                org.junit.jupiter.api.Assertions.assertThrows(CheckpointUnavailableException.class,
                        () -> store.recover(JOB), count + " fragments damaged, seed " + seed);
            }
        }
    }

    private void disguise(CheckpointStore store, FragmentIndex index, int f, SplittableRandom random)
            throws IOException {
        Stores.disguise(repositories, store, index, f, random);
    }
}
