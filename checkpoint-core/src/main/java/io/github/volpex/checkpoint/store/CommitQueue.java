package io.github.volpex.checkpoint.store;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The commits of one job, as a state machine: at most one <em>running</em>, then those <em>waiting</em> — the
 * synchronous ones (each holds its caller, who waits for its turn) in their order, followed by at most one
 * asynchronous one. A new commit supersedes a waiting asynchronous one: it takes its place, and the superseded one
 * never runs. The running commit's end promotes the first waiting one. Once closed, no commit is accepted; the waiting
 * ones still run until {@link #abandonAll} drops them.
 *
 * <p>Invariants: nothing waits while nothing runs; at most one asynchronous commit waits, and it waits last. So the
 * queue holds at most one asynchronous commit's snapshot beside the running one's, however fast commits come.
 *
 * <p>It decides only; the caller launches, supersedes and abandons as told. Thread-safe: every method is atomic.
 *
 * @param <E> what is queued
 */
final class CommitQueue<E extends CommitQueue.Entry> {

    /** A queued commit. */
    interface Entry {
        /** Whether the commit is asynchronous (its caller does not wait in the queue). */
        boolean asynchronous();
    }

    /** What {@link #submit} decided: whether the entry runs now, and the waiting entry it superseded, if any. */
    record Submitted<E>(boolean runsNow, E superseded) {
    }

    private E running;
    private final ArrayDeque<E> waiting = new ArrayDeque<>();
    private boolean closed;

    /**
     * Queues {@code entry}: it runs now if nothing runs; otherwise it waits, after superseding the waiting asynchronous
     * entry, if any.
     *
     * @throws IllegalStateException if the queue is closed
     */
    synchronized Submitted<E> submit(E entry) {
        if (closed) {
            throw new IllegalStateException("the store is closed: no commit is accepted");
        }
        E superseded = !waiting.isEmpty() && waiting.peekLast().asynchronous() ? waiting.pollLast() : null;
        if (running == null) {
            running = entry;
            return new Submitted<>(true, superseded);
        }
        waiting.addLast(entry);
        return new Submitted<>(false, superseded);
    }

    /**
     * Ends {@code entry}, which ran: the first waiting entry runs next and is returned (a synchronous one is also
     * woken in {@link #awaitTurn}); null if none waits or {@code entry} is not the one running (it was abandoned).
     */
    synchronized E finish(E entry) {
        if (running != entry) {
            return null;
        }
        running = waiting.pollFirst();
        notifyAll();
        return running;
    }

    /**
     * Waits, without being interruptible, until {@code entry} runs; returns {@code false} if it was abandoned
     * instead.
     */
    synchronized boolean awaitTurn(E entry) {
        boolean interrupted = false;
        try {
            while (running != entry) {
                if (!waiting.contains(entry)) {
                    return false;
                }
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            return true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Refuses every later {@link #submit}. */
    synchronized void close() {
        closed = true;
    }

    /** Whether nothing runs and nothing waits. */
    synchronized boolean idle() {
        return running == null;
    }

    /**
     * Closes the queue and empties it: returns the running entry (first, if any) and every waiting one, none of
     * which the queue will run; wakes the synchronous callers, whose {@link #awaitTurn} returns {@code false}.
     */
    synchronized List<E> abandonAll() {
        closed = true;
        List<E> abandoned = new ArrayList<>();
        if (running != null) {
            abandoned.add(running);
        }
        abandoned.addAll(waiting);
        running = null;
        waiting.clear();
        notifyAll();
        return abandoned;
    }

    /** The running entry, or null. */
    synchronized E running() {
        return running;
    }

    /** The waiting entries, first to run first. */
    synchronized List<E> waiting() {
        return List.copyOf(waiting);
    }
}
