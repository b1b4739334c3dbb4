package io.github.volpex.dataspace.zookeeper;

import static io.github.volpex.dataspace.zookeeper.Utf8.bytes;
import static io.github.volpex.dataspace.zookeeper.Utf8.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.DataspaceCancelledException;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.DataspaceTimeoutException;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.Reply;
import io.github.volpex.dataspace.Request;
import io.github.volpex.testsupport.SearchDepth;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Cancelling and submitting where ZooKeeper makes them hard: a cancel is a transaction of the ensemble, so it ends the
 * request for waiters on other clients and for clients that connect later; its lost reply is settled by reading the
 * log; it drops the blob references of the entries it evicts. A submitted request waits with no thread and no task of
 * the executor, resumes on the executor, survives an expired session (its watch is set again on the new one) and a
 * lost reply of the commit that made it pending.
 */
// A hang guard only, far above the run time of a loaded machine.
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class CancelAndSubmitTest {

    private static TestEnsemble ensemble;
    private static FaultyLink link;

    private final List<ZooKeeperDataspace> clients = new ArrayList<>();
    private String namespace;

    @BeforeAll
    static void start() throws Exception {
        ensemble = TestEnsemble.start(1, "/cancel");
        link = FaultyLink.to(ensemble.servers().connectString(0));
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(link, ensemble);
    }

    @BeforeEach
    void newNamespace() {
        namespace = ensemble.freshNamespace();
    }

    @AfterEach
    void closeClients() throws Exception {
        Closing.all(clients.toArray(new AutoCloseable[0]));
    }

    private ZkDataspace connect(ZooKeeperDataspace.Builder builder) {
        ZooKeeperDataspace client = builder.processCount(3).connect();
        clients.add(client);
        return (ZkDataspace) client;
    }

    private ZkDataspace connect() {
        return connect(ZooKeeperDataspace.builder(ensemble.connectString(), namespace));
    }

    @Test
    void a_cancel_on_one_client_ends_the_request_for_the_waiters_of_another_and_for_clients_connected_later()
            throws Exception {
        ZkDataspace waiting = connect();
        ZkDataspace middleware = connect();
        CompletableFuture<Reply> submitted = waiting.server().submit(Request.get(1, 1, "x"));
        Replica trailer = waiting.open(1);
        CompletableFuture<byte[]> blocked = CompletableFuture.supplyAsync(() -> {
            try {
                return trailer.get("x");
            } catch (InterruptedException ex) {
                throw new IllegalStateException(ex);
            }
        });
        awaitJoined(waiting);
        assertFalse(submitted.isDone());
        assertEquals(Optional.empty(), middleware.server().cancel(1, 1));
        ExecutionException failure = assertThrows(ExecutionException.class, () -> submitted.get(30, TimeUnit.SECONDS));
        DataspaceCancelledException cancelled = assertInstanceOf(DataspaceCancelledException.class,
                failure.getCause());
        assertEquals(Operation.GET, cancelled.operation());
        assertEquals("x", cancelled.tag());
        failure = assertThrows(ExecutionException.class, () -> blocked.get(30, TimeUnit.SECONDS));
        assertInstanceOf(DataspaceCancelledException.class, failure.getCause());
        assertEquals(1, trailer.requestNumber(), "the cancelled request is complete");
        middleware.open(0).put("x", bytes("v"));
        assertEquals("v", text(waiting.open(2).tryRead("x").orElseThrow()), "the cancelled get took nothing");
        waiting.close();
        middleware.close();

        ZkDataspace later = connect();
        assertThrows(DataspaceCancelledException.class, () -> later.server().handle(Request.get(1, 1, "x")));
        assertEquals(Optional.empty(), later.server().cancel(1, 1), "cancelling again, from anywhere, says the same");
        assertEquals(1, later.open(1, 1).requestNumber(), "a restart after the cancelled request follows it");
        assertThrows(DataspaceCancelledException.class, () -> later.open(1, 0).get("x", Duration.ZERO));
        assertTrue(later.server().pendingRequest(1).isEmpty());
        later.open(1, 1).put("next", bytes("n"));
        assertEquals(2, later.server().highWaterMark(1));
        ensemble.inspector().check(namespace);
    }

    @Test
    void a_cancel_whose_reply_is_lost_applies_once() throws Exception {
        ZkDataspace direct = connect();
        ZkDataspace faulty = connect(ZooKeeperDataspace.builder(link.connectString(), namespace));
        assertThrows(DataspaceTimeoutException.class,
                () -> direct.server().handle(Request.get(1, 1, "x"), Duration.ZERO));
        int lost = link.lostReplies();
        link.loseNextTransactionReply();
        assertEquals(Optional.empty(), faulty.server().cancel(1, 1), "the cancel read its own outcome back");
        assertEquals(lost + 1, link.lostReplies(), "the proxy lost the cancel's reply");
        assertFalse(link.armed());
        assertEquals(Optional.empty(), direct.server().cancel(1, 1));
        direct.open(0).put("x", bytes("v"));
        assertEquals("v", text(direct.open(2).tryGet("x").orElseThrow()), "the put went to the table, once");
        assertThrows(DataspaceCancelledException.class, () -> faulty.server().handle(Request.get(1, 1, "x")));
        ensemble.inspector().check(namespace);
    }

    @Test
    void a_cancel_racing_a_put_through_lost_replies_and_expired_sessions_decides_once() throws Exception {
        long seed = Long.getLong("volpex.zookeeper.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        ZkDataspace direct = connect();
        ZkDataspace faulty = connect(ZooKeeperDataspace.builder(link.connectString(), namespace));
        ExecutorService putter = Executors.newSingleThreadExecutor();
        int[] outcomes = new int[2];
        try {
            int rounds = SearchDepth.rounds(12);
            for (int round = 1; round <= rounds; round++) {
                String where = "seed " + seed + " (replay with -Dvolpex.zookeeper.seed=" + seed + "), round " + round;
                long request = round;
                String tag = "t" + round;
                assertThrows(DataspaceTimeoutException.class,
                        () -> direct.server().handle(Request.get(1, request, tag), Duration.ZERO));
                if (random.nextInt(4) == 0) {
                    link.loseNextTransactionReply(); // the reply to the cancel's commit, if it commits
                }
                if (random.nextInt(4) == 0) {
                    faulty.context().session.zooKeeper().getTestable().injectSessionExpiration();
                }
                boolean armed = link.armed();
                int lost = link.lostReplies();
                CountDownLatch go = new CountDownLatch(1);
                long putDelayNanos = random.nextLong(1_500_000);
                CompletableFuture<Reply> put = CompletableFuture.supplyAsync(() -> {
                    try {
                        go.await();
                        LockSupport.parkNanos(putDelayNanos);
                        return direct.server().handle(Request.put(0, request, tag, bytes("v" + request)));
                    } catch (InterruptedException ex) {
                        throw new IllegalStateException(ex);
                    }
                }, putter);
                go.countDown();
                Optional<Reply> cancel = faulty.server().cancel(1, request);
                put.get(30, TimeUnit.SECONDS);
                if (armed && !link.armed()) {
                    // The cancel sent its transaction and lost the reply. Whether the transaction applied or failed on
                    // a version (the put committed first) the client cannot tell from the reply: it reads again, and
                    // the checks below hold either way.
                    assertEquals(lost + 1, link.lostReplies(), where + ": the cancel lost its transaction's reply");
                }
                Optional<byte[]> left = direct.server().handle(Request.tryRead(2, request, tag)).data();
                if (cancel.isEmpty()) {
                    outcomes[0]++;
                    assertEquals("v" + request, text(left.orElseThrow()), where + ": the put went to the table");
                    assertThrows(DataspaceCancelledException.class,
                            () -> direct.server().handle(Request.get(1, request, tag)), where);
                } else {
                    outcomes[1]++;
                    assertEquals("v" + request, text(cancel.get().data().orElseThrow()), where);
                    assertTrue(left.isEmpty(), where + ": the get took the tuple, once");
                    assertEquals("v" + request, text(direct.server().handle(Request.get(1, request, tag)).data()
                            .orElseThrow()), where);
                }
                assertEquals(cancel.isEmpty(), faulty.server().cancel(1, request).isEmpty(), where + ": idempotent");
            }
        } finally {
            putter.shutdownNow();
        }
        ensemble.inspector().check(namespace);
        System.out.printf("cancel against put (seed %d): %d cancelled, %d served first%n", seed, outcomes[0],
                outcomes[1]);
    }

    @Test
    void a_cancel_drops_the_blob_references_of_the_entries_it_evicts() throws Exception {
        ZkDataspace dataspace = connect(ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                .inlineLimitBytes(0)
                .options(DataspaceOptions.builder().readLogCapacity(1).build()));
        byte[] value = new byte[1_000];
        new SplittableRandom(11).nextBytes(value);
        dataspace.open(0).put("a", value);
        Replica reader = dataspace.open(1);
        reader.read("a");
        assertEquals(2L, ensemble.inspector().check(namespace).blobs().values().iterator().next(),
                "the tuple and the read's entry refer to the blob");
        assertThrows(DataspaceTimeoutException.class, () -> reader.get("b", Duration.ZERO));
        assertEquals(Optional.empty(), reader.cancelPending());
        NamespaceInspector.Snapshot snapshot = ensemble.inspector().check(namespace);
        assertEquals(1L, snapshot.blobs().values().iterator().next(),
                "the cancelled entry evicted the read's entry and its reference");
        assertEquals(2, snapshot.processes().get(1).oldest, "the log holds the cancelled outcome alone");
        dataspace.open(2).get("a");
        assertEquals(1, ensemble.inspector().check(namespace).blobs().size(), "the get's entry refers to the blob now");
    }

    @Test
    void a_waiting_submission_holds_no_task_of_the_executor_and_resumes_on_it() throws Exception {
        AtomicInteger tasks = new AtomicInteger();
        ExecutorService pool = Executors.newSingleThreadExecutor(task -> new Thread(task, "resumer"));
        try {
            ZkDataspace dataspace = connect(ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                    .executor(task -> {
                        tasks.incrementAndGet();
                        pool.execute(task);
                    }));
            CompletableFuture<Reply> submitted = dataspace.server().submit(Request.read(1, 1, "x"));
            CompletableFuture<String> resumedOn = submitted.thenApply(reply -> Thread.currentThread().getName());
            assertFalse(submitted.isDone());
            assertEquals(0, tasks.get(), "a waiting request runs nothing");
            dataspace.server().handle(Request.put(0, 1, "x", bytes("v")));
            assertEquals("resumer", resumedOn.get(30, TimeUnit.SECONDS));
            assertEquals("v", text(submitted.get().data().orElseThrow()));
            assertFalse(submitted.get().duplicate());
            assertTrue(tasks.get() >= 1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void a_submission_whose_resumption_the_executor_rejects_fails_with_the_rejection() throws Exception {
        ZkDataspace dataspace = connect(ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                .executor(task -> {
                    throw new RejectedExecutionException("shut down");
                }));
        CompletableFuture<Reply> submitted = dataspace.server().submit(Request.get(1, 1, "x"));
        assertTrue(dataspace.server().submit(Request.put(0, 1, "x", bytes("v"))).isDone(), "a put never waits");
        ExecutionException failure = assertThrows(ExecutionException.class, () -> submitted.get(30, TimeUnit.SECONDS));
        assertInstanceOf(RejectedExecutionException.class, failure.getCause());
        assertEquals("v", text(dataspace.server().handle(Request.get(1, 1, "x")).data().orElseThrow()),
                "the request itself completed: a retry receives its data");
    }

    @Test
    void submitted_gets_wait_through_an_expired_session() throws Exception {
        ZkDataspace waiting = connect();
        ZkDataspace writer = connect();
        List<CompletableFuture<Reply>> submitted = new ArrayList<>();
        for (int process = 1; process < 3; process++) {
            submitted.add(waiting.server().submit(Request.get(process, 1, "t" + process)));
        }
        int expiries = waiting.context().session.expiries();
        Sessions.expire(ensemble.connectString(), waiting);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (waiting.context().session.expiries() == expiries || !waiting.context().session.connected()) {
            assertTrue(System.nanoTime() - deadline < 0, "the client saw its session expire and opened another");
            Thread.sleep(5);
        }
        assertTrue(submitted.stream().noneMatch(CompletableFuture::isDone));
        for (int process = 1; process < 3; process++) {
            writer.server().handle(Request.put(0, process, "t" + process, bytes("v" + process)));
        }
        for (int process = 1; process < 3; process++) {
            assertEquals("v" + process, text(submitted.get(process - 1).get(30, TimeUnit.SECONDS).data()
                    .orElseThrow()), "the watch was set again on the new session");
        }
        ensemble.inspector().check(namespace);
    }

    @Test
    void a_submitted_get_whose_pending_commit_lost_its_reply_completes_once_and_is_no_duplicate() throws Exception {
        ZkDataspace direct = connect();
        ZkDataspace faulty = connect(ZooKeeperDataspace.builder(link.connectString(), namespace));
        int lost = link.lostReplies();
        link.loseNextTransactionReply();
        CompletableFuture<Reply> submitted = faulty.server().submit(Request.get(1, 1, "x"));
        assertEquals(lost + 1, link.lostReplies());
        assertEquals(1, faulty.counters().recoveredCommits(),
                "the client found its commit applied: the get is pending");
        assertFalse(submitted.isDone());
        direct.open(0).put("x", bytes("one"));
        direct.server().handle(Request.put(0, 2, "x", bytes("two")));
        Reply reply = submitted.get(30, TimeUnit.SECONDS);
        assertEquals("one", text(reply.data().orElseThrow()));
        assertFalse(reply.duplicate());
        assertEquals("two", text(direct.open(2).tryGet("x").orElseThrow()), "the get consumed one tuple");
        ensemble.inspector().check(namespace);
    }

    /** Waits until a replica's call joined a pending request on the client. */
    private static void awaitJoined(ZkDataspace dataspace) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (dataspace.statistics().joinedPending() == 0) {
            assertTrue(System.nanoTime() - deadline < 0, "the trailing call joined the pending request");
            Thread.sleep(1);
        }
    }
}
