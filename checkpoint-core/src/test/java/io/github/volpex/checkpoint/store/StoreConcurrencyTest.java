package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.DirectoryRepository;
import io.github.volpex.checkpoint.repository.TestEnvironment;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
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
    void commits_recoveries_repairs_and_collections_of_one_job_in_parallel_see_whole_checkpoints() throws Exception {
        List<FragmentRepository> repositories = new ArrayList<>(Stores.inMemory(5));
        repositories.add(FragmentRepository.directory("disk", TestEnvironment.freshDirectory(), false));
        ExecutorService io = Executors.newFixedThreadPool(3);
        ExecutorService callers = Executors.newFixedThreadPool(4);
        int commits = 12;
        try {
            CheckpointStore store = CheckpointStore.perennial(IdaCodec.rabin(3, 2).withStripeSizeBytes(8), repositories)
                    .executor(io).random(new SplittableRandom(11)).segmentBytes(64).extraFetches(1).build();
            // Checkpoint c of the job gets sequence number c, so its bytes are known from the number alone.
            Function<Long, byte[]> bytesOf = sequence -> Stores.data(100 + sequence, 40 + 29 * sequence.intValue());
            store.commit("shared", bytesOf.apply(0L));
            AtomicBoolean done = new AtomicBoolean();
            List<Future<Integer>> workers = new ArrayList<>();
            workers.add(callers.submit(() -> {
                for (long c = 1; c < commits; c++) {
                    assertEquals(c, store.commit("shared", bytesOf.apply(c)).sequence());
                }
                done.set(true);
                return commits - 1;
            }));
            workers.add(callers.submit(() -> {
                int seen = 0;
                while (!done.get()) {
                    RecoveredCheckpoint recovered = store.recover("shared").orElseThrow();
                    assertArrayEquals(bytesOf.apply(recovered.index().sequence()), recovered.toByteArray());
                    seen++;
                }
                return seen;
            }));
            workers.add(callers.submit(() -> {
                int repairs = 0;
                while (!done.get()) {
                    RepairReport report = store.repair("shared");
                    assertEquals(RepairReport.Status.HEALTHY, report.status(), report.toString());
                    repairs++;
                }
                return repairs;
            }));
            workers.add(callers.submit(() -> {
                int rounds = 0;
                while (!done.get()) {
                    FragmentIndex latest = store.latestIndex("shared").orElseThrow();
                    // Reading a checkpoint by its index is not locked: a commit may delete it meanwhile.
                    try {
                        assertArrayEquals(bytesOf.apply(latest.sequence()), store.recover(latest).toByteArray());
                    } catch (CheckpointUnavailableException replaced) {
                        assertTrue(store.latestIndex("shared").orElseThrow().sequence() > latest.sequence());
                    }
                    store.renewLease("shared", Duration.ofDays(1));
                    store.collectGarbage("shared");
                    rounds++;
                }
                return rounds;
            }));
            for (Future<Integer> worker : workers) {
                assertTrue(worker.get() >= 0);
            }
            RecoveredCheckpoint last = mode(repositories).recover("shared").orElseThrow();
            assertEquals(commits - 1, last.index().sequence());
            assertArrayEquals(bytesOf.apply((long) commits - 1), last.toByteArray());
            List<String> everything = Stores.everything(repositories);
            // A fragment, an index copy and a commit marker on each of the five holders, a marker on the sixth.
            assertEquals(16, everything.size(), everything.toString());
            String prefix = StoreKeys.checkpointPrefix("shared", last.index().checkpointId());
            assertTrue(everything.stream().allMatch(o -> o.contains("/" + prefix)), everything.toString());
        } finally {
            callers.shutdownNow();
            io.shutdownNow();
        }
    }

    private static CheckpointStore mode(List<FragmentRepository> repositories) {
        return CheckpointStore.perennial(IdaCodec.rabin(3, 2).withStripeSizeBytes(8), repositories).build();
    }

    @Test
    void tasks_the_executor_rejects_run_on_the_calling_thread() throws Exception {
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            repositories.add(FragmentRepository.directory("d" + i, TestEnvironment.freshDirectory(), false));
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
            assertEquals(13, everything.size(), everything.toString());
            String prefix = StoreKeys.checkpointPrefix("job", index.checkpointId());
            assertTrue(everything.stream().allMatch(o -> o.contains("/" + prefix)), everything.toString());
            for (FragmentRepository repository : repositories) {
                Path directory = ((DirectoryRepository) repository).directory();
                try (Stream<Path> files = Files.list(directory)) {
                    assertTrue(files.noneMatch(f -> f.getFileName().toString().endsWith(".tmp")), repository.id());
                }
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
        repositories.add(FragmentRepository.directory("disk", TestEnvironment.freshDirectory(), false));
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
            List<String> prefixes = new ArrayList<>();
            for (int j = 0; j < jobs; j++) {
                Map<Long, byte[]> committed = results.get(j).get();
                assertEquals(commits, committed.size());
                String job = "job" + j;
                // A store that starts afresh sees each job's last checkpoint, untouched by the others.
                RecoveredCheckpoint last = mode.apply(repositories).build().recover(job).orElseThrow();
                assertEquals(commits - 1, last.index().sequence());
                assertArrayEquals(committed.get((long) commits - 1), last.toByteArray());
                prefixes.add("/" + StoreKeys.checkpointPrefix(job, last.index().checkpointId()));
            }
            // Each job keeps exactly its last checkpoint: n fragments and n index copies, and a commit marker on each
            // of the five repositories.
            List<String> everything = Stores.everything(repositories);
            assertEquals(jobs * (2 * n + 5), everything.size(), everything.toString());
            for (String prefix : prefixes) {
                assertEquals(2 * n + 5, everything.stream().filter(o -> o.contains(prefix)).count(),
                        everything.toString());
            }
            assertTrue(everything.stream().noneMatch(o -> o.contains(".tmp")));
        } finally {
            callers.shutdownNow();
            io.shutdownNow();
        }
    }
}
