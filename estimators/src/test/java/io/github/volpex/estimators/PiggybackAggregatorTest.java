package io.github.volpex.estimators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class PiggybackAggregatorTest {

    private final FakeClock clock = new FakeClock();

    private static PeerEstimate estimate(String peer, double rate, double v, double td, long observedSecond) {
        return new PeerEstimate(peer, rate, v, td, Instant.ofEpochSecond(observedSecond));
    }

    @Test
    void paper_mean_of_the_latest_estimate_per_peer() {
        PiggybackAggregator aggregator = PiggybackAggregator.builder(clock).aggregate(Aggregate.mean()).build();
        assertTrue(aggregator.global().isEmpty());
        assertEquals(PiggybackAggregator.Outcome.ACCEPTED, aggregator.offer(estimate("a", 1e-4, 20, 50, 1)));
        assertEquals(PiggybackAggregator.Outcome.ACCEPTED, aggregator.offer(estimate("b", 3e-4, 40, 70, 1)));
        assertEquals(PiggybackAggregator.Outcome.ACCEPTED, aggregator.offer(estimate("a", 2e-4, 30, 60, 2)));
        GlobalEstimate global = aggregator.global().orElseThrow();
        assertEquals(new GlobalEstimate(2.5e-4, 35, 65, 2), global);
        assertEquals(2e-4, aggregator.latest("a").orElseThrow().failureRatePerSecond());
    }

    @Test
    void a_late_older_estimate_does_not_replace_a_newer_one() {
        PiggybackAggregator aggregator = PiggybackAggregator.create(clock);
        aggregator.offer(estimate("a", 2e-4, 30, 60, 10));
        assertEquals(PiggybackAggregator.Outcome.OUTDATED, aggregator.offer(estimate("a", 9e-4, 1, 1, 5)));
        assertEquals(2e-4, aggregator.global().orElseThrow().failureRatePerSecond());
        assertEquals(1, aggregator.outdatedCount());
    }

    @Test
    void peers_not_heard_from_within_max_age_expire() {
        PiggybackAggregator aggregator = PiggybackAggregator.builder(clock).maxAge(Duration.ofMinutes(10)).build();
        aggregator.offer(estimate("a", 1e-4, 20, 50, 1));
        clock.advance(Duration.ofMinutes(6));
        aggregator.offer(estimate("b", 3e-4, 40, 70, 1));
        assertEquals(2, aggregator.peerCount());
        clock.advance(Duration.ofMinutes(4));
        assertEquals(2, aggregator.peerCount());
        clock.advanceSeconds(1);
        assertEquals(1, aggregator.peerCount());
        assertEquals(new GlobalEstimate(3e-4, 40, 70, 1), aggregator.global().orElseThrow());
        clock.advance(Duration.ofMinutes(10));
        assertTrue(aggregator.global().isEmpty());
        assertTrue(aggregator.latest("b").isEmpty());
    }

    @Test
    void an_age_limit_beyond_the_range_of_instants_never_expires() {
        PiggybackAggregator aggregator = PiggybackAggregator.builder(clock)
                .maxAge(ChronoUnit.FOREVER.getDuration()).build();
        assertEquals(PiggybackAggregator.Outcome.ACCEPTED, aggregator.offer(estimate("a", 1e-4, 20, 50, 1)));
        clock.advance(Duration.ofDays(365L * 200));
        assertEquals(new GlobalEstimate(1e-4, 20, 50, 1), aggregator.global().orElseThrow());
    }

    @Test
    void a_fresh_estimate_from_a_peer_renews_its_age() {
        PiggybackAggregator aggregator = PiggybackAggregator.builder(clock).maxAge(Duration.ofMinutes(10)).build();
        aggregator.offer(estimate("a", 1e-4, 20, 50, 1));
        aggregator.offer(estimate("b", 2e-4, 20, 50, 1));
        clock.advance(Duration.ofMinutes(8));
        aggregator.offer(estimate("a", 3e-4, 20, 50, 2));
        clock.advance(Duration.ofMinutes(5));
        // "b" (received 13 minutes ago) has expired, "a" (5 minutes ago) has not.
        assertEquals(1, aggregator.peerCount());
        assertEquals(3e-4, aggregator.latest("a").orElseThrow().failureRatePerSecond());
    }

    @Test
    void invalid_estimates_are_counted_not_averaged() {
        PiggybackAggregator aggregator = PiggybackAggregator.builder(clock).maxSeconds(3600)
                .maxFailureRatePerSecond(0.01).build();
        aggregator.offer(estimate("honest", 1e-4, 20, 50, 1));
        double[][] bad = {
            {Double.NaN, 1, 1}, {Double.POSITIVE_INFINITY, 1, 1}, {-1e-4, 1, 1}, {0, 1, 1}, {0.5, 1, 1},
            {1e-4, Double.NaN, 1}, {1e-4, -1, 1}, {1e-4, 7200, 1}, {1e-4, 1, Double.NEGATIVE_INFINITY},
            {1e-4, 1, 1e9}};
        for (int i = 0; i < bad.length; i++) {
            assertEquals(PiggybackAggregator.Outcome.INVALID,
                    aggregator.offer(estimate("liar" + i, bad[i][0], bad[i][1], bad[i][2], 1)));
        }
        assertEquals(bad.length, aggregator.invalidCount());
        assertEquals(new GlobalEstimate(1e-4, 20, 50, 1), aggregator.global().orElseThrow());
        // An invalid update from a known peer leaves its last valid estimate in place.
        aggregator.offer(estimate("honest", Double.NaN, 20, 50, 2));
        assertEquals(1e-4, aggregator.latest("honest").orElseThrow().failureRatePerSecond());
    }

    @Test
    void settings_are_checked() {
        assertThrows(NullPointerException.class, () -> PiggybackAggregator.create(null));
        assertThrows(IllegalArgumentException.class,
                () -> PiggybackAggregator.builder(clock).maxAge(Duration.ofSeconds(-1)));
        assertThrows(IllegalArgumentException.class, () -> PiggybackAggregator.builder(clock).maxSeconds(0));
        assertThrows(NullPointerException.class, () -> PiggybackAggregator.builder(clock).aggregate(null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Aggregate.trimmedMean(0.5));
        assertEquals("fraction must be in [0, 0.5): 0.5", e.getMessage());
        assertThrows(NullPointerException.class, () -> new PeerEstimate(null, 1, 1, 1, Instant.EPOCH));
        assertThrows(IllegalArgumentException.class, () -> Aggregate.median().apply());
    }

    @Test
    void aggregates_by_hand() {
        assertEquals(3.0, Aggregate.mean().apply(1, 2, 6));
        assertEquals(2.0, Aggregate.median().apply(6, 1, 2));
        assertEquals(2.5, Aggregate.median().apply(6, 1, 2, 3));
        // 10 values, 20% trimmed at each end: the 2 smallest and 2 largest go.
        assertEquals(4.5, Aggregate.trimmedMean(0.2).apply(1, 2, 3, 4, 5, 6, 7, 8, 100, -100), 1e-15);
        assertEquals(0, Aggregate.mean().tolerableLiars(9));
        assertEquals(4, Aggregate.median().tolerableLiars(9));
        assertEquals(4, Aggregate.median().tolerableLiars(10));
        assertEquals(2, Aggregate.trimmedMean(0.25).tolerableLiars(10));
        assertEquals("trimmedMean(0.25)", Aggregate.trimmedMean(0.25).toString());
    }

    @Test
    void finite_values_aggregate_to_a_finite_value_and_non_finite_ones_are_refused() {
        double max = Double.MAX_VALUE;
        assertEquals(max, Aggregate.mean().apply(max, max));
        assertEquals(max, Aggregate.median().apply(max, max, 1, max));
        assertEquals(0.0, Aggregate.median().apply(-max, max));
        double[] nineMaxAndZero = {max, max, max, max, max, max, max, max, max, 0};
        assertEquals(max, Aggregate.trimmedMean(0.1).apply(nineMaxAndZero), 1e-15 * max);
        assertEquals(Double.MIN_VALUE, Aggregate.median().apply(Double.MIN_VALUE, Double.MIN_VALUE));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Aggregate.median().apply(1, 2, Double.NaN));
        assertEquals("values[2] must be finite: NaN", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Aggregate.mean().apply(Double.NEGATIVE_INFINITY, 1));
        // Within generous limits, the aggregator's global estimate stays defined too.
        PiggybackAggregator aggregator = PiggybackAggregator.builder(clock).aggregate(Aggregate.mean())
                .maxSeconds(max).build();
        aggregator.offer(estimate("a", 1e-4, max, 0, 1));
        aggregator.offer(estimate("b", 1e-4, max, 0, 1));
        assertEquals(new GlobalEstimate(1e-4, max, 0, 2), aggregator.global().orElseThrow());
    }

    @Provide
    Arbitrary<Aggregate> aggregates() {
        return Arbitraries.of(Aggregate.mean(), Aggregate.median(), Aggregate.trimmedMean(0.1),
                Aggregate.trimmedMean(0.25), Aggregate.trimmedMean(0.4));
    }

    /**
     * The documented tolerance, checked: with up to {@code tolerableLiars(n)} peers sending the most extreme values
     * the limits allow, the global estimate stays within the honest peers' range. One liar more, and at the
     * extreme it does not (for a non-degenerate honest spread).
     */
    @Property(tries = 300)
    void each_aggregate_tolerates_the_documented_number_of_liars(
            @ForAll("aggregates") Aggregate aggregate,
            @ForAll @Size(min = 1, max = 30) List<@DoubleRange(min = 1, max = 1000) Double> honestMicros,
            @ForAll @IntRange(min = 0, max = 30) int liarsWanted, @ForAll boolean high) {
        List<Double> honest = honestMicros.stream().map(r -> r * 1e-6).toList();
        // The most liars, up to the number wanted, that the aggregate tolerates among all the peers.
        int liars = liarsWanted;
        while (liars > aggregate.tolerableLiars(honest.size() + liars)) {
            liars--;
        }
        PiggybackAggregator aggregator = PiggybackAggregator.builder(clock).aggregate(aggregate).build();
        for (int i = 0; i < honest.size(); i++) {
            aggregator.offer(estimate("h" + i, honest.get(i), 10, 10, 1));
        }
        for (int i = 0; i < liars; i++) {
            aggregator.offer(estimate("l" + i, high ? 1.0 : Double.MIN_VALUE, high ? 86_400 : 0, 0, 1));
        }
        double min = honest.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double max = honest.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        double rate = aggregator.global().orElseThrow().failureRatePerSecond();
        assertTrue(rate >= min * (1 - 1e-12) && rate <= max * (1 + 1e-12),
                () -> aggregate + ": " + rate + " outside [" + min + ", " + max + "]");
    }

    @Test
    void one_liar_more_than_tolerated_moves_every_aggregate_out_of_the_honest_range() {
        for (Aggregate aggregate : List.of(Aggregate.mean(), Aggregate.median(), Aggregate.trimmedMean(0.25))) {
            int honest = 7;
            int liars = aggregate.tolerableLiars(honest) + 1;
            while (aggregate.tolerableLiars(honest + liars) >= liars) {
                liars++;
            }
            PiggybackAggregator aggregator = PiggybackAggregator.builder(clock).aggregate(aggregate).build();
            for (int i = 0; i < honest; i++) {
                aggregator.offer(estimate("h" + i, 1e-4, 10, 10, 1));
            }
            for (int i = 0; i < liars; i++) {
                aggregator.offer(estimate("l" + i, 1.0, 10, 10, 1));
            }
            double rate = aggregator.global().orElseThrow().failureRatePerSecond();
            assertTrue(rate > 1e-4, () -> aggregate + " unmoved");
        }
    }

    @Property(tries = 200)
    void invalid_inputs_never_change_the_global_estimate(
            @ForAll @Size(min = 1, max = 20) List<@DoubleRange(min = 1, max = 1000) Double> honestMicros,
            @ForAll @Size(max = 20) List<@IntRange(min = 0, max = 5) Integer> badKinds) {
        List<Double> honest = honestMicros.stream().map(r -> r * 1e-6).toList();
        PiggybackAggregator aggregator = PiggybackAggregator.create(clock);
        for (int i = 0; i < honest.size(); i++) {
            aggregator.offer(estimate("h" + i, honest.get(i), 10, 10, 1));
        }
        GlobalEstimate before = aggregator.global().orElseThrow();
        double[] badValues = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -1, 0, 1e30};
        List<PiggybackAggregator.Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < badKinds.size(); i++) {
            double bad = badValues[badKinds.get(i)];
            outcomes.add(aggregator.offer(estimate("x" + i, bad, 10, 10, 1)));
            outcomes.add(aggregator.offer(estimate("h0", 1e-4, bad == 0 ? -1 : bad, 10, 2)));
        }
        assertEquals(before, aggregator.global().orElseThrow());
        assertFalse(outcomes.contains(PiggybackAggregator.Outcome.ACCEPTED));
        assertEquals(outcomes.size(), aggregator.invalidCount());
    }
}
