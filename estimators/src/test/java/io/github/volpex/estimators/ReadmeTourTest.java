package io.github.volpex.estimators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The README's tour of this module, run as written (the clock fixed so the result can be checked). */
class ReadmeTourTest {

    @Test
    void the_tour_runs_as_written() {
        FailureRateEstimator mu = FailureRateEstimator.lastFailures(20);
        mu.recordFailure(5_400);
        mu.recordCensored(7_200);
        RateEstimate estimate = mu.estimate();
        double rate = estimate.isEmpty()
                ? estimate.upperBoundPerSecond(0.95)
                : estimate.ratePerSecond();
        RateInterval ci = estimate.confidenceInterval(0.95);
        assertEquals(1.0 / 12_600, rate, 1e-18);
        assertTrue(ci.contains(rate));

        NeighbourFailures gossip = NeighbourFailures.create(10_000, o -> mu.recordFailure(o.lifetimeSeconds()));
        gossip.offer(new FailureObservation("peer-3", Instant.EPOCH, Instant.ofEpochSecond(600)));
        assertEquals(2.0, mu.estimate().failures());

        CheckpointOverhead v = CheckpointOverhead.measure(0.9, 0.81, 10_000, 8_500, 600, 5);
        DownloadTimeEstimator td = DownloadTimeEstimator.startingAt(v.seconds());
        assertEquals(15.0, td.seconds(), 1e-12);

        Instant observedAt = Instant.parse("2026-11-22T06:00:00Z");
        PiggybackAggregator global = PiggybackAggregator.create(InstantSource.fixed(observedAt));
        global.offer(new PeerEstimate("peer-7", 1.4e-4, 18.0, 41.0, observedAt));
        Optional<GlobalEstimate> g = global.global();
        assertEquals(new GlobalEstimate(1.4e-4, 18.0, 41.0, 1), g.orElseThrow());
    }
}
