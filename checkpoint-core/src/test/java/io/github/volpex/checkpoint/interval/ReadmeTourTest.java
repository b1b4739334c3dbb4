package io.github.volpex.checkpoint.interval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.estimators.PeerEstimate;
import io.github.volpex.estimators.PiggybackAggregator;
import io.github.volpex.estimators.SurvivalFunction;
import java.time.Instant;
import java.time.InstantSource;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The README's tour of this module, run as written (clocks fixed so the results can be checked). */
class ReadmeTourTest {

    @Test
    void the_tour_runs_as_written() {
        NiHarwoodModel job = NiHarwoodModel.of(16, 1.0 / 36_000, 60, 120);
        double every = job.optimalIntervalSeconds();
        double busy = job.optimalUtilization();
        int most = NiHarwoodModel.maxFeasiblePeers(1.0 / 36_000, 60, 120);
        assertTrue(every > 0 && every < Math.sqrt(2 * 60 * 36_000.0 / 16), () -> "interval " + every);
        assertTrue(busy > 0 && busy < 1 && job.feasible());
        assertTrue(most >= 16);

        Instant now0 = Instant.parse("2026-11-22T06:00:00Z");
        PiggybackAggregator aggregator = PiggybackAggregator.create(InstantSource.fixed(now0));
        aggregator.offer(new PeerEstimate("peer-7", 1.0 / 36_000, 60, 120, now0));
        AtomicLong nanos = new AtomicLong();
        AdaptiveCheckpointScheduler scheduler = AdaptiveCheckpointScheduler.create(16,
                NiHarwoodEstimateSource.global(aggregator), nanos::get);
        assertFalse(scheduler.checkpointDue());
        nanos.addAndGet((long) Math.ceil(every * 1e9));
        assertTrue(scheduler.checkpointDue());
        scheduler.checkpointCompleted();
        assertFalse(scheduler.checkpointDue());

        double now = 7_200;
        double lastCheckpoint = 3_600;
        RenLookAhead host = RenLookAhead.of(SurvivalFunction.exponential(1e-4), 30, 30);
        OptionalDouble next = host.nextCheckpointSeconds(now, lastCheckpoint, now + 86_400);
        // t − t₀ must reach C / (1 − e^{−μδt}) ≈ 10 015 s, on the 30 s grid from now.
        assertEquals(now + Math.ceil((30 / -Math.expm1(-3e-3) - 3_600) / 30) * 30, next.orElseThrow(), 1e-9);

        RahmanSubhlokModel replicated = RahmanSubhlokModel.of(SurvivalFunction.weibull(0.7, 20_000), 32, 3, 60);
        long seconds = replicated.optimalIntervalSeconds();
        double tau = ClassicalIntervals.exactIntervalSeconds(60, replicated.meanTimeToInterruptionSeconds());
        assertEquals(837, seconds);
        assertTrue(tau > 0 && tau < replicated.meanTimeToInterruptionSeconds());
    }
}
