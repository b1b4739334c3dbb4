package io.github.volpex.checkpoint.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.estimators.SurvivalFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class SelectionProblemTest {

    private static final Objective OBJECTIVE = Objective.optimistic(3600, 600, 1e4);

    private static List<StorageHost> hosts(int count) {
        List<StorageHost> hosts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            hosts.add(StorageHost.of("h" + i, 1e6 * (i + 1), SurvivalFunction.exponential(1e-5 * (i + 1))));
        }
        return hosts;
    }

    private static void assertMessage(String expected, Executable call) {
        assertEquals(expected, assertThrows(IllegalArgumentException.class, call).getMessage());
    }

    @Test
    void rejects_fewer_hosts_than_fragments() {
        assertMessage("hosts must include at least m + k = 9 hosts with room for a fragment of 166667 bytes: 8 of 8 "
                + "have", () -> SelectionProblem.of(1_000_000, 6, 3, hosts(8), OBJECTIVE));
    }

    @Test
    void counts_only_hosts_with_room_for_a_fragment() {
        List<StorageHost> hosts = new ArrayList<>(hosts(8));
        hosts.add(StorageHost.of("small", 1e6, SurvivalFunction.exponential(0), 166_666));
        assertMessage("hosts must include at least m + k = 9 hosts with room for a fragment of 166667 bytes: 8 of 9 "
                + "have", () -> SelectionProblem.of(1_000_000, 6, 3, hosts, OBJECTIVE));
        hosts.set(8, StorageHost.of("small", 1e6, SurvivalFunction.exponential(0), 166_667));
        assertEquals(9, SelectionProblem.of(1_000_000, 6, 3, hosts, OBJECTIVE).eligibleHosts());
    }

    @Test
    void rejects_out_of_range_numbers() {
        assertMessage("checkpointBytes must be >= 1: 0", () -> SelectionProblem.of(0, 1, 0, hosts(3), OBJECTIVE));
        assertMessage("m must be in [1, 255]: 0", () -> SelectionProblem.of(10, 0, 0, hosts(3), OBJECTIVE));
        assertMessage("m must be in [1, 255]: 256", () -> SelectionProblem.of(10, 256, 0, hosts(3), OBJECTIVE));
        assertMessage("k must be in [0, 55] for m = 200: 56",
                () -> SelectionProblem.of(10, 200, 56, hosts(3), OBJECTIVE));
        assertMessage("k must be in [0, 254] for m = 1: -1", () -> SelectionProblem.of(10, 1, -1, hosts(3), OBJECTIVE));
    }

    @Test
    void rejects_duplicate_ids_and_nulls() {
        List<StorageHost> hosts = new ArrayList<>(hosts(4));
        hosts.add(StorageHost.of("h2", 1.0, SurvivalFunction.exponential(0)));
        assertMessage("hosts must have distinct ids: h2 appears twice",
                () -> SelectionProblem.of(10, 1, 1, hosts, OBJECTIVE));
        assertThrows(NullPointerException.class, () -> SelectionProblem.of(10, 1, 1, null, OBJECTIVE));
        assertThrows(NullPointerException.class, () -> SelectionProblem.of(10, 1, 1, hosts(3), null));
        assertThrows(NullPointerException.class,
                () -> SelectionProblem.of(10, 1, 1, Arrays.asList(hosts(3).get(0), null), OBJECTIVE));
    }

    @Test
    void rejects_bad_preselections() {
        SelectionProblem problem = SelectionProblem.of(1000, 2, 1, hosts(6), OBJECTIVE);
        assertMessage("preselected host is not a candidate: x", () -> problem.withPreselected(List.of("x")));
        assertMessage("preselected hosts must be distinct: h1 appears twice",
                () -> problem.withPreselected(List.of("h1", "h1")));
        assertMessage("preselected hosts must number at most m + k = 3: 4",
                () -> problem.withPreselected(List.of("h1", "h2", "h3", "h4")));
        assertThrows(NullPointerException.class, () -> problem.withPreselected(Arrays.asList("h1", null)));
        List<StorageHost> hosts = new ArrayList<>(hosts(6));
        hosts.add(StorageHost.of("tiny", 1e9, SurvivalFunction.exponential(0), 10));
        SelectionProblem withTiny = SelectionProblem.of(1000, 2, 1, hosts, OBJECTIVE);
        assertMessage("preselected host tiny has no room for a fragment of 500 bytes: 10",
                () -> withTiny.withPreselected(List.of("tiny")));
    }

    @Test
    void evaluates_any_set_of_its_hosts() {
        List<StorageHost> hosts = hosts(5);
        SelectionProblem problem = SelectionProblem.of(3_000_000, 3, 1, hosts, Objective.optimistic(1000, 500, 2000));
        SelectionResult result = problem.evaluate(List.of(hosts.get(0), hosts.get(1)));
        // Fragments of 1 MB over 1 MB/s and 2 MB/s; survival e^{−0.01} · e^{−0.02} over τ = 1000 s.
        assertEquals(1.5, result.networkCostSeconds(), 1e-15);
        assertEquals(Math.exp(-0.03), result.reliabilityProduct(), 1e-15);
        assertEquals(2 * 1.5 - 3000 * Math.exp(-0.03), result.objectiveValue(), 1e-12);
        assertEquals(List.of("h0", "h1"), result.hostIds());
        assertMessage("selected host is not a candidate: other", () -> problem.evaluate(
                List.of(StorageHost.of("other", 1.0, SurvivalFunction.exponential(0)))));
        assertMessage("hosts must be distinct: h0 appears twice",
                () -> problem.evaluate(List.of(hosts.get(0), hosts.get(0))));
    }

    @Test
    void fragments_round_up() {
        SelectionProblem problem = SelectionProblem.of(10, 3, 0, hosts(3), OBJECTIVE);
        assertEquals(4, problem.fragmentBytes());
        assertEquals(3, problem.hostsToSelect());
        assertTrue(problem.toString().contains("m=3"));
    }

    @Test
    void storage_hosts_validate_their_fields() {
        SurvivalFunction s = SurvivalFunction.exponential(0);
        assertMessage("id must not be empty", () -> StorageHost.of("", 1.0, s));
        assertMessage("bandwidthBytesPerSecond of host a must be finite and > 0: 0.0", () -> StorageHost.of("a", 0, s));
        assertMessage("bandwidthBytesPerSecond of host a must be finite and > 0: NaN",
                () -> StorageHost.of("a", Double.NaN, s));
        assertMessage("bandwidthBytesPerSecond of host a must be finite and > 0: Infinity",
                () -> StorageHost.of("a", Double.POSITIVE_INFINITY, s));
        assertMessage("capacityBytes of host a must be >= 0: -1", () -> StorageHost.of("a", 1.0, s, -1));
        assertThrows(NullPointerException.class, () -> StorageHost.of(null, 1.0, s));
        assertThrows(NullPointerException.class, () -> StorageHost.of("a", 1.0, null));
        assertEquals(OptionalLong.of(5), StorageHost.of("a", 1.0, s, 5).capacityBytes());
    }

    @Test
    void a_survival_function_out_of_range_is_reported_with_its_host() {
        List<StorageHost> hosts = new ArrayList<>(hosts(3));
        hosts.add(StorageHost.of("broken", 1e6, t -> Double.NaN));
        SelectionProblem problem = SelectionProblem.of(1000, 2, 1, hosts, Objective.optimistic(100, 10, 10));
        assertMessage("reliability of host broken must give a failure probability in [0, 1] over 100.0 s: NaN",
                () -> RepositorySelector.greedy().select(problem));
    }
}
