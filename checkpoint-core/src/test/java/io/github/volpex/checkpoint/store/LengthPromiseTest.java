package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentOutput;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testsupport.SearchDepth;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The store promises each repository the exact length of every fragment it writes when it knows it — a commit of a
 * byte array, full or differential, and the regeneration of a lost fragment — and promises nothing for a checkpoint
 * read from a stream, whose length it learns only at its end. The repositories underneath hold the store to its
 * promises ({@link FragmentRepository#create(String, long)}'s default), so a wrong one would fail the writes. Each
 * test runs once per seed ({@link SearchDepth#eachSeed}: more in a deeper search), on repositories of its own;
 * {@code -Dvolpex.lengthpromise.seed=<seed>} replays one.
 */
class LengthPromiseTest {

    private static final String SEED_PROPERTY = "volpex.lengthpromise.seed";

    /** An in-memory repository that records the length promised for each key it is asked to create. */
    private static final class Promises extends Stores.Forwarding {
        final Map<String, Long> promised = new ConcurrentHashMap<>();
        final List<String> unpromised = Collections.synchronizedList(new ArrayList<>());

        Promises(String id) {
            super(FragmentRepository.inMemory(id));
        }

        @Override
        public FragmentOutput create(String key) throws IOException {
            unpromised.add(key);
            return delegate.create(key);
        }

        @Override
        public FragmentOutput create(String key, long lengthBytes) throws IOException {
            promised.put(key, lengthBytes);
            return delegate.create(key, lengthBytes);
        }

        @Override
        public Optional<InputStream> open(String key) throws IOException {
            return delegate.open(key);
        }
    }

    private static List<Promises> repositories(int count) {
        List<Promises> list = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            list.add(new Promises("r" + i));
        }
        return list;
    }

    /** Every fragment of {@code index} was promised its stored length, and none was written unpromised. */
    private static void assertPromisedExactly(List<Promises> repositories, FragmentIndex index, String what)
            throws IOException {
        for (FragmentLocation location : index.fragments()) {
            Promises holder = repositories.get(Integer.parseInt(location.repositoryId().substring(1)));
            String key = index.fragmentKey(location.fragmentIndex());
            byte[] stored = holder.get(key).orElseThrow();
            assertEquals(location.lengthBytes(), stored.length, what);
            assertEquals(Long.valueOf(stored.length), holder.promised.get(key), what + ": the promise for " + key);
            assertFalse(holder.unpromised.contains(key), what + ": " + key + " written unpromised");
        }
    }

    @Test
    void commits_of_arrays_promise_every_fragment_its_length_and_streams_promise_none() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, LengthPromiseTest::arraysPromiseAndStreamsDoNotWithSeed);
    }

    private static void arraysPromiseAndStreamsDoNotWithSeed(long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        List<Promises> repositories = repositories(9);
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories)
                .segmentBytes(1000).build();
        for (int length : new int[] {0, 1, 999, 1000, 1001, 6 * 1000 + 7, 1 + random.nextInt(50_000)}) {
            byte[] data = Stores.data(random.nextLong(), length);
            String what = length + " bytes, seed " + seed;
            assertPromisedExactly(repositories, store.commit("job", data), what);
            FragmentIndex streamed = store.commit("streamed", new ByteArrayInputStream(data));
            for (FragmentLocation location : streamed.fragments()) {
                Promises holder = repositories.get(Integer.parseInt(location.repositoryId().substring(1)));
                assertFalse(holder.promised.containsKey(streamed.fragmentKey(location.fragmentIndex())), what);
            }
            assertArrayEquals(data, store.recover("streamed").orElseThrow().toByteArray(), what);
        }
        CheckpointStore replicas = CheckpointStore.ephemeral(repositories).segmentBytes(1000).build();
        byte[] data = Stores.data(random.nextLong(), 4321);
        assertPromisedExactly(repositories, replicas.commit("replicated", data), "replicas, seed " + seed);
    }

    @Test
    void differential_commits_promise_their_segments_length() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, LengthPromiseTest::differentialCommitsPromiseWithSeed);
    }

    private static void differentialCommitsPromiseWithSeed(long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        List<Promises> repositories = repositories(9);
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories)
                .segmentBytes(4096).differential(Chunking.fixed(Chunking.MIN_BLOCK_BYTES)).build();
        byte[] state = Stores.data(random.nextLong(), 40_000 + random.nextInt(40_000));
        for (int round = 0; round < 4; round++) {
            for (int change = 0; change < 5; change++) {
                state[random.nextInt(state.length)] ^= 1;
            }
            FragmentIndex index = store.commit("job", state);
            String what = "round " + round + ", seed " + seed;
            assertTrue(index.isDifferential(), what);
            assertPromisedExactly(repositories, index, what);
            assertArrayEquals(state, store.recover("job").orElseThrow().toByteArray(), what);
        }
    }

    @Test
    void a_regenerated_fragment_is_promised_its_length() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, LengthPromiseTest::aRegeneratedFragmentIsPromisedWithSeed);
    }

    private static void aRegeneratedFragmentIsPromisedWithSeed(long seed) throws IOException {
        List<Promises> repositories = repositories(10);
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories)
                .segmentBytes(1000).build();
        byte[] data = Stores.data(seed, 12_345);
        FragmentIndex index = store.commit("job", data);
        // Lose two fragments; repair regenerates them, on their holders or elsewhere.
        for (FragmentLocation location : index.fragments().subList(0, 2)) {
            repositories.get(Integer.parseInt(location.repositoryId().substring(1)))
                    .delete(index.fragmentKey(location.fragmentIndex()));
        }
        repositories.forEach(r -> r.promised.clear());
        store.repair("job");
        FragmentIndex repaired = store.recover("job").orElseThrow().index();
        int promised = repositories.stream().mapToInt(r -> r.promised.size()).sum();
        assertEquals(2, promised, "one promise per regenerated fragment");
        for (Promises repository : repositories) {
            for (Map.Entry<String, Long> promise : repository.promised.entrySet()) {
                assertEquals(repository.get(promise.getKey()).orElseThrow().length, promise.getValue(),
                        promise.getKey());
                assertTrue(repaired.fragments().stream().anyMatch(f -> f.repositoryId().equals(repository.id())
                        && repaired.fragmentKey(f.fragmentIndex()).equals(promise.getKey())), promise.getKey());
            }
        }
        assertArrayEquals(data, store.recover("job").orElseThrow().toByteArray());
    }
}
