package io.github.volpex.checkpoint.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class UniformRandomSelectorTest extends RepositorySelectorContract {

    @Override
    RepositorySelector selector(long seed) {
        return RepositorySelector.uniformRandom(new SplittableRandom(seed));
    }

    @Override
    boolean minimises() {
        return false;
    }

    @Test
    void every_host_is_equally_likely_to_be_chosen() {
        // 10 hosts, 3 chosen: each is included with probability 3/10.
        List<StorageHost> hosts = Fixtures.hostsWithCapacities(10, 10, 10, 10, 10, 10, 10, 10, 10, 10);
        SelectionProblem problem = SelectionProblem.of(10, 2, 1, hosts, Objective.optimistic(1, 1, 1));
        RepositorySelector selector = RepositorySelector.uniformRandom(new SplittableRandom(2024));
        long[] counts = new long[10];
        int draws = 20_000;
        for (int d = 0; d < draws; d++) {
            for (String id : selector.select(problem).hostIds()) {
                counts[Integer.parseInt(id.substring(1))]++;
            }
        }
        double[] expected = new double[10];
        Arrays.fill(expected, draws * 0.3);
        // χ²(9) has its 0.999 quantile at 27.9.
        assertTrue(Fixtures.chiSquare(counts, expected) < 27.9, Arrays.toString(counts));
    }

    @Test
    void rejects_a_null_generator() {
        assertThrows(NullPointerException.class, () -> RepositorySelector.uniformRandom(null));
    }

    @Test
    void the_same_seed_gives_the_same_selection_and_another_seed_another() {
        SelectionProblem problem = Instances.problem(5, 40, 9);
        assertEquals(selector(1).select(problem), selector(1).select(problem));
        assertNotEquals(selector(1).select(problem).hostIds(), selector(2).select(problem).hostIds());
    }
}
