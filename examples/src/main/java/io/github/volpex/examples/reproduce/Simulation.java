package io.github.volpex.examples.reproduce;

import java.time.Instant;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * A discrete-event simulation in virtual time: events are scheduled at absolute times (seconds) and run in time order,
 * ties in scheduling order. Nothing sleeps; a simulated day costs only the events it holds.
 *
 * <p>The clock is exposed the way the library takes clocks: as an {@link InstantSource} and as a source of
 * nanoseconds, so estimators, aggregators and schedulers run unchanged on virtual time.
 *
 * <p>Not thread-safe: one simulation per thread.
 */
final class Simulation {

    /** A scheduled event; {@link #cancel()} makes it a no-op. */
    static final class Event {
        private final double timeSeconds;
        private final long sequence;
        private Runnable action;

        private Event(double timeSeconds, long sequence, Runnable action) {
            this.timeSeconds = timeSeconds;
            this.sequence = sequence;
            this.action = action;
        }

        double timeSeconds() {
            return timeSeconds;
        }

        boolean isPending() {
            return action != null;
        }

        void cancel() {
            action = null;
        }

        private boolean before(Event other) {
            return timeSeconds < other.timeSeconds
                    || (timeSeconds == other.timeSeconds && sequence < other.sequence);
        }
    }

    /** The instant that virtual time 0 stands for. */
    static final Instant EPOCH = Instant.parse("2008-01-07T00:00:00Z");

    private Event[] heap = new Event[64];
    private int size;
    private long nextSequence;
    private double now;
    private boolean stopped;
    private long eventsRun;

    /** Creates a simulation whose clock reads {@code startSeconds}. */
    Simulation(double startSeconds) {
        this.now = startSeconds;
    }

    /** Returns the current virtual time, in seconds. */
    double now() {
        return now;
    }

    /** Returns the number of events run so far. */
    long eventsRun() {
        return eventsRun;
    }

    /** Returns the virtual clock as an instant source ({@link #EPOCH} at time 0). */
    InstantSource instantSource() {
        return () -> {
            long micros = Math.round(now * 1e6);
            return EPOCH.plusSeconds(Math.floorDiv(micros, 1_000_000L))
                    .plusNanos(Math.floorMod(micros, 1_000_000L) * 1000L);
        };
    }

    /** Returns the virtual clock in nanoseconds (time 0 is 0 ns). */
    LongSupplier nanoTime() {
        return () -> Math.round(now * 1e9);
    }

    /** Schedules {@code action} at absolute time {@code timeSeconds} (not before now). */
    Event at(double timeSeconds, Runnable action) {
        if (!(timeSeconds >= now)) {
            throw new IllegalArgumentException("event time must be >= now " + now + ": " + timeSeconds);
        }
        Event event = new Event(timeSeconds, nextSequence++, action);
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!event.before(heap[parent])) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = event;
        return event;
    }

    /** Schedules {@code action} {@code delaySeconds} from now. */
    Event after(double delaySeconds, Runnable action) {
        return at(now + delaySeconds, action);
    }

    /** Stops {@link #run(double)} after the current event. */
    void stop() {
        stopped = true;
    }

    /**
     * Runs events in time order until {@link #stop()} is called, no event is left, or the next event lies after
     * {@code untilSeconds} (the clock then reads {@code untilSeconds}).
     */
    void run(double untilSeconds) {
        stopped = false;
        while (!stopped && size > 0) {
            Event next = heap[0];
            if (next.timeSeconds > untilSeconds) {
                now = untilSeconds;
                return;
            }
            removeFirst();
            if (next.action != null) {
                now = next.timeSeconds;
                Runnable action = next.action;
                next.action = null;
                eventsRun++;
                action.run();
            }
        }
        if (!stopped && untilSeconds != Double.POSITIVE_INFINITY) {
            now = Math.max(now, untilSeconds);
        }
    }

    private void removeFirst() {
        Event last = heap[--size];
        heap[size] = null;
        if (size == 0) {
            return;
        }
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heap[child + 1].before(heap[child])) {
                child++;
            }
            if (!heap[child].before(last)) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = last;
    }
}
