package io.github.volpex.checkpoint.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.estimators.SurvivalFunction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class GreedySelectorTest extends RepositorySelectorContract {

    @Override
    RepositorySelector selector(long seed) {
        return RepositorySelector.greedy();
    }

    @Property(tries = 300)
    void is_never_worse_than_the_mean_of_uniform_random_selection(@ForAll long seed) {
        SelectionProblem problem = Instances.problem(seed, 60, 24);
        double greedy = RepositorySelector.greedy().select(problem).objectiveValue();
        double random = Instances.uniformRandomMean(problem);
        assertTrue(greedy <= random + 1e-9 * Math.abs(random), greedy + " > " + random);
    }

    @Property(tries = 200)
    void is_never_better_than_the_exact_optimum(@ForAll long seed) {
        SelectionProblem problem = Instances.problem(seed, 16, 10);
        double greedy = RepositorySelector.greedy().select(problem).objectiveValue();
        double exact = RepositorySelector.exact().select(problem).objectiveValue();
        assertTrue(exact <= greedy + 1e-9 * (Math.abs(greedy) + 1.0), exact + " > " + greedy);
    }

    @Property(tries = 200)
    void with_the_reliability_term_bypassed_returns_the_cheapest_hosts(@ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<StorageHost> hosts = Instances.hosts(random, 40, false);
        SelectionProblem problem = SelectionProblem.of(100_000_000L, 6, 3, hosts, Objective.pessimistic(600, 1e5, 0.0));
        assertTrue(problem.objective().bypassesReliability());
        List<String> cheapest = hosts.stream()
                .sorted(Comparator.comparingDouble(h -> 1.0 / h.bandwidthBytesPerSecond()))
                .limit(9).map(StorageHost::id).toList();
        assertEquals(cheapest, RepositorySelector.greedy().select(problem).hostIds());
    }

    @Test
    void trades_bandwidth_for_reliability_as_the_work_at_stake_grows() {
        // Ten fast hosts that fail often and ten slow hosts that almost never fail.
        List<StorageHost> hosts = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            hosts.add(StorageHost.of("fast" + i, 1e8, SurvivalFunction.exponential(1.0 / 3_600)));
            hosts.add(StorageHost.of("safe" + i, 1e6, SurvivalFunction.exponential(1.0 / 3_600_000)));
        }
        long bytes = 60_000_000L; // 10 MB fragments: 0.1 s on a fast host, 10 s on a safe one
        SelectionProblem littleAtStake = SelectionProblem.of(bytes, 6, 3, hosts,
                Objective.pessimistic(3_600, 10.0, 0.5));
        SelectionProblem muchAtStake = littleAtStake.withObjective(Objective.pessimistic(3_600, 1e6, 0.5));
        assertTrue(RepositorySelector.greedy().select(littleAtStake).hostIds().stream()
                .allMatch(id -> id.startsWith("fast")));
        assertTrue(RepositorySelector.greedy().select(muchAtStake).hostIds().stream()
                .allMatch(id -> id.startsWith("safe")));
    }

    @Test
    void bootstraps_with_hosts_that_are_both_cheap_and_reliable() {
        // h0..h2 are the cheapest and the most reliable: the bootstrap takes them, in network-cost order.
        List<StorageHost> hosts = new ArrayList<>();
        hosts.add(StorageHost.of("h0", 3e7, SurvivalFunction.exponential(1e-7)));
        hosts.add(StorageHost.of("h1", 5e7, SurvivalFunction.exponential(2e-7)));
        hosts.add(StorageHost.of("h2", 4e7, SurvivalFunction.exponential(3e-7)));
        for (int i = 3; i < 10; i++) {
            hosts.add(StorageHost.of("h" + i, 1e6 * i, SurvivalFunction.exponential(1e-4 * i)));
        }
        SelectionProblem problem = SelectionProblem.of(10_000_000, 2, 1, hosts, Objective.optimistic(7200, 600, 1e4));
        assertEquals(List.of("h1", "h2", "h0"), RepositorySelector.greedy().select(problem).hostIds());
    }

    @Test
    void breaks_ties_by_listing_order() {
        List<StorageHost> hosts = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            hosts.add(StorageHost.of("h" + i, 1e6, SurvivalFunction.exponential(1e-5)));
        }
        SelectionProblem problem = SelectionProblem.of(1_000_000, 2, 1, hosts, Objective.optimistic(3600, 600, 100));
        assertEquals(List.of("h0", "h1", "h2"), RepositorySelector.greedy().select(problem).hostIds());
    }
}
