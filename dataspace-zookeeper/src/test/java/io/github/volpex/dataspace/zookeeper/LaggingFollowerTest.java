package io.github.volpex.dataspace.zookeeper;

import static io.github.volpex.dataspace.zookeeper.Utf8.bytes;
import static io.github.volpex.dataspace.zookeeper.Utf8.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A replica restarted through a client of a follower right after its process completed a request through a client of
 * the leader. A follower applies the leader's commits a little later, so a plain read there may still show the
 * request as it was before: the restart must decide on the process as it is now. Two variants, many rounds each: a
 * put (a lagging read would refuse the valid checkpoint), and a get that waited for a put (a lagging read would show
 * the get still pending, open the handle one request early and serve the consumed task again). The reads that report
 * a process's position to another client ({@code highWaterMark}, {@code oldestRetained}, {@code pendingRequest}) are
 * checked the same way. A background writer keeps the followers busy with large writes, so that they lag often.
 */
// A hang guard only, far above the run time of a loaded machine.
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LaggingFollowerTest {

    private static final int ROUNDS = 150;
    private static final int LOG_CAPACITY = 8;
    private static TestEnsemble ensemble;

    private String namespace;
    private ZkDataspace throughLeader;
    private ZkDataspace throughFollower;
    private ExecutorService threads;
    private final AtomicBoolean loading = new AtomicBoolean(true);
    private CompletableFuture<Void> load;

    @BeforeAll
    static void start() throws Exception {
        ensemble = TestEnsemble.start(3, "/lagging");
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    @BeforeEach
    void connect() throws Exception {
        namespace = ensemble.freshNamespace();
        int leader = ensemble.servers().leader();
        int follower = (leader + 1) % ensemble.servers().serverCount();
        DataspaceOptions options = DataspaceOptions.builder().readLogCapacity(LOG_CAPACITY).build();
        throughLeader = (ZkDataspace) ZooKeeperDataspace.connect(ensemble.servers().connectString(leader), namespace,
                2, options);
        throughFollower = (ZkDataspace) ZooKeeperDataspace.connect(ensemble.servers().connectString(follower),
                namespace, 2, options);
        threads = Executors.newCachedThreadPool();
        ZooKeeper loader = Sessions.connect(ensemble.servers().connectString(leader));
        String scratch = namespace + "-load";
        loader.create(scratch, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        byte[] large = new byte[64 << 10];
        load = CompletableFuture.runAsync(() -> {
            try {
                while (loading.get()) {
                    loader.setData(scratch, large, -1);
                }
                loader.delete(scratch, -1);
            } catch (Exception ex) {
                throw new IllegalStateException(ex);
            } finally {
                try {
                    loader.close();
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
        }, threads);
    }

    @AfterEach
    void close() throws Exception {
        loading.set(false);
        try {
            load.get(60, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
            Closing.all(throughLeader, throughFollower);
            assertTrue(threads.awaitTermination(60, TimeUnit.SECONDS), "the test's threads ended");
        }
    }

    @Test
    void a_restart_right_after_a_put_opens_at_the_saved_request() throws Exception {
        Replica writer = throughLeader.open(0);
        List<String> wrong = new ArrayList<>();
        for (int round = 1; round <= ROUNDS; round++) {
            writer.put("x", bytes("v" + round));
            long saved = writer.requestNumber();
            try {
                Replica restarted = throughFollower.open(0, saved);
                if (restarted.requestNumber() != saved) {
                    wrong.add("round " + round + ": opened at " + restarted.requestNumber() + ", saved " + saved);
                }
                restarted.close();
            } catch (IllegalArgumentException refused) {
                wrong.add("round " + round + ": " + refused.getMessage());
            }
            writer.put("y", bytes("w" + round));
            long mark = throughFollower.server().highWaterMark(0);
            long oldest = throughFollower.server().oldestRetained(0);
            if (mark != writer.requestNumber() || oldest != Math.max(1, mark - LOG_CAPACITY + 1)) {
                wrong.add("round " + round + ": high-water mark " + mark + " and oldest retained " + oldest
                        + ", the writer is at " + writer.requestNumber());
            }
        }
        assertEquals(List.of(), wrong);
        ensemble.inspector().check(namespace);
    }

    @Test
    void a_restart_right_after_a_get_that_waited_neither_repeats_nor_skips_a_task() throws Exception {
        Replica producer = throughLeader.open(1);
        Replica consumer = throughLeader.open(0);
        List<String> wrong = new ArrayList<>();
        int task = 0;
        for (int round = 1; round <= ROUNDS; round++) {
            Replica waiting = consumer;
            long saved = consumer.requestNumber() + 1; // the get's number: a checkpoint right after it returns
            CompletableFuture<byte[]> taken = CompletableFuture.supplyAsync(() -> {
                try {
                    return waiting.get("tasks");
                } catch (InterruptedException ex) {
                    throw new IllegalStateException(ex);
                }
            }, threads);
            if (awaitPending(0, taken)) {
                producer.put("tasks", bytes("task-" + ++task)); // serves the get: its outcome is committed now
            } else {
                wrong.add("round " + round + ": a get found a task no get should have left: "
                        + text(taken.get()));
            }
            Replica restarted = restart(throughFollower, saved, "round " + round, wrong);
            Optional<Request> pending = throughFollower.server().pendingRequest(0);
            if (pending.isPresent()) {
                wrong.add("round " + round + ": still pending to the follower's client: " + pending.get());
            }
            taken.get(60, TimeUnit.SECONDS);
            producer.put("tasks", bytes("task-" + ++task));
            String next = text(restarted.get("tasks"));
            if (restarted.requestNumber() != saved + 1 || !next.equals("task-" + task)) {
                wrong.add("round " + round + ": the restarted replica's next get, request "
                        + restarted.requestNumber() + " (saved " + saved + "), received " + next + " instead of task-"
                        + task);
            }
            restarted.close();
            consumer = restart(throughLeader, restarted.requestNumber(), "round " + round + ", back", wrong);
        }
        assertEquals(List.of(), wrong);
        ensemble.inspector().check(namespace);
    }

    /**
     * Restarts process 0 at {@code saved} through {@code client}; a refusal is wrong, and the restart is tried again
     * until the client's server has caught up.
     */
    private static Replica restart(ZkDataspace client, long saved, String context, List<String> wrong)
            throws InterruptedException {
        while (true) {
            try {
                return client.open(0, saved);
            } catch (IllegalArgumentException refused) {
                wrong.add(context + ": " + refused.getMessage());
                Thread.sleep(1);
            }
        }
    }

    /**
     * Waits until process {@code processId}'s get is pending, as the leader's client sees it, or has completed.
     *
     * @return whether it is pending
     */
    private boolean awaitPending(int processId, CompletableFuture<byte[]> get) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (throughLeader.server().pendingRequest(processId).isEmpty()) {
            if (get.isDone()) {
                return false;
            }
            assertTrue(System.nanoTime() - deadline < 0, "the get became pending within 60 s");
            Thread.sleep(1);
        }
        return true;
    }
}
