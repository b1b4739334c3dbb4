package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.erasure.IdaCodec;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Commits of different jobs in parallel against the same repositories stay isolated. */
class StoreConcurrencyTest {

    @Test
    void parallel_commits_of_different_jobs_stay_isolated_in_ephemeral_mode() throws Exception {
        run(CheckpointStore::ephemeral, 2);
    }

    @Test
    void parallel_commits_of_different_jobs_stay_isolated_in_perennial_mode() throws Exception {
        run(repositories -> CheckpointStore.perennial(IdaCodec.systematic(2, 2).withStripeSizeBytes(16),
                repositories), 4);
    }

    @Test
    void tasks_the_executor_rejects_run_on_the_calling_thread() throws Exception {
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            repositories.add(FragmentRepository.directory("d" + i, DirectoryRepositoryTest.freshDirectory(), false));
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        AtomicInteger submitted = new AtomicInteger();
        // A saturated pool: every other task is refused.
        Executor saturated = command -> {
            if (submitted.incrementAndGet() % 2 == 0) {
                throw new RejectedExecutionException("saturated");
            }
            pool.execute(command);
        };
        try {
            CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(2, 2).withStripeSizeBytes(16),
                    repositories).executor(saturated).random(new SplittableRandom(3)).segmentBytes(100)
                    .extraFetches(1).build();
            byte[] first = Stores.data(1, 1000);
            store.commit("job", first);
            assertArrayEquals(first, store.recover("job").orElseThrow().toByteArray());
            assertTrue(submitted.get() > 20, () -> submitted.get() + " tasks");
            // A shut-down pool refuses everything.
            pool.shutdown();
            byte[] second = Stores.data(2, 777);
            FragmentIndex index = store.commit("job", new ByteArrayInputStream(second));
            assertArrayEquals(second, store.recover("job").orElseThrow().toByteArray());
            assertEquals(RepairReport.Status.HEALTHY, store.repair("job").status());
            List<String> everything = Stores.everything(repositories);
            assertEquals(8, everything.size(), everything.toString());
            String prefix = StoreKeys.checkpointPrefix("job", index.sequence(), index.commitId());
            assertTrue(everything.stream().allMatch(o -> o.contains("/" + prefix)), everything.toString());
            for (FragmentRepository repository : repositories) {
                assertEquals(0, ((DirectoryRepository) repository).deleteTemporaryFiles(), repository.id());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void run(Function<List<FragmentRepository>, CheckpointStore.Builder> mode, int n)
            throws Exception {
        int jobs = 6;
        int commits = 8;
        List<FragmentRepository> repositories = new ArrayList<>(Stores.inMemory(4));
        repositories.add(FragmentRepository.directory("disk", DirectoryRepositoryTest.freshDirectory(), false));
        // Repository calls run on a pool of their own; jobs commit from threads of another.
        ExecutorService io = Executors.newFixedThreadPool(4);
        ExecutorService callers = Executors.newFixedThreadPool(jobs);
        try {
            CheckpointStore store = mode.apply(repositories).executor(io)
                    .random(new SplittableRandom(5)).segmentBytes(100).extraFetches(1).build();
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Map<Long, byte[]>>> results = new ArrayList<>();
            for (int j = 0; j < jobs; j++) {
                String job = "job" + j;
                int seed = j;
                results.add(callers.submit(() -> {
                    start.await();
                    Map<Long, byte[]> committed = new HashMap<>();
                    for (int c = 0; c < commits; c++) {
                        byte[] data = Stores.data(seed * 1000L + c, 50 + 37 * c + seed);
                        FragmentIndex index = store.commit(job, data);
                        committed.put(index.sequence(), data);
                        // Read back while the other jobs write.
                        assertArrayEquals(data, store.recover(job).orElseThrow().toByteArray());
                    }
                    return committed;
                }));
            }
            start.countDown();
            for (int j = 0; j < jobs; j++) {
                Map<Long, byte[]> committed = results.get(j).get();
                assertEquals(commits, committed.size());
                String job = "job" + j;
                // A store that starts afresh sees each job's last checkpoint, untouched by the others.
                RecoveredCheckpoint last = mode.apply(repositories).build().recover(job).orElseThrow();
                assertEquals(commits - 1, last.index().sequence());
                assertArrayEquals(committed.get((long) commits - 1), last.toByteArray());
            }
            // Each job keeps exactly its last checkpoint: n fragments and n index copies.
            List<String> everything = Stores.everything(repositories);
            assertEquals(jobs * 2 * n, everything.size(), everything.toString());
            for (int j = 0; j < jobs; j++) {
                String prefix = "/job" + j + "." + (commits - 1) + ".";
                assertEquals(2 * n, everything.stream().filter(o -> o.contains(prefix)).count(),
                        everything.toString());
            }
            assertTrue(everything.stream().noneMatch(o -> o.contains(".tmp")));
        } finally {
            callers.shutdownNow();
            io.shutdownNow();
        }
    }
}
