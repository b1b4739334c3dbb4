package snippets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.interval.AdaptiveCheckpointScheduler;
import io.github.volpex.checkpoint.interval.ClassicalIntervals;
import io.github.volpex.checkpoint.interval.NiHarwoodEstimateSource;
import io.github.volpex.checkpoint.interval.NiHarwoodModel;
import io.github.volpex.checkpoint.interval.RahmanSubhlokModel;
import io.github.volpex.checkpoint.interval.RenLookAhead;
import io.github.volpex.checkpoint.interval.VaidyaModel;
import io.github.volpex.estimators.PeerEstimate;
import io.github.volpex.estimators.PiggybackAggregator;
import io.github.volpex.estimators.SurvivalFunction;
import java.time.Instant;
import java.time.InstantSource;
import java.util.OptionalDouble;

/** checkpoint-core's tour of intervals: each value it computes is checked. */
final class IntervalsSnippet {
    static void run() {
        Instant at = Instant.parse("2026-11-22T06:00:00Z");
        PiggybackAggregator aggregator = PiggybackAggregator.create(InstantSource.fixed(at));
        aggregator.offer(new PeerEstimate("peer-7", 1.0 / 36_000, 60, 120, at));
        double now = 7_200;
        double lastCheckpoint = 3_600;
        //@snippet
        assertTrue(every > 0 && every < Math.sqrt(2 * 60 * 36_000.0 / 16), () -> "interval " + every);
        assertTrue(busy > 0 && busy < 1 && job.feasible());
        assertTrue(most >= 16);
        // The scheduler the fragment built runs on System::nanoTime: its first interval is 1/λ* of the same model.
        assertEquals(every, scheduler.intervalSeconds(), every * 1e-9);
        // t − t₀ must reach C / (1 − e^{−μδt}) ≈ 10 015 s, on the 30 s grid from now.
        assertEquals(now + Math.ceil((30 / -Math.expm1(-3e-3) - 3_600) / 30) * 30, next.orElseThrow(), 1e-9);
        assertEquals(837, seconds);
        assertTrue(tau > 0 && tau < replicated.meanTimeToInterruptionSeconds());
        assertTrue(host != null);
        // The latency does not move the optimum (the exact blocking one for C); a blocking commit of L costs more.
        assertEquals(ClassicalIntervals.exactIntervalSeconds(0.1, 3_600), period, period * 1e-12);
        assertEquals(Math.expm1((period + 1.8 + 120) / 3_600), lost, lost * 1e-12);
        assertTrue(lost < VaidyaModel.of(1.0 / 3_600, 1.8, 1.8, 120).optimalOverheadRatio());
    }
}
