package io.github.volpex.checkpoint.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.estimators.SurvivalFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CapacityProportionalSelectorTest extends RepositorySelectorContract {

    @Override
    RepositorySelector selector(long seed) {
        return RepositorySelector.capacityProportional(new SplittableRandom(seed));
    }

    @Override
    boolean minimises() {
        return false;
    }

    @Override
    boolean needsCapacity() {
        return true;
    }

    @Test
    void a_single_host_is_drawn_with_probability_proportional_to_its_capacity() {
        long[] capacities = {100, 200, 300, 400, 1000};
        SelectionProblem problem = SelectionProblem.of(10, 1, 0, Fixtures.hostsWithCapacities(capacities),
                Objective.optimistic(1, 1, 1));
        RepositorySelector selector = RepositorySelector.capacityProportional(new SplittableRandom(7));
        long[] counts = new long[capacities.length];
        int draws = 20_000;
        for (int d = 0; d < draws; d++) {
            counts[Integer.parseInt(selector.select(problem).hostIds().get(0).substring(1))]++;
        }
        double[] expected = new double[capacities.length];
        for (int i = 0; i < capacities.length; i++) {
            expected[i] = draws * capacities[i] / 2000.0;
        }
        // χ²(4) has its 0.999 quantile at 18.5.
        assertTrue(Fixtures.chiSquare(counts, expected) < 18.5, Arrays.toString(counts));
    }

    @Test
    void draws_without_replacement_in_proportion_to_what_is_left() {
        // Two picks from capacities 1, 1, 2: P(host 2 included) = 1/2 + 2 · (1/4 · 2/3) = 5/6.
        SelectionProblem problem = SelectionProblem.of(1, 1, 1, Fixtures.hostsWithCapacities(1, 1, 2),
                Objective.optimistic(1, 1, 1));
        RepositorySelector selector = RepositorySelector.capacityProportional(new SplittableRandom(11));
        Map<String, Integer> counts = new HashMap<>();
        int draws = 30_000;
        for (int d = 0; d < draws; d++) {
            for (String id : selector.select(problem).hostIds()) {
                counts.merge(id, 1, Integer::sum);
            }
        }
        double share = counts.get("h2") / (double) draws;
        // Binomial standard error √(5/6 · 1/6 / 30000) ≈ 0.0022: five of them.
        assertEquals(5.0 / 6.0, share, 0.011);
    }

    @Test
    void rejects_a_null_generator() {
        assertThrows(NullPointerException.class, () -> RepositorySelector.capacityProportional(null));
    }

    @Test
    void needs_every_eligible_hosts_capacity() {
        List<StorageHost> hosts = new ArrayList<>(Fixtures.hostsWithCapacities(10, 10, 10));
        hosts.add(StorageHost.of("unknown", 1e6, SurvivalFunction.exponential(1e-5)));
        SelectionProblem problem = SelectionProblem.of(10, 2, 1, hosts, Objective.optimistic(1, 1, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> selector(1).select(problem));
        assertEquals("capacity-proportional selection needs every eligible host's capacityBytes: host unknown "
                + "has none", e.getMessage());
    }
}
