package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * A store's asynchronous commits against a model written the plain way. The store's executor queues its persists and
 * the test runs them one at a time, so every interleaving of accepting, persisting, superseding and closing is reached
 * deterministically. Random sequences of: asynchronous commits, running the executor's next task, making the
 * repositories unreachable or reachable again (so a persist fails), recovery, and closing (at once, abandoning what is
 * undecided). After every step each stage must be in the state the model predicts — pending, completed with its bytes,
 * superseded, failed, abandoned — stages must have completed in the order their commits were accepted, and recovery
 * must return the bytes of the last commit whose stage completed successfully.
 */
class AsyncCommitModelTest {

    private static final String JOB = "job";

    /**
     * An executor that queues the persists, which the test runs; repository calls run at once, on the calling thread
     * (as the default executor does).
     */
    static final class Queued implements Executor {
        final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

        @Override
        public void execute(Runnable task) {
            if (task instanceof Parallel.Handle) {
                task.run();
            } else {
                tasks.add(task);
            }
        }

        /** Runs the first task; false if there is none. */
        boolean runOne() {
            Runnable task = tasks.poll();
            if (task == null) {
                return false;
            }
            task.run();
            return true;
        }
    }

    enum Op { ASYNC, RUN, DOWN, UP, RECOVER, CLOSE }

    /** What the model expects of one stage. */
    enum Expect { PENDING, DONE, SUPERSEDED, FAILED, ABANDONED }

    @Provide
    Arbitrary<List<Op>> ops() {
        return Arbitraries.frequencyOf(
                Tuple.of(10, Arbitraries.just(Op.ASYNC)),
                Tuple.of(10, Arbitraries.just(Op.RUN)),
                Tuple.of(1, Arbitraries.just(Op.DOWN)),
                Tuple.of(2, Arbitraries.just(Op.UP)),
                Tuple.of(2, Arbitraries.just(Op.RECOVER)),
                Tuple.of(1, Arbitraries.just(Op.CLOSE))).list().ofMaxSize(50);
    }

