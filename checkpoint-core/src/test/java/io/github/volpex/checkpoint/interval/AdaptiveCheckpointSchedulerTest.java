package io.github.volpex.checkpoint.interval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.estimators.DownloadTimeEstimator;
import io.github.volpex.estimators.FailureRateEstimator;
import io.github.volpex.estimators.GlobalEstimate;
import io.github.volpex.estimators.PeerEstimate;
import io.github.volpex.estimators.PiggybackAggregator;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class AdaptiveCheckpointSchedulerTest {

    private final AtomicLong nanos = new AtomicLong(123_456_789L);
    private final AtomicReference<Optional<NiHarwoodEstimate>> latest = new AtomicReference<>(Optional.empty());
    private final AdaptiveCheckpointScheduler scheduler =
            AdaptiveCheckpointScheduler.create(8, latest::get, nanos::get);

    private void advanceSeconds(double seconds) {
        nanos.addAndGet(Math.round(seconds * 1e9));
    }

    @Test
    void nothing_is_due_while_no_estimate_is_known() {
        advanceSeconds(1e6);
        assertFalse(scheduler.checkpointDue());
        assertEquals(Double.POSITIVE_INFINITY, scheduler.intervalSeconds());
        assertTrue(scheduler.currentModel().isEmpty());
    }

    @Test
    void a_checkpoint_falls_due_after_the_optimal_interval() {
        NiHarwoodEstimate estimate = new NiHarwoodEstimate(1.0 / 3600, 60.0, 120.0);
        latest.set(Optional.of(estimate));
        double interval = estimate.model(8).optimalIntervalSeconds(); // about 180.27 s
        assertEquals(interval, scheduler.intervalSeconds());
        advanceSeconds(interval - 1);
        assertFalse(scheduler.checkpointDue());
        assertEquals(1.0, scheduler.secondsUntilDue(), 1e-6);
        advanceSeconds(1);
        assertTrue(scheduler.checkpointDue());
        scheduler.checkpointCompleted();
        assertFalse(scheduler.checkpointDue());
        assertEquals(0.0, scheduler.secondsSinceCheckpoint());
    }

    @Test
    void rising_failure_estimates_bring_the_next_checkpoint_forward() {
        latest.set(Optional.of(new NiHarwoodEstimate(1.0 / 36_000, 60.0, 120.0)));
        double calm = scheduler.intervalSeconds();
        advanceSeconds(calm / 2);
        assertFalse(scheduler.checkpointDue());
        // The peers start failing ten times as often: the interval shrinks below the time already elapsed.
        latest.set(Optional.of(new NiHarwoodEstimate(1.0 / 3600, 60.0, 120.0)));
        assertTrue(scheduler.intervalSeconds() < calm / 2, () -> scheduler.intervalSeconds() + " vs " + calm);
        assertTrue(scheduler.checkpointDue());
        // The estimates settle back: no longer due.
        latest.set(Optional.of(new NiHarwoodEstimate(1.0 / 36_000, 60.0, 120.0)));
        assertFalse(scheduler.checkpointDue());
    }

    @Test
    void peers_that_never_fail_never_need_a_checkpoint() {
        latest.set(Optional.of(new NiHarwoodEstimate(0.0, 60.0, 120.0)));
        advanceSeconds(1e9);
        assertFalse(scheduler.checkpointDue());
        assertEquals(Double.POSITIVE_INFINITY, scheduler.secondsUntilDue());
    }

    @Test
    void rejects_bad_arguments() {
        assertEquals("peers must be >= 1: 0", assertThrows(IllegalArgumentException.class,
                () -> AdaptiveCheckpointScheduler.create(0, latest::get, nanos::get)).getMessage());
        assertThrows(NullPointerException.class, () -> AdaptiveCheckpointScheduler.create(1, null, nanos::get));
        assertThrows(NullPointerException.class, () -> AdaptiveCheckpointScheduler.create(1, latest::get, null));
        assertEquals("checkpointOverheadSeconds must be finite and > 0: -1.0", assertThrows(
                IllegalArgumentException.class, () -> new NiHarwoodEstimate(1e-4, -1, 0)).getMessage());
    }

    @Test
    void wired_to_a_peers_own_estimators() {
        FailureRateEstimator failures = FailureRateEstimator.cumulative();
        AtomicReference<Double> overhead = new AtomicReference<>(0.0);
        DownloadTimeEstimator download = DownloadTimeEstimator.startingAt(45.0);
        AdaptiveCheckpointScheduler local = AdaptiveCheckpointScheduler.create(4,
                NiHarwoodEstimateSource.local(failures, overhead::get, download), nanos::get);
        advanceSeconds(1e6);
        // Nothing observed and no overhead measured yet: nothing to go on.
        assertFalse(local.checkpointDue());
        overhead.set(45.0);
        assertTrue(local.currentModel().isEmpty(), "no exposure yet");
        // 5000 s watched without a failure: the one-sided 95 % bound −ln(0.05)/5000, not a rate of 0.
        failures.recordCensored(5000);
        assertEquals(-Math.log(0.05) / 5000, local.currentModel().orElseThrow().failureRatePerSecond(), 1e-15);
        failures.recordFailure(3000);
        assertEquals(NiHarwoodModel.of(4, 1.0 / 8000, 45.0, 45.0), local.currentModel().orElseThrow());
        download.recordFirstImageDownload(90.0);
        assertEquals(NiHarwoodModel.of(4, 1.0 / 8000, 45.0, 90.0), local.currentModel().orElseThrow());
        assertTrue(local.checkpointDue());
        overhead.set(0.0);
        assertTrue(local.currentModel().isEmpty(), "a free checkpoint has no optimal interval");
    }

    @Test
    void wired_to_the_piggybacked_global_estimates() {
        PiggybackAggregator aggregator = PiggybackAggregator.create(InstantSource.fixed(Instant.EPOCH));
        AdaptiveCheckpointScheduler global =
                AdaptiveCheckpointScheduler.create(8, NiHarwoodEstimateSource.global(aggregator), nanos::get);
        assertTrue(global.currentModel().isEmpty());
        aggregator.offer(new PeerEstimate("a", 1.0 / 3600, 60.0, 120.0, Instant.EPOCH));
        aggregator.offer(new PeerEstimate("b", 1.0 / 7200, 30.0, 60.0, Instant.EPOCH));
        GlobalEstimate g = aggregator.global().orElseThrow();
        assertEquals(NiHarwoodModel.of(8, g.failureRatePerSecond(), g.overheadSeconds(), g.downloadSeconds()),
                global.currentModel().orElseThrow());
        assertEquals(g.peers(), 2);
    }
}
