package io.github.volpex.examples.cluster;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The coordinator's events, handled one at a time on the thread that runs the loop: lines and exits of child JVMs,
 * the end of a failover. Any thread may {@link #post}; the rest runs on the loop's thread.
 */
final class EventLoop {

    /** The longest wait for an event, so that the loop's caller can do its timed work between events. */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final BlockingQueue<Runnable> events = new LinkedBlockingQueue<>();
    private RuntimeException failure;

    /**
     * Queues an event; thread-safe.
     *
     * @param event what to do on the loop's thread
     */
    void post(Runnable event) {
        events.add(event);
    }

    /**
     * Fails the run: the next {@link #runNext} throws {@code failure}.
     *
     * @param failure what went wrong
     */
    void fail(RuntimeException failure) {
        this.failure = failure;
    }

    /**
     * Waits for the next event (at most 50 ms) and handles it.
     *
     * @param deadlineNanos  when the run must have ended ({@link System#nanoTime()})
     * @param timeoutMessage what to say when the deadline has passed
     * @throws IllegalStateException if the deadline has passed
     * @throws RuntimeException      the failure an event reported through {@link #fail}
     * @throws InterruptedException  if interrupted while waiting
     */
    void runNext(long deadlineNanos, Supplier<String> timeoutMessage) throws InterruptedException {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw new IllegalStateException(timeoutMessage.get());
        }
        Runnable event = events.poll(Math.min(left, POLL_NANOS), TimeUnit.NANOSECONDS);
        if (event != null) {
            event.run();
        }
        if (failure != null) {
            throw failure;
        }
    }
}