    @Property(tries = 300)
    void asynchronous_commits_behave_as_their_model(@ForAll("ops") List<Op> ops, @ForAll long seed) {
        List<Stores.Switchable> repositories = Stores.Switchable.inMemory(3);
        Queued executor = new Queued();
        CheckpointStore store = CheckpointStore.ephemeral(repositories).executor(executor)
                .random(new SplittableRandom(seed)).build();
        List<CompletionStage<FragmentIndex>> stages = new ArrayList<>();
        List<byte[]> bytes = new ArrayList<>();
        List<Expect> expected = new ArrayList<>();
        List<Integer> completionOrder = new ArrayList<>();
        // The model: the commit launched (its task queued or about to be), the one waiting, the last durable one.
        Integer running = null;
        Integer waiting = null;
        Integer lastDone = null;
        boolean down = false;
        boolean closed = false;
        for (int step = 0; step < ops.size(); step++) {
            Op op = ops.get(step);
            String where = "seed " + seed + ", step " + step + " of " + ops;
            switch (op) {
                case ASYNC -> {
                    // Two lengths, so that a snapshot often copies into the array of one whose persist ended.
                    byte[] data = Stores.data(seed + step, 20 + (int) ((seed ^ step) & 1));
                    if (closed) {
                        assertThrows(IllegalStateException.class, () -> store.commitAsync(JOB, data), where);
                        continue;
                    }
                    int id = stages.size();
                    CompletionStage<FragmentIndex> stage = store.commitAsync(JOB, data);
                    stage.whenComplete((index, failure) -> completionOrder.add(id));
                    stages.add(stage);
                    bytes.add(data);
                    expected.add(Expect.PENDING);
                    if (running == null) {
                        running = id;
                    } else {
                        if (waiting != null) {
                            expected.set(waiting, Expect.SUPERSEDED);
                        }
                        waiting = id;
                    }
                }
                case RUN -> {
                    boolean ran = executor.runOne();
                    assertEquals(running != null && !closed, ran, where + ": a task where none was launched");
                    if (ran) {
                        expected.set(running, down ? Expect.FAILED : Expect.DONE);
                        if (!down) {
                            lastDone = running;
                        }
                        running = waiting;
                        waiting = null;
                    }
                }
                case DOWN -> {
                    repositories.forEach(r -> r.reachable = false);
                    down = true;
                }
                case UP -> {
                    repositories.forEach(r -> r.reachable = true);
                    down = false;
                }
                case RECOVER -> {
                    if (!down) {
                        Optional<RecoveredCheckpoint> recovered = store.recover(JOB);
                        assertEquals(lastDone != null, recovered.isPresent(), where);
                        if (lastDone != null) {
                            assertArrayEquals(bytes.get(lastDone), recovered.get().toByteArray(), where);
                        }
                    }
                }
                case CLOSE -> {
                    List<AbandonedCommit> abandoned = store.close(Duration.ZERO);
                    int undecided = (running == null ? 0 : 1) + (waiting == null ? 0 : 1);
                    assertEquals(closed ? 0 : undecided, abandoned.size(), where + ": " + abandoned);
                    for (AbandonedCommit commit : abandoned) {
                        assertFalse(commit.started(), where + ": a commit whose task never ran had started");
                        assertFalse(commit.reachedCommitPoint(), where);
                    }
                    for (Integer id : new Integer[] {running, waiting}) {
                        if (id != null) {
                            expected.set(id, Expect.ABANDONED);
                        }
                    }
                    running = null;
                    waiting = null;
                    closed = true;
                    // The tasks still queued must do nothing: the commits they would run were abandoned.
                    while (executor.runOne()) {
                        continue;
                    }
                }
                default -> throw new AssertionError(op);
            }
            for (int id = 0; id < stages.size(); id++) {
                assertEquals(expected.get(id), stateOf(stages.get(id), bytes.get(id)), where + ": stage " + id);
            }
            assertSnapshotArraysApart(store.job(JOB), where);
            for (int i = 1; i < completionOrder.size(); i++) {
                Integer earlier = completionOrder.get(i - 1);
                Integer later = completionOrder.get(i);
                boolean bothRan = expected.get(earlier) != Expect.SUPERSEDED
                        && expected.get(later) != Expect.SUPERSEDED;
                assertTrue(!bothRan || earlier < later, where + ": stages completed out of order: " + completionOrder);
            }
        }
        store.close(Duration.ZERO);
        assertFalse(executor.runOne() && stages.stream().anyMatch(s -> !s.toCompletableFuture().isDone()),
                "a stage stayed undecided after close");
    }

    /**
     * The memory bound of {@link CheckpointStore#commitAsync}: the job holds at most two snapshot arrays (the running
     * commit's, the waiting one's, the spare), and the spare is never an array a queued commit still holds.
     */
    private static void assertSnapshotArraysApart(Job job, String where) {
        List<byte[]> held = new ArrayList<>();
        Persists.Persist running = job.commits.running();
        if (running != null && running.async && running.array != null) {
            held.add(running.array);
        }
        for (Persists.Persist waiting : job.commits.waiting()) {
            if (waiting.async && waiting.array != null) {
                held.add(waiting.array);
            }
        }
        byte[] spare = job.takeSpare();
        if (spare != null) {
            for (byte[] array : held) {
                assertFalse(array == spare, where + ": the spare is an array a queued commit holds");
            }
            held.add(spare);
            job.offerSpare(spare);
        }
        assertTrue(held.size() <= 2, where + ": the job holds " + held.size() + " snapshot arrays");
    }

    private static Expect stateOf(CompletionStage<FragmentIndex> stage, byte[] data) {
        CompletableFuture<FragmentIndex> future = stage.toCompletableFuture();
        if (!future.isDone()) {
            return Expect.PENDING;
        }
        try {
            FragmentIndex index = future.join();
            assertEquals(Sha256.of(data), index.checkpointSha256(), "a stage completed with another commit's index");
            return Expect.DONE;
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof CommitSupersededException) {
                return Expect.SUPERSEDED;
            }
            if (cause instanceof CommitAbandonedException) {
                return Expect.ABANDONED;
            }
            assertInstanceOf(CheckpointStoreException.class, cause, "an untyped failure");
            return Expect.FAILED;
        }
    }
}
