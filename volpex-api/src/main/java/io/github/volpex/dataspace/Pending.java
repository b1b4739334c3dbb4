package io.github.volpex.dataspace;

import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * A read or get waiting for its tag: one per (process, request number), shared by every replica and every caller that
 * issues it. Its outcome is decided once, inside the atomic step on its tag that serves or cancels it (the step's
 * linearization point is where the map installs the tag's new state), and becomes visible only once that step is
 * complete, so that no caller receives an outcome before the step that produced it has taken effect for everyone
 * else, and none misses it afterwards: see {@link #outcome()}. The callers waiting for it are told afterwards, outside
 * every lock, by {@link #fire()}.
 */
final class Pending implements RequestState {

    /** The step that changes nothing: entering a tag's entry with it waits for the step that holds the entry. */
    private static final BiFunction<String, Object, Object> UNCHANGED = (tag, state) -> state;

    final Operation operation;
    final int processId;
    final long requestNumber;
    final String tag;
    /** The map that holds {@link #tag}. */
    private final ConcurrentHashMap<String, Object> tags;
    /**
     * The outcome as decided, written once inside the step on {@link #tag} that serves or cancels the request, before
     * the map installs the step's new state; published by {@link #publish()} once that step is complete.
     */
    private volatile Outcome decided;
    /** The published outcome: {@link #decided} once its step is complete; null before. */
    private volatile Outcome result;
    /** The callers waiting, until {@link #fire()} takes them. Guarded by {@code this}. */
    private ArrayList<CompletableFuture<Outcome>> waiters;
    /** Whether {@link #fire()} ran: later callers read the outcome instead. Guarded by {@code this}. */
    private boolean fired;

    Pending(Operation operation, int processId, long requestNumber, String tag,
            ConcurrentHashMap<String, Object> tags) {
        this.operation = operation;
        this.processId = processId;
        this.requestNumber = requestNumber;
        this.tag = tag;
        this.tags = tags;
    }

    /**
     * Returns the outcome once the step that decided it is complete, null while the request waits. Every caller, the
     * process's log included, reads the outcome here. A step on the tag that has decided the outcome holds the tag's
     * entry in the map until it has installed the tag's new state; its thread publishes the outcome right after. A
     * caller that finds the outcome decided but not yet published enters the tag's entry with a step that changes
     * nothing — which waits until the deciding step is complete — and publishes the outcome itself: so an outcome is
     * never seen before its step has taken effect, and never missed by a caller that comes after it.
     */
    Outcome outcome() {
        Outcome outcome = result;
        if (outcome == null && decided != null) {
            tags.compute(tag, UNCHANGED);
            publish();
            outcome = result;
        }
        return outcome;
    }

    /** Records the outcome the current step decides. Inside the step on {@link #tag}; once per request. */
    void decide(Outcome outcome) {
        decided = outcome;
    }

    /**
     * Makes the decided outcome visible to callers. Call it only once the step that decided it is complete (its new
     * state installed in the map); calling it again, from another thread too, writes the same outcome.
     */
    void publish() {
        Outcome outcome = decided;
        if (outcome == null) {
            throw new IllegalStateException("no step has decided request " + requestNumber + " of process "
                    + processId);
        }
        result = outcome;
    }

    /**
     * Adds a caller to be completed with the outcome. Returns false if the outcome is already published: the caller
     * reads it ({@link #outcome()}) instead of waiting.
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

    /**
     * Completes every waiting caller with the outcome, which must be published. Idempotent; call it outside every
     * lock.
     */
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
