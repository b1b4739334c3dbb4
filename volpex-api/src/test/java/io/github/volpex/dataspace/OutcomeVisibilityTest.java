package io.github.volpex.dataspace;

import static io.github.volpex.dataspace.TestSupport.awaitBlocked;
import static io.github.volpex.dataspace.TestSupport.bytes;
import static io.github.volpex.dataspace.TestSupport.start;
import static io.github.volpex.dataspace.TestSupport.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.volpex.dataspace.TestSupport.Started;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A fixed schedule: a put that serves a waiting read is held inside its step on the tag, after it has decided the
 * read's outcome and before the map holds the tag's new state. Meanwhile the read must look unfinished through every
 * way a caller can see an outcome — a trailing replica, a timed wait that runs out and looks again, the pending request
 * the middleware asks for, a restart from a checkpoint taken inside the call, {@code submit}'s future, a cancel — since
 * another process's {@code tryRead} still finds the tag absent: a read that returned the value at that moment could not
 * be placed in any serial order (it would have to follow the put, and the {@code tryRead} that began after it would have
 * to see the value). Once the put's step is over, every way shows the value and so does the {@code tryRead}.
 */
// A hang guard only: every wait below is bounded.
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OutcomeVisibilityTest {

    private static final String TAG = "b5";
    private static final String VALUE = "p4.9";
    private static final String WAITING = "<waiting>";
    private static final int READER = 0;
    private static final int AUDITOR = 3;
    private static final int PUTTER = 4;

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
        try (InProcessDataspace dataspace = (InProcessDataspace) Dataspace.inProcess(5)) {
            Started<String> blockedRead = start("reader", () -> text(dataspace.open(READER).read(TAG)));
            awaitBlocked(blockedRead.thread());
            // A replica that joins the read now, before the put, for the timed wait.
            Started<String> timedReplica = null;
            if (observer == Observer.TIMED_WAIT) {
                timedReplica = start("timed replica", () -> readOrWaiting(dataspace.open(READER),
                        Duration.ofMillis(200)));
                awaitBlocked(timedReplica.thread());
            }
            Hold hold = new Hold();
            dataspace.decisionHook(hold);
            Started<Void> put = start("putter", () -> {
                dataspace.open(PUTTER).put(TAG, bytes(VALUE));
                return null;
            });
            try {
                whileHeld(dataspace, observer, hold, timedReplica);
            } finally {
                hold.release();
            }
            put.future().get(60, TimeUnit.SECONDS);
            assertEquals(VALUE, blockedRead.future().get(60, TimeUnit.SECONDS));
            String after = observer == Observer.CANCEL ? cancelAnswer(dataspace) : observe(dataspace, observer);
            assertEquals(VALUE, after, observer + " once the put's step is over");
            Replica auditor = dataspace.open(AUDITOR, 1);
            assertEquals(Optional.of(VALUE), auditor.tryRead(TAG).map(TestSupport::text));
        }
    }

    /** Observes while the put is held inside its step: the read must look unfinished, the tag still absent. */
    private static void whileHeld(InProcessDataspace dataspace, Observer observer, Hold hold,
            Started<String> timedReplica) throws Exception {
        hold.awaitHeld();
        String whileHeld;
        if (observer == Observer.TIMED_WAIT) {
            whileHeld = timedReplica.future().get(60, TimeUnit.SECONDS);
        } else if (observer == Observer.CANCEL) {
            // The cancel comes too late: once the put's step is over it returns the data (and then again below).
            Started<String> cancel = start("canceller", () -> cancelAnswer(dataspace));
            awaitDoneOrBlocked(cancel);
            whileHeld = cancel.future().isDone() ? cancel.future().get() : WAITING;
        } else {
            whileHeld = observe(dataspace, observer);
        }
        Optional<byte[]> tryRead = dataspace.open(AUDITOR).tryRead(TAG);
        assertEquals(Optional.empty(), tryRead.map(TestSupport::text),
                "another process's tryRead while the put is inside its step");
        String seen = whileHeld;
        assertEquals(WAITING, seen, () -> observer + " saw the read complete with " + seen
                + " while the put serving it was inside its step and another process's tryRead still found "
                + TAG + " absent: no serial order explains both");
    }

    /** A cancel of the read, started while the put was held; see {@link #whileHeld}. */
    private static String cancelAnswer(InProcessDataspace dataspace) throws Exception {
        return dataspace.server().cancel(READER, 1).map(r -> text(r.data().get())).orElse("<cancelled>");
    }

    @Test
    void a_cancelled_read_completes_no_earlier_than_the_cancel_step() throws Exception {
        try (InProcessDataspace dataspace = (InProcessDataspace) Dataspace.inProcess(5)) {
            Replica reader = dataspace.open(READER);
            assertThrows(DataspaceTimeoutException.class, () -> reader.read(TAG, Duration.ZERO));
            Started<String> timedReplica = start("timed replica", () -> readOrWaiting(dataspace.open(READER),
                    Duration.ofMillis(200)));
            awaitBlocked(timedReplica.thread());
            Hold hold = new Hold();
            dataspace.decisionHook(hold);
            Started<Optional<Reply>> cancel = start("canceller", () -> dataspace.server().cancel(READER, 1));
            try {
                hold.awaitHeld();
                assertEquals(WAITING, timedReplica.future().get(60, TimeUnit.SECONDS),
                        "a replica saw the read cancelled while the cancel was inside its step");
            } finally {
                hold.release();
            }
            assertEquals(Optional.empty(), cancel.future().get(60, TimeUnit.SECONDS));
            assertThrows(DataspaceCancelledException.class, () -> reader.read(TAG, Duration.ZERO));
        }
    }

    /** What the observer sees of process {@link #READER}'s first request: its value, or {@link #WAITING}. */
    private static String observe(InProcessDataspace dataspace, Observer observer) throws Exception {
        switch (observer) {
            case TRAILING_REPLICA:
            case TIMED_WAIT:
                return readOrWaiting(dataspace.open(READER), Duration.ZERO);
            case PENDING_REQUEST:
                return dataspace.server().pendingRequest(READER).isPresent() ? WAITING
                        : text(dataspace.open(READER).read(TAG, Duration.ZERO));
            case RESTART_INSIDE_CALL:
                // A restart inside the call opens before it; once the call is complete, at its number.
                Replica restarted = dataspace.open(READER, 1);
                return restarted.requestNumber() == 0 ? WAITING : text(dataspace.open(READER).read(TAG, Duration.ZERO));
            case SUBMIT:
                CompletableFuture<Reply> reply = dataspace.server().submit(Request.read(READER, 1, TAG));
                if (!reply.isDone()) {
                    reply.cancel(false);
                    return WAITING;
                }
                return text(reply.get().data().get());
            default:
                throw new AssertionError(observer);
        }
    }

    private static String readOrWaiting(Replica replica, Duration timeout) throws InterruptedException {
        try {
            return text(replica.read(TAG, timeout));
        } catch (DataspaceTimeoutException stillWaiting) {
            return WAITING;
        } catch (DataspaceCancelledException cancelled) {
            return "<cancelled>";
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

        @Override
        public void run() {
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
