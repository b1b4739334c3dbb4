package io.github.volpex.checkpoint.store;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs a store's commits, synchronous and asynchronous, through each job's {@link CommitQueue}: an asynchronous commit
 * is a snapshot (a copy of the caller's bytes) persisted on the store's executor; a synchronous one runs on its
 * caller's thread when its turn comes. Whatever their kind, a job's commits run one at a time in the order they were
 * accepted (a superseded one never runs), and their outcomes are delivered in that order: a commit's outcome is
 * decided only once the commit that ran before it is delivered — its stage complete and the dependent actions that
 * completion ran returned — unless the deciding thread is the one running those actions.
 *
 * <p>An asynchronous commit's outcome is delivered once it is durable (see {@link Committer.Durable}); what remains —
 * markers on the other repositories, deletion of what is older — is left in the job's state for the next operation on
 * the job, and run by the persisting thread itself after the delivery if no operation came first. The outcome is
 * delivered after the job's lock and its place in the queue are released, so that what depends on it may call the
 * store, a synchronous commit of the same job included.
 *
 * <p>{@link #close} refuses new commits, waits a bounded time for the accepted ones, then abandons the rest: a waiting
 * commit never starts, a running one stops at its next step unless it is already writing its commit markers.
 */
final class Persists {

    private final StoreContext context;
    private final Committer committer;
    private final Function<String, Job> jobOf;
    private final Supplier<Collection<Job>> jobs;
    /** Guards {@link #closed} and {@link #undecided}; notified when a commit's outcome is decided. */
    private final Object decisions = new Object();
    private boolean closed;
    /** The commits accepted whose outcome is not decided yet. */
    private int undecided;
    /** How many stages this thread is completing, whose dependent actions it may be running. */
    private final ThreadLocal<int[]> settling = ThreadLocal.withInitial(() -> new int[1]);

    Persists(StoreContext context, Committer committer, Function<String, Job> jobOf, Supplier<Collection<Job>> jobs) {
        this.context = context;
        this.committer = committer;
        this.jobOf = jobOf;
        this.jobs = jobs;
    }

    /** One accepted commit: its bytes, how it ends, and how far it went. */
    static final class Persist implements CommitQueue.Entry, CommitProgress {
        final Job job;
        /**
         * The snapshot (asynchronous), the caller's array (synchronous), or null for a stream; dropped once the
         * commit ran, so that the job keeps no checkpoint's bytes beyond its commit.
         */
        byte[] array;
        final InputStream stream;
        final boolean async;
        final CompletableFuture<FragmentIndex> outcome = new CompletableFuture<>();
        /** What the caller sees of {@link #outcome}: completing it does not complete the outcome. */
        final CompletionStage<FragmentIndex> stage = outcome.minimalCompletionStage();
        /** Set once, by whoever decides the outcome first. */
        private final AtomicBoolean decided = new AtomicBoolean();
        /** The commit that started before this one, or null; set when this one starts, under the job's lock. */
        Persist predecessor;
        /**
         * Completes once this commit's outcome is delivered: its stage complete and the dependent actions that the
         * completion ran returned.
         */
        final CompletableFuture<Void> delivered = new CompletableFuture<>();
        /** The thread completing this commit's stage while it does so, else null. */
        volatile Thread deliverer;
        private boolean started;
        private boolean pastCommitPoint;
        private boolean abandoned;
        private long sequence = -1;
        private CommitAbandonedException abandonment;

        Persist(Job job, byte[] array, InputStream stream, boolean async) {
            this.job = job;
            this.array = array;
            this.stream = stream;
            this.async = async;
        }

        @Override
        public boolean asynchronous() {
            return async;
        }

        @Override
        public synchronized void step(long sequenceNumber) {
            sequence = sequenceNumber;
            if (abandoned) {
                throw new CommitProgress.Stopped();
            }
        }

        @Override
        public synchronized void commitPoint() {
            if (abandoned) {
                throw new CommitProgress.Stopped();
            }
            pastCommitPoint = true;
        }

        /** Marks the commit started, unless it was abandoned first. */
        synchronized boolean start() {
            if (abandoned) {
                return false;
            }
            started = true;
            return true;
        }

        /** Abandons the commit (it stops at its next step, unless past its commit point); returns why, once for all. */
        synchronized CommitAbandonedException abandon() {
            if (abandonment == null) {
                abandoned = true;
                abandonment = new CommitAbandonedException(job.id, sequence, started, pastCommitPoint);
            }
            return abandonment;
        }

        /** Claims the right to decide the outcome; true for the first caller only. */
        boolean decide() {
            return decided.compareAndSet(false, true);
        }
    }

    /** Accepts an asynchronous commit of a copy of {@code checkpoint}; see {@link CheckpointStore#commitAsync}. */
    CompletionStage<FragmentIndex> commitAsync(String jobId, byte[] checkpoint) {
        return commitAsync(jobId, checkpoint, Persists::copy);
    }

    /** A copy of {@code checkpoint}: into {@code spare} if it has the same length, else into a new array. */
    static byte[] copy(byte[] checkpoint, byte[] spare) {
        if (spare == null || spare.length != checkpoint.length) {
            return checkpoint.clone();
        }
        System.arraycopy(checkpoint, 0, spare, 0, checkpoint.length);
        return spare;
    }

    /**
     * Accepts an asynchronous commit of the snapshot {@code snapshot} takes of {@code checkpoint}, taken on the
     * calling thread once the arguments are checked and the store is open: an array the store then owns, which
     * {@code snapshot} writes into the job's spare array (its second argument, the array of a snapshot whose persist
     * ended, or null) when that has the length it needs, and allocates otherwise.
     */
    <T> CompletionStage<FragmentIndex> commitAsync(String jobId, T checkpoint,
                                                   BiFunction<T, byte[], byte[]> snapshot) {
        Names.requireJobId(jobId);
        Objects.requireNonNull(checkpoint, "checkpoint");
        requireOpen();
        Job job = jobOf.apply(jobId);
        Persist persist = new Persist(job, snapshot.apply(checkpoint, job.takeSpare()), null, true);
        CommitQueue.Submitted<Persist> submitted = accept(persist);
        if (submitted.superseded() != null) {
            supersede(submitted.superseded());
        }
        if (submitted.runsNow()) {
            launch(persist);
        } else {
            // A persist that ended while this snapshot was taken kept its array: with this snapshot waiting and the
            // next one running, keeping it too would make three.
            job.dropSpare();
        }
        return persist.stage;
    }

    /**
     * Runs a synchronous commit on the calling thread when its turn comes: after the commit running now and every
     * synchronous one that waits before it; it supersedes a waiting asynchronous commit.
     */
    FragmentIndex commit(String jobId, InputStream in, byte[] array) throws IOException {
        Names.requireJobId(jobId);
        requireOpen();
        Job job = jobOf.apply(jobId);
        Persist persist = new Persist(job, array, in, false);
        CommitQueue.Submitted<Persist> submitted = accept(persist);
        if (submitted.superseded() != null) {
            supersede(submitted.superseded());
        }
        if (!submitted.runsNow() && !job.commits.awaitTurn(persist)) {
            throw persist.abandon();
        }
        Ran ran = run(persist);
        FragmentIndex index = ran.index();
        Throwable failure = ran.failure();
        Persist next = job.commits.finish(persist);
        if (next != null && next.async) {
            launch(next);
        }
        deliver(persist, index, failure);
        if (failure instanceof CommitProgress.Stopped) {
            throw persist.abandon();
        }
        if (failure instanceof IOException e) {
            throw e;
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        return index;
    }

    private void requireOpen() {
        synchronized (decisions) {
            if (closed) {
                throw new IllegalStateException("the store is closed: no commit is accepted");
            }
        }
    }

    /** Counts the commit as undecided and queues it; refuses it if the store is closed. */
    private CommitQueue.Submitted<Persist> accept(Persist persist) {
        synchronized (decisions) {
            if (closed) {
                throw new IllegalStateException("the store is closed: no commit is accepted");
            }
            undecided++;
        }
        try {
            return persist.job.commits.submit(persist);
        } catch (IllegalStateException e) {
            decided();
            throw e;
        }
    }

    /**
     * Completes {@code persist}'s stage as {@code how} says, then counts it decided: {@link #close} returns only once
     * the stages it waited for are complete. While the completion runs dependent actions on this thread, this
     * thread's {@link #close} does not wait for the commit whose actions it runs.
     */
    private void settle(Persist persist, java.util.function.Consumer<CompletableFuture<FragmentIndex>> how) {
        int[] depth = settling.get();
        depth[0]++;
        try {
            how.accept(persist.outcome);
        } finally {
            depth[0]--;
            decided();
        }
    }

    private void decided() {
        synchronized (decisions) {
            undecided--;
            decisions.notifyAll();
        }
    }

    private void supersede(Persist persist) {
        // Its snapshot is not kept as the spare: the one that superseded it holds a snapshot of its own.
        persist.array = null;
        if (persist.decide()) {
            settle(persist, outcome -> outcome.completeExceptionally(new CommitSupersededException(persist.job.id)));
        }
    }

    /** Starts an asynchronous commit on the executor, or on this thread if the executor rejects it. */
    private void launch(Persist persist) {
        try {
            context.executor.execute(() -> runAsync(persist));
        } catch (RejectedExecutionException e) {
            runAsync(persist);
        }
    }

    /**
     * Runs {@code first}, then every asynchronous commit its end promotes that the executor rejects; rethrows, once
     * all are delivered, an {@link Error} met after a commit's outcome was delivered.
     */
    private void runAsync(Persist first) {
        Error late = null;
        Persist persist = first;
        while (persist != null) {
            Ran ran = run(persist);
            FragmentIndex index = ran.index();
            Throwable failure = ran.failure();
            Persist next = persist.job.commits.finish(persist);
            Persist inline = null;
            if (next != null && next.async) {
                try {
                    context.executor.execute(() -> runAsync(next));
                } catch (RejectedExecutionException e) {
                    inline = next;
                }
            }
            deliver(persist, index, failure);
            if (index != null) {
                try {
                    finishPending(persist.job);
                } catch (Error e) {
                    late = late == null ? e : late;
                }
            }
            persist = inline;
        }
        if (late != null) {
            throw late;
        }
    }

    /** How a commit's run ended: its index, or what it threw. */
    private record Ran(FragmentIndex index, Throwable failure) {
    }

    /** Runs {@code persist}, catching whatever it throws. */
    private Ran run(Persist persist) {
        try {
            return new Ran(persist(persist), null);
        } catch (Throwable t) {
            return new Ran(null, t);
        } finally {
            persist.array = null;
        }
    }

    /** Runs one commit under its job's lock, up to durable; a synchronous one finishes too. */
    private FragmentIndex persist(Persist persist) throws IOException {
        Job job = persist.job;
        job.lock.lock();
        try {
            if (!persist.start()) {
                throw new CommitProgress.Stopped();
            }
            persist.predecessor = job.lastStarted;
            job.lastStarted = persist;
            job.state.finishPending();
            Committer.Durable durable = committer.commit(job.id, job.state, persist.stream, persist.array, persist);
            if (persist.async) {
                job.state.pendingFinish = durable.finish();
            } else {
                durable.finish().run();
            }
            return durable.index();
        } finally {
            keepSpare(persist);
            job.lock.unlock();
        }
    }

    /**
     * Keeps the array of {@code persist}'s snapshot, which nothing reads once its commit ran, for the job's next
     * snapshot: under the job's lock, so that an operation that drops the job's spare under it (deleting the job)
     * comes before or after, and under the lock close takes to mark the store closed before it drops the spares.
     */
    private void keepSpare(Persist persist) {
        if (persist.async && persist.array != null) {
            synchronized (decisions) {
                if (!closed) {
                    persist.job.offerSpare(persist.array);
                }
            }
            persist.array = null;
        }
    }

    /**
     * Runs what the job's last commit left to do, unless an operation on the job already did or holds the job now
     * (every operation runs it first): a persisting thread never waits for the next commit's persist.
     */
    private static void finishPending(Job job) {
        if (!job.lock.tryLock()) {
            return;
        }
        try {
            job.state.finishPending();
        } finally {
            job.lock.unlock();
        }
    }

    /** Decides the commit's outcome, after the outcome of the commit that started before it. */
    private void deliver(Persist persist, FragmentIndex index, Throwable failure) {
        Persist before = persist.predecessor;
        // Wait until the earlier commit's stage and its dependent actions are done — unless this thread is running
        // those actions (one of them committed again): the earlier stage is complete then.
        if (before != null && before.deliverer != Thread.currentThread()) {
            Parallel.await(before.delivered);
        }
        persist.predecessor = null;
        try {
            if (persist.decide()) {
                persist.deliverer = Thread.currentThread();
                settle(persist, outcome -> {
                    if (failure == null) {
                        outcome.complete(index);
                    } else {
                        outcome.completeExceptionally(failure instanceof CommitProgress.Stopped
                                ? persist.abandon() : failure);
                    }
                });
            }
        } finally {
            persist.deliverer = null;
            persist.delivered.complete(null);
        }
    }

    /** See {@link CheckpointStore#close(Duration)}. */
    List<AbandonedCommit> close(Duration maxWait) {
        synchronized (decisions) {
            closed = true;
        }
        for (Job job : jobs.get()) {
            job.commits.close();
            job.dropSpare();
        }
        boolean interrupted = false;
        long deadline = System.nanoTime() + saturatedNanos(maxWait);
        synchronized (decisions) {
            // Not counting the commits whose dependent actions this thread runs (one of them closes the store).
            int own = settling.get()[0];
            while (undecided > own) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(decisions, left);
                } catch (InterruptedException e) {
                    interrupted = true;
                    break;
                }
            }
        }
        List<AbandonedCommit> abandoned = new ArrayList<>();
        for (Job job : jobs.get()) {
            for (Persist persist : job.commits.abandonAll()) {
                CommitAbandonedException why = persist.abandon();
                if (persist.decide()) {
                    abandoned.add(new AbandonedCommit(job.id, why.sequence(), why.started(),
                            why.reachedCommitPoint()));
                    settle(persist, outcome -> outcome.completeExceptionally(why));
                    persist.delivered.complete(null);
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return List.copyOf(abandoned);
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 2;
        }
    }
}
