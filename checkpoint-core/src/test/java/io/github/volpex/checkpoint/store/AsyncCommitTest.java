package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.repository.RepositoryUnavailableException;
import io.github.volpex.erasure.IdaCodec;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Asynchronous commits: the snapshot, the stage completing at durability in commit order, supersession, synchronous
 * commits interleaved with asynchronous ones, close with persists that do not finish (never hanging, abandoning with
 * the facts), the store called from its own executor's threads and from the stages' dependent actions, and errors.
 * Repositories that hold their calls at a gate let the test act while a persist is stopped at a chosen step.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AsyncCommitTest {

    private static final String JOB = "job";
    private final List<ExecutorService> pools = new ArrayList<>();

    @AfterEach
    void stopPools() throws InterruptedException {
        for (ExecutorService pool : pools) {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "a pool thread is still running");
        }
    }

    private ExecutorService pool(int threads) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        pools.add(pool);
        return pool;
    }

    /** A repository that holds the calls whose key {@link #gated} matches until {@link #release()}. */
    static final class Gated extends Stores.Forwarding {
        volatile Predicate<String> gated = key -> false;
        /** A permit per call that arrived at the closed gate. */
        final Semaphore arrived = new Semaphore(0);
        private volatile CountDownLatch gate = new CountDownLatch(1);

        Gated(FragmentRepository delegate) {
            super(delegate);
        }

        static List<Gated> inMemory(int count) {
            List<Gated> all = new ArrayList<>();
            for (FragmentRepository repository : Stores.inMemory(count)) {
                all.add(new Gated(repository));
            }
            return all;
        }

        void close(Predicate<String> keys) {
            gate = new CountDownLatch(1);
            gated = keys;
        }

        void release() {
            gated = key -> false;
            gate.countDown();
        }

        private void pass(String key) throws IOException {
            if (gated.test(key)) {
                arrived.release();
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RepositoryUnavailableException(id(), "interrupted at the gate", e);
                }
            }
        }

        @Override
        public void put(String key, byte[] content) throws IOException {
            pass(key);
            super.put(key, content);
        }
    }

    private static void awaitArrival(List<Gated> repositories) throws InterruptedException {
        while (true) {
            for (Gated repository : repositories) {
                if (repository.arrived.tryAcquire(10, TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        }
    }

    private static <T> Throwable failureOf(CompletionStage<T> stage) {
        try {
            stage.toCompletableFuture().join();
        } catch (CompletionException e) {
            return e.getCause();
        }
        throw new AssertionError("the stage completed normally");
    }

    private static byte[] recovered(CheckpointStore store) {
        return store.recover(JOB).orElseThrow().toByteArray();
    }

    @Test
    void the_stage_completes_once_the_checkpoint_is_durable_and_the_snapshot_is_a_copy() throws Exception {
        List<Gated> repositories = Gated.inMemory(5);
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(2, 2).withStripeSizeBytes(16),
                repositories).executor(pool(2)).segmentBytes(64).build();
        byte[] state = Stores.data(1, 300);
        byte[] original = state.clone();
        repositories.forEach(r -> r.close(key -> key.endsWith(".ok")));
        CompletionStage<FragmentIndex> stage = store.commitAsync(JOB, state);
        // The job goes on changing its state: the snapshot must not see it.
        java.util.Arrays.fill(state, (byte) 7);
        awaitArrival(repositories);
        assertFalse(stage.toCompletableFuture().isDone(), "completed before any commit marker was stored");
        repositories.forEach(Gated::release);
        FragmentIndex index = stage.toCompletableFuture().join();
        assertArrayEquals(original, recovered(store));
        assertEquals(index, store.recover(JOB).orElseThrow().index());
        // What the commit left (markers elsewhere, deleting the older) runs before the next operation's own work.
        byte[] next = Stores.data(2, 100);
        FragmentIndex second = store.commitAsync(JOB, next).toCompletableFuture().join();
        assertEquals(1, store.checkpoints(JOB).size(), "the older checkpoint was not collected");
        assertEquals(second, store.latestIndex(JOB).orElseThrow());
    }

    @Test
    void the_array_of_a_persisted_snapshot_takes_the_next_snapshot_of_the_same_length_and_close_drops_it() {
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(2, 2).withStripeSizeBytes(16),
                Stores.inMemory(5)).executor(pool(2)).segmentBytes(64).build();
        store.commitAsync(JOB, Stores.data(1, 300)).toCompletableFuture().join();
        byte[] kept = store.job(JOB).takeSpare();
        assertArrayEquals(Stores.data(1, 300), kept, "the persisted snapshot is the spare");
        assertNull(store.job(JOB).takeSpare(), "taking the spare leaves none");
        store.job(JOB).offerSpare(kept);
        store.commitAsync(JOB, Stores.data(2, 300)).toCompletableFuture().join();
        assertArrayEquals(Stores.data(2, 300), recovered(store));
        byte[] again = store.job(JOB).takeSpare();
        assertSame(kept, again, "the second snapshot was not copied into the spare");
        assertArrayEquals(Stores.data(2, 300), again);
        store.job(JOB).offerSpare(again);
        // Another length: the spare is dropped and the new snapshot is a new array, kept in its turn.
        store.commitAsync(JOB, Stores.data(3, 200)).toCompletableFuture().join();
        byte[] other = store.job(JOB).takeSpare();
        assertArrayEquals(Stores.data(3, 200), other);
        store.job(JOB).offerSpare(other);
        // A synchronous commit's array is the caller's: never kept.
        store.job(JOB).takeSpare();
        store.commit(JOB, Stores.data(4, 200));
        assertNull(store.job(JOB).takeSpare(), "kept the caller's array of a synchronous commit");
        store.commitAsync(JOB, Stores.data(5, 200)).toCompletableFuture().join();
        assertTrue(store.close(Duration.ofMinutes(1)).isEmpty());
        assertNull(store.job(JOB).takeSpare(), "close kept the spare");
        assertArrayEquals(Stores.data(5, 200), recovered(store));
    }

    /**
     * The race the memory bound must survive: a persist ends while a caller copies its snapshot, so the ended
     * persist's array is offered after the caller found no spare, and the caller's commit then waits behind the one
     * that ran next. Keeping that array too would make three snapshot arrays for the job.
     */
    @Test
    void a_persist_ending_while_a_snapshot_is_taken_leaves_no_third_array() throws Exception {
        java.util.Map<Long, CountDownLatch> markerGates = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.function.LongFunction<CountDownLatch> gate =
                sequence -> markerGates.computeIfAbsent(sequence, s -> new CountDownLatch(1));
        java.util.concurrent.BlockingQueue<Long> atMarkers = new java.util.concurrent.LinkedBlockingQueue<>();
        List<FragmentRepository> repositories = new ArrayList<>();
        for (FragmentRepository repository : Stores.inMemory(5)) {
            repositories.add(new Stores.Forwarding(repository) {
                @Override
                public void put(String key, byte[] content) throws IOException {
                    StoreKeys.Parsed parsed = StoreKeys.parse(key);
                    if (parsed != null && parsed.kind() == StoreKeys.Kind.MARKER) {
                        atMarkers.add(parsed.id().sequence());
                        try {
                            gate.apply(parsed.id().sequence()).await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IOException(e);
                        }
                    }
                    super.put(key, content);
                }
            });
        }
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(2, 2).withStripeSizeBytes(16),
                repositories).executor(pool(4)).segmentBytes(64).build();
        Job job = store.job(JOB);
        CompletionStage<FragmentIndex> first = store.commitAsync(JOB, Stores.data(1, 300));
        Persists.Persist firstPersist = job.commits.running();
        Long firstSequence = atMarkers.poll(1, TimeUnit.MINUTES);
        try {
            assertTrue(firstSequence != null, "the first commit never reached its markers");
            CompletionStage<FragmentIndex> second = store.commitAsync(JOB, Stores.data(2, 300));
            CompletionStage<FragmentIndex> third = store.persists().commitAsync(JOB, Stores.data(3, 300),
                    (checkpoint, spare) -> {
                        assertNull(spare, "a spare while the first persist runs");
                        // The running persist ends while this snapshot is taken; the second one then runs and stays
                        // at its markers, whose gate is not open.
                        gate.apply(firstSequence).countDown();
                        try {
                            first.toCompletableFuture().get(1, TimeUnit.MINUTES);
                        } catch (Exception e) {
                            throw new AssertionError("the first commit did not end", e);
                        }
                        while (job.commits.running() == firstPersist) {
                            Thread.onSpinWait();
                        }
                        return checkpoint.clone();
                    });
            assertEquals(1, job.commits.waiting().size(), "the third commit does not wait");
            assertNull(job.takeSpare(), "the job kept a spare beside a running and a waiting snapshot");
            for (long s = firstSequence; s < firstSequence + 3; s++) {
                gate.apply(s).countDown();
            }
            second.toCompletableFuture().get(1, TimeUnit.MINUTES);
            third.toCompletableFuture().get(1, TimeUnit.MINUTES);
            assertArrayEquals(Stores.data(3, 300), recovered(store));
            assertTrue(store.close(Duration.ofMinutes(1)).isEmpty());
        } finally {
            // Whatever failed, no persist stays at a closed gate.
            long from = firstSequence == null ? 0 : firstSequence;
            for (long s = from; s < from + 3; s++) {
                gate.apply(s).countDown();
            }
            markerGates.values().forEach(CountDownLatch::countDown);
        }
    }

    /** Deleting a job while its persist runs leaves none of the job's bytes kept for a next snapshot. */
    @Test
    void deleting_a_job_while_its_persist_runs_keeps_no_spare() throws Exception {
        List<Gated> repositories = Gated.inMemory(5);
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(2, 2).withStripeSizeBytes(16),
                repositories).executor(pool(2)).segmentBytes(64).build();
        repositories.forEach(r -> r.close(key -> key.endsWith(".ok")));
        CompletionStage<FragmentIndex> stage = store.commitAsync(JOB, Stores.data(1, 300));
        awaitArrival(repositories);
        CompletableFuture<Integer> deletion = CompletableFuture.supplyAsync(() -> store.deleteJob(JOB, true),
                pool(1));
        // The deletion waits for the job, which the persist holds until its markers are stored.
        Thread.sleep(50);
        assertFalse(deletion.isDone(), "the deletion did not wait for the persist");
        repositories.forEach(Gated::release);
        stage.toCompletableFuture().get(1, TimeUnit.MINUTES);
        assertTrue(deletion.get(1, TimeUnit.MINUTES) > 0, "the deletion deleted nothing");
        assertNull(store.job(JOB).takeSpare(), "the deleted job's snapshot is still kept");
        assertEquals(List.of(), store.checkpoints(JOB));
    }

    /** A persist that ends after close returned must not leave its array kept by the closed store. */
    @Test
    void a_persist_that_ends_after_close_keeps_no_spare() throws Exception {
        List<Gated> repositories = Gated.inMemory(5);
        ExecutorService persisting = pool(2);
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(2, 2).withStripeSizeBytes(16),
                repositories).executor(persisting).segmentBytes(64).build();
        repositories.forEach(r -> r.close(key -> key.endsWith(".ok")));
        store.commitAsync(JOB, Stores.data(1, 300));
        awaitArrival(repositories);
        assertEquals(1, store.close(Duration.ofMillis(50)).size());
        repositories.forEach(Gated::release);
        persisting.shutdown();
        assertTrue(persisting.awaitTermination(1, TimeUnit.MINUTES));
        assertNull(store.job(JOB).takeSpare(), "a persist that ended after close kept its array");
    }

    @Test
    void a_newer_commit_supersedes_the_waiting_one_and_stages_complete_in_commit_order() throws Exception {
        List<Gated> repositories = Gated.inMemory(4);
        CheckpointStore store = CheckpointStore.ephemeral(repositories).executor(pool(3)).build();
        repositories.forEach(r -> r.close(key -> true));
        List<Boolean> firstDoneFirst = Collections.synchronizedList(new ArrayList<>());
        CompletionStage<FragmentIndex> first = store.commitAsync(JOB, Stores.data(1, 50));
        awaitArrival(repositories);
        CompletionStage<FragmentIndex> second = store.commitAsync(JOB, Stores.data(2, 50));
        CompletionStage<FragmentIndex> third = store.commitAsync(JOB, Stores.data(3, 50));
        CompletionStage<FragmentIndex> fourth = store.commitAsync(JOB, Stores.data(4, 50));
        fourth.thenRun(() -> firstDoneFirst.add(first.toCompletableFuture().isDone()));
        assertInstanceOf(CommitSupersededException.class, failureOf(second));
        assertInstanceOf(CommitSupersededException.class, failureOf(third));
        assertFalse(first.toCompletableFuture().isDone());
        repositories.forEach(Gated::release);
        FragmentIndex last = fourth.toCompletableFuture().join();
        FragmentIndex before = first.toCompletableFuture().join();
        assertTrue(before.sequence() < last.sequence());
        assertEquals(before.sequence() + 1, last.sequence(), "a superseded commit took a sequence number");
        assertArrayEquals(Stores.data(4, 50), recovered(store));
        assertEquals(List.of(true), firstDoneFirst, "the later commit's stage completed before the earlier one's");
    }

    @Test
    void a_synchronous_commit_waits_for_the_persist_and_supersedes_the_waiting_one() throws Exception {
        List<Gated> repositories = Gated.inMemory(4);
        CheckpointStore store = CheckpointStore.ephemeral(repositories).executor(pool(2)).build();
        ExecutorService caller = pool(1);
        repositories.forEach(r -> r.close(key -> key.endsWith(".ok")));
        CompletionStage<FragmentIndex> running = store.commitAsync(JOB, Stores.data(1, 40));
        awaitArrival(repositories);
        CompletionStage<FragmentIndex> waiting = store.commitAsync(JOB, Stores.data(2, 40));
        CompletableFuture<FragmentIndex> sync = CompletableFuture.supplyAsync(
                () -> store.commit(JOB, Stores.data(3, 40)), caller);
        assertInstanceOf(CommitSupersededException.class, failureOf(waiting));
        assertFalse(sync.isDone());
        repositories.forEach(Gated::release);
        FragmentIndex synchronous = sync.join();
        assertTrue(running.toCompletableFuture().isDone(), "the synchronous commit returned before the earlier "
                + "asynchronous one's stage completed");
        assertTrue(running.toCompletableFuture().join().sequence() < synchronous.sequence());
        assertArrayEquals(Stores.data(3, 40), recovered(store));
    }

    @Test
    void close_abandons_what_does_not_finish_in_time_and_the_previous_checkpoint_stays() throws Exception {
        List<Gated> repositories = Gated.inMemory(5);
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(2, 2).withStripeSizeBytes(16),
                repositories).executor(pool(2)).segmentBytes(32).build();
        byte[] previous = Stores.data(9, 120);
        store.commit(JOB, previous);
        // The next persist is held while writing its index copies, before its commit point.
        repositories.forEach(r -> r.close(key -> key.endsWith(".idx")));
        CompletionStage<FragmentIndex> running = store.commitAsync(JOB, Stores.data(10, 120));
        awaitArrival(repositories);
        CompletionStage<FragmentIndex> waiting = store.commitAsync(JOB, Stores.data(11, 120));
        List<AbandonedCommit> abandoned = store.close(Duration.ofMillis(50));
        assertEquals(2, abandoned.size(), abandoned.toString());
        CommitAbandonedException inFlight = assertInstanceOf(CommitAbandonedException.class, failureOf(running));
        CommitAbandonedException queued = assertInstanceOf(CommitAbandonedException.class, failureOf(waiting));
        assertTrue(inFlight.started());
        assertFalse(inFlight.reachedCommitPoint());
        assertEquals(1, inFlight.sequence());
        assertFalse(queued.started());
        assertTrue(abandoned.contains(new AbandonedCommit(JOB, 1, true, false)), abandoned.toString());
        assertTrue(abandoned.contains(new AbandonedCommit(JOB, -1, false, false)), abandoned.toString());
        assertThrows(IllegalStateException.class, () -> store.commitAsync(JOB, new byte[1]));
        assertThrows(IllegalStateException.class, () -> store.commit(JOB, new byte[1]));
        // The held persist stops at its next step: it never reaches its commit point.
        repositories.forEach(Gated::release);
        pools.get(0).shutdown();
        assertTrue(pools.get(0).awaitTermination(30, TimeUnit.SECONDS));
        assertArrayEquals(previous, recovered(store), "a closed store still recovers; the abandoned commit never "
                + "counts");
        assertTrue(store.close(Duration.ZERO).isEmpty(), "closing twice abandons nothing more");
    }

    @Test
    void close_says_when_an_abandoned_commit_may_have_reached_its_commit_point() throws Exception {
        List<Gated> repositories = Gated.inMemory(4);
        CheckpointStore store = CheckpointStore.ephemeral(repositories).executor(pool(2)).build();
        repositories.forEach(r -> r.close(key -> key.endsWith(".ok")));
        CompletionStage<FragmentIndex> running = store.commitAsync(JOB, Stores.data(5, 64));
        awaitArrival(repositories);
        List<AbandonedCommit> abandoned = store.close(Duration.ZERO);
        assertEquals(List.of(new AbandonedCommit(JOB, 0, true, true)), abandoned);
        assertTrue(assertInstanceOf(CommitAbandonedException.class, failureOf(running)).reachedCommitPoint());
        repositories.forEach(Gated::release);
        pools.get(0).shutdown();
        assertTrue(pools.get(0).awaitTermination(30, TimeUnit.SECONDS));
        // It went on writing its markers: it counts in full.
        assertArrayEquals(Stores.data(5, 64), recovered(store));
    }

    @Test
    void an_interrupted_close_abandons_at_once_and_keeps_the_interrupt() throws Exception {
        List<Gated> repositories = Gated.inMemory(3);
        CheckpointStore store = CheckpointStore.ephemeral(repositories).executor(pool(2)).build();
        repositories.forEach(r -> r.close(key -> true));
        CompletionStage<FragmentIndex> running = store.commitAsync(JOB, Stores.data(1, 40));
        awaitArrival(repositories);
        Thread.currentThread().interrupt();
        List<AbandonedCommit> abandoned;
        try {
            abandoned = store.close(Duration.ofDays(1));
        } finally {
            assertTrue(Thread.interrupted(), "close cleared the interrupt status");
        }
        assertEquals(List.of(new AbandonedCommit(JOB, 0, true, false)), abandoned);
        assertInstanceOf(CommitAbandonedException.class, failureOf(running));
        repositories.forEach(Gated::release);
    }

    @Test
    void a_persist_the_executor_rejects_runs_on_the_calling_thread() {
        ExecutorService shutDown = pool(1);
        shutDown.shutdown();
        CheckpointStore store = CheckpointStore.ephemeral(Stores.inMemory(3)).executor(shutDown).build();
        CompletionStage<FragmentIndex> stage = store.commitAsync(JOB, Stores.data(3, 70));
        assertTrue(stage.toCompletableFuture().isDone(), "a rejected persist was dropped");
        assertEquals(0, stage.toCompletableFuture().join().sequence());
        assertArrayEquals(Stores.data(3, 70), recovered(store));
    }

    @Test
    void a_dependent_action_that_closes_the_store_does_not_wait_for_its_own_commit() throws Exception {
        CheckpointStore store = CheckpointStore.ephemeral(Stores.inMemory(3)).executor(pool(1)).build();
        List<AbandonedCommit> abandoned = store.commitAsync(JOB, Stores.data(1, 30))
                .thenApply(index -> store.close(Duration.ofDays(1))).toCompletableFuture().get(60, TimeUnit.SECONDS);
        assertEquals(List.of(), abandoned);
        assertArrayEquals(Stores.data(1, 30), recovered(store));
    }

    @Test
    void close_waits_for_persists_that_finish_in_time() {
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.rabin(2, 1).withStripeSizeBytes(8),
                Stores.inMemory(4)).executor(pool(1)).closeTimeout(Duration.ofMinutes(1)).build();
        List<CompletionStage<FragmentIndex>> stages = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            stages.add(store.commitAsync("job-" + i, Stores.data(i, 500)));
        }
        store.close();
        for (int i = 0; i < 5; i++) {
            assertTrue(stages.get(i).toCompletableFuture().isDone());
            assertArrayEquals(Stores.data(i, 500), store.recover("job-" + i).orElseThrow().toByteArray());
        }
    }

    @Test
    void a_pool_of_one_thread_persists_many_jobs_whose_commits_wait_for_parallel_repository_calls() {
        // The persist runs on the pool's only thread and waits for repository calls queued behind it: it runs them.
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(3, 2).withStripeSizeBytes(8),
                Stores.inMemory(6)).executor(pool(1)).segmentBytes(16).extraFetches(1).build();
        List<CompletionStage<FragmentIndex>> stages = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int job = 0; job < 4; job++) {
                stages.add(store.commitAsync("job-" + job, Stores.data(10L * round + job, 90 + job)));
            }
        }
        CompletableFuture.allOf(stages.stream().map(CompletionStage::toCompletableFuture)
                .map(f -> f.exceptionally(e -> null)).toArray(CompletableFuture[]::new)).join();
        for (int job = 0; job < 4; job++) {
            assertArrayEquals(Stores.data(20 + job, 90 + job), store.recover("job-" + job).orElseThrow()
                    .toByteArray());
        }
    }

    @Test
    void the_stages_dependent_actions_may_call_the_store_a_synchronous_commit_of_the_job_included() {
        CheckpointStore store = CheckpointStore.ephemeral(Stores.inMemory(3)).executor(pool(1)).build();
        CompletableFuture<FragmentIndex> chained = store.commitAsync(JOB, Stores.data(1, 30))
                .thenApply(first -> store.commit(JOB, Stores.data(2, 30)))
                .toCompletableFuture();
        FragmentIndex second = chained.join();
        assertEquals(1, second.sequence());
        assertArrayEquals(Stores.data(2, 30), recovered(store));
    }

    @Test
    void with_the_default_executor_a_dependent_action_commits_again_inline() {
        CheckpointStore store = CheckpointStore.ephemeral(Stores.inMemory(3)).build();
        List<Long> sequences = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<FragmentIndex> chained = store.commitAsync(JOB, Stores.data(1, 30))
                .thenCompose(first -> {
                    sequences.add(first.sequence());
                    return store.commitAsync(JOB, Stores.data(2, 30));
                })
                .toCompletableFuture();
        assertTrue(chained.isDone(), "the inline executor left the second commit pending");
        assertEquals(1, chained.join().sequence());
        assertEquals(List.of(0L), sequences);
        assertArrayEquals(Stores.data(2, 30), recovered(store));
    }

    @Test
    void with_the_default_executor_the_commit_is_done_when_commit_async_returns() {
        CheckpointStore store = CheckpointStore.ephemeral(Stores.inMemory(2)).build();
        CompletionStage<FragmentIndex> stage = store.commitAsync(JOB, Stores.data(3, 10));
        assertTrue(stage.toCompletableFuture().isDone());
        assertArrayEquals(Stores.data(3, 10), recovered(store));
    }

    @Test
    void completing_the_returned_stage_does_not_touch_the_commit() throws Exception {
        List<Gated> repositories = Gated.inMemory(2);
        CheckpointStore store = CheckpointStore.ephemeral(repositories).executor(pool(2)).build();
        repositories.forEach(r -> r.close(key -> true));
        CompletionStage<FragmentIndex> stage = store.commitAsync(JOB, Stores.data(4, 10));
        awaitArrival(repositories);
        stage.toCompletableFuture().cancel(true);
        repositories.forEach(Gated::release);
        store.close(Duration.ofMinutes(1));
        assertArrayEquals(Stores.data(4, 10), recovered(store));
    }

    @Test
    void failures_and_errors_fail_the_stage_and_the_next_commit_still_runs() throws Exception {
        List<Stores.Switchable> repositories = Stores.Switchable.inMemory(3);
        CheckpointStore store = CheckpointStore.ephemeral(repositories).executor(pool(2)).build();
        store.commit(JOB, Stores.data(1, 20));
        repositories.forEach(r -> r.reachable = false);
        Throwable failure = failureOf(store.commitAsync(JOB, Stores.data(2, 20)));
        assertInstanceOf(CommitFailedException.class, failure);
        repositories.forEach(r -> r.reachable = true);
        assertArrayEquals(Stores.data(1, 20), recovered(store));

        List<FragmentRepository> broken = new ArrayList<>();
        for (FragmentRepository repository : Stores.inMemory(3)) {
            broken.add(new Stores.Switchable(repository) {
                @Override
                public void put(String key, byte[] content) throws IOException {
                    if (key.startsWith(JOB + ".0000000000000000.0000000000000000.") && key.endsWith(".ok")) {
                        throw new StackOverflowError("the process is broken");
                    }
                    super.put(key, content);
                }
            });
        }
        CheckpointStore fragile = CheckpointStore.ephemeral(broken).executor(pool(2)).build();
        CompletionStage<FragmentIndex> dies = fragile.commitAsync(JOB, Stores.data(3, 20));
        CompletionStage<FragmentIndex> next = fragile.commitAsync(JOB, Stores.data(4, 20));
        assertInstanceOf(StackOverflowError.class, failureOf(dies));
        assertEquals(1, next.toCompletableFuture().join().sequence());
    }

    @Test
    void bad_arguments_are_refused_before_anything_is_queued() {
        CheckpointStore store = CheckpointStore.ephemeral(Stores.inMemory(2)).build();
        assertThrows(NullPointerException.class, () -> store.commitAsync(JOB, (byte[]) null));
        assertThrows(NullPointerException.class, () -> store.commitAsync(null, new byte[1]));
        assertThrows(IllegalArgumentException.class, () -> store.commitAsync("no.dots", new byte[1]));
        assertThrows(IllegalArgumentException.class, () -> store.close(Duration.ofSeconds(-1)));
        assertThrows(NullPointerException.class, () -> store.close(null));
        assertThrows(IllegalArgumentException.class, () -> CheckpointStore.ephemeral(Stores.inMemory(2))
                .closeTimeout(Duration.ofMillis(-1)));
        assertTrue(store.recover(JOB).isEmpty());
    }

    @Test
    void a_process_checkpoint_commits_in_the_background_and_recover_process_gives_back_state_and_request_number()
            throws Exception {
        List<Gated> repositories = Gated.inMemory(5);
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(2, 2).withStripeSizeBytes(16),
                repositories).executor(pool(2)).segmentBytes(64).build();
        byte[] state = Stores.data(21, 200);
        byte[] original = state.clone();
        ProcessCheckpoint first = ProcessCheckpoint.of(41, state);
        java.util.Arrays.fill(state, (byte) 3);
        repositories.forEach(r -> r.close(key -> key.endsWith(".ok")));
        CompletionStage<FragmentIndex> running = store.commitAsync(JOB, first);
        awaitArrival(repositories);
        assertFalse(running.toCompletableFuture().isDone(), "completed before any commit marker was stored");
        CompletionStage<FragmentIndex> waiting = store.commitAsync(JOB, ProcessCheckpoint.of(42, Stores.data(22, 200)));
        CompletionStage<FragmentIndex> newest = store.commitAsync(JOB, ProcessCheckpoint.of(43, Stores.data(23, 90)));
        assertInstanceOf(CommitSupersededException.class, failureOf(waiting));
        repositories.forEach(Gated::release);
        FragmentIndex firstIndex = running.toCompletableFuture().join();
        assertEquals(ProcessCheckpoint.HEADER_BYTES + 200, firstIndex.checkpointBytes());
        FragmentIndex last = newest.toCompletableFuture().join();
        assertEquals(firstIndex.sequence() + 1, last.sequence(), "the superseded commit took a sequence number");
        ProcessCheckpoint recovered = store.recoverProcess(JOB).orElseThrow();
        assertEquals(43, recovered.requestNumber());
        assertArrayEquals(Stores.data(23, 90), recovered.state());
        // The first one committed what the caller handed over, whatever happened to the array it came from.
        assertEquals(Sha256.of(ProcessCheckpoint.of(41, original).toBytes()), firstIndex.checkpointSha256());
    }

    @Test
    void process_checkpoints_committed_in_the_background_to_a_differential_store_write_only_what_changed() {
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(2, 1), Stores.inMemory(3))
                .executor(pool(2)).differential(Chunking.fixed(Chunking.MIN_BLOCK_BYTES)).build();
        byte[] state = Stores.data(31, 64 * Chunking.MIN_BLOCK_BYTES);
        FragmentIndex full = store.commitAsync(JOB, ProcessCheckpoint.of(1, state)).toCompletableFuture().join();
        state[state.length - 1] ^= 1;
        FragmentIndex changed = store.commitAsync(JOB, ProcessCheckpoint.of(2, state)).toCompletableFuture().join();
        assertTrue(changed.isDifferential());
        // The header (first block, with the request number) and the last block changed: two blocks and a manifest.
        assertTrue(changed.checkpointBytes() < full.checkpointBytes() / 4, changed + " after " + full);
        ProcessCheckpoint recovered = store.recoverProcess(JOB).orElseThrow();
        assertEquals(2, recovered.requestNumber());
        assertArrayEquals(state, recovered.state());
    }

    @Test
    void a_process_checkpoint_is_refused_before_anything_is_queued_when_an_argument_is_bad_or_the_store_closed() {
        CheckpointStore store = CheckpointStore.ephemeral(Stores.inMemory(2)).build();
        ProcessCheckpoint checkpoint = ProcessCheckpoint.of(0, new byte[1]);
        assertThrows(NullPointerException.class, () -> store.commitAsync(JOB, (ProcessCheckpoint) null));
        assertThrows(NullPointerException.class, () -> store.commitAsync(null, checkpoint));
        assertThrows(IllegalArgumentException.class, () -> store.commitAsync("no.dots", checkpoint));
        assertTrue(store.recover(JOB).isEmpty(), "a refused commit wrote something");
        assertTrue(store.close(Duration.ZERO).isEmpty(), "a refused commit was queued");
        assertThrows(IllegalStateException.class, () -> store.commitAsync(JOB, checkpoint));
        assertTrue(store.recover(JOB).isEmpty());
    }

    @Test
    void many_threads_committing_one_job_see_every_stage_decided_and_the_newest_recovered() throws Exception {
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(2, 1).withStripeSizeBytes(8),
                Stores.inMemory(4)).executor(pool(2)).segmentBytes(16).random(new SplittableRandom(3)).build();
        ExecutorService callers = pool(4);
        java.util.Map<Sha256, byte[]> attempted = new java.util.concurrent.ConcurrentHashMap<>();
        List<CompletableFuture<List<CompletionStage<FragmentIndex>>>> work = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int thread = t;
            work.add(CompletableFuture.supplyAsync(() -> {
                List<CompletionStage<FragmentIndex>> mine = new ArrayList<>();
                for (int i = 0; i < 15; i++) {
                    byte[] data = Stores.data(100L * thread + i, 40 + i);
                    attempted.put(Sha256.of(data), data);
                    if (i % 5 == 4) {
                        store.commit(JOB, data);
                    } else {
                        mine.add(store.commitAsync(JOB, data));
                    }
                }
                return mine;
            }, callers));
        }
        long highest = -1;
        for (CompletableFuture<List<CompletionStage<FragmentIndex>>> w : work) {
            for (CompletionStage<FragmentIndex> stage : w.join()) {
                try {
                    highest = Math.max(highest, stage.toCompletableFuture().join().sequence());
                } catch (CompletionException e) {
                    assertInstanceOf(CommitSupersededException.class, e.getCause());
                }
            }
        }
        assertTrue(store.close(Duration.ofMinutes(1)).isEmpty());
        FragmentIndex newest = store.latestIndex(JOB).orElseThrow();
        assertTrue(newest.sequence() >= highest, newest + " is older than a completed stage's " + highest);
        assertEquals(1, store.checkpoints(JOB).size());
        RecoveredCheckpoint checkpoint = store.recover(JOB).orElseThrow();
        byte[] expected = attempted.get(checkpoint.index().checkpointSha256());
        if (expected == null) {
            fail("recovered a checkpoint of no commit: " + checkpoint);
        }
        assertArrayEquals(expected, checkpoint.toByteArray());
    }

    /**
     * Thousands of checkpoints under {@code -Pscale} (300 in CI): a job that sometimes checkpoints faster than its
     * repositories take it and sometimes computes until the persist is done, on a pool of two threads, with a
     * repository that comes and goes and a collection now and then. Every stage
     * is decided, those that ran complete in the order their commits were accepted, sequence numbers grow, the last
     * successful one is recovered byte for byte, and one collection with every repository back leaves only it (a
     * collection while a repository is away cannot delete what it holds).
     */
    @Test
    void thousands_of_asynchronous_checkpoints_keep_their_order_and_the_last_is_recovered() {
        io.github.volpex.testsupport.SearchDepth.eachSeed("volpex.asyncorder.seed", 1,
                seed -> thousandsOfCheckpoints(seed, false));
    }

    /**
     * As above, with the state of a real job: one array of one length, changed in place between commits, so that
     * every snapshot after the first may be copied into the array of one whose persist ended. A snapshot array reused
     * while a persist still read it would show as a stage whose digest is not that of the bytes given, or as a
     * recovered checkpoint that differs from the last durable one.
     */
    @Test
    void a_state_changed_in_place_keeps_every_snapshot_apart_from_the_persists_that_read_earlier_ones() {
        io.github.volpex.testsupport.SearchDepth.eachSeed("volpex.asyncorder.seed", 1,
                seed -> thousandsOfCheckpoints(seed, true));
    }

    /** Seed 417725943959891105 ends with a repository away through the last collections. */
    private void thousandsOfCheckpoints(long seed, boolean inPlace) throws Exception {
        int commits = io.github.volpex.testsupport.Scale.full() ? 5_000 : 300;
        SplittableRandom random = new SplittableRandom(seed);
        List<Stores.Switchable> repositories = Stores.Switchable.inMemory(5);
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(3, 1).withStripeSizeBytes(16),
                repositories).executor(pool(2)).segmentBytes(64).random(new SplittableRandom(seed)).build();
        List<Integer> completed = Collections.synchronizedList(new ArrayList<>());
        List<CompletionStage<FragmentIndex>> stages = new ArrayList<>();
        List<byte[]> states = new ArrayList<>();
        byte[] inPlaceState = Stores.data(seed, 400);
        for (int i = 0; i < commits; i++) {
            byte[] state;
            if (inPlace) {
                for (int c = random.nextInt(8); c >= 0; c--) {
                    inPlaceState[random.nextInt(inPlaceState.length)] = (byte) random.nextInt();
                }
                state = inPlaceState;
                states.add(inPlaceState.clone());
            } else {
                state = Stores.data(random.nextLong(), 1 + random.nextInt(400));
                states.add(state);
            }
            int id = i;
            CompletionStage<FragmentIndex> stage = store.commitAsync(JOB, state);
            stage.whenComplete((index, failure) -> {
                if (failure == null) {
                    completed.add(id);
                }
            });
            stages.add(stage);
            if (random.nextInt(3) == 0) {
                // The job computes for a while: the persist catches up (most checkpoints then persist, not all are
                // superseded).
                stage.toCompletableFuture().handle((index, failure) -> null).get(60, TimeUnit.SECONDS);
            }
            int dice = random.nextInt(50);
            if (dice == 0) {
                repositories.get(random.nextInt(5)).reachable = false;
            } else if (dice < 4) {
                repositories.forEach(r -> r.reachable = true);
            } else if (dice == 4) {
                store.collectGarbage(JOB);
            }
        }
        repositories.forEach(r -> r.reachable = true);
        long lastSequence = -1;
        int lastDurable = -1;
        int durable = 0;
        for (int i = 0; i < commits; i++) {
            try {
                FragmentIndex index = stages.get(i).toCompletableFuture().get(60, TimeUnit.SECONDS);
                assertTrue(index.sequence() > lastSequence, "seed " + seed + ": sequence numbers went back at " + i);
                assertEquals(Sha256.of(states.get(i)), index.checkpointSha256(), "seed " + seed);
                lastSequence = index.sequence();
                lastDurable = i;
                durable++;
            } catch (java.util.concurrent.ExecutionException e) {
                assertInstanceOf(CheckpointStoreException.class, e.getCause(), "seed " + seed);
            }
        }
        assertTrue(durable >= commits / 4, "seed " + seed + ": only " + durable + " of " + commits
                + " commits became durable");
        List<Integer> order = List.copyOf(completed);
        for (int i = 1; i < order.size(); i++) {
            assertTrue(order.get(i - 1) < order.get(i), "seed " + seed + ": stages completed out of order: "
                    + order.subList(Math.max(0, i - 3), i + 1));
        }
        // A collection that ran while a repository was away could not delete what that repository holds; with every
        // repository back, one more collection removes every older checkpoint.
        store.collectGarbage(JOB);
        assertEquals(List.of(), store.close(Duration.ofMinutes(1)), "seed " + seed);
        assertArrayEquals(states.get(lastDurable), recovered(store), "seed " + seed);
        assertEquals(1, store.checkpoints(JOB).size(), "seed " + seed + ": older checkpoints were kept");
    }
}
