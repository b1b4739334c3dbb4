package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testsupport.SearchDepth;
import java.io.ByteArrayInputStream;
import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A differential commit is refused before its commit point when anything a recovery must hold in one array — the
 * state, or the stored payload of new blocks and block manifest — would exceed the array bound: such a checkpoint
 * could be committed but never recovered, and its commit would delete the older ones. The bound is lowered here
 * (package-private builder setting) so that the payload outgrows it while the state does not. The randomised tests
 * run once per seed ({@link SearchDepth#eachSeed}: more in a deeper search), each seed on repositories and a store of
 * its own; {@code -Dvolpex.differential.size.seed=<seed>} replays one.
 */
class DifferentialRecoverableSizeTest {

    private static final String JOB = "job";
    private static final int BLOCK = Chunking.MIN_BLOCK_BYTES;
    private static final int BOUND = 64 * BLOCK;

    private static final String SEED_PROPERTY = "volpex.differential.size.seed";

    /** The seed of the check running now, what it draws from, and the fresh repositories and store it runs on. */
    private long seed;
    private SplittableRandom random;
    private List<FragmentRepository> repositories;
    private CheckpointStore store;

    /** Runs {@code check} once per seed that {@link SearchDepth#eachSeed} gives, on fresh repositories. */
    private void eachSeed(Check check) {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, drawn -> {
            seed = drawn;
            random = new SplittableRandom(drawn);
            repositories = Stores.inMemory(5);
            store = store(repositories, BOUND);
            check.run();
        });
    }

    /** A check that draws from {@link #random}. */
    @FunctionalInterface
    private interface Check {
        void run() throws Exception;
    }

    /** Commits a random state of {@code bytes} and returns it. */
    private byte[] committed(int bytes) throws Exception {
        byte[] state = Stores.data(random.nextLong(), bytes);
        store.commit(JOB, state);
        return state;
    }

    @Test
    void theBoundIsExactForStateAndPayload() {
        long bound = 10_000;
        Differential.requireRecoverable(bound, bound, bound);
        Differential.requireRecoverable(0, 0, bound);
        IllegalArgumentException payload = assertThrows(IllegalArgumentException.class,
                () -> Differential.requireRecoverable(bound, bound + 1, bound));
        assertTrue(payload.getMessage().contains("10001") && payload.getMessage().contains("10000"),
                payload.getMessage());
        IllegalArgumentException state = assertThrows(IllegalArgumentException.class,
                () -> Differential.requireRecoverable(bound + 1, 10, bound));
        assertTrue(state.getMessage().contains("10001") && state.getMessage().contains("10000"),
                state.getMessage());
    }

    @Test
    void aPayloadLongerThanTheBoundIsRefusedBeforeItsCommitPointFromAnArrayAndAStream() {
        eachSeed(this::aPayloadLongerThanTheBoundIsRefusedWithSeed);
    }

    private void aPayloadLongerThanTheBoundIsRefusedWithSeed() throws Exception {
        byte[] first = committed(16 * BLOCK);
        // 60 blocks, all new: the state fits the bound, its blocks and their 48-byte manifest entries do not.
        byte[] tooMany = Stores.data(random.nextLong(), 60 * BLOCK);
        List<String> before = Stores.everything(repositories);
        for (boolean stream : new boolean[] {false, true}) {
            String at = (stream ? "stream" : "array") + ", seed " + seed;
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
                if (stream) {
                    store.commit(JOB, new ByteArrayInputStream(tooMany));
                } else {
                    store.commit(JOB, tooMany);
                }
            }, at);
            assertTrue(e.getMessage().contains(String.valueOf(BOUND)), e.getMessage());
            assertEquals(new HashSet<>(before), new HashSet<>(Stores.everything(repositories)),
                    "a refused commit changed the repositories, " + at);
            assertArrayEquals(first, store.recover(JOB).orElseThrow().toByteArray(), at);
            assertArrayEquals(first, store(repositories, BOUND).recover(JOB).orElseThrow().toByteArray(),
                    "restarted, " + at);
        }
        // A state as long that refers mostly to the base's blocks stores a payload within the bound.
        byte[] fresh = Stores.data(random.nextLong(), 8 * BLOCK);
        byte[] mostlyOld = new byte[56 * BLOCK];
        for (int r = 0; r < 3; r++) {
            System.arraycopy(first, 0, mostlyOld, r * first.length, first.length);
        }
        System.arraycopy(fresh, 0, mostlyOld, 3 * first.length, fresh.length);
        FragmentIndex index = store.commit(JOB, new ByteArrayInputStream(mostlyOld));
        assertTrue(index.checkpointBytes() <= BOUND, "payload " + index.checkpointBytes());
        assertArrayEquals(mostlyOld, store.recover(JOB).orElseThrow().toByteArray(), "seed " + seed);
    }

    @Test
    void aStreamLongerThanTheBoundIsRefusedAndTheLastCheckpointKept() {
        eachSeed(this::aStreamLongerThanTheBoundIsRefusedWithSeed);
    }

    private void aStreamLongerThanTheBoundIsRefusedWithSeed() throws Exception {
        byte[] first = committed(4 * BLOCK);
        List<String> before = Stores.everything(repositories);
        // One block repeated: the payload stays small, the state is one byte too long.
        byte[] block = Stores.data(random.nextLong(), BLOCK);
        for (int length : new int[] {BOUND + 1, 3 * BOUND}) {
            byte[] tooLong = new byte[length];
            for (int at = 0; at < length; at += BLOCK) {
                System.arraycopy(block, 0, tooLong, at, Math.min(BLOCK, length - at));
            }
            String at = length + " bytes, seed " + seed;
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> store.commit(JOB, new ByteArrayInputStream(tooLong)), at);
            assertTrue(e.getMessage().contains(String.valueOf(BOUND)), e.getMessage());
            assertEquals(new HashSet<>(before), new HashSet<>(Stores.everything(repositories)), at);
            assertArrayEquals(first, store.recover(JOB).orElseThrow().toByteArray(), at);
        }
        byte[] exactly = new byte[BOUND];
        for (int at = 0; at < BOUND; at += BLOCK) {
            System.arraycopy(block, 0, exactly, at, BLOCK);
        }
        store.commit(JOB, new ByteArrayInputStream(exactly));
        assertArrayEquals(exactly, store.recover(JOB).orElseThrow().toByteArray(), "seed " + seed);
    }

    private static CheckpointStore store(List<FragmentRepository> repositories, int bound) {
        return CheckpointStore.perennial(IdaCodec.systematic(3, 2), repositories).differential(Chunking.fixed(BLOCK))
                .segmentBytes(4 * BLOCK).maxArrayBytes(bound).build();
    }
}
