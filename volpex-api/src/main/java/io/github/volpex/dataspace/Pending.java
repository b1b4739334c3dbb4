package io.github.volpex.dataspace;

import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;

/**
 * A read or get waiting for its tag: one per (process, request number), shared by every replica and every caller that
 * issues it. Its outcome is decided once, inside the atomic step on its tag that completes or cancels it; the callers
 * waiting for it are told afterwards, outside every lock, by {@link #fire()}.
 */
final class Pending {

    final Operation operation;
    final int processId;
    final long requestNumber;
    final String tag;
    /**
     * The outcome, written once inside the atomic step on {@link #tag} that serves or cancels the request (that step
     * is its linearization point); null while it waits.
     */
    volatile Outcome result;
    /** The callers waiting, until {@link #fire()} takes them. Guarded by {@code this}. */
    private ArrayList<CompletableFuture<Outcome>> waiters;
    /** Whether {@link #fire()} ran: later callers read {@link #result} instead. Guarded by {@code this}. */
    private boolean fired;

    Pending(Operation operation, int processId, long requestNumber, String tag) {
        this.operation = operation;
        this.processId = processId;
        this.requestNumber = requestNumber;
        this.tag = tag;
    }

    /**
     * Adds a caller to be completed with the outcome. Returns false if the outcome is already known ({@link #result} is
     * then set): the caller reads it instead of waiting.
     */
    synchronized boolean register(CompletableFuture<Outcome> waiter) {
        if (fired) {
            return false;
        }
        if (waiters == null) {
            waiters = new ArrayList<>(2);
        }
        waiters.add(waiter);
        return true;
    }

    /** Removes a caller that stopped waiting (a timeout, an interrupt, a cancelled future). */
    synchronized void deregister(CompletableFuture<Outcome> waiter) {
        if (waiters != null) {
            waiters.remove(waiter);
        }
    }

    /** Completes every waiting caller with the outcome, which must be set. Idempotent; call it outside every lock. */
    void fire() {
        ArrayList<CompletableFuture<Outcome>> taken;
        synchronized (this) {
            if (fired) {
                return;
            }
            fired = true;
            taken = waiters;
            waiters = null;
        }
        if (taken != null) {
            Outcome outcome = result;
            for (CompletableFuture<Outcome> waiter : taken) {
                waiter.complete(outcome);
            }
        }
    }

    /** Fails every caller waiting now (the dataspace closed); the request itself stays as it is. */
    void failWaiters(Throwable failure) {
        ArrayList<CompletableFuture<Outcome>> taken;
        synchronized (this) {
            taken = waiters;
            waiters = null;
        }
        if (taken != null) {
            for (CompletableFuture<Outcome> waiter : taken) {
                waiter.completeExceptionally(failure);
            }
        }
    }
}
