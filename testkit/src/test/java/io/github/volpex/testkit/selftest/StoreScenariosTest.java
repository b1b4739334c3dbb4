package io.github.volpex.testkit.selftest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.CheckpointUnavailableException;
import io.github.volpex.checkpoint.store.CommitFailedException;
import io.github.volpex.checkpoint.store.EpochSource;
import io.github.volpex.checkpoint.store.EpochUnavailableException;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.store.FragmentLocation;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.PlacementPolicy;
import io.github.volpex.checkpoint.store.RepairReport;
import io.github.volpex.checkpoint.store.RepositoriesUnreachableException;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testkit.Fault;
import io.github.volpex.testkit.FaultSchedule;
import io.github.volpex.testkit.FaultyRepository;
import io.github.volpex.testkit.RepositoryCall;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two fault sequences that once lost the last committed checkpoint, in both modes, in the same store instance and in
 * a restarted one.
 */
class StoreScenariosTest {

    private static final String JOB = "job";
    private static final byte[] A = "checkpoint A".getBytes(StandardCharsets.UTF_8);
    private static final byte[] B = "checkpoint B, later work".getBytes(StandardCharsets.UTF_8);
    private static final byte[] C = "checkpoint C, after a restart".getBytes(StandardCharsets.UTF_8);

    /** The two modes, with enough repositories for the scenarios. */
    enum Mode {
        EPHEMERAL(4, repositories -> CheckpointStore.ephemeral(repositories)),
        PERENNIAL(6, repositories -> CheckpointStore.perennial(IdaCodec.systematic(4, 2), repositories));

        final int repositories;
        final Function<List<FaultyRepository>, CheckpointStore.Builder> builder;

        Mode(int repositories, Function<List<FaultyRepository>, CheckpointStore.Builder> builder) {
            this.repositories = repositories;
            this.builder = builder;
        }

        CheckpointStore store(List<FaultyRepository> repositories) {
            return builder.apply(repositories).placement(PlacementPolicy.inOrder()).build();
        }
    }

