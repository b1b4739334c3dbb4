package io.github.volpex.examples.tour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.store.FragmentLocation;
import io.github.volpex.erasure.IdaCodec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the tours measure what commits write: the counting repository attributes to a checkpoint exactly the bytes its
 * commit stored, a differential commit of a state that changed little writes much less than a full one (measured
 * the way the tour measures it), and the full-commit bytes the tour across processes derives are close to those a
 * full commit writes.
 */
class CommitCostsTest {

    private static final int N = StoragePool.DATA_FRAGMENTS + StoragePool.PARITY_FRAGMENTS;
    private final ExecutorService threads = Executors.newFixedThreadPool(2, Tour.daemon("test-store"));

    @AfterEach
    void stop() throws InterruptedException {
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS));
    }

    private static List<CountingRepository> repositories() {
        List<CountingRepository> repositories = new ArrayList<>();
        for (int r = 0; r < N + 2; r++) {
            repositories.add(new CountingRepository(FragmentRepository.inMemory("host-" + r)));
        }
        return repositories;
    }

    private CheckpointStore.Builder store(List<CountingRepository> repositories) {
        return CheckpointStore.perennial(IdaCodec.systematic(StoragePool.DATA_FRAGMENTS, StoragePool.PARITY_FRAGMENTS),
                repositories).executor(threads);
    }

    private static byte[] random(long seed, int length) {
        byte[] bytes = new byte[length];
        new SplittableRandom(seed).nextBytes(bytes);
        return bytes;
    }

    @Test
    void a_checkpoint_is_charged_exactly_its_fragments_and_index_copies_and_not_what_others_wrote() throws Exception {
        List<CountingRepository> repositories = repositories();
        CheckpointStore store = store(repositories).build();
        FragmentIndex first = store.commitAsync("job", random(1, 5_000)).toCompletableFuture().join();
        long charged = CountingRepository.bytesWritten(repositories, first);
        long fragments = first.fragments().stream().mapToLong(FragmentLocation::lengthBytes).sum();
        assertEquals(fragments + (long) N * first.toBytes().length, charged);
        FragmentIndex second = store.commitAsync("job", random(2, 700)).toCompletableFuture().join();
        FragmentIndex other = store.commitAsync("other-job", random(3, 900)).toCompletableFuture().join();
        assertEquals(charged, CountingRepository.bytesWritten(repositories, first), "another commit was charged");
        long all = CountingRepository.bytesWritten(repositories);
        assertEquals(all, charged + CountingRepository.bytesWritten(repositories, second)
                + CountingRepository.bytesWritten(repositories, other), "bytes written under no checkpoint's keys");
    }

    @Test
    void a_lost_fragment_regenerated_by_repair_is_charged_to_its_checkpoint_after_its_commit() throws IOException {
        List<CountingRepository> repositories = repositories();
        CheckpointStore store = store(repositories).reconstructionThreshold(N).build();
        FragmentIndex index = store.commit("job", random(4, 3_000));
        long atCommit = CountingRepository.bytesWritten(repositories, index);
        FragmentLocation lost = index.fragments().get(0);
        for (CountingRepository repository : repositories) {
            if (repository.id().equals(lost.repositoryId())) {
                assertTrue(repository.delete(index.fragmentKey(0)));
            }
        }
        assertEquals(1, store.repair("job").regenerated().size());
        assertTrue(CountingRepository.bytesWritten(repositories, index) >= atCommit + lost.lengthBytes(),
                "the repair's write was not counted under the checkpoint's keys");
    }

    @Test
    void a_differential_commit_of_a_state_that_changed_little_writes_far_less_than_a_full_one() {
        List<CountingRepository> differentialRepositories = repositories();
        List<CountingRepository> fullRepositories = repositories();
        CheckpointStore differential = store(differentialRepositories).differential(Tour.CHUNKING).build();
        CheckpointStore full = store(fullRepositories).build();
        byte[] state = random(5, 64 * 1024);
        differential.commitAsync("job", state).toCompletableFuture().join();
        full.commit("job", state);
        // Two scattered bytes change: two blocks of the 256 are new.
        state[1_000] ^= 1;
        state[40_000] ^= 1;
        FragmentIndex changed = differential.commitAsync("job", state).toCompletableFuture().join();
        FragmentIndex whole = full.commit("job", state);
        long differentialBytes = CountingRepository.bytesWritten(differentialRepositories, changed);
        long fullBytes = CountingRepository.bytesWritten(fullRepositories, whole);
        assertTrue(changed.isDifferential());
        // Two blocks and a manifest of 48 bytes per block, against the whole state: less than a third.
        assertTrue(3 * differentialBytes < fullBytes, differentialBytes + " written, a full commit " + fullBytes);
        assertEquals(state.length, differential.recover("job").orElseThrow().toByteArray().length);
    }

    @Test
    void the_derived_bytes_of_a_full_commit_are_within_five_percent_of_what_one_writes() {
        List<CountingRepository> repositories = repositories();
        CheckpointStore store = store(repositories).build();
        int[] lengths = {300, 550, 2_400, 10_000, 300_000};
        for (int i = 0; i < lengths.length; i++) {
            FragmentIndex index = store.commit("job", random(10 + i, lengths[i]));
            long measured = CountingRepository.bytesWritten(repositories, index);
            long derived = CommitCosts.fullCommitBytes(lengths[i], index.m(), index.n(), index.toBytes().length);
            assertTrue(Math.abs(derived - measured) <= 0.05 * measured,
                    lengths[i] + "-byte state: derived " + derived + ", measured " + measured);
        }
    }
}
