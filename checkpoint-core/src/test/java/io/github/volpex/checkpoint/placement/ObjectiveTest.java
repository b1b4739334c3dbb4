package io.github.volpex.checkpoint.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.estimators.SurvivalFunction;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class ObjectiveTest {

    private static void assertMessage(String expected, Executable call) {
        assertEquals(expected, assertThrows(IllegalArgumentException.class, call).getMessage());
    }

    @Test
    void optimistic_weights_follow_equation_1() {
        Objective o = Objective.optimistic(7200, 600, 3600);
        assertEquals(12.0, o.networkWeight());
        assertEquals(10_800.0, o.reliabilityWeightSeconds());
        assertEquals(7200.0, o.horizonSeconds());
        assertEquals(12.0 * 5 - 10_800 * 0.5, o.value(5, 0.5));
        assertFalse(o.bypassesReliability());
    }

    @Test
    void pessimistic_weights_follow_equation_2() {
        Objective o = Objective.pessimistic(600, 3600, 0.25);
        assertEquals(1.0, o.networkWeight());
        assertEquals(900.0, o.reliabilityWeightSeconds());
        assertEquals(600.0, o.horizonSeconds());
    }

    @Test
    void pessimistic_uses_the_conditional_failure_probability_of_the_computation_host() {
        // Weibull with shape 2: TR(t) = exp(−(t/1000)²). At t = 1000, CI = 500: 1 − e^{−2.25}/e^{−1} = 1 − e^{−1.25}.
        SurvivalFunction weibull = Instances.weibull(1000, 2);
        Objective o = Objective.pessimistic(500, 100, weibull, 1000);
        assertEquals(100 * (1 - Math.exp(-1.25)), o.reliabilityWeightSeconds(), 1e-12);
        // The printed (1 − TR(t+CI))/TR(t) would exceed 1 here: (1 − e^{−2.25})/e^{−1} ≈ 2.44.
        assertTrue((1 - weibull.survival(1500)) / weibull.survival(1000) > 1.0);
    }

    @Test
    void bypasses_the_reliability_term_when_the_computation_host_will_survive() {
        assertTrue(Objective.pessimistic(600, 1e6, 0.0).bypassesReliability());
        assertTrue(Objective.pessimistic(600, 1e6, 1e-16).bypassesReliability());
        assertFalse(Objective.pessimistic(600, 1e6, 1e-14).bypassesReliability());
        assertTrue(Objective.pessimistic(600, 1e6, SurvivalFunction.exponential(0), 50).bypassesReliability());
        assertEquals(0.0, Objective.pessimistic(600, 0, 0.5).reliabilityWeightSeconds());
    }

    @Test
    void rejects_out_of_range_arguments() {
        assertMessage("computeMttfSeconds must be finite and > 0: 0.0", () -> Objective.optimistic(0, 1, 1));
        assertMessage("checkpointIntervalSeconds must be finite and > 0: NaN",
                () -> Objective.optimistic(1, Double.NaN, 1));
        assertMessage("usefulWorkSeconds must be finite and >= 0: -1.0", () -> Objective.optimistic(1, 1, -1));
        assertMessage("computeFailureProbability must be in [0, 1]: 1.5", () -> Objective.pessimistic(1, 1, 1.5));
        assertMessage("computeUptimeSeconds must be finite and >= 0: Infinity",
                () -> Objective.pessimistic(1, 1, SurvivalFunction.exponential(1), Double.POSITIVE_INFINITY));
        assertMessage("networkWeight must be finite and >= 0: -1.0", () -> Objective.of(-1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> Objective.optimistic(1e300, 1e-300, 0));
        assertThrows(NullPointerException.class, () -> Objective.pessimistic(1, 1, null, 0));
    }

    @Test
    void a_zero_network_weight_ignores_even_an_infinite_network_cost() {
        assertEquals(-2.5, Objective.of(0, 5, 10).value(Double.POSITIVE_INFINITY, 0.5));
        assertEquals(Double.POSITIVE_INFINITY, Objective.of(1, 5, 10).value(Double.POSITIVE_INFINITY, 0.5));
        // A selection over such hosts is still made, and evaluates to a number.
        List<StorageHost> hosts = List.of(
                StorageHost.of("slow", Double.MIN_VALUE, SurvivalFunction.exponential(1e-3)),
                StorageHost.of("fast", 1e6, SurvivalFunction.exponential(1e-6)),
                StorageHost.of("other", 1e6, SurvivalFunction.exponential(1e-2)));
        SelectionResult result = RepositorySelector.greedy()
                .select(SelectionProblem.of(1000, 1, 1, hosts, Objective.of(0, 5, 10)));
        assertEquals(Set.of("fast", "slow"), Set.copyOf(result.hostIds()));
        assertEquals(-5 * Math.exp(-1e-5) * Math.exp(-1e-2), result.objectiveValue(), 1e-12);
    }

    @Test
    void equal_weights_make_equal_objectives() {
        assertEquals(Objective.optimistic(100, 10, 5), Objective.optimistic(100, 10, 5));
        assertEquals(Objective.optimistic(100, 10, 5).hashCode(), Objective.optimistic(100, 10, 5).hashCode());
        assertNotEquals(Objective.optimistic(100, 10, 5), Objective.optimistic(100, 10, 6));
        assertNotEquals(Objective.of(1, 600, 600), Objective.pessimistic(600, 600, 1.0));
        assertEquals(Objective.of(0.0, 5, 0.0), Objective.of(-0.0, 5, -0.0));
        assertEquals(Objective.of(0.0, 5, 0.0).hashCode(), Objective.of(-0.0, 5, -0.0).hashCode());
        assertTrue(Objective.optimistic(100, 10, 5).toString().startsWith("Objective.optimistic[w=10.0"));
    }
}
