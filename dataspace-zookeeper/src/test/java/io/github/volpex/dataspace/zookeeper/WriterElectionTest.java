package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.CommitFailedException;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.JobRunningException;
import io.github.volpex.checkpoint.store.ProcessCheckpoint;
import io.github.volpex.checkpoint.store.StaleWriterException;
import io.github.volpex.erasure.IdaCodec;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The writer election with every member in this JVM (each with a ZooKeeper session of its own) on a 3-server ensemble:
 * one writer at a time, the next member takes over when the writer leaves, its session expires or its candidacy is
 * deleted; a member whose session expired competes again; the writer survives a leader failover of the ensemble; the
 * election is the store's epoch source across terms; clean-up refuses while members live unless forced; bad input is
 * refused with its message.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WriterElectionTest {

    private static final Duration SESSION = Duration.ofSeconds(2);
    private static final AtomicInteger PATHS = new AtomicInteger();
    private static EmbeddedZooKeeper ensemble;
    private final List<WriterElection> members = Collections.synchronizedList(new ArrayList<>());

    @BeforeAll
    static void start() {
        ensemble = EmbeddedZooKeeper.start(3);
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    @AfterEach
    void leave() throws Exception {
        Closing.all(members.toArray(new AutoCloseable[0]));
    }

    private static String freshPath() {
        return "/elections/e" + PATHS.incrementAndGet();
    }

    private WriterElection join(String path, String name, WriterElection.Listener listener) {
        WriterElection.Builder builder = WriterElection.builder(ensemble.connectString(), path, "job-7").name(name)
                .sessionTimeout(SESSION).executor(Runnable::run);
        if (listener != null) {
            builder.listener(listener);
        }
        WriterElection member = builder.join();
        members.add(member);
        return member;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, "waited 60 s for: " + what);
            Thread.sleep(10);
        }
    }

    /** The members that count themselves the writer now. */
    private List<WriterElection> writers() {
        synchronized (members) {
            return members.stream().filter(WriterElection::isWriter).toList();
        }
    }

    @Test
    void the_first_member_writes_and_the_next_takes_over_with_a_greater_epoch_when_it_leaves() throws Exception {
        String path = freshPath();
        List<String> heard = Collections.synchronizedList(new ArrayList<>());
        WriterElection a = join(path, "a", (role, epoch) -> heard.add("a " + role + " " + epoch));
        WriterElection b = join(path, "b", null);
        WriterElection c = join(path, "c", null);
        assertTrue(a.isWriter());
        assertEquals(1, a.epoch().orElseThrow());
        assertEquals(WriterElection.Role.CANDIDATE, b.role());
        assertEquals(List.of(a), writers());

        a.close();
        assertEquals(WriterElection.Role.CLOSED, a.role());
        assertEquals(List.of("a WRITER 1", "a CLOSED 1"), heard);
        await("b takes over", b::isWriter);
        assertEquals(2, b.epoch().orElseThrow());
        assertEquals(List.of(b), writers());
        b.close();
        await("c takes over", c::isWriter);
        assertEquals(3, c.epoch().orElseThrow());
        assertEquals(1, c.terms());
    }

    @Test
    void a_writer_whose_session_expires_learns_it_and_competes_again_with_a_new_session() throws Exception {
        String path = freshPath();
        List<String> heard = Collections.synchronizedList(new ArrayList<>());
        WriterElection a = join(path, "a", (role, epoch) -> heard.add(role + " " + epoch));
        WriterElection b = join(path, "b", null);
        assertTrue(a.isWriter());
        String before = a.candidacy();
        Sessions.expire(ensemble.connectString(), a.sessionId(), a.sessionPassword());
        await("b takes over", b::isWriter);
        assertEquals(2, b.epoch().orElseThrow());
        await("a learns that its session expired and registers anew", () -> a.expiries() == 1
                && a.candidacy() != null && !a.candidacy().equals(before) && a.role() == WriterElection.Role.CANDIDATE);
        assertEquals(List.of("WRITER 1", "CANDIDATE 1"), heard);
        // Once b leaves, a — on its new session — is elected again, under a new epoch.
        b.close();
        await("a is the writer again", a::isWriter);
        assertEquals(3, a.epoch().orElseThrow());
        assertEquals(2, a.terms());
        assertEquals(List.of("WRITER 1", "CANDIDATE 1", "WRITER 3"), heard);
    }

    @Test
    void the_only_member_re_elects_itself_after_its_session_expired() throws Exception {
        WriterElection alone = join(freshPath(), "alone", null);
        assertEquals(1, alone.epoch().orElseThrow());
        Sessions.expire(ensemble.connectString(), alone.sessionId(), alone.sessionPassword());
        await("it is elected again", () -> alone.expiries() == 1 && alone.isWriter());
        assertEquals(2, alone.epoch().orElseThrow());
    }

    @Test
    void a_writer_whose_candidacy_is_deleted_under_it_steps_down_and_registers_again() throws Exception {
        String path = freshPath();
        WriterElection a = join(path, "a", null);
        WriterElection b = join(path, "b", null);
        String candidacy = a.candidacy();
        ZooKeeper raw = Sessions.connect(ensemble.connectString());
        try {
            raw.delete(candidacy, -1);
        } finally {
            raw.close();
        }
        await("b takes over", b::isWriter);
        await("a registers again behind b", () -> a.candidacy() != null && !a.candidacy().equals(candidacy));
        assertFalse(a.isWriter());
        assertEquals(List.of(b), writers());
    }

    @Test
    void the_writer_keeps_its_role_and_epoch_through_a_leader_failover() throws Exception {
        String path = freshPath();
        WriterElection a = join(path, "a", null);
        WriterElection b = join(path, "b", null);
        long epoch = a.epoch().orElseThrow();
        int leader = ensemble.leader();
        ensemble.stop(leader);
        try {
            await("a writer again after the failover", () -> a.isWriter() || b.isWriter());
            assertTrue(writers().size() == 1, "one writer: " + writers());
            WriterElection writer = writers().get(0);
            if (writer == a) {
                assertEquals(epoch, a.epoch().orElseThrow(), "the session survived: the same term");
                assertEquals(1, a.terms(), "a reconnection under the same epoch begins no new term");
            } else {
                assertTrue(b.epoch().orElseThrow() > epoch);
            }
        } finally {
            ensemble.restart(leader);
        }
    }

    @Test
    void the_election_is_the_stores_epoch_source_across_terms() throws Exception {
        String path = freshPath();
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            repositories.add(FragmentRepository.inMemory("r" + i));
        }
        WriterElection a = join(path, "a", null);
        WriterElection b = join(path, "b", null);
        CheckpointStore storeA = CheckpointStore.perennial(IdaCodec.systematic(3, 2), repositories).epochs(a).build();
        CheckpointStore storeB = CheckpointStore.perennial(IdaCodec.systematic(3, 2), repositories).epochs(b).build();
        FragmentIndex first = storeA.commit("job-7", ProcessCheckpoint.of(10, new byte[] {1}));
        assertEquals(1, first.epoch());
        CommitFailedException candidate = assertThrows(CommitFailedException.class,
                () -> storeB.commit("job-7", ProcessCheckpoint.of(11, new byte[] {2})));
        assertTrue(candidate.getMessage().contains("b does not hold the writer role of job \"job-7\" (candidate)"),
                candidate.getMessage());

        // a is paused past its session (expired): b writes; a's store is refused, then a writes again once elected.
        Sessions.expire(ensemble.connectString(), a.sessionId(), a.sessionPassword());
        await("b takes over", b::isWriter);
        assertEquals(2, storeB.commit("job-7", ProcessCheckpoint.of(20, new byte[] {3})).epoch());
        assertFalse(a.isCurrent("job-7", 1));
        assertThrows(StaleWriterException.class, () -> new StaleCommit(storeA, a).commitUnder(1));
        b.close();
        await("a elected again", a::isWriter);
        FragmentIndex again = storeA.commit("job-7", ProcessCheckpoint.of(30, new byte[] {4}));
        assertEquals(3, again.epoch());
        assertEquals(ProcessCheckpoint.of(30, new byte[] {4}), storeB.recoverProcess("job-7").orElseThrow());
        assertThrows(IllegalArgumentException.class, () -> a.acquire("other-job", -1));
    }

    /** A commit of a store that believes it still holds an old epoch: its epoch source answers with that epoch. */
    private record StaleCommit(CheckpointStore store, WriterElection election) {
        void commitUnder(long epoch) {
            CheckpointStore stale = CheckpointStore.perennial(IdaCodec.systematic(3, 2), store.repositories())
                    .epochs(new io.github.volpex.checkpoint.store.EpochSource() {
                        @Override
                        public long acquire(String jobId, long highestSeen) {
                            return epoch;
                        }

                        @Override
                        public boolean isCurrent(String jobId, long asked) throws IOException {
                            return election.isCurrent(jobId, asked);
                        }

                        @Override
                        public boolean epochPerTerm() {
                            return true;
                        }
                    }).build();
            stale.commit("job-7", ProcessCheckpoint.of(99, new byte[] {9}));
        }
    }

    @Test
    void deleting_the_job_is_refused_while_members_live_unless_forced() throws Exception {
        String path = freshPath();
        WriterElection a = join(path, "host-a", null);
        WriterElection b = join(path, "host-b", null);
        try (ZooKeeperEpochSource cleaner = ZooKeeperEpochSource.connect(ensemble.connectString(), path)) {
            JobRunningException running = assertThrows(JobRunningException.class,
                    () -> cleaner.deleteJob("job-7", false));
            assertEquals(List.of("host-a (writer, epoch 1)", "host-b (candidate)"), running.writers());
            assertEquals("job job-7 still runs: 2 writers or candidates are alive, host-a (writer, epoch 1), host-b "
                    + "(candidate); stop it first, or force the deletion", running.getMessage());
            assertTrue(a.isWriter());
            cleaner.deleteJob("job-7", true);
            await("both stop", () -> a.role() == WriterElection.Role.CLOSED
                    && b.role() == WriterElection.Role.CLOSED);
            assertFalse(cleaner.isCurrent("job-7", 1));
        }
        assertEquals(null, Sessions.exists(ensemble.connectString(), path),
                "the epochs path, which the package created, is gone");
    }

    @Test
    void a_member_resigning_with_the_job_deletes_it_when_it_is_the_last() throws Exception {
        String path = freshPath();
        WriterElection a = join(path, "a", null);
        WriterElection b = join(path, "b", null);
        assertThrows(JobRunningException.class, () -> a.deleteJob("job-7", false));
        assertEquals(WriterElection.Role.CLOSED, a.role(), "it resigned all the same");
        await("b takes over", b::isWriter);
        b.deleteJob("job-7", false);
        assertEquals(WriterElection.Role.CLOSED, b.role());
        assertEquals(null, Sessions.exists(ensemble.connectString(), path));
    }

    @Test
    void bad_input_is_refused_with_its_message() {
        assertEquals("jobId must not be empty", assertThrows(IllegalArgumentException.class,
                () -> WriterElection.builder(ensemble.connectString(), "/e", "")).getMessage());
        assertEquals("path must be an absolute ZooKeeper path such as /volpex/epochs: \"e\" (Path must start with / "
                + "character)", assertThrows(IllegalArgumentException.class,
                        () -> WriterElection.join(ensemble.connectString(), "e", "job")).getMessage());
        assertEquals("connectString must be host:port pairs separated by commas, such as zk1:2181,zk2:2181,zk3:2181: "
                + "\"127.0.0.1:2181;127.0.0.1:2182\" (\"127.0.0.1:2181;127.0.0.1\" is not a host name or an IP "
                + "address)", assertThrows(IllegalArgumentException.class,
                        () -> WriterElection.join("127.0.0.1:2181;127.0.0.1:2182", "/e", "job")).getMessage());
        assertEquals("name must be 1 to 200 characters: 0", assertThrows(IllegalArgumentException.class,
                () -> WriterElection.builder("h:1", "/e", "job").name("")).getMessage());
        assertThrows(NullPointerException.class, () -> WriterElection.builder(null, "/e", "job"));
    }
}
