package io.github.volpex.dataspace.zookeeper;

import static io.github.volpex.dataspace.zookeeper.Utf8.bytes;
import static io.github.volpex.dataspace.zookeeper.Utf8.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Replica;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A leading request commits on the state its client remembers, without reading first, and must behave exactly as if
 * it had read: when another client moved the process or the tag on, the commit fails on a version and the request
 * reads and decides again. The hard case is a tag record deleted and created again by other clients up to the very
 * version remembered (ZooKeeper restarts versions at 0): only the tag's guard tells it apart.
 */
// A hang guard only, far above the run time of a loaded machine.
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RememberedStateTest {

    private static TestEnsemble ensemble;

    private String namespace;
    private ZkDataspace first;
    private ZkDataspace second;
    private ExecutorService waiters;

    @BeforeAll
    static void start() throws Exception {
        ensemble = TestEnsemble.start(1, "/remembered");
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    @BeforeEach
    void connect() {
        namespace = ensemble.freshNamespace();
        first = (ZkDataspace) ZooKeeperDataspace.builder(ensemble.connectString(), namespace).processCount(4)
                .connect();
        second = (ZkDataspace) ZooKeeperDataspace.builder(ensemble.connectString(), namespace).processCount(4)
                .connect();
        waiters = Executors.newCachedThreadPool();
    }

    @AfterEach
    void close() throws Exception {
        waiters.shutdownNow();
        Closing.all(first, second);
        assertTrue(waiters.awaitTermination(60, TimeUnit.SECONDS), "the waiting threads ended");
    }

    @Test
    void a_leading_replica_reads_only_before_its_first_request() throws Exception {
        Replica writer = first.open(0);
        for (int i = 0; i < 5; i++) {
            writer.put("x", bytes("v" + i));
        }
        assertEquals(4, first.counters().committedUnread(), "every put after the first committed without reading");
        Replica taker = first.open(1);
        assertEquals("v4", text(taker.get("x")));
        assertEquals(4, first.counters().committedUnread(), "a process's first request reads");
        writer.put("x", bytes("again"));
        assertEquals("again", text(taker.get("x")), "the tag record deleted by the get was remembered as absent");
        assertEquals(6, first.counters().committedUnread());
        assertTrue(taker.tryGet("x").isEmpty());
        assertEquals(7, first.counters().committedUnread());
        ensemble.inspector().check(namespace);
    }

    @Test
    void a_tag_record_deleted_and_created_again_at_the_remembered_version_is_read_again() throws Exception {
        Replica writer = first.open(0);
        writer.put("t", bytes("a0"));
        writer.put("t", bytes("a1"));
        long unread = first.counters().committedUnread();
        long tried = first.counters().triedUnread();
        String tagPath = new Layout(namespace).tagPath("t");
        assertEquals(1, ensemble.inspector().zooKeeper().exists(tagPath, false).getVersion());

        // Another client takes the value (deleting the record), then two waiters create it again up to version 1.
        Replica taker = second.open(1);
        assertEquals("a1", text(taker.get("t")));
        Replica reader = second.open(2);
        Replica getter = second.open(3);
        CompletableFuture<byte[]> read = waiting(reader, false);
        awaitPending(2);
        CompletableFuture<byte[]> got = waiting(getter, true);
        awaitPending(3);
        assertEquals(1, ensemble.inspector().zooKeeper().exists(tagPath, false).getVersion(),
                "the record is back at the version the first client remembers, with other contents");

        // The first client's put would overwrite the queue if it trusted the version alone.
        writer.put("t", bytes("a2"));
        assertEquals(tried + 1, first.counters().triedUnread(), "the put first committed on the remembered state");
        assertEquals(unread, first.counters().committedUnread(), "the remembered state was refused: the put read");
        assertEquals("a2", text(read.get(60, TimeUnit.SECONDS)), "the queued read was served");
        assertEquals("a2", text(got.get(60, TimeUnit.SECONDS)), "the queued get was served");
        assertTrue(taker.tryGet("t").isEmpty(), "the get took the value");
        ensemble.inspector().check(namespace);
    }

    @Test
    void a_process_that_moved_on_through_another_client_is_followed_not_led() throws Exception {
        Replica leader = first.open(0);
        leader.put("y", bytes("p1"));
        leader.put("y", bytes("p2"));
        long unread = first.counters().committedUnread();
        long tried = first.counters().triedUnread();
        Replica other = second.open(0, 2);
        assertEquals("p2", text(other.get("y")), "request 3 of process 0 runs on the second client");
        byte[] followed = leader.get("y");
        assertEquals("p2", text(followed), "the same outcome, from the read log");
        assertEquals(tried + 1, first.counters().triedUnread(), "the get first committed on the remembered state");
        assertEquals(unread, first.counters().committedUnread(), "the remembered process record was out of date");
        assertEquals(1, first.statistics().servedFromLog());
        leader.put("y", bytes("p4"));
        assertTrue(first.counters().committedUnread() > unread,
                "the state read for request 3 is remembered for request 4");
        assertArrayEquals(bytes("p4"), second.open(1).get("y"));
        ensemble.inspector().check(namespace);
    }

    @Test
    void a_client_whose_namespace_was_destroyed_and_created_again_is_told_not_mixed_in() throws Exception {
        // The stale client remembers the tag present: its put would set the record at a version.
        assertStaleClientIsTold(false);
    }

    @Test
    void a_client_that_remembers_a_tag_absent_in_a_destroyed_namespace_is_told_not_mixed_in() throws Exception {
        // The stale client remembers the tag absent: its put would only create records, checking no version of it.
        assertStaleClientIsTold(true);
    }

    @Test
    void the_remembered_tag_records_hold_at_most_4_mib_of_values() throws Exception {
        Replica writer = first.open(0);
        byte[] value = new byte[16 << 10];
        for (int i = 0; i < 300; i++) {
            writer.put("big-" + i, value);
        }
        long bytes = first.memory().rememberedTagBytes();
        assertTrue(bytes <= 4L << 20, bytes + " bytes remembered");
        assertTrue(bytes >= (4L << 20) - value.length, "the bound, not less, is used: " + bytes);
        assertEquals(0, first.counters().committedUnread(), "a tag never seen is read first");
        writer.put("big-299", value);
        assertEquals(1, first.counters().committedUnread(), "the most recent tag is remembered");
        writer.put("big-0", value);
        assertEquals(1, first.counters().committedUnread(), "the least recent tag was forgotten: read first");
        ensemble.inspector().check(namespace);
    }

    /** Runs the same two requests in a namespace, destroys it, runs them again in a new one, then a third. */
    private void assertStaleClientIsTold(boolean taken) throws Exception {
        Replica stale = first.open(0);
        stale.put("z", bytes("old0"));
        if (taken) {
            assertEquals("old0", text(stale.get("z")));
        } else {
            stale.put("z", bytes("old1"));
        }
        second.destroy();
        try (ZooKeeperDataspace again = ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                .processCount(4).connect()) {
            Replica fresh = again.open(0);
            fresh.put("z", bytes("new0"));
            if (taken) {
                assertEquals("new0", text(fresh.get("z")));
            } else {
                fresh.put("z", bytes("new1"));
            }
            long tried = first.counters().triedUnread();
            IllegalStateException gone = assertThrows(IllegalStateException.class,
                    () -> stale.put("z", bytes("old2")));
            assertTrue(gone.getMessage().contains("no longer holds the dataspace this client joined"),
                    gone.getMessage());
            assertEquals(tried + 1, first.counters().triedUnread(), "the put first committed on the remembered state");
            if (taken) {
                assertTrue(again.open(1).tryGet("z").isEmpty(), "the new dataspace is untouched");
            } else {
                assertEquals("new1", text(again.open(1).get("z")), "the new dataspace is untouched");
            }
            assertEquals(2, ((ZkDataspace) again).highWaterMark(0),
                    "process 0 of the new dataspace issued two requests");
            ensemble.inspector().check(namespace);
        }
    }

    private CompletableFuture<byte[]> waiting(Replica replica, boolean get) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return get ? replica.get("t") : replica.read("t");
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }, waiters);
    }

    private void awaitPending(int processId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (second.pendingRequest(processId).isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "process " + processId + " waits");
            Thread.sleep(10);
        }
    }
}
