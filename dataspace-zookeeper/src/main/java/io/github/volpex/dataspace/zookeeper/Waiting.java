package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.DataspaceTimeoutException;
import io.github.volpex.dataspace.Reply;
import io.github.volpex.dataspace.Request;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.zookeeper.KeeperException.Code;

/**
 * How a pending request waits for its read-log entry: a blocked caller parks until a watch on the entry's path fires
 * (or the connection changes, or its timeout elapses); a submitted request holds no thread, and each wake-up schedules
 * one more poll of its request loop on the executor. Both register in the {@link WaitRegistry} before they set the
 * watch, so a creation in between is never missed.
 */
final class Waiting {

    /** Runs a call's request loop once (a submitted request's never waits on its thread). */
    interface Execution {
        Call.Outcome execute(Call call) throws InterruptedException;
    }

    private final ZkContext context;
    private final WaitRegistry registry;

    Waiting(ZkContext context, WaitRegistry registry) {
        this.context = context;
        this.registry = registry;
    }

    /**
     * Waits until the pending request's log entry may exist: a watch on the entry's path fires when a put creates it.
     * Returns to let the loop read again; throws when the timeout elapses, the caller is interrupted or closed.
     */
    void awaitOutcome(Call call) throws InterruptedException {
        context.checkOpen(call);
        if (!call.waitStarted) {
            call.waitStarted = true;
            call.waitDeadline = call.wait.isBounded() ? System.nanoTime() + call.wait.duration().toNanos() : 0;
        }
        if (call.wait.isBounded() && call.waitDeadline - System.nanoTime() <= 0) {
            throw timedOut(call);
        }
        if (call.interrupted || Thread.interrupted()) {
            call.interrupted = false;
            throw new InterruptedException();
        }
        String path = context.layout.entryPath(call.processId, call.requestNumber);
        WaitRegistry.Waker self = new ThreadWaker(Thread.currentThread());
        registry.register(path, self);
        try {
            Session.Result watched = context.session.existsWatched(path);
            if (watched.ok()) {
                return;
            }
            if (watched.unknown()) {
                context.checkOpen(call);
                long deadline = System.nanoTime() + context.connectionLossTimeout.toNanos();
                boolean bounded = call.wait.isBounded() && call.waitDeadline - deadline < 0;
                if (!context.session.awaitConnected(bounded ? call.waitDeadline : deadline)) {
                    context.checkOpen(call);
                    if (bounded) {
                        throw timedOut(call);
                    }
                    throw new ZooKeeperUnavailableException(context.connectString, context.connectionLossTimeout,
                            call.describe());
                }
                return;
            }
            if (watched.code() != Code.NONODE) {
                throw context.refused(watched.code(), "waiting for " + call.describe());
            }
            context.checkOpen(call);
            if (!call.wait.isBounded()) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, call.waitDeadline - System.nanoTime());
            }
            if (Thread.interrupted()) {
                call.interrupted = true;
            }
        } finally {
            registry.deregister(path, self);
        }
    }

    private static DataspaceTimeoutException timedOut(Call call) {
        return new DataspaceTimeoutException(call.processId, call.requestNumber, call.operation, call.tag,
                call.wait.duration());
    }

    /** A caller's thread parked in {@link #awaitOutcome}. */
    private record ThreadWaker(Thread thread) implements WaitRegistry.Waker {
        @Override
        public void wake() {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Arms the wake-up of a submitted request that must wait: registers it for its entry's path, then sets an
     * {@code exists} watch there (so a creation after the registration cannot be missed). Returns true if the entry
     * exists already, or the connection was lost and is back, so that the caller reads again; false once armed: a
     * watch event or a change of the connection will schedule the next {@link AsyncWait#drain()}.
     */
    boolean arm(Call call) {
        AsyncWait wait = call.async;
        context.checkOpen(call);
        if (!wait.armed) {
            wait.armed = true;
            registry.register(wait.path, wait);
            registry.addAsync(wait);
            // Closing sets its flag, then fails the registered requests: one of the two sees the other.
            context.checkOpen(call);
            if (wait.reply.isDone()) {
                wait.forget(); // completed meanwhile (the caller cancelled the future): nothing to arm
                return false;
            }
        }
        Session.Result watched = context.session.existsWatched(wait.path);
        if (watched.ok()) {
            return true;
        }
        if (watched.unknown()) {
            context.waitForConnection(call);
            return true;
        }
        if (watched.code() != Code.NONODE) {
            throw context.refused(watched.code(), "waiting for " + call.describe());
        }
        return false;
    }

    /** Starts a submitted request: see {@link AsyncWait#start()}. */
    CompletableFuture<Reply> submit(Request request, Call call, Execution execution) {
        AsyncWait wait = new AsyncWait(request, call, execution);
        wait.start();
        return wait.reply;
    }

    /**
     * A submitted request: its future, and the polls that run its request loop — first on the submitting thread, then,
     * while it waits, one on the executor per wake-up (several wake-ups that come during one poll make one more
     * poll). No thread is held between polls; polls of one request never overlap.
     */
    final class AsyncWait implements WaitRegistry.Waker {
        final Request request;
        final Call call;
        final String path;
        final CompletableFuture<Reply> reply = new CompletableFuture<>();
        private final Execution execution;
        /** Wake-ups not yet served by a poll; a poll is running or scheduled while it is above zero. */
        private final AtomicInteger wakeups = new AtomicInteger();
        /** Whether the request registered for its entry's path; written by polls only. */
        boolean armed;

        AsyncWait(Request request, Call call, Execution execution) {
            this.request = request;
            this.call = call;
            this.execution = execution;
            this.path = context.layout.entryPath(call.processId, call.requestNumber);
            call.async = this;
            // However the future completes (served, failed, or cancelled by the caller), the dataspace forgets it.
            reply.whenComplete((done, failure) -> forget());
        }

        /**
         * Runs the first poll on the submitting thread: caller mistakes are thrown, as {@code handle} throws them;
         * every other failure completes the future.
         */
        void start() {
            wakeups.set(1);
            try {
                poll();
            } catch (IllegalArgumentException | IllegalStateException | NullPointerException mistake) {
                // Thrown before the request could wait: nothing armed it, so nothing can wake it.
                forget();
                throw mistake;
            } catch (RuntimeException | Error failure) {
                reply.completeExceptionally(failure);
            }
            if (wakeups.addAndGet(-1) != 0) {
                schedule();
            }
        }

        @Override
        public void wake() {
            if (wakeups.getAndIncrement() == 0) {
                schedule();
            }
        }

        private void schedule() {
            try {
                context.executor.execute(this::drain);
            } catch (RejectedExecutionException rejected) {
                reply.completeExceptionally(rejected);
            }
        }

        /** Polls once, then again while wake-ups came meanwhile. Runs on the executor. */
        void drain() {
            int missed = wakeups.get();
            do {
                try {
                    poll();
                } catch (RuntimeException | Error failure) {
                    reply.completeExceptionally(failure);
                }
                missed = wakeups.addAndGet(-missed);
            } while (missed != 0);
        }

        /** Runs the request loop once, unless the future is complete: it completes it, or arms the next wake-up. */
        private void poll() {
            if (reply.isDone()) {
                return;
            }
            Call.Outcome outcome;
            try {
                outcome = execution.execute(call);
            } catch (InterruptedException ex) {
                throw new AssertionError("a submitted request never waits on its thread", ex);
            }
            if (outcome != null) {
                reply.complete(outcome.reply(request));
            }
        }

        /** Fails the future (the dataspace closed). */
        void fail(RuntimeException failure) {
            reply.completeExceptionally(failure);
        }

        /** Deregisters the request; harmless if it never registered. */
        void forget() {
            registry.deregister(path, this);
            registry.removeAsync(this);
        }
    }
}
