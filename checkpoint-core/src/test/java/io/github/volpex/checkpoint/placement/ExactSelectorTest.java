package io.github.volpex.checkpoint.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ExactSelectorTest extends RepositorySelectorContract {

    @Override
    RepositorySelector selector(long seed) {
        return RepositorySelector.exact();
    }

    @Property(tries = 300)
    void matches_brute_force_enumeration(@ForAll long seed) {
        SelectionProblem problem = Instances.problem(seed, 13, 8);
        double exact = RepositorySelector.exact().select(problem).objectiveValue();
        double brute = Instances.bruteForceMinimum(problem);
        assertEquals(brute, exact, 1e-9 * (Math.abs(brute) + 1.0));
    }

    @Property(tries = 100)
    void matches_brute_force_with_preselected_hosts(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 5) int preselect) {
        SelectionProblem base = Instances.problem(seed, 13, 8);
        List<String> pre = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(seed);
        while (pre.size() < Math.min(preselect, base.hostsToSelect())) {
            String id = base.hosts().get(random.nextInt(base.hosts().size())).id();
            if (!pre.contains(id)) {
                pre.add(id);
            }
        }
        SelectionProblem problem = base.withPreselected(pre);
        double exact = RepositorySelector.exact().select(problem).objectiveValue();
        assertEquals(Instances.bruteForceMinimum(problem), exact, 1e-9 * (Math.abs(exact) + 1.0));
    }

    @Test
    void refuses_instances_too_large_to_enumerate() {
        SelectionProblem problem = SelectionProblem.of(1_000_000, 10, 10,
                Instances.hosts(new SplittableRandom(1), 60, false), Objective.optimistic(3600, 600, 100));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RepositorySelector.exact().select(problem));
        assertEquals("exact selection must consider at most 1e9 subsets: C(60, 20) = 4.19e+15; use greedy()",
                e.getMessage());
    }
}
