package io.github.volpex.estimators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class NeighbourFailuresTest {

    private static FailureObservation failure(String peer, long start, long end) {
        return new FailureObservation(peer, Instant.ofEpochSecond(start), Instant.ofEpochSecond(end));
    }

    @Test
    void one_failure_heard_from_three_peers_counts_once() {
        FailureRateEstimator mu = FailureRateEstimator.cumulative();
        NeighbourFailures gossip = NeighbourFailures.create(100, o -> mu.recordFailure(o.lifetimeSeconds()));
        assertTrue(gossip.offer(failure("p", 0, 3600)));
        assertFalse(gossip.offer(failure("p", 0, 3600)));
        assertFalse(gossip.offer(failure("p", 0, 3601)));
        // The same peer's next session is a different failure.
        assertTrue(gossip.offer(failure("p", 4000, 5800)));
        assertEquals(new RateEstimate(2, 5400), mu.estimate());
        assertEquals(2, gossip.forwardedCount());
        assertEquals(2, gossip.duplicateCount());
    }

    @Test
    void memory_is_bounded_by_capacity() {
        List<FailureObservation> forwarded = new ArrayList<>();
        NeighbourFailures gossip = NeighbourFailures.create(2, forwarded::add);
        gossip.offer(failure("a", 0, 10));
        gossip.offer(failure("b", 0, 10));
        gossip.offer(failure("c", 0, 10));
        // "a" was forgotten: a duplicate that arrives this late counts again, as documented.
        assertTrue(gossip.offer(failure("a", 0, 10)));
        assertFalse(gossip.offer(failure("c", 0, 10)));
        assertEquals(4, forwarded.size());
    }

    @Test
    void an_observation_the_sink_refuses_is_not_lost_as_a_duplicate() {
        List<FailureObservation> forwarded = new ArrayList<>();
        boolean[] refuse = {true};
        NeighbourFailures gossip = NeighbourFailures.create(10, o -> {
            if (refuse[0]) {
                throw new IllegalStateException("sink unavailable");
            }
            forwarded.add(o);
        });
        assertThrows(IllegalStateException.class, () -> gossip.offer(failure("a", 0, 10)));
        refuse[0] = false;
        assertTrue(gossip.offer(failure("a", 0, 10)));
        assertEquals(1, forwarded.size());
        assertEquals(1, gossip.forwardedCount());
    }

    @Test
    void a_refused_observation_does_not_push_a_remembered_one_out() {
        List<FailureObservation> forwarded = new ArrayList<>();
        NeighbourFailures gossip = NeighbourFailures.create(1, o -> {
            if (o.peerId().equals("refused")) {
                throw new IllegalStateException("sink unavailable");
            }
            forwarded.add(o);
        });
        assertTrue(gossip.offer(failure("a", 0, 10)));
        assertThrows(IllegalStateException.class, () -> gossip.offer(failure("refused", 0, 10)));
        assertFalse(gossip.offer(failure("a", 0, 10)), "the failure of a is still remembered");
        assertEquals(1, forwarded.size());
    }

    @Test
    void bad_observations_are_rejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> failure("a", 10, 10));
        assertEquals("failedAt must be after sessionStart (1970-01-01T00:00:10Z): 1970-01-01T00:00:10Z",
                e.getMessage());
        assertThrows(NullPointerException.class, () -> new FailureObservation(null, Instant.EPOCH, Instant.MAX));
        assertThrows(IllegalArgumentException.class, () -> NeighbourFailures.create(0, o -> { }));
        assertEquals(1.5, new FailureObservation("a", Instant.EPOCH, Instant.ofEpochMilli(1500)).lifetimeSeconds());
    }

    /** Whatever order the duplicates arrive in, the same failures are forwarded, each once. */
    @Property(tries = 300)
    void dedup_is_order_independent(
            @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 15) Integer> reports,
            @ForAll long shuffleSeed) {
        // Report i names peer (i mod 4) and session i / 4: many repeats of few failures.
        List<FailureObservation> inOrder = new ArrayList<>();
        for (int r : reports) {
            inOrder.add(failure("p" + (r % 4), 1000L * (r / 4), 1000L * (r / 4) + 100 + r % 4));
        }
        List<FailureObservation> shuffled = new ArrayList<>(inOrder);
        Collections.shuffle(shuffled, new Random(shuffleSeed));
        Set<FailureObservation> first = forward(inOrder);
        Set<FailureObservation> second = forward(shuffled);
        assertEquals(first, second);
        assertEquals(new HashSet<>(inOrder), first);
    }

    private static Set<FailureObservation> forward(List<FailureObservation> observations) {
        List<FailureObservation> forwarded = new ArrayList<>();
        NeighbourFailures gossip = NeighbourFailures.create(1000, forwarded::add);
        observations.forEach(gossip::offer);
        Set<FailureObservation> distinct = new HashSet<>(forwarded);
        assertEquals(distinct.size(), forwarded.size(), "a failure was forwarded twice");
        return distinct;
    }
}
