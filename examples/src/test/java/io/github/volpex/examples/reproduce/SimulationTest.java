package io.github.volpex.examples.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SimulationTest {

    @Test
    void events_run_in_time_order_and_ties_in_scheduling_order() {
        Simulation sim = new Simulation(0);
        List<String> order = new ArrayList<>();
        sim.at(5, () -> order.add("b"));
        sim.at(1, () -> order.add("a"));
        sim.at(5, () -> order.add("c"));
        sim.at(3, () -> sim.after(1, () -> order.add("inserted at 4")));
        sim.run(Double.POSITIVE_INFINITY);
        assertEquals(List.of("a", "inserted at 4", "b", "c"), order);
        assertEquals(5.0, sim.now());
        assertEquals(5, sim.eventsRun());
    }

    @Test
    void many_random_events_come_out_sorted() {
        Simulation sim = new Simulation(0);
        SplittableRandom random = new SplittableRandom(7);
        List<Double> seen = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            sim.at(random.nextDouble() * 1000, () -> seen.add(sim.now()));
        }
        sim.run(Double.POSITIVE_INFINITY);
        assertEquals(10_000, seen.size());
        for (int i = 1; i < seen.size(); i++) {
            assertFalse(seen.get(i) < seen.get(i - 1), "out of order at " + i);
        }
    }

    @Test
    void a_cancelled_event_does_not_run_and_stop_and_until_bound_the_run() {
        Simulation sim = new Simulation(0);
        List<String> order = new ArrayList<>();
        Simulation.Event cancelled = sim.at(1, () -> order.add("cancelled"));
        cancelled.cancel();
        sim.at(2, () -> {
            order.add("stop");
            sim.stop();
        });
        sim.at(3, () -> order.add("later"));
        sim.run(10);
        assertEquals(List.of("stop"), order);
        assertEquals(2.0, sim.now());
        sim.run(2.5);
        assertEquals(2.5, sim.now(), "the clock reads the bound when no event is due before it");
        sim.run(10);
        assertEquals(List.of("stop", "later"), order);
    }

    @Test
    void the_clock_is_exposed_as_instants_and_nanoseconds_of_virtual_time() {
        Simulation sim = new Simulation(-10);
        assertEquals(Simulation.EPOCH.minusSeconds(10), sim.instantSource().instant());
        sim.at(1.5, () -> { });
        sim.run(Double.POSITIVE_INFINITY);
        assertEquals(1_500_000_000L, sim.nanoTime().getAsLong());
        assertEquals(Duration.ofMillis(1500), Duration.between(Simulation.EPOCH, sim.instantSource().instant()));
    }

    @Test
    void scheduling_in_the_past_is_refused() {
        Simulation sim = new Simulation(5);
        assertThrows(IllegalArgumentException.class, () -> sim.at(4, () -> { }));
    }

    @Test
    void doubling_peer_lifetimes_shorten_as_the_rate_grows() {
        PeerLifetimes doubling = new PeerLifetimes(1 / 7200.0, 20 * 3600);
        SplittableRandom random = new SplittableRandom(1);
        double early = 0;
        double late = 0;
        for (int i = 0; i < 20_000; i++) {
            early += doubling.sample(0, random);
            late += doubling.sample(40 * 3600, random);
        }
        // at 40 h the rate is 4 times the initial one, so lifetimes are about 4 times shorter
        assertEquals(4.0, early / late, 0.4);
        PeerLifetimes constant = PeerLifetimes.constant(1 / 7200.0);
        double mean = 0;
        for (int i = 0; i < 20_000; i++) {
            mean += constant.sample(1e6, random) / 20_000;
        }
        assertEquals(7200, mean, 200);
    }
}
