package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.placement.Objective;
import io.github.volpex.checkpoint.placement.RepositorySelector;
import io.github.volpex.checkpoint.placement.StorageHost;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.estimators.SurvivalFunction;
import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class PlacementPolicyTest {

    private static final List<String> TEN = List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j");

    /** Hosts whose bandwidth and reliability grow with their letter. */
    private static StorageHost host(String id) {
        int rank = id.charAt(0) - 'a' + 1;
        return StorageHost.of(id, 1e5 * rank, SurvivalFunction.exponential(1e-3 / rank));
    }

    @Property(tries = 200)
    void every_policy_returns_count_distinct_candidates(
            @ForAll @IntRange(min = 1, max = 10) int count, @ForAll @IntRange(min = 0, max = 4) int holders,
            @ForAll long seed) {
        int held = Math.min(holders, 10 - count);
        PlacementRequest request = new PlacementRequest("job", 1_000_000, 3, 2, count,
                TEN.subList(held, 10), TEN.subList(0, held));
        for (PlacementPolicy policy : List.of(PlacementPolicy.inOrder(),
                PlacementPolicy.random(new SplittableRandom(seed)),
                PlacementPolicy.selecting(RepositorySelector.greedy(), PlacementPolicyTest::host,
                        () -> Objective.optimistic(3600, 600, 1e4)))) {
            List<String> chosen = policy.choose(request);
            assertEquals(count, chosen.size(), policy.toString());
            assertEquals(count, new HashSet<>(chosen).size());
            assertTrue(request.candidates().containsAll(chosen));
        }
    }

    @Test
    void selecting_keeps_the_holders_and_adds_the_best_hosts_around_them() {
        PlacementPolicy greedy = PlacementPolicy.selecting(RepositorySelector.greedy(), PlacementPolicyTest::host,
                () -> Objective.optimistic(3600, 600, 1e6));
        // A repair of 2 fragments of a (3, 2) checkpoint whose other 3 are on a, b, c.
        PlacementRequest repair = new PlacementRequest("job", 3_000_000, 3, 2, 2, TEN.subList(3, 10),
                TEN.subList(0, 3));
        assertEquals(List.of("j", "i"), greedy.choose(repair));
        // Fewer candidates than the full set: k shrinks, the fragment size stays.
        PlacementRequest tight = new PlacementRequest("job", 3_000_000, 3, 2, 1, List.of("d"), TEN.subList(0, 3));
        assertEquals(List.of("d"), greedy.choose(tight));
    }

    @Test
    void selecting_checks_the_hosts_it_is_given() {
        PlacementRequest request = new PlacementRequest("job", 10, 1, 1, 2, List.of("a", "b"), List.of());
        PlacementPolicy missing = PlacementPolicy.selecting(RepositorySelector.greedy(), id -> null,
                () -> Objective.optimistic(1, 1, 1));
        assertEquals("no storage host describes repository a",
                assertThrows(NullPointerException.class, () -> missing.choose(request)).getMessage());
        PlacementPolicy renamed = PlacementPolicy.selecting(RepositorySelector.greedy(), id -> host("c"),
                () -> Objective.optimistic(1, 1, 1));
        assertEquals("the storage host of repository a must have its id: c",
                assertThrows(IllegalArgumentException.class, () -> renamed.choose(request)).getMessage());
    }

    @Test
    void requests_validate_their_numbers() {
        assertEquals("count must be in [1, 2]: 3", assertThrows(IllegalArgumentException.class,
                () -> new PlacementRequest("job", 10, 1, 1, 3, List.of("a", "b"), List.of())).getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new PlacementRequest("job", -1, 1, 1, 1, List.of("a"), List.of()));
        assertThrows(IllegalArgumentException.class,
                () -> new PlacementRequest("job", 1, 0, 1, 1, List.of("a"), List.of()));
        assertThrows(NullPointerException.class,
                () -> new PlacementRequest("job", 1, 1, 1, 1, null, List.of()));
        assertEquals("candidates must be distinct: a appears twice", assertThrows(IllegalArgumentException.class,
                () -> new PlacementRequest("job", 10, 1, 1, 1, List.of("a", "b", "a"), List.of())).getMessage());
        assertEquals("holders must be distinct and not candidates: b appears twice", assertThrows(
                IllegalArgumentException.class,
                () -> new PlacementRequest("job", 10, 1, 1, 1, List.of("a", "b"), List.of("b"))).getMessage());
    }

    @Test
    void a_repair_places_regenerated_fragments_with_the_selector() throws Exception {
        List<FragmentRepository> repos = Stores.inMemory(5);
        PlacementPolicy greedy = PlacementPolicy.selecting(RepositorySelector.greedy(),
                id -> StorageHost.of(id, 1e6 * (1 + Integer.parseInt(id.substring(1))),
                        SurvivalFunction.exponential(1e-5)), () -> Objective.optimistic(3600, 600, 1e4));
        CheckpointStore store = CheckpointStore.ephemeral(repos).placement(greedy).build();
        FragmentIndex index = store.commit("job", Stores.data(1, 1000));
        assertEquals(List.of("r4", "r3"), index.fragments().stream().map(FragmentLocation::repositoryId).toList());
        repos.get(4).delete(index.fragmentKey(0));
        RepairReport report = store.repair("job");
        assertEquals(RepairReport.Status.REPAIRED, report.status());
        // r4 failed and is excluded; of the rest, r2 is the fastest.
        assertEquals("r2", report.index().fragments().get(0).repositoryId());
    }
}
