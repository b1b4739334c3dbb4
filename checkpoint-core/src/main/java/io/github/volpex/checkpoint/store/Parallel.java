package io.github.volpex.checkpoint.store;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs repository calls on the store's executor and waits for all of them.
 *
 * <p>A thread that waits for a call the executor has not started yet runs it itself (as a fork/join pool's joining
 * thread does): a store may therefore be called from the executor's own threads — an asynchronous commit persists on
 * one — without ever waiting for a task queued behind itself, whatever the size of the pool.
 */
final class Parallel {

    private Parallel() {
    }

    /** The result of one call: its value, or what it threw. */
    record Outcome<T>(T value, Throwable failure) {
        boolean ok() {
            return failure == null;
        }
    }

    /** One call, run once: by the executor, or by the thread that waits for it if the executor has not started it. */
    static final class Task<T> implements Runnable {
        private final Callable<T> callable;
        private final AtomicBoolean claimed = new AtomicBoolean();
        final CompletableFuture<T> future = new CompletableFuture<>();
        /** What the executor is handed; it drops this task when the task is claimed. */
        final Handle handle = new Handle(this);

        private Task(Callable<T> callable) {
            this.callable = callable;
        }

        @Override
        public void run() {
            runIfUnclaimed();
        }

        /** Runs the call on this thread unless another thread has started it; returns whether this one ran it. */
        boolean runIfUnclaimed() {
            if (!claimed.compareAndSet(false, true)) {
                return false;
            }
            handle.task.set(null);
            try {
                future.complete(callable.call());
            } catch (Throwable t) {
                future.completeExceptionally(t);
            }
            return true;
        }
    }

    /**
     * What the executor is handed for a {@link Task}: a reference it drops once the task is claimed, so that a task the
     * waiting thread ran itself, which may stay queued until a pool thread is free, does not keep its result (a
     * fragment) reachable from the queue.
     */
    static final class Handle implements Runnable {
        private final AtomicReference<Task<?>> task;

        private Handle(Task<?> task) {
            this.task = new AtomicReference<>(task);
        }

        @Override
        public void run() {
            Task<?> claimable = task.getAndSet(null);
            if (claimable != null) {
                claimable.runIfUnclaimed();
            }
        }
    }

    /**
     * Runs every task on {@code executor} and waits for all of them. An {@link Error} thrown by a task is rethrown
     * once all have finished: the store never treats an error as a repository failure.
     */
    static <T> List<Outcome<T>> all(Executor executor, List<? extends Callable<T>> tasks) {
        List<Task<T>> started = new ArrayList<>(tasks.size());
        for (Callable<T> task : tasks) {
            started.add(start(executor, task));
        }
        List<Outcome<T>> outcomes = new ArrayList<>(tasks.size());
        Error error = null;
        for (Task<T> task : started) {
            Outcome<T> outcome = await(task);
            if (outcome.failure() instanceof Error e && error == null) {
                error = e;
            }
            outcomes.add(outcome);
        }
        if (error != null) {
            throw error;
        }
        return outcomes;
    }

    /**
     * Starts {@code task} on {@code executor}. A task the executor rejects (a saturated or shut-down pool) runs on the
     * calling thread instead, as Caffeine does with its maintenance work: a rejection must neither fail an operation
     * half-way nor leave earlier tasks of the same batch running unawaited.
     */
    static <T> Task<T> start(Executor executor, Callable<T> callable) {
        Task<T> task = new Task<>(callable);
        try {
            executor.execute(task.handle);
        } catch (RejectedExecutionException e) {
            task.run();
        } catch (RuntimeException | Error e) {
            // The executor failed otherwise (a pool that cannot start its thread), perhaps with the task queued: unless
            // a pool thread has claimed it, the task fails with that; either way the caller awaits it as any other.
            if (task.claimed.compareAndSet(false, true)) {
                task.handle.task.set(null);
                task.future.completeExceptionally(e);
            }
        }
        return task;
    }

    /**
     * Waits for {@code task} without being interruptible, keeping the thread's interrupt status; runs it on this
     * thread if the executor has not started it.
     */
    static <T> Outcome<T> await(Task<T> task) {
        task.runIfUnclaimed();
        return await(task.future);
    }

    /** Waits for {@code future} without being interruptible, keeping the thread's interrupt status. */
    static <T> Outcome<T> await(CompletableFuture<T> future) {
        try {
            return new Outcome<>(future.join(), null);
        } catch (CompletionException e) {
            return new Outcome<>(null, e.getCause() == null ? e : e.getCause());
        } catch (RuntimeException e) {
            return new Outcome<>(null, e);
        }
    }

    /** Closes {@code resource}, ignoring every failure but an {@link Error}: for clean-up after a failure. */
    static void closeQuietly(Closeable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            rethrowErrors(e);
        }
    }

    /** Rethrows {@code failure} if it is an {@link Error}. */
    static void rethrowErrors(Throwable failure) {
        if (failure instanceof Error e) {
            throw e;
        }
    }
}
