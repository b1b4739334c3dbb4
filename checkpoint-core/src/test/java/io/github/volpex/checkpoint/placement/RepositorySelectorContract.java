package io.github.volpex.checkpoint.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.estimators.SurvivalFunction;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The contract every {@link RepositorySelector} honours; one subclass per implementation. */
abstract class RepositorySelectorContract {

    /** A fresh selector (random ones seeded). */
    abstract RepositorySelector selector(long seed);

    /** Whether the selector needs every eligible host's capacity. */
    boolean needsCapacity() {
        return false;
    }

    /** Whether the selector minimises the objective (the random baselines do not). */
    boolean minimises() {
        return true;
    }

    private SelectionProblem problem(long seed, int maxHosts, int maxSelected) {
        SelectionProblem p = Instances.problem(seed, maxHosts, maxSelected);
        if (!needsCapacity()) {
            return p;
        }
        SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
        List<StorageHost> hosts = new ArrayList<>();
        for (StorageHost h : p.hosts()) {
            hosts.add(StorageHost.of(h.id(), h.bandwidthBytesPerSecond(), h.reliability(),
                    p.fragmentBytes() + random.nextLong(1L << 30)));
        }
        return SelectionProblem.of(p.checkpointBytes(), p.m(), p.k(), hosts, p.objective());
    }

    @Property(tries = 200)
    void returns_exactly_m_plus_k_distinct_eligible_candidates(@ForAll long seed) {
        SelectionProblem problem = problem(seed, 30, 12);
        SelectionResult result = selector(seed).select(problem);
        assertEquals(problem.hostsToSelect(), result.hosts().size());
        Set<String> ids = new HashSet<>(result.hostIds());
        assertEquals(problem.hostsToSelect(), ids.size());
        for (StorageHost host : result.hosts()) {
            assertTrue(problem.hosts().contains(host), host.id());
            assertTrue(problem.isEligible(host), host.id());
        }
    }

    @Property(tries = 200)
    void the_result_is_the_problems_own_evaluation_of_the_chosen_hosts(@ForAll long seed) {
        SelectionProblem problem = problem(seed, 25, 10);
        SelectionResult result = selector(seed).select(problem);
        SelectionResult again = problem.evaluate(result.hosts());
        assertEquals(again, result);
        double network = 0.0;
        double product = 1.0;
        double tau = problem.objective().horizonSeconds();
        for (StorageHost host : result.hosts()) {
            network += (double) problem.fragmentBytes() / host.bandwidthBytesPerSecond();
            product *= host.reliability().survival(tau);
        }
        assertEquals(network, result.networkCostSeconds(), 1e-9 * network);
        assertEquals(product, result.reliabilityProduct(), 1e-12);
        assertEquals(problem.objective().value(network, product), result.objectiveValue(),
                1e-9 * (Math.abs(result.objectiveValue()) + 1.0));
    }

    @Property(tries = 100)
    void preselected_hosts_come_first_and_the_rest_are_chosen_around_them(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 12) int preselectCount) {
        SelectionProblem base = problem(seed, 25, 12);
        int count = Math.min(preselectCount, base.hostsToSelect());
        List<String> pre = new ArrayList<>();
        for (int i = base.hosts().size() - 1; pre.size() < count; i--) {
            pre.add(base.hosts().get(i).id());
        }
        SelectionProblem problem = base.withPreselected(pre);
        SelectionResult result = selector(seed).select(problem);
        assertEquals(pre, result.hostIds().subList(0, count));
        assertEquals(problem.hostsToSelect(), new HashSet<>(result.hostIds()).size());
    }

    @Test
    void never_selects_a_host_without_room_for_a_fragment() {
        List<StorageHost> hosts = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            // The fastest, most reliable hosts have too little room for a 1000-byte fragment.
            long capacity = i < 6 ? 999 : 5_000 + i;
            hosts.add(StorageHost.of("h" + i, i < 6 ? 1e9 : 1e6, SurvivalFunction.exponential(i < 6 ? 0 : 1e-4),
                    capacity));
        }
        SelectionProblem problem = SelectionProblem.of(3000, 3, 2, hosts, Objective.optimistic(3600, 600, 1e4));
        assertEquals(6, problem.eligibleHosts());
        SelectionResult result = selector(1).select(problem);
        for (StorageHost host : result.hosts()) {
            assertTrue(host.capacityBytes().getAsLong() >= 1000, host.id());
        }
    }

    @Test
    void when_exactly_m_plus_k_hosts_are_eligible_all_of_them_are_chosen() {
        SelectionProblem problem = problem(42, 9, 9);
        SelectionProblem tight = SelectionProblem.of(problem.checkpointBytes(), problem.m(), problem.k(),
                problem.hosts().subList(0, problem.hostsToSelect()), problem.objective());
        SelectionResult result = selector(7).select(tight);
        assertEquals(new HashSet<>(tight.hosts()), new HashSet<>(result.hosts()));
    }

    @Test
    void chooses_hosts_whose_network_cost_overflows_when_it_must() {
        // A fragment over a subnormal bandwidth costs +∞ seconds, yet the host is eligible and the problem needs it.
        List<StorageHost> hosts = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            hosts.add(StorageHost.of("h" + i, i < 3 ? 1e6 : Double.MIN_VALUE, SurvivalFunction.exponential(1e-4),
                    1L << 30));
        }
        SelectionProblem problem = SelectionProblem.of(1000, 2, 2, hosts, Objective.optimistic(3600, 600, 1e4));
        SelectionResult result = selector(5).select(problem);
        assertEquals(4, new HashSet<>(result.hostIds()).size());
        assertEquals(Double.POSITIVE_INFINITY, result.networkCostSeconds());
        if (minimises()) {
            assertTrue(result.hostIds().containsAll(List.of("h0", "h1", "h2")), result.hostIds().toString());
        }
    }

    @Test
    void rejects_a_null_problem() {
        assertThrows(NullPointerException.class, () -> selector(1).select(null));
    }

    @Test
    void does_not_change_the_problem() {
        SelectionProblem problem = problem(99, 20, 9);
        List<StorageHost> before = List.copyOf(problem.hosts());
        selector(3).select(problem);
        selector(4).select(problem);
        assertEquals(before, problem.hosts());
        assertEquals(List.of(), problem.preselected());
    }
}
