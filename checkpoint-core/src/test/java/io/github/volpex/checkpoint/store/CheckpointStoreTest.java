package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.placement.Objective;
import io.github.volpex.checkpoint.placement.RepositorySelector;
import io.github.volpex.checkpoint.placement.StorageHost;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.repository.RepositoryUnavailableException;
import io.github.volpex.estimators.SurvivalFunction;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class CheckpointStoreTest {

    private static CheckpointStore.Builder ephemeral(List<FragmentRepository> repositories) {
        return CheckpointStore.ephemeral(repositories).random(new SplittableRandom(1))
                .placement(PlacementPolicy.inOrder()).segmentBytes(64);
    }

    @Test
    void commits_and_recovers_checkpoints_of_any_length() {
        List<FragmentRepository> repos = Stores.inMemory(3);
        CheckpointStore store = ephemeral(repos).build();
        for (int length : new int[] {0, 1, 63, 64, 65, 128, 1000}) {
            byte[] data = Stores.data(length, length);
            FragmentIndex index = store.commit("job", data);
            assertEquals(length, index.checkpointBytes());
            assertEquals(Sha256.of(data), index.checkpointSha256());
            RecoveredCheckpoint recovered = store.recover("job").orElseThrow();
            assertArrayEquals(data, recovered.toByteArray());
            assertEquals(index, recovered.index());
            assertArrayEquals(data, store.recover(index).toByteArray());
        }
    }

    @Test
    void streams_a_checkpoint_in_segments() throws IOException {
        List<FragmentRepository> repos = Stores.inMemory(2);
        CheckpointStore store = ephemeral(repos).build();
        byte[] data = Stores.data(5, 64 * 10 + 7);
        AtomicInteger largestRead = new AtomicInteger();
        InputStream in = new ByteArrayInputStream(data) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                largestRead.accumulateAndGet(len, Math::max);
                return super.read(b, off, len);
            }
        };
        FragmentIndex index = store.commit("stream", in);
        assertEquals(data.length, index.checkpointBytes());
        assertTrue(largestRead.get() <= 64, "read " + largestRead.get() + " bytes at once");
        // 11 segments, each piece followed by 4 bytes of CRC.
        assertEquals(data.length + 11 * 4, index.fragments().get(0).lengthBytes());
        assertArrayEquals(data, store.recover("stream").orElseThrow().toByteArray());
    }

    @Test
    void numbers_checkpoints_and_deletes_the_previous_one_after_each_commit() throws Exception {
        List<FragmentRepository> repos = Stores.inMemory(3);
        CheckpointStore store = ephemeral(repos).build();
        FragmentIndex first = store.commit("job", Stores.data(1, 100));
        FragmentIndex second = store.commit("job", Stores.data(2, 100));
        assertEquals(0, first.sequence());
        assertEquals(1, second.sequence());
        // Fragments and index copies on the holders, commit markers everywhere.
        assertEquals(List.of("r0/" + second.fragmentKey(0), "r0/" + second.indexKey(), "r0/" + second.markerKey(),
                "r1/" + second.fragmentKey(1), "r1/" + second.indexKey(), "r1/" + second.markerKey(),
                "r2/" + second.markerKey()), Stores.everything(repos));
        // A store that starts afresh continues the numbering.
        CheckpointStore restarted = ephemeral(repos).build();
        assertEquals(2, restarted.commit("job", Stores.data(3, 10)).sequence());
        assertEquals(2, restarted.latestIndex("job").orElseThrow().sequence());
    }

    @Test
    void keeps_jobs_apart() throws Exception {
        List<FragmentRepository> repos = Stores.inMemory(2);
        CheckpointStore store = ephemeral(repos).build();
        store.commit("a", Stores.data(1, 10));
        store.commit("ab", Stores.data(2, 10));
        store.commit("a", Stores.data(3, 10));
        assertArrayEquals(Stores.data(2, 10), store.recover("ab").orElseThrow().toByteArray());
        assertArrayEquals(Stores.data(3, 10), store.recover("a").orElseThrow().toByteArray());
        assertTrue(store.recover("none").isEmpty());
        assertEquals(12, Stores.everything(repos).size());
    }

    @Test
    void recovery_skips_corrupt_and_missing_fragments_and_lists_what_failed() throws Exception {
        List<FragmentRepository> repos = Stores.inMemory(2);
        CheckpointStore store = ephemeral(repos).build();
        FragmentIndex index = store.commit("job", Stores.data(4, 200));
        Stores.corrupt(repos.get(0), index.fragmentKey(0), 17);
        assertArrayEquals(Stores.data(4, 200), store.recover("job").orElseThrow().toByteArray());
        repos.get(1).delete(index.fragmentKey(1));
        CheckpointUnavailableException e = assertThrows(CheckpointUnavailableException.class,
                () -> store.recover("job"));
        assertEquals(1, e.required());
        assertEquals(0, e.verified());
        assertEquals(0, e.sequence());
        assertEquals(List.of(FragmentFailure.Reason.CORRUPT, FragmentFailure.Reason.MISSING),
                e.failures().stream().map(FragmentFailure::reason).toList());
    }

    @Test
    void failures_survive_serialization_of_the_exceptions_that_carry_them() throws Exception {
        List<FragmentFailure> failures = List.of(new FragmentFailure(2, "r7", FragmentFailure.Reason.CORRUPT, "x"),
                new FragmentFailure(-1, "r8", FragmentFailure.Reason.UNAVAILABLE, "y"));
        CheckpointUnavailableException unavailable = Serialized.roundTrip(
                new CheckpointUnavailableException("job", 3, 2, 1, failures));
        assertEquals(failures, unavailable.failures());
        assertEquals(List.of("job", 3L, 2, 1), List.of(unavailable.jobId(), unavailable.sequence(),
                unavailable.required(), unavailable.verified()));
        CommitFailedException failed = Serialized.roundTrip(new CommitFailedException("job", 4, 1, true, "why",
                failures));
        assertEquals(failures, failed.failures());
        assertEquals(1, failed.indexCopiesWritten());
        assertTrue(failed.reachedCommitPoint());
        assertThrows(NullPointerException.class, () -> new CommitFailedException("job", 4, 1, false, "why",
                Arrays.asList(failures.get(0), null)));
        StaleWriterException stale = Serialized.roundTrip(new StaleWriterException("job", 5, 10, 12, failures));
        assertEquals(List.of(10L, 12L, 5L), List.of(stale.epoch(), stale.newerEpoch(), stale.sequence()));
        assertFalse(stale.reachedCommitPoint());
        FragmentIndex available = FragmentIndexTest.example();
        RepositoriesUnreachableException unreachable = Serialized.roundTrip(
                new RepositoriesUnreachableException("job", 6, 2, 1, List.of("r1", "r2"), available, failures));
        assertEquals(List.of("r1", "r2"), unreachable.unreachable());
        assertEquals(available, unreachable.newestAvailable().orElseThrow());
        assertEquals(failures, unreachable.failures());
        assertTrue(Serialized.roundTrip(new RepositoriesUnreachableException("job", -1, 0, 0, List.of("r1"), null,
                List.of()))
                .newestAvailable().isEmpty());
        EpochUnavailableException epoch = Serialized.roundTrip(new EpochUnavailableException("job", 7, List.of("r3"),
                "why", failures));
        assertEquals(List.of("r3"), epoch.unreachable());
        assertEquals(failures, epoch.failures());
        assertFalse(epoch.reachedCommitPoint());
        assertThrows(NullPointerException.class, () -> new EpochUnavailableException("job", 7,
                Arrays.asList("r1", null), "why", failures));
    }

    @Test
    void streams_a_recovery_switching_fragments_when_a_piece_is_corrupt() throws Exception {
        List<FragmentRepository> repos = Stores.inMemory(2);
        CheckpointStore store = ephemeral(repos).build();
        byte[] data = Stores.data(8, 64 * 6 + 5);
        FragmentIndex index = store.commit("job", data);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(data.length, store.recoverTo(index, out));
        assertArrayEquals(data, out.toByteArray());
        // Corrupt fragment 0 in its fourth piece: the stream switches to fragment 1 there.
        Stores.corrupt(repos.get(0), index.fragmentKey(0), 3 * 68 + 10);
        out.reset();
        assertEquals(data.length, store.recoverTo(index, out));
        assertArrayEquals(data, out.toByteArray());
        // With fragment 1 corrupt further on, nothing can finish the stream.
        Stores.corrupt(repos.get(1), index.fragmentKey(1), 5 * 68 + 1);
        out.reset();
        CheckpointUnavailableException e = assertThrows(CheckpointUnavailableException.class,
                () -> store.recoverTo(index, out));
        assertEquals(List.of(FragmentFailure.Reason.CORRUPT, FragmentFailure.Reason.CORRUPT),
                e.failures().stream().map(FragmentFailure::reason).toList());
        assertTrue(out.size() < data.length);
    }

    @Test
    void an_index_without_a_commit_marker_never_counts_and_recovery_never_goes_back_past_one_with_a_marker()
            throws Exception {
        List<FragmentRepository> repos = Stores.inMemory(4);
        CheckpointStore store = ephemeral(repos).build();
        FragmentIndex older = store.commit("job", Stores.data(1, 50));
        // A later checkpoint whose commit wrote its index copies, but crashed before its commit point, then lost both
        // of its fragments.
        FragmentIndex newer = new FragmentIndex("job", older.epoch(), 1, 77, 0, Encoding.REPLICAS, 1, 1, 0, 64, 50,
                Sha256.of(Stores.data(2, 50)), older.createdAt(), older.leaseExpiry(),
                List.of(new FragmentLocation(0, "r2", older.fragments().get(0).lengthBytes(), Sha256.of(new byte[0])),
                        new FragmentLocation(1, "r3", older.fragments().get(0).lengthBytes(), Sha256.of(new byte[0]))));
        repos.get(2).put(newer.indexKey(), newer.toBytes());
        repos.get(3).put(newer.indexKey(), newer.toBytes());
        CheckpointStore restarted = ephemeral(repos).build();
        assertEquals(older, restarted.recover("job").orElseThrow().index());
        assertEquals(List.of(older), restarted.checkpoints("job"));
        // With a marker it reached its commit point: it may be the last successful commit, so recovery says it cannot
        // be rebuilt instead of going back past it; the host can still choose the older one knowingly.
        repos.get(2).put(newer.markerKey(), new byte[0]);
        CheckpointUnavailableException e = assertThrows(CheckpointUnavailableException.class,
                () -> restarted.recover("job"));
        assertEquals(1, e.sequence());
        assertEquals(List.of(newer, older), restarted.checkpoints("job"));
        assertEquals(older, restarted.recover(restarted.checkpoints("job").get(1)).index());
    }

    @Test
    void a_reader_retries_once_when_another_process_commits_and_deletes_what_it_was_reading() throws Exception {
        List<FragmentRepository> repos = Stores.inMemory(3);
        CheckpointStore writer = ephemeral(repos).build();
        FragmentIndex first = writer.commit("job", Stores.data(1, 300));
        // The reading process lists the job and reads index #0; before it fetches a fragment, the writing process
        // commits #1, which deletes #0.
        AtomicInteger hooks = new AtomicInteger();
        List<FragmentRepository> seen = new ArrayList<>();
        for (FragmentRepository repo : repos) {
            seen.add(new FragmentRepository() {
                @Override
                public String id() {
                    return repo.id();
                }

                @Override
                public void put(String key, byte[] content) throws IOException {
                    repo.put(key, content);
                }

                @Override
                public Optional<byte[]> get(String key) throws IOException {
                    if (key.equals(first.fragmentKey(0)) || key.equals(first.fragmentKey(1))) {
                        if (hooks.getAndIncrement() == 0) {
                            writer.commit("job", Stores.data(2, 400));
                        }
                    }
                    return repo.get(key);
                }

                @Override
                public boolean delete(String key) throws IOException {
                    return repo.delete(key);
                }

                @Override
                public List<String> list(String prefix) throws IOException {
                    return repo.list(prefix);
                }
            });
        }
        RecoveredCheckpoint recovered = ephemeral(seen).build().recover("job").orElseThrow();
        assertEquals(1, recovered.index().sequence());
        assertArrayEquals(Stores.data(2, 400), recovered.toByteArray());
    }

    @Test
    void repairs_a_lost_replica_onto_another_repository() throws Exception {
        List<FragmentRepository> repos = Stores.inMemory(4);
        CheckpointStore store = ephemeral(repos).build();
        FragmentIndex index = store.commit("job", Stores.data(3, 500));
        assertEquals(RepairReport.Status.HEALTHY, store.repair("job").status());
        repos.get(0).delete(index.fragmentKey(0));
        RepairReport report = store.repair("job");
        assertEquals(RepairReport.Status.REPAIRED, report.status());
        assertEquals(1, report.verifiedBefore());
        assertEquals(2, report.availableAfter());
        assertEquals(List.of(0), report.regenerated());
        assertEquals(1, report.index().revision());
        assertEquals("r2", report.index().fragments().get(0).repositoryId());
        assertArrayEquals(repos.get(1).get(index.fragmentKey(1)).orElseThrow(),
                repos.get(2).get(index.fragmentKey(0)).orElseThrow());
        assertEquals(RepairReport.Status.HEALTHY, store.repair("job").status());
        // The replica that held the only copy can now go too.
        repos.get(1).delete(index.fragmentKey(1));
        assertArrayEquals(Stores.data(3, 500), ephemeral(repos).build().recover("job").orElseThrow().toByteArray());
    }

    @Test
    void repair_rewrites_in_place_when_no_other_repository_is_left_and_reports_what_it_cannot_do() throws Exception {
        List<FragmentRepository> repos = Stores.inMemory(2);
        Stores.ManualClock clock = new Stores.ManualClock();
        CheckpointStore store = ephemeral(repos).clock(clock).lease(Duration.ofHours(1)).build();
        assertEquals(RepairReport.Status.NO_CHECKPOINT, store.repair("job").status());
        FragmentIndex index = store.commit("job", Stores.data(3, 100));
        byte[] lost = repos.get(0).get(index.fragmentKey(0)).orElseThrow();
        repos.get(0).delete(index.fragmentKey(0));
        // No third repository to regenerate onto: the one that lost it takes it back.
        RepairReport rewritten = store.repair("job");
        assertEquals(RepairReport.Status.REPAIRED, rewritten.status());
        assertEquals(List.of(0), rewritten.regenerated());
        assertEquals(index, rewritten.index(), "same locations: no new revision");
        assertArrayEquals(lost, repos.get(0).get(index.fragmentKey(0)).orElseThrow());
        clock.advance(Duration.ofHours(2));
        assertEquals(RepairReport.Status.EXPIRED, store.repair("job").status());
        repos.get(0).delete(index.fragmentKey(0));
        repos.get(1).delete(index.fragmentKey(1));
        clock.advance(Duration.ofHours(-2));
        assertThrows(CheckpointUnavailableException.class, () -> store.repair("job"));
    }

    @Test
    void repair_rewrites_a_corrupt_fragment_on_its_own_repository() throws Exception {
        List<FragmentRepository> repos = Stores.inMemory(4);
        CheckpointStore store = ephemeral(repos).build();
        FragmentIndex index = store.commit("job", Stores.data(6, 300));
        byte[] good = repos.get(1).get(index.fragmentKey(1)).orElseThrow();
        Stores.corrupt(repos.get(1), index.fragmentKey(1), 40);
        RepairReport report = store.repair("job");
        assertEquals(RepairReport.Status.REPAIRED, report.status());
        assertEquals(List.of(1), report.regenerated());
        assertEquals(index.fragments(), report.index().fragments());
        assertArrayEquals(good, repos.get(1).get(index.fragmentKey(1)).orElseThrow());
        assertEquals(List.of(), repos.get(2).list("job.").stream().filter(k -> !k.endsWith(".ok")).toList());
    }

    @Test
    void leases_can_be_renewed() {
        List<FragmentRepository> repos = Stores.inMemory(2);
        Stores.ManualClock clock = new Stores.ManualClock();
        CheckpointStore store = ephemeral(repos).clock(clock).lease(Duration.ofHours(1)).build();
        assertTrue(store.renewLease("job", Duration.ofDays(1)).isEmpty());
        FragmentIndex index = store.commit("job", Stores.data(3, 100));
        assertEquals(clock.instant().plus(Duration.ofHours(1)), index.leaseExpiry());
        clock.advance(Duration.ofMinutes(30));
        FragmentIndex renewed = store.renewLease("job", Duration.ofDays(1)).orElseThrow();
        assertEquals(clock.instant().plus(Duration.ofDays(1)), renewed.leaseExpiry());
        assertEquals(1, renewed.revision());
        assertEquals(renewed, ephemeral(repos).build().latestIndex("job").orElseThrow());
        assertThrows(IllegalArgumentException.class, () -> store.renewLease("job", Duration.ZERO));
    }

    @Test
    void a_lease_too_long_to_represent_ends_at_the_last_millisecond_the_index_holds() {
        List<FragmentRepository> repos = Stores.inMemory(2);
        Duration forever = Duration.ofSeconds(Long.MAX_VALUE);
        Instant last = Instant.ofEpochMilli(Long.MAX_VALUE);
        CheckpointStore store = ephemeral(repos).lease(forever).build();
        FragmentIndex index = store.commit("job", Stores.data(5, 100));
        assertEquals(last, index.leaseExpiry());
        assertFalse(index.isExpired(last));
        assertTrue(index.isExpired(last.plusNanos(1)));
        assertArrayEquals(Stores.data(5, 100), ephemeral(repos).build().recover("job").orElseThrow().toByteArray());
        // Past the end of the format but within Instant's range: saturates the same way.
        assertEquals(last, store.renewLease("job", Duration.ofDays(300_000_000L * 366)).orElseThrow()
                .leaseExpiry());
        assertEquals(last, store.renewLease("job", forever).orElseThrow().leaseExpiry());
        assertEquals(last, ephemeral(repos).build().latestIndex("job").orElseThrow().leaseExpiry());
    }

    @Test
    void collects_garbage_left_by_a_crashed_commit_only_when_the_newest_checkpoint_is_there() throws Exception {
        List<FragmentRepository> repos = Stores.inMemory(3);
        // Epochs that read as times, so that there is room below the first one.
        CheckpointStore store = ephemeral(repos).epochs(EpochSource.clock(new Stores.ManualClock())).build();
        FragmentIndex first = store.commit("job", Stores.data(1, 100));
        assertTrue(first.epoch() > 0);
        // An older leftover, and a newer one (a commit still running, or crashed before its commit point).
        String older = StoreKeys.fragmentKey("job", new CheckpointId(first.epoch() - 1, 7, 5), 1);
        String newer = StoreKeys.fragmentKey("job", new CheckpointId(first.epoch(), 9, 5), 1);
        repos.get(2).put(older, new byte[] {1});
        repos.get(2).put(newer, new byte[] {1});
        CheckpointStore fresh = ephemeral(repos).build();
        assertEquals(1, fresh.collectGarbage("job"));
        assertTrue(repos.get(2).get(older).isEmpty());
        assertTrue(repos.get(2).get(newer).isPresent(), "collection never deletes what is newer than the newest");
        // Nothing is deleted while the newest checkpoint cannot be verified.
        repos.get(2).put(older, new byte[] {1});
        repos.get(0).delete(first.fragmentKey(0));
        repos.get(1).delete(first.fragmentKey(1));
        assertEquals(0, fresh.collectGarbage("job"));
        assertTrue(repos.get(2).get(older).isPresent());
        assertEquals(0, fresh.collectGarbage("other"));
        // The next commit takes a number past everything seen, a greater epoch, and removes the rest.
        FragmentIndex next = fresh.commit("job", Stores.data(2, 10));
        assertEquals(10, next.sequence());
        assertTrue(next.epoch() > first.epoch());
        String prefix = StoreKeys.checkpointPrefix("job", next.checkpointId());
        assertTrue(Stores.everything(repos).stream().allMatch(k -> k.substring(3).startsWith(prefix)),
                Stores.everything(repos).toString());
    }

    @Test
    void checkpoints_whose_lease_ended_are_collected() throws Exception {
        List<FragmentRepository> repos = Stores.inMemory(3);
        Stores.ManualClock clock = new Stores.ManualClock();
        CheckpointStore store = ephemeral(repos).clock(clock).lease(Duration.ofHours(1)).build();
        store.commit("short", Stores.data(1, 10));
        store.commit("long", Stores.data(2, 10));
        store.renewLease("long", Duration.ofDays(30));
        clock.advance(Duration.ofHours(2));
        // Each job: a fragment, an index copy and a marker on two repositories, a marker on the third.
        assertEquals(7, store.collectExpired());
        assertTrue(store.recover("short").isEmpty());
        assertArrayEquals(Stores.data(2, 10), store.recover("long").orElseThrow().toByteArray());
        assertEquals(7, Stores.everything(repos).size());
        assertEquals(0, store.collectExpired());
    }

    @Test
    void places_fragments_with_the_greedy_selector() {
        List<FragmentRepository> repos = Stores.inMemory(6);
        // r4 and r5 are fast and reliable; the others slow and flaky.
        PlacementPolicy policy = PlacementPolicy.selecting(RepositorySelector.greedy(), id -> {
            boolean good = id.equals("r4") || id.equals("r5");
            return StorageHost.of(id, good ? 1e8 : 1e5, SurvivalFunction.exponential(good ? 1e-7 : 1e-3));
        }, () -> Objective.optimistic(3600, 600, 1e5));
        CheckpointStore store = CheckpointStore.ephemeral(repos).placement(policy).build();
        FragmentIndex index = store.commit("job", Stores.data(1, 1000));
        assertEquals(List.of("r4", "r5"), index.fragments().stream().map(FragmentLocation::repositoryId).sorted()
                .toList());
    }

    @Test
    void rejects_a_placement_policy_that_breaks_its_contract() {
        List<FragmentRepository> repos = Stores.inMemory(3);
        CheckpointStore store = CheckpointStore.ephemeral(repos).placement(request -> List.of("r0", "r0")).build();
        assertEquals("the placement policy must choose 2 distinct candidates of [r0, r1, r2]: [r0, r0]",
                assertThrows(IllegalStateException.class, () -> store.commit("job", new byte[1])).getMessage());
        CheckpointStore outside = CheckpointStore.ephemeral(repos).placement(request -> List.of("r0", "x")).build();
        assertThrows(IllegalStateException.class, () -> outside.commit("job", new byte[1]));
    }

    @Test
    void random_placement_spreads_fragments() {
        List<FragmentRepository> repos = Stores.inMemory(6);
        CheckpointStore store = CheckpointStore.ephemeral(repos).random(new SplittableRandom(3)).build();
        List<String> used = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            store.commit("job" + i, new byte[] {(byte) i}).fragments().forEach(f -> used.add(f.repositoryId()));
        }
        assertEquals(6, used.stream().distinct().count(), used.stream().collect(Collectors.groupingBy(s -> s,
                Collectors.counting())).toString());
    }

    @Test
    void validates_its_configuration_and_arguments() {
        List<FragmentRepository> one = Stores.inMemory(1);
        assertEquals("repositories must number at least n = 2 for REPLICAS: 1",
                assertThrows(IllegalArgumentException.class, () -> CheckpointStore.ephemeral(one)).getMessage());
        List<FragmentRepository> twins = List.of(FragmentRepository.inMemory("x"), FragmentRepository.inMemory("x"));
        assertEquals("repositories must have distinct ids: x appears twice",
                assertThrows(IllegalArgumentException.class, () -> CheckpointStore.ephemeral(twins)).getMessage());
        CheckpointStore.Builder builder = CheckpointStore.ephemeral(Stores.inMemory(2));
        assertEquals("reconstructionThreshold must be in [1, 2]: 3",
                assertThrows(IllegalArgumentException.class, () -> builder.reconstructionThreshold(3)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> builder.segmentBytes(0));
        assertThrows(IllegalArgumentException.class, () -> builder.extraFetches(-1));
        assertThrows(IllegalArgumentException.class, () -> builder.lease(Duration.ofSeconds(-1)));
        assertThrows(NullPointerException.class, () -> builder.executor(null));
        CheckpointStore store = builder.build();
        assertEquals(2, store.reconstructionThreshold());
        assertEquals(Encoding.REPLICAS, store.encoding());
        assertEquals(1, store.m());
        assertEquals(2, store.n());
        assertEquals("jobId must be 1 to 64 characters of [A-Za-z0-9_-]: \"a/b\"",
                assertThrows(IllegalArgumentException.class, () -> store.commit("a/b", new byte[1])).getMessage());
        assertThrows(IllegalArgumentException.class, () -> store.recover("a.b"));
        assertThrows(IllegalArgumentException.class, () -> store.commit("x".repeat(65), new byte[1]));
        assertThrows(NullPointerException.class, () -> store.commit("job", (byte[]) null));
        assertThrows(NullPointerException.class, () -> store.recover((String) null));
        assertThrows(NullPointerException.class, () -> store.recover((FragmentIndex) null));
        assertEquals(Optional.empty(), store.latestIndex("job"));
    }

    @Test
    void a_failing_input_stream_commits_nothing() throws Exception {
        List<FragmentRepository> repos = Stores.inMemory(2);
        CheckpointStore store = ephemeral(repos).build();
        InputStream broken = new InputStream() {
            private int left = 100;

            @Override
            public int read() throws IOException {
                if (left-- <= 0) {
                    throw new IOException("disk gone");
                }
                return 7;
            }
        };
        assertEquals("disk gone", assertThrows(IOException.class, () -> store.commit("job", broken)).getMessage());
        assertEquals(List.of(), Stores.everything(repos));
        assertFalse(store.recover("job").isPresent());
        assertEquals(1, store.commit("job", new byte[3]).sequence());
    }

    /** Fenced epochs, as a coordination service keeps them: one counter per job, shared by every writer. */
    private static final class CounterEpochs implements EpochSource {
        private final AtomicLong counter = new AtomicLong();

        @Override
        public long acquire(String jobId, long highestSeen) {
            return counter.updateAndGet(e -> Math.max(e, highestSeen) + 1);
        }

        @Override
        public boolean isCurrent(String jobId, long epoch) {
            return counter.get() == epoch;
        }
    }

    @Test
    void a_writer_with_a_stale_epoch_cannot_commit_over_a_newer_one_nor_make_its_checkpoint_collectable()
            throws Exception {
        List<FragmentRepository> repos = Stores.inMemory(4);
        CounterEpochs epochs = new CounterEpochs();
        CheckpointStore old = ephemeral(repos).epochs(epochs).build();
        FragmentIndex before = old.commit("job", Stores.data(1, 80));
        // A second writer takes the job over (the first one's session expired, say) and commits.
        CheckpointStore taker = ephemeral(repos).epochs(epochs).build();
        FragmentIndex newer = taker.commit("job", Stores.data(2, 80));
        assertTrue(newer.epoch() > before.epoch());
        // The first writer wakes up: it sees the greater epoch and is refused, nothing of the newer one touched.
        StaleWriterException refused = assertThrows(StaleWriterException.class,
                () -> old.commit("job", Stores.data(3, 80)));
        assertEquals(before.epoch(), refused.epoch());
        assertEquals(newer.epoch(), refused.newerEpoch());
        old.collectGarbage("job");
        old.repair("job");
        assertEquals(List.of(newer), taker.checkpoints("job"));
        assertArrayEquals(Stores.data(2, 80), old.recover("job").orElseThrow().toByteArray());
        // A stale writer that cannot see the newer writer's objects is refused by the epoch source itself.
        CheckpointStore blind = ephemeral(repos.subList(2, 4)).epochs(epochs).build();
        blind.commit("other", Stores.data(4, 10));
        ephemeral(repos).epochs(epochs).build().commit("other", Stores.data(5, 10));
        assertThrows(StaleWriterException.class, () -> blind.commit("other", Stores.data(6, 10)));
    }

    @Test
    void the_listing_and_clock_epochs_need_a_complete_listing_and_order_above_everything_seen() throws Exception {
        EpochSource listing = EpochSource.listing();
        assertEquals(0, listing.acquire("job", -1));
        assertEquals(42, listing.acquire("job", 41));
        assertTrue(listing.isCurrent("job", 0));
        assertTrue(listing.requiresCompleteListing());
        assertThrows(IOException.class, () -> listing.acquire("job", Long.MAX_VALUE));
        EpochSource clock = EpochSource.clock(InstantSource.fixed(Instant.parse("2026-11-24T00:00:00.123456Z")));
        assertEquals(1_795_478_400_123_456L, clock.acquire("job", -1));
        assertEquals(1_795_478_400_123_456L + 1, clock.acquire("job", 1_795_478_400_123_456L));
        assertTrue(clock.isCurrent("job", 0));
        assertTrue(clock.requiresCompleteListing());
        assertEquals(0, EpochSource.clock(InstantSource.fixed(Instant.EPOCH.minusSeconds(5))).acquire("j", -1));
        assertEquals(Long.MAX_VALUE - 1, EpochSource.clock(InstantSource.fixed(Instant.MAX)).acquire("j", -1));
        // A source of one's own orders epochs by itself unless it says otherwise.
        assertFalse(new CounterEpochs().requiresCompleteListing());
    }

    @Test
    void by_default_a_writer_takes_its_epoch_from_a_listing_every_repository_answered_and_reads_no_clock()
            throws Exception {
        List<Stores.Switchable> repos = Stores.Switchable.inMemory(4);
        List<FragmentRepository> all = new ArrayList<>(repos);
        // Writers on hosts whose clocks are a century apart, the later writer's behind.
        InstantSource future = InstantSource.fixed(Instant.parse("2126-01-01T00:00:00Z"));
        InstantSource past = InstantSource.fixed(Instant.parse("1990-01-01T00:00:00Z"));
        CheckpointStore firstWriter = ephemeral(all).clock(future).build();
        FragmentIndex first = firstWriter.commit("job", Stores.data(1, 50));
        assertEquals(0, first.epoch());
        CheckpointStore second = ephemeral(all).clock(past).build();
        // It cannot list r3: r3 may hold a checkpoint of any epoch, so no epoch is taken and nothing is written.
        repos.get(3).reachable = false;
        List<String> before = Stores.everything(all.subList(0, 3));
        EpochUnavailableException refused = assertThrows(EpochUnavailableException.class,
                () -> second.commit("job", Stores.data(2, 50)));
        assertEquals(List.of("r3"), refused.unreachable());
        assertFalse(refused.reachedCommitPoint());
        assertEquals(before, Stores.everything(all.subList(0, 3)));
        repos.get(3).reachable = true;
        FragmentIndex next = second.commit("job", Stores.data(3, 50));
        assertEquals(1, next.epoch(), "one more than the greatest epoch listed, whatever the clocks");
        // With its epoch taken, the writer commits while a repository is away.
        repos.get(3).reachable = false;
        FragmentIndex away = second.commit("job", Stores.data(4, 50));
        assertEquals(1, away.epoch());
        repos.get(3).reachable = true;
        assertArrayEquals(Stores.data(4, 50), ephemeral(all).build().recover("job").orElseThrow().toByteArray());
        // Unfenced, the first writer, still alive, is told apart once it lists the second one's objects.
        StaleWriterException stale = assertThrows(StaleWriterException.class,
                () -> firstWriter.commit("job", Stores.data(9, 50)));
        assertEquals(List.of(0L, 1L), List.of(stale.epoch(), stale.newerEpoch()));
        // And a fenced source is asked whatever the listing shows.
        repos.get(3).reachable = false;
        FragmentIndex fenced = ephemeral(all).epochs(new CounterEpochs()).build().commit("job", Stores.data(5, 50));
        assertTrue(fenced.epoch() > away.epoch());
    }

    @Test
    void a_commit_without_an_epoch_is_refused_and_writes_nothing() throws Exception {
        List<FragmentRepository> repos = Stores.inMemory(3);
        EpochSource unreachable = new EpochSource() {
            @Override
            public long acquire(String jobId, long highestSeen) throws IOException {
                throw new IOException("the coordination service is down");
            }

            @Override
            public boolean isCurrent(String jobId, long epoch) {
                return true;
            }
        };
        EpochUnavailableException down = assertThrows(EpochUnavailableException.class,
                () -> ephemeral(repos).epochs(unreachable).build().commit("job", Stores.data(1, 20)));
        assertEquals(List.of(), down.unreachable());
        assertTrue(down.failures().toString().contains("the coordination service is down"), down.toString());
        assertEquals(List.of(), Stores.everything(repos));
        // An object of the greatest epoch there is (a foreign writer's, say) leaves no epoch above it.
        repos.get(0).put(StoreKeys.markerKey("job", new CheckpointId(Long.MAX_VALUE, 0, 1)), new byte[0]);
        EpochUnavailableException exhausted = assertThrows(EpochUnavailableException.class,
                () -> ephemeral(repos).build().commit("job", Stores.data(2, 20)));
        assertTrue(exhausted.failures().toString().contains("no epoch is left"), exhausted.toString());
        assertEquals(1, Stores.everything(repos).size());
    }

    @Test
    void deleting_a_checkpoint_keeps_its_index_and_fragments_while_a_marker_of_it_may_remain() throws Exception {
        for (Stores.Switchable.Deletes failure : List.of(Stores.Switchable.Deletes.FAIL,
                Stores.Switchable.Deletes.VANISH)) {
            List<Stores.Switchable> repos = Stores.Switchable.inMemory(3);
            List<FragmentRepository> all = new ArrayList<>(repos);
            CheckpointStore store = ephemeral(all).build();
            FragmentIndex a = store.commit("job", Stores.data(1, 80));
            // A's markers are on all three repositories; the delete of the one on r2 fails, or vanishes.
            repos.get(2).deletes = failure;
            repos.get(2).deletesOf = key -> key.endsWith(".ok");
            FragmentIndex b = store.commit("job", Stores.data(2, 80));
            assertTrue(repos.get(2).get(a.markerKey()).isPresent(), failure.toString());
            for (int i = 0; i < a.n(); i++) {
                String holder = a.fragments().get(i).repositoryId();
                FragmentRepository repository = all.stream().filter(r -> r.id().equals(holder)).findFirst()
                        .orElseThrow();
                assertTrue(repository.get(a.fragmentKey(i)).isPresent(), failure + ": A's fragment on " + holder);
                assertTrue(repository.get(a.indexKey()).isPresent(), failure + ": A's index on " + holder);
            }
            assertArrayEquals(Stores.data(1, 80), store.recover(store.checkpoints("job").get(1)).toByteArray());
            // Once the markers go, the rest follows.
            repos.get(2).deletes = Stores.Switchable.Deletes.WORK;
            assertTrue(store.collectGarbage("job") > 0);
            assertEquals(List.of(b), store.checkpoints("job"));
            assertTrue(Stores.everything(all).stream().noneMatch(k -> k.contains(StoreKeys.checkpointPrefix("job",
                    a.checkpointId()))), Stores.everything(all).toString());
        }
    }

    @Test
    void repair_rewrites_index_copies_that_are_missing_corrupt_or_of_an_older_revision() throws Exception {
        List<Stores.Switchable> repos = Stores.Switchable.inMemory(5);
        List<FragmentRepository> all = new ArrayList<>(repos);
        CheckpointStore store = CheckpointStore.perennial(io.github.volpex.erasure.IdaCodec.systematic(2, 2), all)
                .placement(PlacementPolicy.inOrder()).build();
        FragmentIndex first = store.commit("job", Stores.data(1, 300));
        byte[] oldRevision = repos.get(3).get(first.indexKey()).orElseThrow();
        FragmentIndex renewed = store.renewLease("job", Duration.ofDays(30)).orElseThrow();
        assertEquals(RepairReport.Status.HEALTHY, store.repair("job").status());
        repos.get(0).delete(first.indexKey());
        Stores.corrupt(repos.get(1), first.indexKey(), 7);
        repos.get(3).put(first.indexKey(), oldRevision);
        RepairReport report = store.repair("job");
        assertEquals(RepairReport.Status.REPAIRED, report.status(), report.toString());
        assertEquals(List.of("r0", "r1", "r3"), report.indexCopiesRewritten());
        assertEquals(List.of(), report.regenerated());
        assertEquals(renewed, report.index());
        for (int r : new int[] {0, 1, 3}) {
            assertEquals(renewed, FragmentIndex.parse(repos.get(r).get(first.indexKey()).orElseThrow()));
        }
        assertEquals(RepairReport.Status.HEALTHY, store.repair("job").status());
        // r2 is away: its copy cannot be checked, and is not counted against the repair.
        repos.get(2).reachable = false;
        repos.get(0).delete(first.indexKey());
        RepairReport without = store.repair("job");
        assertEquals(RepairReport.Status.REPAIRED, without.status(), without.toString());
        assertEquals(List.of("r0"), without.indexCopiesRewritten());
        assertEquals(RepairReport.Status.HEALTHY, store.repair("job").status());
        repos.get(2).reachable = true;
        // A copy that cannot be rewritten leaves the repair partial.
        repos.get(0).delete(first.indexKey());
        RepairReport partial = refusingWritesOn(all, repos.get(0)).repair("job");
        assertEquals(RepairReport.Status.PARTIALLY_REPAIRED, partial.status(), partial.toString());
        assertEquals(List.of(), partial.indexCopiesRewritten());
    }

    /** A store over {@code all} in which every write to {@code refusing} fails. */
    private static CheckpointStore refusingWritesOn(List<FragmentRepository> all, FragmentRepository refusing) {
        List<FragmentRepository> wrapped = new ArrayList<>();
        for (FragmentRepository repository : all) {
            wrapped.add(repository != refusing ? repository : new Stores.Switchable(repository) {
                @Override
                public void put(String key, byte[] content) throws IOException {
                    throw new RepositoryUnavailableException(id(), "writes fail", null);
                }
            });
        }
        return CheckpointStore.perennial(io.github.volpex.erasure.IdaCodec.systematic(2, 2), wrapped)
                .placement(PlacementPolicy.inOrder()).build();
    }
}
