package io.github.volpex.examples.reproduce;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Runs independent cells of an experiment on a few worker threads and returns their results in input order. Each
 * cell seeds its own random stream, so the results do not depend on the number of threads or on scheduling.
 */
final class Cells {

    private Cells() {
    }

    /** Maps {@code cells} through {@code work} on {@code threads} threads, reporting each cell's weight as done. */
    static <C, R> List<R> map(List<C> cells, int threads, Progress progress, Function<C, String> label,
            java.util.function.ToDoubleFunction<C> weight, Function<C, R> work) throws InterruptedException {
        for (C cell : cells) {
            progress.plan(weight.applyAsDouble(cell));
        }
        if (threads == 1 || cells.size() == 1) {
            List<R> results = new ArrayList<>(cells.size());
            for (C cell : cells) {
                results.add(work.apply(cell));
                progress.done(weight.applyAsDouble(cell), label.apply(cell));
            }
            return results;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "reproduce-worker");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<R>> futures = new ArrayList<>(cells.size());
            for (C cell : cells) {
                futures.add(pool.submit(() -> {
                    R result = work.apply(cell);
                    progress.done(weight.applyAsDouble(cell), label.apply(cell));
                    return result;
                }));
            }
            List<R> results = new ArrayList<>(cells.size());
            for (Future<R> future : futures) {
                try {
                    results.add(future.get());
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    if (cause instanceof Error error) {
                        throw error;
                    }
                    throw new IllegalStateException(cause);
                }
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
