package io.github.volpex.dataspace.zookeeper;

import static io.github.volpex.dataspace.zookeeper.Utf8.bytes;
import static io.github.volpex.dataspace.zookeeper.Utf8.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.DataspaceStatistics;
import io.github.volpex.dataspace.DataspaceTimeoutException;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.Reply;
import io.github.volpex.dataspace.Request;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Exactly once when the reply of a committed transaction is lost: a proxy between one client and the server cuts the
 * connection as the server answers the client's next write {@code multi}. Each request must take effect once, return
 * the outcome of that one execution (not of a re-execution: a single-assignment put still says "stored", a get still
 * returns the value it consumed), not be reported as a duplicate, and leave the namespace consistent.
 */
// A hang guard only, far above the run time of a loaded machine.
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class LostReplyTest {

    private static TestEnsemble ensemble;
    private static FaultyLink link;

    private String namespace;
    private ZkDataspace faulty;
    private ZooKeeperDataspace direct;

    @BeforeAll
    static void start() throws Exception {
        ensemble = TestEnsemble.start(1, "/lost");
        link = FaultyLink.to(ensemble.servers().connectString(0));
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(link, ensemble);
    }

    @BeforeEach
    void connect() {
        open(ZooKeeperDataspace.Builder.DEFAULT_INLINE_LIMIT_BYTES);
    }

    private void open(int inlineLimit) {
        closeBoth();
        namespace = ensemble.freshNamespace();
        faulty = (ZkDataspace) ZooKeeperDataspace.builder(link.connectString(), namespace).processCount(3)
                .inlineLimitBytes(inlineLimit).connect();
        direct = ZooKeeperDataspace.builder(ensemble.connectString(), namespace).processCount(3)
                .inlineLimitBytes(inlineLimit).connect();
    }

    @AfterEach
    void closeBoth() {
        if (faulty != null) {
            faulty.close();
        }
        if (direct != null) {
            direct.close();
        }
    }

    private void assertOneReplyLostAndRecovered(int lostBefore) {
        assertEquals(lostBefore + 1, link.lostReplies(), "the proxy lost the transaction's reply");
        assertFalse(link.armed());
        assertEquals(1, faulty.counters().recoveredCommits(), "the client found its commit applied");
    }

    @Test
    void a_put_applies_once_and_is_no_duplicate() throws Exception {
        int lost = link.lostReplies();
        link.loseNextTransactionReply();
        faulty.open(0).put("x", bytes("one"));
        assertOneReplyLostAndRecovered(lost);
        DataspaceStatistics statistics = faulty.statistics();
        assertEquals(1, statistics.requests(Operation.PUT));
        assertEquals(0, statistics.duplicatesIgnored());
        Replica reader = direct.open(1);
        assertEquals("one", text(reader.get("x")));
        assertTrue(reader.tryGet("x").isEmpty(), "one tuple, not two");
        ensemble.inspector().check(namespace);
    }

    @Test
    void a_put_committed_without_reading_first_applies_once_and_is_no_duplicate() throws Exception {
        Replica writer = faulty.open(0);
        writer.put("x", bytes("one"));
        int lost = link.lostReplies();
        link.loseNextTransactionReply();
        writer.put("x", bytes("two"));
        assertOneReplyLostAndRecovered(lost);
        assertEquals(1, faulty.counters().triedUnread(), "the second put committed on the state the first one left");
        assertEquals(0, faulty.counters().committedUnread(), "its reply was lost");
        DataspaceStatistics statistics = faulty.statistics();
        assertEquals(2, statistics.requests(Operation.PUT));
        assertEquals(0, statistics.duplicatesIgnored());
        writer.put("x", bytes("three"));
        assertEquals(1, faulty.counters().committedUnread(),
                "the state read after the lost reply served the third put");
        Replica reader = direct.open(1);
        assertEquals("three", text(reader.get("x")));
        assertTrue(reader.tryGet("x").isEmpty(), "one tuple, not two");
        ensemble.inspector().check(namespace);
    }

    @Test
    void a_single_assignment_put_still_says_stored() {
        int lost = link.lostReplies();
        link.loseNextTransactionReply();
        assertTrue(faulty.open(0).putIfAbsent("x", bytes("one")), "re-executing it would say kept");
        assertOneReplyLostAndRecovered(lost);
        assertTrue(direct.open(0).putIfAbsent("x", bytes("one")), "a trailing replica receives the same answer");
        assertEquals("one", text(direct.open(1).tryRead("x").orElseThrow()));
    }

    @Test
    void a_get_returns_the_tuple_it_consumed_once() throws Exception {
        Replica writer = direct.open(0);
        writer.put("x", bytes("one"));
        writer.put("y", bytes("why"));
        int lost = link.lostReplies();
        link.loseNextTransactionReply();
        assertEquals("one", text(faulty.open(1).get("x")));
        assertOneReplyLostAndRecovered(lost);
        writer.put("x", bytes("two"));
        assertEquals("two", text(direct.open(2).get("x")), "the first tuple was consumed once, the second is there");
        link.loseNextTransactionReply();
        assertEquals("why", text(faulty.open(2, 1).tryGet("y").orElseThrow()), "not absent");
        assertEquals(lost + 2, link.lostReplies());
        ensemble.inspector().check(namespace);
    }

    @Test
    void a_get_left_pending_stays_pending_and_receives_the_next_put() throws Exception {
        Replica getter = faulty.open(1);
        int lost = link.lostReplies();
        link.loseNextTransactionReply();
        assertThrows(DataspaceTimeoutException.class, () -> getter.get("x", Duration.ZERO));
        assertOneReplyLostAndRecovered(lost);
        assertEquals(1, faulty.pendingRequest(1).orElseThrow().requestNumber());
        CompletableFuture<byte[]> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return getter.get("x", Duration.ofSeconds(30));
            } catch (InterruptedException ex) {
                throw new IllegalStateException(ex);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (faulty.statistics().joinedPending() == 0) {
            assertTrue(System.nanoTime() - deadline < 0, "the retry, a new call, joins the pending request");
            Thread.sleep(1);
        }
        direct.open(0).put("x", bytes("one"));
        assertEquals("one", text(waiting.get(30, TimeUnit.SECONDS)));
        ensemble.inspector().check(namespace);
    }

    @Test
    void a_put_that_serves_a_waiting_get_delivers_once() throws Exception {
        Replica getter = direct.open(1);
        assertThrows(DataspaceTimeoutException.class, () -> getter.get("x", Duration.ZERO));
        int lost = link.lostReplies();
        link.loseNextTransactionReply();
        Replica writer = faulty.open(0);
        writer.put("x", bytes("one"));
        writer.put("x", bytes("two"));
        assertOneReplyLostAndRecovered(lost);
        assertEquals("one", text(getter.get("x", Duration.ofSeconds(30))));
        assertEquals("two", text(direct.open(2).tryGet("x").orElseThrow()));
        ensemble.inspector().check(namespace);
    }

    @Test
    void a_blob_put_stores_one_reference_and_leaves_no_pin() throws Exception {
        open(0);
        byte[] value = new byte[100_000];
        new java.util.SplittableRandom(7).nextBytes(value);
        int lost = link.lostReplies();
        link.loseNextTransactionReply();
        faulty.open(0).put("x", value);
        assertOneReplyLostAndRecovered(lost);
        NamespaceInspector.Snapshot snapshot = ensemble.inspector().check(namespace);
        assertEquals(1, snapshot.blobs().size());
        assertEquals(1L, snapshot.blobs().values().iterator().next(), "one reference: the tuple");
        String reference = new Layout(namespace).referencePath(snapshot.value("x").shaHex());
        assertTrue(ensemble.inspector().zooKeeper().getChildren(reference, false).isEmpty(),
                "the pin went with the commit");
        assertArrayEquals(value, direct.open(1).get("x"));
        snapshot = ensemble.inspector().check(namespace);
        assertEquals(1L, snapshot.blobs().values().iterator().next(), "the tuple's reference moved to the log");
    }

    @Test
    void a_request_level_reply_is_no_duplicate() throws Exception {
        int lost = link.lostReplies();
        link.loseNextTransactionReply();
        Reply reply = faulty.server().handle(Request.put(0, 1, "x", bytes("one")));
        assertOneReplyLostAndRecovered(lost);
        assertFalse(reply.duplicate());
        assertTrue(reply.stored());
        assertTrue(direct.server().handle(Request.put(0, 1, "x", bytes("one"))).duplicate());
    }
}
