package io.github.volpex.checkpoint.store;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/** Runs repository calls on the store's executor and waits for all of them. */
final class Parallel {

    private Parallel() {
    }

    /** The result of one call: its value, or what it threw. */
    record Outcome<T>(T value, Throwable failure) {
        boolean ok() {
            return failure == null;
        }
    }

    /**
     * Runs every task on {@code executor} and waits for all of them. An {@link Error} thrown by a task is rethrown
     * once all have finished: the store never treats an error as a repository failure.
     */
    static <T> List<Outcome<T>> all(Executor executor, List<? extends Callable<T>> tasks) {
        List<CompletableFuture<T>> futures = new ArrayList<>(tasks.size());
        for (Callable<T> task : tasks) {
            futures.add(start(executor, task));
        }
        List<Outcome<T>> outcomes = new ArrayList<>(tasks.size());
        Error error = null;
        for (CompletableFuture<T> future : futures) {
            Outcome<T> outcome = await(future);
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
    static <T> CompletableFuture<T> start(Executor executor, Callable<T> task) {
        Supplier<T> supplier = () -> call(task);
        try {
            return CompletableFuture.supplyAsync(supplier, executor);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.supplyAsync(supplier, Runnable::run);
        }
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

    /** Calls {@code task}, wrapping checked exceptions for {@link CompletableFuture}. */
    static <T> T call(Callable<T> task) {
        try {
            return task.call();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new CompletionException(e);
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