    private static List<FaultyRepository> repositories(int count) {
        List<FaultyRepository> repositories = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            repositories.add(FaultyRepository.wrap(FragmentRepository.inMemory("r" + i)));
        }
        return repositories;
    }

    /** Index writes fail on the given repositories; every other call succeeds. */
    private static FaultSchedule rejectIndexWritesOn(Set<String> repositoryIds) {
        return (repositoryId, call, key) -> call == RepositoryCall.PUT && key.endsWith(".idx")
                && repositoryIds.contains(repositoryId) ? Fault.FAIL : Fault.NONE;
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void collection_after_a_failed_commit_keeps_the_good_checkpoint(Mode mode) {
        for (boolean restart : new boolean[] {false, true}) {
            List<FaultyRepository> repositories = repositories(mode.repositories);
            CheckpointStore store = mode.store(repositories);
            FragmentIndex a = store.commit(JOB, A);
            // B's index is stored on r0 and r1 only (ephemeral: r0 only), short of its k + 1 copies.
            Set<String> rejecting = mode == Mode.EPHEMERAL ? Set.of("r1") : Set.of("r2", "r3", "r4", "r5");
            repositories.forEach(r -> r.schedule(rejectIndexWritesOn(rejecting)));
            CommitFailedException failed = assertThrows(CommitFailedException.class, () -> store.commit(JOB, B));
            assertFalse(failed.reachedCommitPoint());
            assertEquals(mode == Mode.EPHEMERAL ? 1 : 2, failed.indexCopiesWritten());
            repositories.forEach(r -> r.schedule(FaultSchedule.none()));
            CheckpointStore collector = restart ? mode.store(repositories) : store;
            collector.collectGarbage(JOB);
            // The repositories that held B's index copies go away: A must still be there.
            repositories.get(0).setReachable(false);
            if (mode == Mode.PERENNIAL) {
                repositories.get(1).setReachable(false);
            }
            CheckpointStore reader = restart ? mode.store(repositories) : store;
            assertArrayEquals(A, reader.recover(JOB).orElseThrow().toByteArray(), mode + ", restart " + restart);
            assertEquals(a.sequence(), reader.latestIndex(JOB).orElseThrow().sequence());
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void a_restart_that_cannot_see_the_newest_checkpoint_does_not_order_its_own_before_it(Mode mode)
            throws Exception {
        for (boolean fenced : new boolean[] {false, true}) {
            EpochSource epochs = fenced ? new CounterEpochs() : EpochSource.listing();
            CheckpointStore probe = mode.store(repositories(mode.repositories));
            int n = probe.n();
            // Twice n repositories: A and B go to the first n (placement in list order), C to the others.
            List<FaultyRepository> repositories = repositories(2 * n);
            Function<List<FaultyRepository>, CheckpointStore> stores = r -> mode.builder.apply(r)
                    .placement(PlacementPolicy.inOrder()).epochs(epochs).build();
            CheckpointStore first = stores.apply(repositories);
            FragmentIndex a = first.commit(JOB, A);
            FragmentIndex b = first.commit(JOB, B);
            assertTrue(b.sequence() > a.sequence());
            List<FaultyRepository> holders = repositories.subList(0, n);
            // The process restarts while B's repositories are unreachable: recovery must not answer "no checkpoint".
            holders.forEach(r -> r.setReachable(false));
            CheckpointStore restarted = stores.apply(repositories);
            RepositoriesUnreachableException unreachable = assertThrows(RepositoriesUnreachableException.class,
                    () -> restarted.recover(JOB));
            List<String> holderIds = holders.stream().map(FaultyRepository::id).toList();
            assertEquals(holderIds, unreachable.unreachable());
            assertTrue(unreachable.newestAvailable().isEmpty());
            if (!fenced) {
                // Without fencing, a writer that cannot list every repository cannot know its place in the order.
                List<String> before = everything(repositories);
                EpochUnavailableException refused = assertThrows(EpochUnavailableException.class,
                        () -> restarted.commit(JOB, C));
                assertEquals(holderIds, refused.unreachable());
                assertFalse(refused.reachedCommitPoint());
                assertEquals(before, everything(repositories), "nothing was written");
                holders.forEach(r -> r.setReachable(true));
                assertArrayEquals(B, restarted.recover(JOB).orElseThrow().toByteArray());
                // Once it has taken its epoch, with every repository listed, the writer commits where it can.
                assertTrue(restarted.commit(JOB, A).epoch() > b.epoch());
                holders.forEach(r -> r.setReachable(false));
            }
            // The host starts over anyway and commits C on the repositories it reaches: C orders after B.
            FragmentIndex c = restarted.commit(JOB, C);
            assertTrue(c.epoch() > b.epoch(), "C's epoch " + c.epoch() + " must exceed B's " + b.epoch());
            // B's repositories come back: C is the newest, and collection removes B, not C.
            holders.forEach(r -> r.setReachable(true));
            assertArrayEquals(C, restarted.recover(JOB).orElseThrow().toByteArray());
            assertArrayEquals(C, stores.apply(repositories).recover(JOB).orElseThrow().toByteArray());
            assertTrue(restarted.collectGarbage(JOB) > 0);
            assertEquals(List.of(c), restarted.checkpoints(JOB));
            // B's repositories go away again: the job still has C, in this process and in a new one.
            holders.forEach(r -> r.setReachable(false));
            assertArrayEquals(C, restarted.recover(JOB).orElseThrow().toByteArray());
            assertArrayEquals(C, stores.apply(repositories).recover(JOB).orElseThrow().toByteArray());
        }
    }

    /** Every key on every repository, as "repository/key", read past the faults. */
    private static List<String> everything(List<FaultyRepository> repositories) throws Exception {
        List<String> all = new ArrayList<>();
        for (FaultyRepository repository : repositories) {
            for (String key : repository.delegate().list("")) {
                all.add(repository.id() + "/" + key);
            }
        }
        return all;
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void a_commit_past_its_commit_point_that_cannot_be_rebuilt_never_makes_the_previous_one_collectable(Mode mode)
            throws Exception {
        List<FaultyRepository> repositories = repositories(mode.repositories);
        CheckpointStore store = mode.store(repositories);
        FragmentIndex a = store.commit(JOB, A);
        // B's commit markers reach one repository only: B passed its commit point, but its commit is not durable.
        repositories.forEach(r -> r.schedule((repositoryId, call, key) -> call == RepositoryCall.PUT
                && key.endsWith(".ok") && !repositoryId.equals("r0") ? Fault.FAIL : Fault.NONE));
        CommitFailedException failed = assertThrows(CommitFailedException.class, () -> store.commit(JOB, B));
        assertTrue(failed.reachedCommitPoint());
        repositories.forEach(r -> r.schedule(FaultSchedule.none()));
        FragmentIndex b = store.checkpoints(JOB).get(0);
        assertTrue(b.sequence() > a.sequence());
        // Then B loses more fragments than it can spare.
        for (int i = 0; i <= b.k(); i++) {
            FragmentLocation location = b.fragments().get(i);
            repositories.stream().filter(r -> r.id().equals(location.repositoryId())).findFirst().orElseThrow()
                    .corrupt(b.fragmentKey(i), 3);
        }
        for (CheckpointStore collector : List.of(store, mode.store(repositories))) {
            assertEquals(0, collector.collectGarbage(JOB), "nothing is collected below a checkpoint that cannot be "
                    + "verified");
            assertThrows(CheckpointUnavailableException.class, () -> collector.recover(JOB));
            assertEquals(List.of(b.sequence(), a.sequence()),
                    collector.checkpoints(JOB).stream().map(FragmentIndex::sequence).toList());
            assertArrayEquals(A, collector.recover(collector.checkpoints(JOB).get(1)).toByteArray());
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void a_commit_skips_repositories_that_failed_to_list_and_re_places_failed_and_dropped_writes(Mode mode) {
        CheckpointStore probe = mode.store(repositories(mode.repositories));
        int n = probe.n();
        List<FaultyRepository> repositories = repositories(n + 3);
        CheckpointStore store = mode.store(repositories);
        store.commit(JOB, C);
        // The first choice in list order is unreachable: the commit goes to the repositories that listed.
        repositories.get(0).setReachable(false);
        FragmentIndex first = store.commit(JOB, A);
        assertFalse(first.fragments().stream().anyMatch(f -> f.repositoryId().equals("r0")), first.toString());
        repositories.get(0).setReachable(true);
        // Writes to r1 fail and writes to r2 are dropped silently: both fragments land elsewhere.
        repositories.forEach(r -> r.schedule((repositoryId, call, key) -> !key.endsWith(".f1") && !key.endsWith(".f2")
                ? Fault.NONE
                : repositoryId.equals("r1") && call == RepositoryCall.CREATE ? Fault.FAIL
                : repositoryId.equals("r2") && call == RepositoryCall.COMMIT ? Fault.DROP : Fault.NONE));
        FragmentIndex second = store.commit(JOB, B);
        List<String> holders = second.fragments().stream().map(FragmentLocation::repositoryId).toList();
        assertFalse(holders.contains("r1") || holders.contains("r2"), holders.toString());
        assertEquals(n, holders.stream().distinct().count());
        repositories.forEach(r -> r.schedule(FaultSchedule.none()));
        assertArrayEquals(B, mode.store(repositories).recover(JOB).orElseThrow().toByteArray());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void a_commit_from_an_array_that_loses_too_many_writes_starts_over_on_other_repositories(Mode mode)
            throws Exception {
        CheckpointStore probe = mode.store(repositories(mode.repositories));
        int n = probe.n();
        List<FaultyRepository> repositories = repositories(2 * n);
        CheckpointStore store = mode.store(repositories);
        // Every fragment write to the first n repositories fails at its commit: nothing of the first attempt
        // survives to regenerate from.
        Set<String> failing = new HashSet<>();
        for (int i = 0; i < n; i++) {
            failing.add("r" + i);
        }
        repositories.forEach(r -> r.schedule((repositoryId, call, key) -> call == RepositoryCall.COMMIT
                && failing.contains(repositoryId) ? Fault.FAIL : Fault.NONE));
        FragmentIndex index = store.commit(JOB, A);
        assertTrue(index.fragments().stream().noneMatch(f -> failing.contains(f.repositoryId())), index.toString());
        repositories.forEach(r -> r.schedule(FaultSchedule.none()));
        assertArrayEquals(A, mode.store(repositories).recover(JOB).orElseThrow().toByteArray());
        // From a stream, the same commit cannot start over: it fails and leaves A in place.
        repositories.forEach(r -> r.schedule((repositoryId, call, key) -> call == RepositoryCall.COMMIT
                && failing.contains(repositoryId) ? Fault.FAIL : Fault.NONE));
        CommitFailedException failed = assertThrows(CommitFailedException.class,
                () -> store.commit(JOB, new ByteArrayInputStream(B)));
        assertFalse(failed.reachedCommitPoint());
        repositories.forEach(r -> r.schedule(FaultSchedule.none()));
        assertArrayEquals(A, mode.store(repositories).recover(JOB).orElseThrow().toByteArray());
    }

    private static FaultyRepository byId(List<FaultyRepository> repositories, String id) {
        return repositories.stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
    }

    private static List<String> holders(FragmentIndex index) {
        return index.fragments().stream().map(FragmentLocation::repositoryId).distinct().toList();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void index_copies_damaged_within_k_in_every_repair_cycle_never_cost_the_checkpoint(Mode mode) throws Exception {
        List<FaultyRepository> repositories = repositories(mode.repositories);
        CheckpointStore store = mode.store(repositories);
        FragmentIndex a = store.commit(JOB, A);
        List<String> holders = holders(a);
        // Each cycle corrupts or deletes the index copies of k holders, then repairs: the damage of one cycle stays
        // within what the checkpoint can spare, but over the cycles it reaches every copy, twice.
        for (int cycle = 0; cycle < 2 * holders.size(); cycle++) {
            Set<String> damaged = new HashSet<>();
            for (int j = 0; j < a.k(); j++) {
                String holder = holders.get((cycle * a.k() + j) % holders.size());
                damaged.add(holder);
                FaultyRepository repository = byId(repositories, holder);
                if ((cycle + j) % 2 == 0) {
                    assertTrue(repository.corrupt(a.indexKey(), cycle));
                } else {
                    assertTrue(repository.delegate().delete(a.indexKey()));
                }
            }
            RepairReport report = store.repair(JOB);
            assertEquals(RepairReport.Status.REPAIRED, report.status(), "cycle " + cycle + ": " + report);
            assertEquals(damaged, Set.copyOf(report.indexCopiesRewritten()), "cycle " + cycle);
            assertEquals(List.of(), report.regenerated());
            assertArrayEquals(A, store.recover(JOB).orElseThrow().toByteArray(), "cycle " + cycle);
            assertArrayEquals(A, mode.store(repositories).recover(JOB).orElseThrow().toByteArray(), "cycle " + cycle);
        }
        // Every holder holds an intact copy again, and a repair with nothing to do says so.
        for (String holder : holders) {
            byte[] copy = byId(repositories, holder).delegate().get(a.indexKey()).orElseThrow();
            FragmentIndex parsed = FragmentIndex.parse(copy);
            assertEquals(a.indexKey(), parsed.indexKey(), holder);
            assertEquals(a.checkpointSha256(), parsed.checkpointSha256(), holder);
        }
        assertEquals(RepairReport.Status.HEALTHY, store.repair(JOB).status());
    }

    /**
     * During B's commit its marker reaches r0 only (puts elsewhere fail), r0 cannot be listed, so the commit counts
     * no marker and gives up; then the marker's removal fails (or is dropped). B must then count in full or not at
     * all: never a marker without its index and fragments above A.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void an_abandoned_commit_whose_marker_cannot_be_removed_counts_in_full_or_not_at_all(Mode mode)
            throws Exception {
        for (Fault removal : List.of(Fault.FAIL, Fault.DROP, Fault.REPLY_LOST)) {
            for (boolean restart : new boolean[] {false, true}) {
                List<FaultyRepository> repositories = repositories(mode.repositories);
                CheckpointStore store = mode.store(repositories);
                store.commit(JOB, A);
                String context = mode + ", removal " + removal + ", restart " + restart;
                AtomicBoolean markerStored = new AtomicBoolean();
                repositories.forEach(r -> r.schedule((repositoryId, call, key) -> {
                    boolean marker = key.endsWith(".ok");
                    if (repositoryId.equals("r0")) {
                        if (call == RepositoryCall.PUT && marker) {
                            markerStored.set(true);
                        }
                        boolean checkpointListing = call == RepositoryCall.LIST && !key.equals(JOB + ".");
                        return checkpointListing && markerStored.get() ? Fault.FAIL
                                : call == RepositoryCall.DELETE && marker ? removal : Fault.NONE;
                    }
                    return call == RepositoryCall.PUT && marker ? Fault.FAIL : Fault.NONE;
                }));
                CommitFailedException failed = assertThrows(CommitFailedException.class, () -> store.commit(JOB, B),
                        context);
                repositories.forEach(r -> r.schedule(FaultSchedule.none()));
                CheckpointStore reader = restart ? mode.store(repositories) : store;
                byte[] recovered = reader.recover(JOB).orElseThrow().toByteArray();
                if (Arrays.equals(recovered, B)) {
                    assertTrue(failed.reachedCommitPoint(), context + ": B counts, so the failure must say so");
                } else {
                    assertArrayEquals(A, recovered, context);
                }
                // Every committed checkpoint listed has a readable index and can be rebuilt.
                for (FragmentIndex index : reader.checkpoints(JOB)) {
                    reader.recover(index);
                }
                assertTrue(reader.repair(JOB).status() != RepairReport.Status.NO_CHECKPOINT, context);
                FragmentIndex c = reader.commit(JOB, C);
                assertArrayEquals(C, mode.store(repositories).recover(JOB).orElseThrow().toByteArray(), context);
                assertEquals(List.of(c), reader.checkpoints(JOB), context);
            }
        }
    }

    /**
     * Writer W1, on a host whose clock runs 3 s fast, commits while r2 and r3 are down; W1's host dies, and W2 starts
     * a second later, on a host with the right time, while r0 and r1 are down. Whatever each commit answers, the last
     * one that returned must be what recovery gives once every repository is back, and collection must keep it.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void clocks_that_disagree_never_order_a_returned_commit_below_an_earlier_one(Mode mode) throws Exception {
        Instant now = Instant.parse("2026-03-01T00:00:00Z");
        EpochSource fast = EpochSource.clock(InstantSource.fixed(now.plusSeconds(3)));
        EpochSource right = EpochSource.clock(InstantSource.fixed(now.plusSeconds(1)));
        int n = mode.store(repositories(mode.repositories)).n();
        List<FaultyRepository> repositories = repositories(2 * n);
        List<FaultyRepository> first = repositories.subList(0, n);
        List<FaultyRepository> second = repositories.subList(n, 2 * n);
        byte[] last = null;
        second.forEach(r -> r.setReachable(false));
        CheckpointStore w1 = mode.builder.apply(repositories).placement(PlacementPolicy.inOrder()).epochs(fast)
                .build();
        try {
            w1.commit(JOB, A);
            last = A;
        } catch (CommitFailedException refused) {
            // Allowed: the commit did not return.
        }
        second.forEach(r -> r.setReachable(true));
        first.forEach(r -> r.setReachable(false));
        CheckpointStore w2 = mode.builder.apply(repositories).placement(PlacementPolicy.inOrder()).epochs(right)
                .build();
        assertThrows(RepositoriesUnreachableException.class, () -> w2.recover(JOB));
        try {
            w2.commit(JOB, B);
            last = B;
        } catch (CommitFailedException refused) {
            // Allowed: the commit did not return.
        }
        first.forEach(r -> r.setReachable(true));
        if (last == null) {
            assertTrue(w2.recover(JOB).isEmpty());
        } else {
            assertArrayEquals(last, w2.recover(JOB).orElseThrow().toByteArray(), "the last commit that returned");
        }
        w2.collectGarbage(JOB);
        if (last != null) {
            assertArrayEquals(last, mode.store(repositories).recover(JOB).orElseThrow().toByteArray(),
                    "collection kept the last commit that returned");
        }
        FragmentIndex c = w2.commit(JOB, C);
        assertArrayEquals(C, mode.store(repositories).recover(JOB).orElseThrow().toByteArray());
        assertEquals(List.of(c), w2.checkpoints(JOB));
    }
}
