package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testsupport.SearchDepth;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * A committed differential checkpoint tolerates {@code n − m} fragment losses on every segment it refers to, as a full
 * checkpoint tolerates them on its own: older segments lose fragments between commits and nobody repairs them, losses
 * accumulating over many commits; after every commit up to {@code n − m} further fragments of each segment the newest
 * checkpoint lists are deleted, and the newest checkpoint must still be recovered byte for byte. The examples run once
 * per seed ({@link SearchDepth#eachSeed}: more in a deeper search), each history on repositories of its own;
 * {@code -Dvolpex.differential.durability.seed=<seed>} replays one.
 */
class DifferentialDurabilityTest {

    private static final String SEED_PROPERTY = "volpex.differential.durability.seed";

    private static final String JOB = "job";
    private static final int M = 4;
    private static final int K = 2;
    private static final int BLOCK = 1024;
    private static final int STATE = 48 * BLOCK;

    private static CheckpointStore store(List<FragmentRepository> repositories, Chunking chunking) {
        return CheckpointStore.perennial(IdaCodec.systematic(M, K), repositories).differential(chunking)
                .segmentBytes(16 * 1024).build();
    }

    /** The checkpoints whose fragments hold blocks of {@code index}: its own and those its manifest lists. */
    static Set<CheckpointId> segments(CheckpointStore store, FragmentIndex index) {
        Set<CheckpointId> ids = new LinkedHashSet<>();
        ids.add(index.checkpointId());
        ids.addAll(Differential.segments(Manifest.ofPayload(new Reads(store.context()).rebuild(index).bytes())));
        return ids;
    }

    /** Deletes {@code count} fragments of checkpoint {@code id} that are still listed, chosen by {@code random}. */
    static void lose(List<? extends FragmentRepository> repositories, CheckpointId id, int count,
                             SplittableRandom random) throws Exception {
        List<String[]> present = new ArrayList<>();
        for (FragmentRepository repository : repositories) {
            for (String key : repository.list("")) {
                StoreKeys.Parsed parsed = StoreKeys.parse(key);
                if (parsed != null && parsed.id().equals(id) && parsed.kind() == StoreKeys.Kind.FRAGMENT) {
                    present.add(new String[] {repository.id(), key});
                }
            }
        }
        for (int i = 0; i < count && !present.isEmpty(); i++) {
            String[] doomed = present.remove(random.nextInt(present.size()));
            for (FragmentRepository repository : repositories) {
                if (repository.id().equals(doomed[0])) {
                    repository.delete(doomed[1]);
                }
            }
        }
    }

    /**
     * Runs {@code commits} commits of a state whose blocks change with probability {@code changePercent} each; after
     * every commit, each segment the newest checkpoint lists loses {@code n − m} fragments ({@code everyTime}) or a
     * random number of them up to {@code n − m}; the newest is recovered after every commit and every loss.
     */
    private static void run(Chunking chunking, long seed, int commits, int changePercent, boolean everyTime)
            throws Exception {
        List<FragmentRepository> repositories = Stores.inMemory(M + K);
        CheckpointStore store = store(repositories, chunking);
        SplittableRandom random = new SplittableRandom(seed);
        byte[] state = Stores.data(seed, STATE);
        for (int c = 0; c < commits; c++) {
            for (int b = 0; b < STATE / BLOCK; b++) {
                if (random.nextInt(100) < changePercent) {
                    state[b * BLOCK + random.nextInt(BLOCK)] ^= (byte) (1 + random.nextInt(255));
                }
            }
            FragmentIndex index = store.commit(JOB, state);
            for (CheckpointId segment : segments(store, index)) {
                lose(repositories, segment, everyTime ? K : random.nextInt(K + 1), random);
            }
            String where = "seed " + seed + ", " + chunking + ", commit " + c;
            try {
                RecoveredCheckpoint recovered = store.recover(JOB).orElseThrow();
                assertEquals(index.checkpointId(), recovered.index().checkpointId(), where);
                assertArrayEquals(state, recovered.toByteArray(), where);
                assertArrayEquals(state, store(repositories, chunking).recover(JOB).orElseThrow().toByteArray(),
                        "restarted, " + where);
            } catch (CheckpointStoreException e) {
                throw new AssertionError("the newest checkpoint was lost, " + where, e);
            }
        }
    }

    @Test
    void olderSegmentsThatLostFragmentsAreNotReferredToAgain() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, seed -> run(Chunking.fixed(BLOCK), seed, 12, 5, true));
    }

    @Test
    void contentDefinedChunkingToo() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, seed -> run(Chunking.contentDefined(BLOCK), seed, 12, 5, true));
    }

    @Property(tries = 40)
    void randomLossesAccumulatingOverManyCommits(@ForAll("chunkings") Chunking chunking, @ForAll long seed,
                                                 @ForAll @IntRange(min = 0, max = 40) int changePercent)
            throws Exception {
        run(chunking, seed, 30, changePercent, false);
    }

    @Provide
    Arbitrary<Chunking> chunkings() {
        return Arbitraries.of(Chunking.fixed(BLOCK), Chunking.contentDefined(BLOCK));
    }
}
