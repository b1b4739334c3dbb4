package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.StaleWriterException;
import io.github.volpex.erasure.IdaCodec;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ZooKeeper epoch source on a 3-server ensemble: epochs only grow and are never handed out twice (threads and
 * clients racing, replies lost, the leader failing over, sessions expiring), only the newest is current, a writer held
 * between its fragments and its commit point while another takes over is refused by the epoch check itself, and bad
 * input, foreign data and an unreachable ensemble are reported clearly.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ZooKeeperEpochSourceTest {

    private static final AtomicInteger PATHS = new AtomicInteger();
    private static EmbeddedZooKeeper ensemble;
    private static FaultyLink link;

    @BeforeAll
    static void start() throws Exception {
        ensemble = EmbeddedZooKeeper.start(3);
        link = FaultyLink.to(ensemble.connectString(ensemble.leader()));
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(link, ensemble);
    }

    private static String freshPath() {
        return "/epochs/t" + PATHS.incrementAndGet();
    }

    private static ZooKeeperEpochSource connect(String path) {
        return ZooKeeperEpochSource.connect(ensemble.connectString(), path);
    }

    @Test
    void each_acquisition_exceeds_every_earlier_one_and_the_highest_epoch_seen() throws Exception {
        String path = freshPath();
        try (ZooKeeperEpochSource a = connect(path); ZooKeeperEpochSource b = connect(path)) {
            assertEquals(0, a.acquire("job", -1));
            assertEquals(1, b.acquire("job", -1));
            assertEquals(2, a.acquire("job", 1));
            assertEquals(51, b.acquire("job", 50), "above the highest epoch seen");
            assertEquals(52, a.acquire("job", 3), "above the counter when it is higher");
            assertEquals(7, a.acquire("other-job", 6), "each job has its own counter");
            assertEquals(0, b.acquire("yet-another", -1));
        }
    }

    @Test
    void only_the_newest_epoch_is_current() throws Exception {
        String path = freshPath();
        try (ZooKeeperEpochSource a = connect(path); ZooKeeperEpochSource b = connect(path)) {
            assertFalse(a.isCurrent("job", 0), "a job without a counter has no current epoch");
            long first = a.acquire("job", -1);
            assertTrue(a.isCurrent("job", first));
            assertTrue(b.isCurrent("job", first), "any client can check");
            long second = b.acquire("job", -1);
            assertFalse(a.isCurrent("job", first), "superseded");
            assertTrue(a.isCurrent("job", second));
            assertFalse(a.isCurrent("job", second + 1), "an epoch never acquired");
        }
    }

    @Test
    void job_ids_of_any_characters_have_counters_of_their_own() throws Exception {
        String path = freshPath();
        try (ZooKeeperEpochSource source = connect(path)) {
            List<String> jobs = List.of("a/b", "a%2fb", ".", "..", "job 1", "\u00e9t\u00e9", "x".repeat(300));
            Set<String> nodes = new HashSet<>();
            for (String job : jobs) {
                assertEquals(9, source.acquire(job, 8), job);
                nodes.add(source.counterPath(job));
                assertTrue(source.isCurrent(job, 9), job);
            }
            assertEquals(jobs.size(), nodes.size(), "distinct counters");
            assertEquals(path + "/job-1", source.counterPath("job-1"));
        }
    }

    @Test
    void threads_and_clients_racing_never_receive_the_same_epoch() throws Exception {
        String path = freshPath();
        int clients = 3;
        int threadsPerClient = 3;
        int rounds = 30;
        List<ZooKeeperEpochSource> sources = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(clients * threadsPerClient);
        try {
            for (int c = 0; c < clients; c++) {
                sources.add(connect(path));
            }
            List<Long> epochs = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> tasks = new ArrayList<>();
            for (int t = 0; t < clients * threadsPerClient; t++) {
                ZooKeeperEpochSource source = sources.get(t % clients);
                tasks.add(pool.submit(() -> {
                    go.await();
                    for (int r = 0; r < rounds; r++) {
                        long epoch = source.acquire("contended", -1);
                        epochs.add(epoch);
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> task : tasks) {
                task.get(60, TimeUnit.SECONDS);
            }
            assertEquals(epochs.size(), new HashSet<>(epochs).size(), "every epoch handed out once: " + epochs);
            long newest = Collections.max(epochs);
            for (ZooKeeperEpochSource source : sources) {
                assertTrue(source.isCurrent("contended", newest));
            }
            assertFalse(sources.get(0).isCurrent("contended", Collections.min(epochs)));
        } finally {
            pool.shutdownNow();
            Closing.all(sources.toArray(new AutoCloseable[0]));
        }
    }

    @Test
    void an_acquisition_whose_reply_is_lost_keeps_its_epoch_and_wastes_none() throws Exception {
        String path = freshPath();
        try (ZooKeeperEpochSource lossy = ZooKeeperEpochSource.connect(link.connectString(), path);
             ZooKeeperEpochSource other = connect(path)) {
            int lostBefore = link.lostReplies();
            link.loseNextTransactionReply();
            long created = lossy.acquire("job", 4);            // the create's reply is lost
            assertEquals(lostBefore + 1, link.lostReplies(), "the reply was lost");
            assertEquals(5, created);
            assertTrue(other.isCurrent("job", created));
            link.loseNextTransactionReply();
            long set = lossy.acquire("job", -1);               // the conditional write's reply is lost
            assertEquals(lostBefore + 2, link.lostReplies(), "the reply was lost");
            assertEquals(6, set, "recognised its own write by its token");
            assertTrue(other.isCurrent("job", set));
            assertEquals(7, other.acquire("job", -1));
            assertFalse(lossy.isCurrent("job", set));
            link.loseNextTransactionReply();
            assertTrue(lossy.isCurrent("job", 7), "a check whose reply is lost is asked again");
            assertEquals(lostBefore + 3, link.lostReplies(), "the reply was lost");
        }
    }

    @Test
    void epochs_survive_a_leader_failover_and_an_expired_session() throws Exception {
        String path = freshPath();
        try (ZooKeeperEpochSource a = connect(path); ZooKeeperEpochSource b = connect(path)) {
            long before = a.acquire("job", -1);
            int leader = ensemble.leader();
            ensemble.stop(leader);
            try {
                long during = b.acquire("job", -1);
                assertEquals(before + 1, during, "the counter survived the leader");
                assertFalse(a.isCurrent("job", before));
            } finally {
                ensemble.restart(leader);
            }
            Sessions.expire(ensemble.connectString(), a.sessionId(), a.sessionPassword());
            long after = a.acquire("job", -1);
            assertEquals(before + 2, after, "a new session carries on");
            assertTrue(a.isCurrent("job", after));
            assertTrue(a.expiries() >= 1, "the session was expired");
        }
    }

    @Test
    void a_writer_held_before_its_commit_point_while_another_takes_over_is_refused_by_the_epoch_check()
            throws Exception {
        String path = freshPath();
        List<FragmentRepository> shared = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            shared.add(FragmentRepository.inMemory("r" + i));
        }
        IndexGate gate = new IndexGate();
        List<FragmentRepository> heldView = gate.guard(shared);
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try (ZooKeeperEpochSource oldEpochs = connect(path); ZooKeeperEpochSource newEpochs = connect(path)) {
            CheckpointStore old = CheckpointStore.perennial(IdaCodec.systematic(6, 3), heldView).epochs(oldEpochs)
                    .build();
            CheckpointStore taker = CheckpointStore.perennial(IdaCodec.systematic(6, 3), shared).epochs(newEpochs)
                    .build();
            FragmentIndex first = old.commit("job", bytes("old-1"));
            gate.arm();
            Future<FragmentIndex> held = thread.submit(() -> old.commit("job", bytes("old-2")));
            assertTrue(gate.awaitHeld(30), "the old writer reached its index copies");
            assertArrayEquals(bytes("old-1"), taker.recover("job").orElseThrow().toByteArray());
            FragmentIndex taken = taker.commit("job", bytes("new-1"));
            assertTrue(taken.epoch() > first.epoch(), taken.epoch() + " > " + first.epoch());
            gate.release();
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> held.get(30, TimeUnit.SECONDS));
            StaleWriterException stale = assertInstanceOf(StaleWriterException.class, refused.getCause());
            assertEquals(first.epoch(), stale.epoch());
            assertEquals(-1, stale.newerEpoch(), "refused by the epoch source, not by a listing");
            assertThrows(StaleWriterException.class, () -> old.commit("job", bytes("old-3")));
            CheckpointStore reader = CheckpointStore.perennial(IdaCodec.systematic(6, 3), shared).build();
            assertArrayEquals(bytes("new-1"), reader.recover("job").orElseThrow().toByteArray(),
                    "nothing of the newer writer is lost");
            FragmentIndex next = taker.commit("job", bytes("new-2"));
            assertEquals(taken.epoch(), next.epoch(), "the newer writer keeps its epoch");
            assertArrayEquals(bytes("new-2"), reader.recover("job").orElseThrow().toByteArray());
        } finally {
            gate.release();
            thread.shutdownNow();
        }
    }

    @Test
    void the_readme_lines_fence_a_writer_that_another_has_taken_over() throws Exception {
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            repositories.add(FragmentRepository.inMemory("r" + i));
        }
        byte[] state = bytes("state");
        String path = freshPath();
        boolean[] refused = new boolean[1];
        try (ZooKeeperEpochSource other = connect(path)) {
            // As in docs/across-machines.md, with this ensemble and path, and another host taking the job over mid-way.
            try (ZooKeeperEpochSource epochs = ZooKeeperEpochSource.connect(ensemble.connectString(), path)) {
                CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories)
                        .epochs(epochs).build();
                store.commit("job-42", state);
                other.acquire("job-42", -1);
                try {
                    store.commit("job-42", state);
                } catch (StaleWriterException e) {
                    refused[0] = true;
                }
            }
        }
        assertTrue(refused[0], "the second commit was refused");
        String guide = Files.readString(Path.of("..", "docs", "across-machines.md"));
        for (String line : new String[] {"try (ZooKeeperEpochSource epochs = ZooKeeperEpochSource.connect(",
                "CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories)",
                ".epochs(epochs).build();", "store.commit(\"job-42\", state);", "} catch (StaleWriterException e) {"}) {
            assertTrue(guide.contains(line), "docs/across-machines.md shows: " + line);
        }
    }

    @Test
    void bad_arguments_are_rejected_naming_the_parameter_and_the_value() {
        String path = freshPath();
        try (ZooKeeperEpochSource source = connect(path)) {
            assertThrows(NullPointerException.class, () -> source.acquire(null, -1));
            assertEquals("jobId must not be empty",
                    assertThrows(IllegalArgumentException.class, () -> source.acquire("", -1)).getMessage());
            assertTrue(assertThrows(IllegalArgumentException.class, () -> source.acquire("job", -2)).getMessage()
                    .startsWith("highestSeen must be in [-1, "));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> source.acquire("job", Long.MAX_VALUE - 1))
                    .getMessage().endsWith(": " + (Long.MAX_VALUE - 1)));
            assertEquals("epoch must be >= 0: -1",
                    assertThrows(IllegalArgumentException.class, () -> source.isCurrent("job", -1)).getMessage());
        }
        for (String bad : List.of("relative", "/", "/trailing/", "/zookeeper", "/zookeeper/quota", "/a//b")) {
            IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> connect(bad));
            assertTrue(ex.getMessage().contains(bad), ex.getMessage());
        }
        assertThrows(NullPointerException.class, () -> ZooKeeperEpochSource.builder(null, "/p"));
        assertThrows(NullPointerException.class, () -> ZooKeeperEpochSource.builder("h:1", null));
        assertEquals("sessionTimeout must be in [PT0.001S, PT1H]: PT0S", assertThrows(IllegalArgumentException.class,
                () -> ZooKeeperEpochSource.builder("h:1", "/p").sessionTimeout(Duration.ZERO)).getMessage());
        assertEquals("connectionLossTimeout must be in [PT0.001S, PT1H]: PT2H", assertThrows(
                IllegalArgumentException.class, () -> ZooKeeperEpochSource.builder("h:1", "/p")
                        .connectionLossTimeout(Duration.ofHours(2))).getMessage());
    }

    @Test
    void a_znode_that_is_no_counter_is_reported_and_left_as_it_is() throws Exception {
        String path = freshPath();
        try (ZooKeeperEpochSource source = connect(path)) {
            source.acquire("seed", -1); // creates the path
            byte[] foreign = "not an epoch".getBytes(StandardCharsets.UTF_8);
            ZooKeeper raw = Sessions.connect(ensemble.connectString());
            try {
                raw.create(source.counterPath("job"), foreign, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                IllegalStateException ex = assertThrows(IllegalStateException.class, () -> source.acquire("job", -1));
                assertTrue(ex.getMessage().contains(source.counterPath("job")), ex.getMessage());
                assertTrue(ex.getMessage().contains("12 bytes"), ex.getMessage());
                assertThrows(IllegalStateException.class, () -> source.isCurrent("job", 0));
                assertArrayEquals(foreign, raw.getData(source.counterPath("job"), false, null), "left as it was");
                byte[] negative = ZooKeeperEpochSource.encode(-5, new byte[16]);
                raw.setData(source.counterPath("job"), negative, -1);
                assertTrue(assertThrows(IllegalStateException.class, () -> source.acquire("job", -1)).getMessage()
                        .contains("negative epoch: -5"));
                raw.setData(source.counterPath("job"), ZooKeeperEpochSource.encode(Long.MAX_VALUE, new byte[16]), -1);
                assertTrue(assertThrows(IllegalStateException.class, () -> source.acquire("job", -1)).getMessage()
                        .contains("Long.MAX_VALUE"));
                assertFalse(source.isCurrent("job", 3));
            } finally {
                raw.close();
            }
        }
    }

    /**
     * The source reads through a follower while another session writes through the leader: a follower applies the
     * leader's commits a little later, so a read right after another session's write may see the counter as it was.
     * What a call reports (a foreign record, a negative epoch, {@code Long.MAX_VALUE}) or acquires must be what the
     * counter holds now.
     */
    @Test
    void a_counter_another_session_just_wrote_is_answered_as_it_is_now_not_as_a_lagging_server_saw_it()
            throws Exception {
        int leader = ensemble.leader();
        int follower = (leader + 1) % ensemble.serverCount();
        String path = freshPath();
        try (ZooKeeperEpochSource source = ZooKeeperEpochSource.connect(ensemble.connectString(follower), path)) {
            source.acquire("seed", -1); // creates the path
            String node = source.counterPath("job");
            ZooKeeper raw = Sessions.connect(ensemble.connectString(leader));
            try {
                raw.create(node, ZooKeeperEpochSource.encode(0, new byte[16]), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.PERSISTENT);
                for (int round = 0; round < 400; round++) {
                    String context = "round " + round + ": ";
                    switch (round % 4) {
                        case 0 -> {
                            byte[] foreign = "x".repeat(1 + round % 7 + round / 4 % 3 * 10)
                                    .getBytes(StandardCharsets.UTF_8);
                            raw.setData(node, foreign, -1);
                            String message = assertThrows(IllegalStateException.class,
                                    () -> source.acquire("job", -1)).getMessage();
                            assertTrue(message.contains("(" + foreign.length + " bytes"), context + message);
                        }
                        case 1 -> {
                            raw.setData(node, ZooKeeperEpochSource.encode(-1 - round, new byte[16]), -1);
                            String message = assertThrows(IllegalStateException.class,
                                    () -> source.isCurrent("job", 0)).getMessage();
                            assertTrue(message.endsWith("negative epoch: " + (-1 - round)), context + message);
                        }
                        case 2 -> {
                            raw.setData(node, ZooKeeperEpochSource.encode(Long.MAX_VALUE, new byte[16]), -1);
                            String message = assertThrows(IllegalStateException.class,
                                    () -> source.acquire("job", -1)).getMessage();
                            assertTrue(message.contains("Long.MAX_VALUE"), context + message);
                        }
                        default -> {
                            long written = 10L * round;
                            raw.setData(node, ZooKeeperEpochSource.encode(written, new byte[16]), -1);
                            assertEquals(written + 1, source.acquire("job", -1), context);
                        }
                    }
                }
            } finally {
                raw.close();
            }
        }
    }

    /**
     * A counter another session has just created through the leader is current to a source reading through a
     * follower: a follower that has not yet applied the creation shows no counter, which must not be taken for "no
     * epoch is current".
     */
    @Test
    void a_counter_another_session_just_created_is_current_not_missing_as_a_lagging_server_saw_it() throws Exception {
        int leader = ensemble.leader();
        int follower = (leader + 1) % ensemble.serverCount();
        String path = freshPath();
        try (ZooKeeperEpochSource source = ZooKeeperEpochSource.connect(ensemble.connectString(follower), path)) {
            source.acquire("seed", -1); // creates the path
            ZooKeeper raw = Sessions.connect(ensemble.connectString(leader));
            try {
                for (int round = 0; round < 300; round++) {
                    String job = "job-" + round;
                    raw.create(source.counterPath(job), ZooKeeperEpochSource.encode(round, new byte[16]),
                            ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                    assertTrue(source.isCurrent(job, round), "round " + round);
                }
            } finally {
                raw.close();
            }
        }
    }

    @Test
    void an_unreachable_ensemble_fails_the_call_within_the_timeout_and_an_interrupt_ends_the_wait() throws Exception {
        try (EmbeddedZooKeeper single = EmbeddedZooKeeper.start(1);
             ZooKeeperEpochSource source = ZooKeeperEpochSource.builder(single.connectString(), "/epochs")
                     .connectionLossTimeout(Duration.ofMillis(800)).connect()) {
            long epoch = source.acquire("job", -1);
            single.stop(0);
            long start = System.nanoTime();
            IOException unreachable = assertThrows(IOException.class, () -> source.acquire("job", -1));
            assertTrue(unreachable.getMessage().contains(single.connectString()), unreachable.getMessage());
            assertTrue(unreachable.getMessage().contains("acquiring an epoch of job \"job\""),
                    unreachable.getMessage());
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20), "bounded by the timeout");
            assertThrows(IOException.class, () -> source.isCurrent("job", epoch));
            Thread.currentThread().interrupt();
            try {
                assertThrows(InterruptedIOException.class, () -> source.acquire("job", -1));
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept");
            } finally {
                Thread.interrupted();
            }
            single.restart(0);
            assertTrue(source.isCurrent("job", epoch), "usable again once the ensemble is back");
            assertEquals(epoch + 1, source.acquire("job", -1));
        }
    }

    @Test
    void a_closed_source_refuses_calls_and_an_ensemble_that_never_answers_fails_the_connect() throws Exception {
        ZooKeeperEpochSource source = connect(freshPath());
        source.close();
        source.close();
        assertThrows(IllegalStateException.class, () -> source.acquire("job", -1));
        assertThrows(IllegalStateException.class, () -> source.isCurrent("job", 0));
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        ZooKeeperUnavailableException ex = assertThrows(ZooKeeperUnavailableException.class,
                () -> ZooKeeperEpochSource.builder("127.0.0.1:" + port, "/epochs")
                        .connectionLossTimeout(Duration.ofMillis(300)).connect());
        assertEquals("127.0.0.1:" + port, ex.connectString());
    }

    private static byte[] bytes(String text) {
        byte[] bytes = new byte[4096];
        byte[] label = text.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(label, 0, bytes, 0, label.length);
        return bytes;
    }
}
