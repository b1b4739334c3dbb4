package io.github.volpex.dataspace.zookeeper;

import static io.github.volpex.dataspace.zookeeper.Utf8.bytes;
import static io.github.volpex.dataspace.zookeeper.Utf8.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.DataspaceCancelledException;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.Reply;
import io.github.volpex.dataspace.Request;
import io.github.volpex.testsupport.SearchDepth;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many processes' requests on one client, which the group commit sends in shared transactions, while faults hit whole
 * batches: replies of applied batches lost, the session expired, middleware cancels racing the puts that would serve
 * the same waiting request. Every tuple still moves exactly once from its producer to its consumer, every cancel or
 * serving put wins alone, and the namespace stays consistent.
 */
// A hang guard only, far above the run time of a loaded machine.
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class BatchedRequestsTest {

    private static final int PAIRS = 8;

    private static TestEnsemble ensemble;
    private static FaultyLink link;

    @BeforeAll
    static void start() throws Exception {
        ensemble = TestEnsemble.start(1, "/batched");
        link = FaultyLink.to(ensemble.servers().connectString(0));
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(link, ensemble);
    }

    private static ZkDataspace connect(String namespace, int processCount, int inlineLimit) {
        return (ZkDataspace) ZooKeeperDataspace.builder(link.connectString(), namespace).processCount(processCount)
                .inlineLimitBytes(inlineLimit).connect();
    }

    @Test
    void producers_and_consumers_on_one_client_move_each_tuple_once_through_lost_batch_replies_and_expiries() {
        SearchDepth.eachSeed("volpex.zookeeper.batch.seed", 1, this::moveTuples);
    }

    private void moveTuples(long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        int tuples = 20 + random.nextInt(20);
        int inline = random.nextBoolean() ? 0 : ZooKeeperDataspace.Builder.DEFAULT_INLINE_LIMIT_BYTES;
        String namespace = ensemble.freshNamespace();
        ExecutorService threads = Executors.newFixedThreadPool(2 * PAIRS);
        int lostBefore = link.lostReplies();
        try (ZkDataspace client = connect(namespace, 2 * PAIRS, inline)) {
            List<Future<?>> work = new ArrayList<>();
            movePairs(work, threads, client, PAIRS, tuples, null);
            // Faults aimed at batches (a few: the client takes a second or two to reconnect after each): a reply lost
            // while transactions queue behind the one in flight, once the session expired.
            BatchFaults faults = new BatchFaults(client, random.split(), null);
            faults.awaitAll(work);
            int expiries = faults.expiries;
            for (int process = 0; process < 2 * PAIRS; process++) {
                assertEquals(tuples, client.highWaterMark(process), "process " + process + " issued each request once");
            }
            GroupCommit commits = client.commits();
            assertTrue(commits.transactions() > commits.batches(), "requests shared transactions: "
                    + commits.transactions() + " in " + commits.batches() + " batches");
            int lost = link.lostReplies() - lostBefore;
            assertTrue(lost > 0 || expiries > 0, "a fault hit the client");
            // A lost reply may be a conflict's or a linearizable read's barrier: not every one hides an applied commit.
            System.out.printf("seed %d: %d lost replies, %d expiries, %d commits found applied after a lost reply, "
                    + "%d transactions in %d batches%n", seed, lost, expiries,
                    client.counters().recoveredCommits(), commits.transactions(), commits.batches());
            client.collectGarbage();
        } finally {
            threads.shutdownNow();
            assertTrue(threads.awaitTermination(60, TimeUnit.SECONDS));
        }
        ensemble.inspector().check(namespace);
    }

    /**
     * Faults that combine, on one client whose requests share batches: replies of applied batches lost and the session
     * expired while transactions queue, so that a batch often holds a request's retry after an earlier unknown
     * outcome; the putters' threads interrupted again and again (a queued transaction withdrawn, a batch's sender
     * abandoning its wait: every member's outcome unknown); and a tag that putters on this client and on a second one
     * (not through the proxy) write and take from all the time, so that a member meets a version conflict in batch
     * after batch while its mates are sent again. Every tuple still moves exactly once, no hot value is taken twice or
     * invented, every process issued each request once, and the namespace is consistent.
     */
    @Test
    void retries_after_unknown_outcomes_conflicting_members_and_interrupts_leave_each_request_applied_once() {
        SearchDepth.eachSeed("volpex.zookeeper.combined.seed", 1, this::combineFaults);
    }

    private void combineFaults(long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        int pairs = 4;
        int hotPutters = 3; // on the shared client; one more on the second client
        int tuples = 15 + random.nextInt(15);
        int hotRounds = 15 + random.nextInt(15);
        int processes = 2 * pairs + hotPutters + 4; // the last only reads at the end
        String namespace = ensemble.freshNamespace();
        ExecutorService threads = Executors.newFixedThreadPool(processes);
        int lostBefore = link.lostReplies();
        AtomicInteger interrupts = new AtomicInteger();
        List<Thread> putters = new CopyOnWriteArrayList<>();
        List<String> hotTaken = Collections.synchronizedList(new ArrayList<>());
        try (ZkDataspace client = connect(namespace, processes, ZooKeeperDataspace.Builder.DEFAULT_INLINE_LIMIT_BYTES);
             ZkDataspace other = (ZkDataspace) ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                     .processCount(processes).connect()) {
            List<Future<?>> work = new ArrayList<>();
            movePairs(work, threads, client, pairs, tuples, putters);
            for (int h = 0; h <= hotPutters; h++) {
                int process = 2 * pairs + h;
                Replica putter = (h < hotPutters ? client : other).open(process);
                boolean interruptible = h < hotPutters;
                work.add(threads.submit(() -> {
                    if (interruptible) {
                        putters.add(Thread.currentThread());
                    }
                    for (int k = 0; k < hotRounds; k++) {
                        putter.put("hot", bytes("h-" + process + "-" + k));
                    }
                    return null;
                }));
            }
            for (int g = 0; g < 2; g++) {
                Replica getter = other.open(2 * pairs + hotPutters + 1 + g);
                work.add(threads.submit(() -> {
                    for (int k = 0; k < 2 * hotRounds; k++) {
                        getter.tryGet("hot").ifPresent(value -> hotTaken.add(text(value)));
                    }
                    return null;
                }));
            }
            SplittableRandom interruptRandom = random.split();
            BatchFaults faults = new BatchFaults(client, random.split(), () -> {
                if (client.commits().queued() > 0 && !putters.isEmpty()) {
                    // A putter queued or sending: its transaction withdrawn, or its batch's wait abandoned.
                    putters.get(interruptRandom.nextInt(putters.size())).interrupt();
                    interrupts.incrementAndGet();
                }
            });
            faults.awaitAll(work);
            int expiries = faults.expiries;
            for (int process = 0; process < 2 * pairs; process++) {
                assertEquals(tuples, client.highWaterMark(process), "process " + process + " issued each request once");
            }
            List<String> hotPut = new ArrayList<>();
            for (int h = 0; h <= hotPutters; h++) {
                int process = 2 * pairs + h;
                assertEquals(hotRounds, client.highWaterMark(process), "hot putter " + process + " put each once");
                for (int k = 0; k < hotRounds; k++) {
                    hotPut.add("h-" + process + "-" + k);
                }
            }
            for (int g = 0; g < 2; g++) {
                assertEquals(2L * hotRounds, other.highWaterMark(2 * pairs + hotPutters + 1 + g));
            }
            // A put overwrites: each value put is taken at most once, and the one left, if any, was not taken.
            assertEquals(hotTaken.size(), new HashSet<>(hotTaken).size(), "seed " + seed
                    + ": a hot value taken twice: " + hotTaken);
            assertTrue(hotPut.containsAll(hotTaken), "seed " + seed + ": a hot value nobody put: " + hotTaken);
            other.open(processes - 1).tryRead("hot").map(Utf8::text).ifPresent(left -> assertTrue(
                    hotPut.contains(left) && !hotTaken.contains(left), "seed " + seed + ": left " + left));
            GroupCommit commits = client.commits();
            System.out.printf("seed %d: %d lost replies, %d expiries, %d interrupts, %d commits found applied after "
                    + "an unknown outcome, %d transactions in %d batches, %d sent again after a mate's conflict%n",
                    seed, link.lostReplies() - lostBefore, expiries, interrupts.get(),
                    client.counters().recoveredCommits(), commits.transactions(), commits.batches(),
                    commits.resent());
            assertTrue(commits.resent() > 0, "no batch held a member that met a conflict");
            assertTrue(interrupts.get() > 0, "no putter was interrupted");
            client.collectGarbage();
        } finally {
            threads.shutdownNow();
            assertTrue(threads.awaitTermination(60, TimeUnit.SECONDS));
        }
        ensemble.inspector().check(namespace);
    }

    /**
     * A get waits; a put that serves it and the middleware's cancel of it race on one client that also carries other
     * processes' puts. The cancel and the serving put write the same records, so they never share a batch: exactly one
     * of them wins, and the get's outcome, the cancel's answer and the tuple left agree.
     */
    @Test
    void a_cancel_and_a_serving_put_race_for_one_waiting_get_among_other_requests_and_one_wins() throws Exception {
        int rounds = SearchDepth.rounds(20);
        String namespace = ensemble.freshNamespace();
        ExecutorService threads = Executors.newFixedThreadPool(8);
        int cancelled = 0;
        try (ZkDataspace client = connect(namespace, 8, ZooKeeperDataspace.Builder.DEFAULT_INLINE_LIMIT_BYTES)) {
            Replica putter = client.open(1);
            List<Replica> others = new ArrayList<>();
            for (int process = 2; process < 8; process++) {
                others.add(client.open(process));
            }
            for (int round = 1; round <= rounds; round++) {
                String tag = "w-" + round;
                CompletableFuture<Reply> waiting = client.server().submit(
                        Request.of(Operation.GET, 0, round, tag, null));
                awaitPending(client, round);
                List<Future<?>> noise = new ArrayList<>();
                for (int i = 0; i < others.size(); i++) {
                    Replica other = others.get(i);
                    String noiseTag = "noise-" + round + "-" + (i % 3); // two processes on each tag
                    noise.add(threads.submit(() -> {
                        other.put(noiseTag, bytes(noiseTag));
                        return null;
                    }));
                }
                long requestNumber = round;
                Future<Optional<Reply>> cancel = threads.submit(() -> client.server().cancel(0, requestNumber));
                putter.put(tag, bytes("v" + round));
                Optional<Reply> cancelAnswer = cancel.get(120, TimeUnit.SECONDS);
                for (Future<?> future : noise) {
                    future.get(120, TimeUnit.SECONDS);
                }
                if (cancelAnswer.isEmpty()) {
                    cancelled++;
                    ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(
                            ExecutionException.class, () -> waiting.get(120, TimeUnit.SECONDS));
                    assertInstanceOf(DataspaceCancelledException.class, failed.getCause());
                    assertEquals("v" + round, text(others.get(0).tryRead(tag).orElseThrow()),
                            "the cancelled get took nothing: the tuple stays");
                    assertTrue(others.get(0).tryGet(tag).isPresent()); // clear it for the next round
                } else {
                    assertEquals("v" + round, text(cancelAnswer.get().data().orElseThrow()),
                            "a cancel that came too late returns what the get took");
                    assertEquals("v" + round, text(waiting.get(120, TimeUnit.SECONDS).data().orElseThrow()));
                    assertTrue(others.get(0).tryRead(tag).isEmpty(), "the get took the tuple");
                }
            }
            for (int process = 3; process < 8; process++) {
                assertEquals(rounds, client.highWaterMark(process), "every noise put applied once");
            }
        } finally {
            threads.shutdownNow();
            assertTrue(threads.awaitTermination(60, TimeUnit.SECONDS));
        }
        ensemble.inspector().check(namespace);
        System.out.printf("cancel and serving put: %d rounds, %d won by the cancel%n", rounds, cancelled);
    }

    private static void awaitPending(ZkDataspace client, long requestNumber) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            Optional<Request> pending = client.server().pendingRequest(0);
            if (pending.isPresent() && pending.get().requestNumber() == requestNumber) {
                return;
            }
            assertTrue(System.nanoTime() - deadline < 0, "the get came to wait");
            Thread.sleep(2);
        }
    }

    /**
     * Adds {@code pairs} producers (processes 0, 1, …), each putting {@code tuples} tuples of its own, and as many
     * consumers (the processes after them), each getting its producer's tuples in order, all on {@code client}; each
     * producer's thread joins {@code putters} if that is not null.
     */
    private static void movePairs(List<Future<?>> work, ExecutorService threads, ZkDataspace client, int pairs,
            int tuples, List<Thread> putters) {
        for (int pair = 0; pair < pairs; pair++) {
            int producer = pair;
            int consumer = pairs + pair;
            work.add(threads.submit(() -> {
                Replica replica = client.open(producer);
                if (putters != null) {
                    putters.add(Thread.currentThread());
                }
                for (int k = 0; k < tuples; k++) {
                    replica.put("q-" + producer + "-" + k, bytes(producer + "/" + k));
                }
                return null;
            }));
            work.add(threads.submit(() -> {
                Replica replica = client.open(consumer);
                for (int k = 0; k < tuples; k++) {
                    String value = text(replica.get("q-" + producer + "-" + k));
                    assertEquals(producer + "/" + k, value, "the consumer took its producer's tuple " + k);
                }
                return null;
            }));
        }
    }

    /**
     * Faults aimed at a client's batches, on a thread of its own: a few times, while transactions queue behind the one
     * in flight, the reply of the next batch lost, or once the session expired. With a {@code tick}, it also runs the
     * tick every few milliseconds until the work is done, and injects a fault on a quarter of the ticks that find a
     * queue.
     */
    private static final class BatchFaults {
        private final AtomicBoolean done = new AtomicBoolean();
        private final Thread thread;
        volatile int expiries;

        BatchFaults(ZkDataspace client, SplittableRandom random, Runnable tick) {
            int faultCount = (tick == null ? 3 : 4) + random.nextInt(4);
            int expiryAt = random.nextInt(faultCount);
            thread = new Thread(() -> {
                int injected = 0;
                while (!done.get() && (tick != null || injected < faultCount)) {
                    try {
                        Thread.sleep(tick == null ? 5 + random.nextInt(30) : 2 + random.nextInt(10));
                        if (tick != null) {
                            tick.run();
                        }
                        if (injected < faultCount && (tick == null || random.nextInt(4) == 0)
                                && client.commits().queued() > 1 && !link.armed()) {
                            if (injected++ == expiryAt) {
                                Sessions.expire(ensemble.connectString(), client);
                                expiries++;
                            } else {
                                link.loseNextTransactionReply();
                            }
                        }
                    } catch (InterruptedException ex) {
                        return;
                    } catch (Exception ex) {
                        throw new IllegalStateException(ex);
                    }
                }
            }, "faults");
            thread.setDaemon(true);
            thread.start();
        }

        /** Waits for the work, then stops the faults and disarms the proxy. */
        void awaitAll(List<Future<?>> work) throws Exception {
            try {
                for (Future<?> future : work) {
                    future.get(600, TimeUnit.SECONDS);
                }
            } finally {
                done.set(true);
                thread.interrupt();
                thread.join(60_000);
                link.disarm();
            }
        }
    }
}
