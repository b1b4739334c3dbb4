package snippets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.estimators.CheckpointOverhead;
import io.github.volpex.estimators.DownloadTimeEstimator;
import io.github.volpex.estimators.FailureObservation;
import io.github.volpex.estimators.FailureRateEstimator;
import io.github.volpex.estimators.GlobalEstimate;
import io.github.volpex.estimators.NeighbourFailures;
import io.github.volpex.estimators.PeerEstimate;
import io.github.volpex.estimators.PiggybackAggregator;
import io.github.volpex.estimators.RateEstimate;
import io.github.volpex.estimators.RateInterval;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;

/** The estimators' tour, run on a fixed clock: each value it computes is checked. */
final class EstimatorsSnippet {
    static void run() {
        Instant observedAt = Instant.parse("2026-11-22T06:00:00Z");
        InstantSource clock = InstantSource.fixed(observedAt);
        //@snippet
        assertEquals(1.0 / 12_600, rate, 1e-18);
        assertTrue(ci.contains(rate));
        gossip.offer(new FailureObservation("peer-3", Instant.EPOCH, Instant.ofEpochSecond(600)));
        assertEquals(2.0, mu.estimate().failures());
        assertEquals(15.0, td.seconds(), 1e-12);
        assertEquals(new GlobalEstimate(1.4e-4, 18.0, 41.0, 1), g.orElseThrow());
        assertTrue(global != null && clock != null);
    }
}
