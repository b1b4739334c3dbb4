package io.github.volpex.testkit.selftest;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * A process's executor whose tasks wait until {@link #drain}: the persists of asynchronous commits, and repository
 * calls, which the store's waiting thread runs itself (so a history stays on one thread, in an order its seed
 * decides). Not thread-safe: one test thread uses it.
 */
final class DeferredExecutor implements Executor {

    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
    }

    /** Runs every task, those queued while it runs included; a simulated death stops it there, the rest never runs. */
    void drain() {
        for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
            task.run();
        }
    }
}
