package io.github.volpex.testkit.selftest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.CheckpointUnavailableException;
import io.github.volpex.checkpoint.store.CommitFailedException;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.store.FragmentLocation;
import io.github.volpex.checkpoint.store.FragmentRepository;
import io.github.volpex.checkpoint.store.PlacementPolicy;
import io.github.volpex.checkpoint.store.RepositoriesUnreachableException;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testkit.Fault;
import io.github.volpex.testkit.FaultSchedule;
import io.github.volpex.testkit.FaultyRepository;
import io.github.volpex.testkit.RepositoryCall;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.HashSet;
import java.util.Set;
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
        CheckpointStore probe = mode.store(repositories(mode.repositories));
        int n = probe.n();
        // Twice n repositories: A and B go to the first n (placement in list order), C to the others.
        List<FaultyRepository> repositories = repositories(2 * n);
        CheckpointStore first = mode.store(repositories);
        FragmentIndex a = first.commit(JOB, A);
        FragmentIndex b = first.commit(JOB, B);
        assertTrue(b.sequence() > a.sequence());
        List<FaultyRepository> holders = repositories.subList(0, n);
        // The process restarts while B's repositories are unreachable: recovery must not answer "no checkpoint".
        holders.forEach(r -> r.setReachable(false));
        Thread.sleep(1); // the default epochs are wall-clock microseconds: a later process reads a later time
        CheckpointStore restarted = mode.store(repositories);
        RepositoriesUnreachableException unreachable = assertThrows(RepositoriesUnreachableException.class,
                () -> restarted.recover(JOB));
        assertEquals(holders.stream().map(FaultyRepository::id).toList(), unreachable.unreachable());
        assertTrue(unreachable.newestAvailable().isEmpty());
        // The host starts over anyway and commits C on the repositories it reaches: C orders after B.
        FragmentIndex c = restarted.commit(JOB, C);
        assertTrue(c.epoch() > b.epoch(), "C's epoch " + c.epoch() + " must exceed B's " + b.epoch());
        // B's repositories come back: C is the newest, and collection removes B, not C.
        holders.forEach(r -> r.setReachable(true));
        assertArrayEquals(C, restarted.recover(JOB).orElseThrow().toByteArray());
        assertArrayEquals(C, mode.store(repositories).recover(JOB).orElseThrow().toByteArray());
        assertTrue(restarted.collectGarbage(JOB) > 0);
        assertEquals(List.of(c), restarted.checkpoints(JOB));
        // B's repositories go away again: the job still has C, in this process and in a new one.
        holders.forEach(r -> r.setReachable(false));
        assertArrayEquals(C, restarted.recover(JOB).orElseThrow().toByteArray());
        assertArrayEquals(C, mode.store(repositories).recover(JOB).orElseThrow().toByteArray());
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
}
