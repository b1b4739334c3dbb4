package io.github.volpex.checkpoint.interval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The scheduler under a clock that steps back and forward by seconds, as a wall clock that NTP corrects does: only
 * the time the clock moves forward counts. A step back never makes the time since the last checkpoint negative and
 * never postpones the next checkpoint by the step (the job would run that much longer unprotected); a step forward
 * counts as time passed (it cannot be told from it). Blocking time and latency count forward time as well.
 */
class SchedulerClockStepTest {

    private static final double NANOS_PER_SECOND = 1e9;
    private static final NiHarwoodEstimate ESTIMATE = new NiHarwoodEstimate(1.0 / 3600, 60.0, 120.0);

    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
    private final AdaptiveCheckpointScheduler scheduler =
            AdaptiveCheckpointScheduler.create(8, () -> Optional.of(ESTIMATE), nanos::get);

    private void step(double seconds) {
        nanos.addAndGet(Math.round(seconds * NANOS_PER_SECOND));
    }

    @Test
    void a_step_back_right_after_a_checkpoint_neither_goes_negative_nor_postpones_the_next() {
        double interval = scheduler.intervalSeconds();
        scheduler.checkpointCompleted();
        step(-5);
        assertEquals(0.0, scheduler.secondsSinceCheckpoint(), "time since the checkpoint after a step back");
        assertEquals(interval, scheduler.secondsUntilDue(), 1e-6);
        step(interval - 1);
        assertFalse(scheduler.checkpointDue());
        step(1);
        assertTrue(scheduler.checkpointDue(), "the step back postponed the checkpoint: "
                + scheduler.secondsUntilDue() + " s still to wait");
    }

    @Test
    void a_step_back_while_a_commit_persists_counts_as_no_time() {
        CompletableFuture<String> stage = new CompletableFuture<>();
        scheduler.checkpoint(() -> {
            step(3);
            return stage;
        });
        assertEquals(3.0, scheduler.blockingSeconds().orElseThrow(), 1e-9);
        step(-10);
        stage.complete("durable");
        // The latency is at least the blocking time it includes; the step back added nothing to it.
        assertEquals(3.0, scheduler.latencySeconds().orElseThrow(), 1e-9);
        assertEquals(0.0, scheduler.secondsSinceCheckpoint(), 1e-9);
        step(4);
        assertEquals(4.0, scheduler.secondsSinceCheckpoint(), 1e-9);
    }

    /**
     * Random steps of up to five seconds either way between readings: the time since the last checkpoint is the sum
     * of the forward steps since it, whatever the order of the steps, and a checkpoint is due exactly when that sum
     * reaches the interval.
     */
    @Property(tries = 200)
    void only_forward_steps_count(@ForAll @Size(min = 1, max = 60) java.util.List<@IntRange(min = -5000,
            max = 5000) Integer> stepsMillis, @ForAll @IntRange(min = 0, max = 59) int checkpointAt) {
        // jqwik runs every try on one instance: a clock and a scheduler of the try's own.
        AtomicLong clock = new AtomicLong(-2_000_000_000L);
        AdaptiveCheckpointScheduler scheduler =
                AdaptiveCheckpointScheduler.create(8, () -> Optional.of(ESTIMATE), clock::get);
        double forward = 0;
        for (int i = 0; i < stepsMillis.size(); i++) {
            if (i == checkpointAt) {
                scheduler.checkpointCompleted();
                forward = 0;
            }
            int millis = stepsMillis.get(i);
            clock.addAndGet(millis * 1_000_000L);
            // Every step is read: the scheduler sees each one.
            double since = scheduler.secondsSinceCheckpoint();
            forward += Math.max(0, millis) / 1000.0;
            assertTrue(since >= 0, "negative time since the checkpoint: " + since);
            assertEquals(forward, since, 1e-6, "after steps " + stepsMillis.subList(0, i + 1));
            assertEquals(forward >= scheduler.intervalSeconds() - 1e-9, scheduler.checkpointDue());
        }
    }
}
