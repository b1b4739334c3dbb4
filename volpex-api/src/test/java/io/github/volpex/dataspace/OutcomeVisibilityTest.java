package io.github.volpex.dataspace;

import static io.github.volpex.dataspace.TestSupport.awaitBlocked;
import static io.github.volpex.dataspace.TestSupport.bytes;
import static io.github.volpex.dataspace.TestSupport.start;
import static io.github.volpex.dataspace.TestSupport.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.volpex.dataspace.TestSupport.Started;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A fixed schedule: a step on a tag that has decided a waiting read's outcome — a put that serves it, a cancel — is
 * held there, before the map holds the tag's new state. Meanwhile no way a caller can see the outcome may return it —
 * a trailing replica, a timed wait that runs out and looks again, the pending request the middleware asks for, a
 * restart from a checkpoint taken inside the call, {@code submit}, a cancel — since another process's {@code tryRead}
 * still finds the tag absent: a read that returned the value at that moment could not be placed in any serial order
 * (it would have to follow the put, and the {@code tryRead} that began after it would have to see the value). Such a
 * caller may wait for the step instead; once the step is over, every way shows the outcome and the {@code tryRead}
 * shows the value.
 */
// A hang guard only: every wait below is bounded.
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OutcomeVisibilityTest {

    private static final String TAG = "b5";
    private static final String VALUE = "p4.9";
    private static final String WAITING = "<waiting>";
    private static final String CANCELLED = "<cancelled>";
    private static final int READER = 0;
    private static final int AUDITOR = 3;
    private static final int PUTTER = 4;
    /**
     * The timed replica's first wait; doubled while a run tries nothing (see {@link TimedRead}), up to the last, which
     * stays below the 10 s a held step's observer is given to return or block.
     */
    private static final long FIRST_TIMEOUT_MILLIS = 200;
    private static final long LAST_TIMEOUT_MILLIS = 6_400;

    /** The ways a process's decided outcome reaches a caller. */
    enum Observer {
        /** A trailing replica issues the request with a zero timeout: it joins the request or reads the log. */
        TRAILING_REPLICA,
        /** A replica that joined the request before the put waits briefly, times out, and looks at the result again. */
        TIMED_WAIT,
        /** The middleware asks which request the process waits for. */
        PENDING_REQUEST,
        /** A replica restarts from a checkpoint that counted the waiting call as issued. */
        RESTART_INSIDE_CALL,
        /** A network front submits the request again. */
        SUBMIT,
        /** The middleware cancels the request: a cancel that comes too late returns the data. */
        CANCEL
    }

    @ParameterizedTest
    @EnumSource(Observer.class)
    void a_served_read_completes_no_earlier_than_the_step_of_the_put_that_serves_it(Observer observer)
            throws Exception {
        for (long timeoutMillis = FIRST_TIMEOUT_MILLIS; !servedRead(observer, timeoutMillis); timeoutMillis *= 2) {
            assertTrue(timeoutMillis < LAST_TIMEOUT_MILLIS, "the timed replica's wait of " + timeoutMillis
                    + " ms ran out before the step was even held, every time");
        }
    }

    /**
     * One run of the served read's schedule; a timed replica waits {@code timeoutMillis}. Returns false if the run
     * tried nothing: the timed replica's wait ran out (as it may) before the put's step decided the outcome.
     */
    private static boolean servedRead(Observer observer, long timeoutMillis) throws Exception {
        try (InProcessDataspace dataspace = (InProcessDataspace) Dataspace.inProcess(5)) {
            Started<String> blockedRead = start("reader", () -> text(dataspace.open(READER).read(TAG)));
            awaitBlocked(blockedRead.thread());
            // A replica that joins the read now, before the put, for the timed wait.
            TimedRead timed = null;
            Started<String> observing = null;
            if (observer == Observer.TIMED_WAIT) {
                timed = TimedRead.start(dataspace, timeoutMillis);
                observing = timed.started();
                if (!timed.awaitWaiting()) {
                    return false;
                }
            }
            Hold hold = new Hold();
            dataspace.decisionHook(hold);
            Started<Void> put = start("putter", () -> {
                dataspace.open(PUTTER).put(TAG, bytes(VALUE));
                return null;
            });
            try {
                hold.awaitHeld();
                if (timed != null && timed.ranOutBefore(hold)) {
                    return false;
                }
                if (observing == null) {
                    observing = start("observer", () -> observe(dataspace, observer));
                }
                assertUnfinishedWhileHeld(dataspace, observer + " of the read", observing);
            } finally {
                hold.release();
            }
            put.future().get(60, TimeUnit.SECONDS);
            assertEquals(VALUE, blockedRead.future().get(60, TimeUnit.SECONDS));
            assertEquals(VALUE, observing.future().get(60, TimeUnit.SECONDS),
                    observer + " once the put's step was over");
            assertEquals(VALUE, observe(dataspace, observer == Observer.TIMED_WAIT ? Observer.TRAILING_REPLICA
                    : observer), observer + " afterwards");
            Replica auditor = dataspace.open(AUDITOR, 1);
            assertEquals(Optional.of(VALUE), auditor.tryRead(TAG).map(TestSupport::text));
            return true;
        }
    }

    @Test
    void a_cancelled_read_completes_no_earlier_than_the_cancel_step() throws Exception {
        for (long timeoutMillis = FIRST_TIMEOUT_MILLIS; !cancelledRead(timeoutMillis); timeoutMillis *= 2) {
            assertTrue(timeoutMillis < LAST_TIMEOUT_MILLIS, "the timed replica's wait of " + timeoutMillis
                    + " ms ran out before the step was even held, every time");
        }
    }

    /** One run of the cancel's schedule, as {@link #servedRead}. */
    private static boolean cancelledRead(long timeoutMillis) throws Exception {
        try (InProcessDataspace dataspace = (InProcessDataspace) Dataspace.inProcess(5)) {
            Replica reader = dataspace.open(READER);
            assertThrows(DataspaceTimeoutException.class, () -> reader.read(TAG, Duration.ZERO));
            TimedRead timed = TimedRead.start(dataspace, timeoutMillis);
            Started<String> timedReplica = timed.started();
            if (!timed.awaitWaiting()) {
                return false;
            }
            Hold hold = new Hold();
            dataspace.decisionHook(hold);
            Started<Optional<Reply>> cancel = start("canceller", () -> dataspace.server().cancel(READER, 1));
            try {
                hold.awaitHeld();
                if (timed.ranOutBefore(hold)) {
                    return false;
                }
                assertUnfinishedWhileHeld(dataspace, "a timed wait of a replica on the read being cancelled",
                        timedReplica);
            } finally {
                hold.release();
            }
            assertEquals(Optional.empty(), cancel.future().get(60, TimeUnit.SECONDS));
            assertEquals(CANCELLED, timedReplica.future().get(60, TimeUnit.SECONDS));
            assertThrows(DataspaceCancelledException.class, () -> reader.read(TAG, Duration.ZERO));
            return true;
        }
    }

    /**
     * A replica of the reader that waits a while on the read. On a loaded machine the wait may run out before the step
     * under test has even decided the outcome, and then it rightly returns {@link #WAITING}: such a run tried nothing
     * and is run again with a longer wait. The wait's deadline is no earlier than the call's start (taken just before
     * it) plus the timeout; if that is after the step was held, the wait ran out while the step was held, and then it
     * must wait for the step and see the outcome.
     */
    private record TimedRead(Started<String> started, AtomicLong calledAtNanos, long timeoutNanos) {
        static TimedRead start(InProcessDataspace dataspace, long timeoutMillis) {
            AtomicLong called = new AtomicLong();
            Replica replica = dataspace.open(READER);
            Started<String> started = TestSupport.start("timed replica", () -> {
                called.set(System.nanoTime());
                return readOrWaiting(replica, Duration.ofMillis(timeoutMillis));
            });
            return new TimedRead(started, called, TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
        }

        /** Waits until the replica waits on the read; false if its wait ran out first (the run tries nothing). */
        boolean awaitWaiting() throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!started.future().isDone() && started.thread().getState() != Thread.State.WAITING
                    && started.thread().getState() != Thread.State.TIMED_WAITING) {
                if (System.nanoTime() > deadline) {
                    fail("the timed replica neither waited nor returned: " + started.thread().getState());
                }
                Thread.sleep(1);
            }
            if (started.future().isDone()) {
                assertEquals(WAITING, started.future().get(), "the timed replica before anything decided the read");
                return false;
            }
            return true;
        }

        /**
         * Once the step is held: waits until the replica has returned or waits for the step, and says whether it
         * returned {@link #WAITING} with a deadline that may have come before the step decided the outcome.
         */
        boolean ranOutBefore(Hold hold) throws Exception {
            awaitDoneOrBlocked(started);
            return started.future().isDone() && WAITING.equals(started.future().get())
                    && calledAtNanos.get() + timeoutNanos - hold.heldAtNanos <= 0;
        }
    }

    /**
     * While a step is held after deciding the read's outcome, the observing call may block (it waits for the step) but
     * must not return, and another process's try-read still finds the tag absent.
     */
    private static void assertUnfinishedWhileHeld(InProcessDataspace dataspace, String what, Started<String> observing)
            throws Exception {
        awaitDoneOrBlocked(observing);
        assertEquals(Optional.empty(), dataspace.open(AUDITOR).tryRead(TAG).map(TestSupport::text),
                "another process's tryRead while the step is held");
        if (observing.future().isDone() && !observing.future().get().equals(WAITING)) {
            fail(what + " returned " + observing.future().get() + " while the step that decided it was not complete "
                    + "and another process's tryRead still found " + TAG + " absent: no serial order explains both");
        }
        // This implementation makes the caller wait for the step (so that it cannot miss the outcome afterwards).
        assertFalse(observing.future().isDone(), () -> what + " returned while the step was held");
    }

    /** What the observer sees of process {@link #READER}'s first request: its value, or {@link #WAITING}. */
    private static String observe(InProcessDataspace dataspace, Observer observer) throws Exception {
        switch (observer) {
            case TRAILING_REPLICA, TIMED_WAIT -> {
                return readOrWaiting(dataspace.open(READER), Duration.ZERO);
            }
            case CANCEL -> {
                // Comes too late once the put's step is over: returns the data.
                return dataspace.server().cancel(READER, 1).map(r -> text(r.data().get())).orElse(CANCELLED);
            }
            case PENDING_REQUEST -> {
                return dataspace.server().pendingRequest(READER).isPresent() ? WAITING
                        : text(dataspace.open(READER).read(TAG, Duration.ZERO));
            }
            case RESTART_INSIDE_CALL -> {
                // A restart inside the call opens before it; once the call is complete, at its number.
                Replica restarted = dataspace.open(READER, 1);
                return restarted.requestNumber() == 0 ? WAITING
                        : text(dataspace.open(READER).read(TAG, Duration.ZERO));
            }
            case SUBMIT -> {
                CompletableFuture<Reply> reply = dataspace.server().submit(Request.read(READER, 1, TAG));
                if (!reply.isDone()) {
                    reply.cancel(false);
                    return WAITING;
                }
                return text(reply.get().data().get());
            }
            default -> throw new AssertionError(observer);
        }
    }

    private static String readOrWaiting(Replica replica, Duration timeout) throws InterruptedException {
        try {
            return text(replica.read(TAG, timeout));
        } catch (DataspaceTimeoutException stillWaiting) {
            return WAITING;
        } catch (DataspaceCancelledException cancelled) {
            return CANCELLED;
        }
    }

    /** Waits (polling, at most 10 s) until the started call has returned or its thread is blocked on a monitor. */
    private static void awaitDoneOrBlocked(Started<?> started) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!started.future().isDone() && started.thread().getState() != Thread.State.BLOCKED) {
            if (System.nanoTime() > deadline) {
                fail("thread " + started.thread().getName() + " neither returned nor blocked: "
                        + started.thread().getState());
            }
            Thread.sleep(1);
        }
    }

    /** The hook: holds the first step that decides an outcome until released; later steps pass. */
    private static final class Hold implements Runnable {
        private final CountDownLatch held = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private volatile long heldAtNanos;

        @Override
        public void run() {
            heldAtNanos = System.nanoTime();
            held.countDown();
            try {
                assertTrue(released.await(60, TimeUnit.SECONDS), "the test never released the step");
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new AssertionError(ex);
            }
        }

        void awaitHeld() throws InterruptedException {
            assertTrue(held.await(60, TimeUnit.SECONDS), "no step decided an outcome");
        }

        void release() {
            released.countDown();
        }
    }
}
