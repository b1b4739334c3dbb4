package io.github.volpex.examples.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The time-left estimates: the first ones lean on the experiment's own estimate, so a few cheap (or slow, warming up)
 * first cells do not make them wild; as work completes, the measured pace takes over.
 */
class ProgressTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000_000L);
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final Progress progress = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), nanos::get);

    private void advance(double seconds) {
        nanos.addAndGet((long) (seconds * 1e9));
    }

    /** An experiment estimated at 100 s whose first 1% of the work takes 0.1 s (cheap cells), then 1 s per unit. */
    @Test
    void cheap_first_cells_do_not_make_the_first_estimate_tiny() {
        progress.startExperiment("x", 100, 50);
        progress.plan(100);
        advance(0.1);
        progress.done(1, "cell 1");
        double truth = 99;
        double first = progress.secondsLeftHere();
        assertTrue(first > truth / 2 && first < truth * 2, "first estimate " + first + " s, truth " + truth + " s");
        assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("[x]   1%  cell 1  -  about 1 min"),
                bytes.toString(StandardCharsets.UTF_8));
    }

    /** The same experiment whose first 1% takes 10 s (the JIT warming up), then 0.9 s per unit. */
    @Test
    void a_slow_first_cell_does_not_make_the_first_estimate_huge() {
        progress.startExperiment("x", 100, 50);
        progress.plan(100);
        advance(10);
        progress.done(1, "cell 1");
        double truth = 99 * 0.9;
        double first = progress.secondsLeftHere();
        assertTrue(first > truth / 2 && first < truth * 2, "first estimate " + first + " s, truth " + truth + " s");
        // The later experiments are scaled by the pace measured here, not left at their own estimate.
        assertTrue(progress.secondsLeftInAll() > first + 50, "in all: " + progress.secondsLeftInAll());
    }

    /** Whatever the experiment's own estimate, the measured pace decides once a quarter of the work is done. */
    @Test
    void the_measured_pace_takes_over() {
        progress.startExperiment("x", 10, 0);
        progress.plan(100);
        for (int i = 0; i < 25; i++) {
            advance(1);
            progress.done(1, "cell");
        }
        assertEquals(75, progress.secondsLeftHere(), 1e-6);
        for (int i = 0; i < 75; i++) {
            advance(1);
            progress.done(1, "cell");
        }
        assertEquals(0, progress.secondsLeftHere(), 1e-9);
    }
}
