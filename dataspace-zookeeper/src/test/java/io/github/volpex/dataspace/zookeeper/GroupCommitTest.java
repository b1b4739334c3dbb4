package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.testsupport.SearchDepth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The group commit on a real server, its batches made deterministic: the first transaction's {@code multi} is held
 * until the others have queued behind it, so they go as one batch. One member's version conflict fails it alone (its
 * own result as from its own {@code multi}) and its mates commit exactly once; members that touch the same znode go
 * in separate batches; a lost outcome reaches every member of the batch; an interrupt withdraws a queued member.
 */
// A hang guard only, far above the run time of a loaded machine.
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class GroupCommitTest {

    private static TestEnsemble ensemble;
    private static ZooKeeper raw;
    private static final AtomicInteger ROOTS = new AtomicInteger();

    private ZkDataspace client;
    private ExecutorService threads;
    private String root;

    @BeforeAll
    static void start() throws Exception {
        ensemble = TestEnsemble.start(1, "/group");
        raw = Sessions.connect(ensemble.connectString());
    }

    @AfterAll
    static void stop() throws Exception {
        AutoCloseable closeRaw = raw == null ? null : raw::close;
        Closing.all(closeRaw, ensemble);
    }

    @BeforeEach
    void connect() throws Exception {
        client = (ZkDataspace) ZooKeeperDataspace.builder(ensemble.connectString(), ensemble.freshNamespace())
                .processCount(2).connect();
        threads = Executors.newCachedThreadPool();
        root = "/raw-" + ROOTS.incrementAndGet();
        raw.create(root, new byte[0], Records.OPEN_ACL, CreateMode.PERSISTENT);
        for (String child : List.of("a", "b", "c", "d")) {
            raw.create(root + "/" + child, new byte[0], Records.OPEN_ACL, CreateMode.PERSISTENT);
        }
    }

    @AfterEach
    void close() throws Exception {
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(60, TimeUnit.SECONDS), "the test's threads stopped");
        client.close();
    }

    /** A {@code multi} that holds the first batch until released, and records every batch's operation count. */
    private class Held implements Function<List<Op>, Session.Result> {
        final CountDownLatch firstSent = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<Integer> batchOps = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger calls = new AtomicInteger();
        /** Batches (by number, from 0) whose reply is lost after they applied. */
        volatile int loseReplyOf = -1;

        @Override
        public Session.Result apply(List<Op> ops) {
            int call = calls.getAndIncrement();
            batchOps.add(ops.size());
            if (call == 0) {
                firstSent.countDown();
                try {
                    assertTrue(release.await(60, TimeUnit.SECONDS));
                } catch (InterruptedException ex) {
                    throw new AssertionError(ex);
                }
            }
            Session.Result result = client.context().session.multi(ops);
            if (call == loseReplyOf) {
                return new Session.Result(Code.CONNECTIONLOSS, null, null, null, null);
            }
            return result;
        }
    }

    private CompletableFuture<Session.Result> commit(GroupCommit commits, List<Op> ops) {
        return CompletableFuture.supplyAsync(() -> commits.commit(ops, 100), threads);
    }

    /** Sends {@code first}, holds it, queues {@code others} behind it, then releases it. */
    private List<Session.Result> batch(GroupCommit commits, Held held, List<Op> first, List<List<Op>> others)
            throws Exception {
        CompletableFuture<Session.Result> head = commit(commits, first);
        assertTrue(held.firstSent.await(60, TimeUnit.SECONDS));
        List<CompletableFuture<Session.Result>> queued = new ArrayList<>();
        for (List<Op> ops : others) {
            queued.add(commit(commits, ops));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (commits.queued() < queued.size()) {
                assertTrue(System.nanoTime() - deadline < 0, "the transactions queued");
                Thread.sleep(1);
            }
        }
        held.release.countDown();
        List<Session.Result> results = new ArrayList<>();
        results.add(head.get(60, TimeUnit.SECONDS));
        for (CompletableFuture<Session.Result> future : queued) {
            results.add(future.get(60, TimeUnit.SECONDS));
        }
        return results;
    }

    private String path(String child) {
        return root + "/" + child;
    }

    private int version(String path) throws Exception {
        Stat stat = raw.exists(path, false);
        assertNotNull(stat, path + " exists");
        return stat.getVersion();
    }

    @Test
    void a_version_conflict_fails_its_member_alone_and_its_mates_commit_once() throws Exception {
        Held held = new Held();
        GroupCommit commits = new GroupCommit(held, client.context().transactionLimit);
        List<Session.Result> results = batch(commits, held, List.of(Op.setData(path("a"), new byte[] {1}, 0)),
                List.of(
                        List.of(Op.create(path("b/x"), new byte[0], Records.OPEN_ACL, CreateMode.PERSISTENT),
                                Op.setData(path("b"), new byte[] {2}, 0)),
                        List.of(Op.create(path("c/x"), new byte[0], Records.OPEN_ACL, CreateMode.PERSISTENT),
                                Op.setData(path("c"), new byte[] {3}, 7), // a stale version: the conflict
                                Op.check(path("c"), -1)),
                        List.of(Op.create(path("d/x"), new byte[0], Records.OPEN_ACL, CreateMode.PERSISTENT),
                                Op.setData(path("d"), new byte[] {4}, 0))));
        assertTrue(results.get(0).ok());
        assertTrue(results.get(1).ok(), "the member before the conflict committed");
        assertTrue(results.get(3).ok(), "the member after the conflict committed");
        assertEquals(2, results.get(1).results().size(), "each member gets its own operations' results");
        assertInstanceOf(OpResult.SetDataResult.class, results.get(3).results().get(1));
        Session.Result failed = results.get(2);
        assertEquals(Code.BADVERSION, failed.code(), "the conflict is its member's, typed as from its own multi");
        List<OpResult> own = failed.results();
        assertEquals(3, own.size());
        assertEquals(Code.OK.intValue(), ((OpResult.ErrorResult) own.get(0)).getErr());
        assertEquals(Code.BADVERSION.intValue(), ((OpResult.ErrorResult) own.get(1)).getErr());
        assertEquals(Code.RUNTIMEINCONSISTENCY.intValue(), ((OpResult.ErrorResult) own.get(2)).getErr());
        // Exactly once: each mate's writes applied one time, the failed member's not at all.
        assertEquals(1, version(path("b")));
        assertEquals(1, version(path("d")));
        assertEquals(0, version(path("c")));
        assertNotNull(raw.exists(path("b/x"), false));
        assertNotNull(raw.exists(path("d/x"), false));
        assertNull(raw.exists(path("c/x"), false), "nothing of the failed member applied");
        // The first transaction alone, then the three (7 operations), then the two left (4 operations).
        assertEquals(List.of(1, 7, 4), held.batchOps);
        assertEquals(2, commits.resent());
        assertEquals(3, commits.batches());
    }

    @Test
    void transactions_on_the_same_znode_go_in_separate_batches_and_the_later_one_meets_the_earlier() throws Exception {
        Held held = new Held();
        GroupCommit commits = new GroupCommit(held, client.context().transactionLimit);
        List<Session.Result> results = batch(commits, held, List.of(Op.setData(path("a"), new byte[] {1}, 0)),
                List.of(List.of(Op.setData(path("b"), new byte[] {2}, 0)),
                        List.of(Op.check(path("d"), 0)),
                        List.of(Op.setData(path("b"), new byte[] {3}, 0)), // the same version: one must fail
                        List.of(Op.create(path("c/y"), new byte[0], Records.OPEN_ACL, CreateMode.PERSISTENT)),
                        List.of(Op.delete(path("c"), -1)))); // under what the create adds to: not with it
        assertTrue(results.get(0).ok());
        assertTrue(results.get(1).ok());
        assertTrue(results.get(2).ok());
        assertEquals(Code.BADVERSION, results.get(3).code(), "the later write met the earlier, committed");
        assertTrue(results.get(4).ok());
        assertEquals(Code.NOTEMPTY, results.get(5).code(), "the delete met the create, committed before it");
        assertEquals(1, version(path("b")));
        assertArrayEqualsByte(2, raw.getData(path("b"), false, null));
        // [a], then [b, d, c/y] together, then [b again, delete c] (b fails first, and the delete is resent alone).
        assertEquals(List.of(1, 3, 2, 1), held.batchOps);
    }

    @Test
    void a_lost_reply_leaves_every_member_of_the_batch_unknown_and_each_applied_once() throws Exception {
        Held held = new Held();
        held.loseReplyOf = 1;
        GroupCommit commits = new GroupCommit(held, client.context().transactionLimit);
        List<Session.Result> results = batch(commits, held, List.of(Op.setData(path("a"), new byte[] {1}, 0)),
                List.of(List.of(Op.setData(path("b"), new byte[] {2}, 0)),
                        List.of(Op.setData(path("c"), new byte[] {3}, 0))));
        assertTrue(results.get(0).ok());
        assertTrue(results.get(1).unknown(), "the batch's outcome is unknown to each member");
        assertTrue(results.get(2).unknown());
        assertEquals(1, version(path("b")), "applied once, never resent");
        assertEquals(1, version(path("c")));
        assertEquals(2, commits.batches());
    }

    @Test
    void an_interrupt_withdraws_a_queued_transaction_which_is_never_sent() throws Exception {
        Held held = new Held();
        GroupCommit commits = new GroupCommit(held, client.context().transactionLimit);
        CompletableFuture<Session.Result> head = commit(commits, List.of(Op.setData(path("a"), new byte[] {1}, 0)));
        assertTrue(held.firstSent.await(60, TimeUnit.SECONDS));
        Thread[] waiter = new Thread[1];
        CompletableFuture<Boolean> interruptedAfter = new CompletableFuture<>();
        CompletableFuture<Session.Result> withdrawn = CompletableFuture.supplyAsync(() -> {
            waiter[0] = Thread.currentThread();
            Session.Result result = commits.commit(List.of(Op.setData(path("b"), new byte[] {2}, 0)), 100);
            interruptedAfter.complete(Thread.interrupted());
            return result;
        }, threads);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (commits.queued() < 1) {
            assertTrue(System.nanoTime() - deadline < 0, "the transaction queued");
            Thread.sleep(1);
        }
        waiter[0].interrupt();
        Session.Result result = withdrawn.get(60, TimeUnit.SECONDS);
        assertTrue(result.unknown(), "a withdrawn transaction's outcome is left to the caller to settle");
        assertTrue(interruptedAfter.get(), "the interrupt is kept for the caller");
        held.release.countDown();
        assertTrue(head.get(60, TimeUnit.SECONDS).ok());
        assertEquals(0, version(path("b")), "the withdrawn transaction was never sent");
        assertEquals(0, commits.queued());
        assertFalse(held.batchOps.size() > 1, "no batch after the first: " + held.batchOps);
    }

    @Test
    void an_interrupt_from_before_the_call_does_not_withdraw_it_and_is_kept() throws Exception {
        Held held = new Held();
        GroupCommit commits = new GroupCommit(held, client.context().transactionLimit);
        CompletableFuture<Session.Result> head = commit(commits, List.of(Op.setData(path("a"), new byte[] {1}, 0)));
        assertTrue(held.firstSent.await(60, TimeUnit.SECONDS));
        CompletableFuture<Boolean> interruptedAfter = new CompletableFuture<>();
        CompletableFuture<Session.Result> queued = CompletableFuture.supplyAsync(() -> {
            Thread.currentThread().interrupt();
            Session.Result result = commits.commit(List.of(Op.setData(path("b"), new byte[] {2}, 0)), 100);
            interruptedAfter.complete(Thread.interrupted());
            return result;
        }, threads);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (commits.queued() < 1) {
            assertTrue(System.nanoTime() - deadline < 0, "the transaction queued");
            Thread.sleep(1);
        }
        held.release.countDown();
        assertTrue(head.get(60, TimeUnit.SECONDS).ok());
        assertTrue(queued.get(60, TimeUnit.SECONDS).ok(), "the transaction waited its turn and committed");
        assertTrue(interruptedAfter.get(), "the interrupt is kept for the caller");
        assertEquals(1, version(path("b")));
    }

    @Test
    void a_batch_stays_within_the_transaction_budget_and_the_rest_waits_for_the_next() throws Exception {
        Held held = new Held();
        // 100 bytes per transaction (as the test's commits declare) and 32 per operation: two fit in 300, not three.
        GroupCommit commits = new GroupCommit(held, 300);
        List<Session.Result> results = batch(commits, held, List.of(Op.setData(path("a"), new byte[] {1}, 0)),
                List.of(List.of(Op.setData(path("b"), new byte[] {2}, 0)),
                        List.of(Op.setData(path("c"), new byte[] {3}, 0)),
                        List.of(Op.setData(path("d"), new byte[] {4}, 0))));
        for (Session.Result result : results) {
            assertTrue(result.ok());
        }
        assertEquals(List.of(1, 2, 1), held.batchOps);
    }

    /** Creates {@code count} empty znodes {@code root/n-0}, … and returns their paths. */
    private List<String> createMany(int count) throws Exception {
        return createMany(count, "n-");
    }

    /** Creates {@code count} empty znodes {@code root/<prefix>0}, … and returns their paths. */
    private List<String> createMany(int count, String prefix) throws Exception {
        List<String> paths = new ArrayList<>();
        List<Op> creates = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            paths.add(path(prefix + i));
            creates.add(Op.create(paths.get(i), new byte[0], Records.OPEN_ACL, CreateMode.PERSISTENT));
            if (creates.size() == 500 || i == count - 1) {
                raw.multi(creates);
                creates.clear();
            }
        }
        return paths;
    }

    @Test
    void a_batch_holds_at_most_a_thousand_operations_and_every_transaction_commits_once() throws Exception {
        List<String> paths = createMany(1_200);
        Held held = new Held();
        GroupCommit commits = new GroupCommit(held, client.context().transactionLimit);
        List<List<Op>> queued = new ArrayList<>();
        for (int m = 0; m < 400; m++) {
            List<Op> ops = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                ops.add(Op.setData(paths.get(3 * m + k), new byte[] {(byte) k}, 0));
            }
            queued.add(ops);
        }
        List<Session.Result> results = batch(commits, held, List.of(Op.setData(path("a"), new byte[] {1}, 0)),
                queued);
        for (Session.Result result : results) {
            assertTrue(result.ok(), result.code().toString());
        }
        // 333 transactions of 3 operations fill a batch (999); the 334th would pass 1,000 and waits for the next.
        assertEquals(List.of(1, 999, 201), held.batchOps);
        assertEquals(999, commits.largestBatchOps());
        for (int i = 0; i < paths.size(); i++) {
            assertEquals(1, version(paths.get(i)), paths.get(i) + " written once");
        }
    }

    @Test
    void batches_of_many_small_and_a_few_large_values_stay_within_the_byte_cap_and_commit_exactly() {
        SearchDepth.eachSeed("volpex.zookeeper.groupcommit.seed", 1, this::smallAndLargeValuesWithSeed);
    }

    /** The values' sizes and bytes drawn from {@code seed}, on znodes of their own. */
    private void smallAndLargeValuesWithSeed(long seed) throws Exception {
        int members = 90;
        List<String> paths = createMany(members + 1, "s" + Long.toHexString(seed) + "-");
        String headPath = paths.remove(members);
        List<List<Op>> recorded = Collections.synchronizedList(new ArrayList<>());
        Held held = new Held() {
            @Override
            public Session.Result apply(List<Op> ops) {
                recorded.add(List.copyOf(ops));
                return super.apply(ops);
            }
        };
        GroupCommit commits = new GroupCommit(held, client.context().transactionLimit);
        Map<String, byte[]> values = new HashMap<>();
        Map<String, Long> declared = new HashMap<>();
        SplittableRandom random = new SplittableRandom(seed);
        List<CompletableFuture<Session.Result>> futures = new ArrayList<>();
        CompletableFuture<Session.Result> head = CompletableFuture.supplyAsync(
                () -> commits.commit(List.of(Op.setData(headPath, new byte[] {1}, 0)), 100), threads);
        assertTrue(held.firstSent.await(60, TimeUnit.SECONDS));
        for (int m = 0; m < members; m++) {
            String path = paths.get(m);
            // One in nine close to a quarter of the cap: a batch fits three of them beside the small ones.
            byte[] value = new byte[m % 9 == 4 ? 30_000 + random.nextInt(2_000) : 1 + random.nextInt(200)];
            random.nextBytes(value);
            values.put(path, value);
            long bytes = TransactionBudget.opBytes(path, value.length);
            declared.put(path, bytes);
            futures.add(CompletableFuture.supplyAsync(
                    () -> commits.commit(List.of(Op.setData(path, value, 0)), bytes), threads));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (commits.queued() < m + 1) {
                assertTrue(System.nanoTime() - deadline < 0, "the transactions queued");
                Thread.sleep(1);
            }
        }
        held.release.countDown();
        assertTrue(head.get(60, TimeUnit.SECONDS).ok());
        for (CompletableFuture<Session.Result> future : futures) {
            assertTrue(future.get(60, TimeUnit.SECONDS).ok());
        }
        long total = 0;
        for (List<Op> batch : recorded.subList(1, recorded.size())) {
            long bytes = 0;
            for (Op op : batch) {
                bytes += declared.get(op.getPath()) + TransactionBudget.OP_BYTES;
            }
            assertTrue(bytes <= GroupCommit.MAX_BATCH_BYTES, "a batch of " + bytes + " bytes: " + batch.size()
                    + " operations");
            total += bytes;
        }
        assertTrue(total > 2 * GroupCommit.MAX_BATCH_BYTES, "the values did not fill several batches: " + total);
        assertEquals(members, recorded.subList(1, recorded.size()).stream().mapToInt(List::size).sum(),
                "every transaction sent once");
        for (String path : paths) {
            Stat stat = new Stat();
            byte[] data = raw.getData(path, false, stat);
            assertTrue(Arrays.equals(values.get(path), data), path + " holds its value");
            assertEquals(1, stat.getVersion(), path + " written once");
        }
    }

    @Test
    void an_interrupt_of_a_batch_member_while_its_batch_is_in_flight_neither_withdraws_it_nor_is_lost()
            throws Exception {
        CountDownLatch secondApplied = new CountDownLatch(1);
        CountDownLatch releaseSecond = new CountDownLatch(1);
        Held held = new Held() {
            @Override
            public Session.Result apply(List<Op> ops) {
                if (calls.get() != 1) {
                    return super.apply(ops);
                }
                Session.Result result = super.apply(ops); // the second batch applies, and its reply is held
                secondApplied.countDown();
                boolean interrupted = false;
                while (true) {
                    try {
                        assertTrue(releaseSecond.await(60, TimeUnit.SECONDS));
                        break;
                    } catch (InterruptedException ex) {
                        interrupted = true; // as a multi whose wait is not abandoned: kept for the caller
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                return result;
            }
        };
        GroupCommit commits = new GroupCommit(held, client.context().transactionLimit);
        CompletableFuture<Session.Result> first = commit(commits, List.of(Op.setData(path("a"), new byte[] {1}, 0)));
        assertTrue(held.firstSent.await(60, TimeUnit.SECONDS));
        List<Thread> members = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Boolean>> kept = new ArrayList<>();
        List<CompletableFuture<Session.Result>> second = new ArrayList<>();
        for (String child : List.of("b", "c", "d")) {
            CompletableFuture<Boolean> interruptedAfter = new CompletableFuture<>();
            kept.add(interruptedAfter);
            second.add(CompletableFuture.supplyAsync(() -> {
                members.add(Thread.currentThread());
                Session.Result result = commits.commit(List.of(Op.setData(path(child), new byte[] {2}, 0)), 100);
                interruptedAfter.complete(Thread.interrupted());
                return result;
            }, threads));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (commits.queued() < second.size()) {
                assertTrue(System.nanoTime() - deadline < 0, "the transactions queued");
                Thread.sleep(1);
            }
        }
        held.release.countDown(); // the head of the queue (b) now sends b, c and d as one batch
        assertTrue(first.get(60, TimeUnit.SECONDS).ok());
        assertTrue(secondApplied.await(60, TimeUnit.SECONDS));
        // One more transaction queues behind the batch in flight, and is withdrawn by its interrupt.
        Thread[] late = new Thread[1];
        CompletableFuture<Session.Result> withdrawn = CompletableFuture.supplyAsync(() -> {
            late[0] = Thread.currentThread();
            return commits.commit(List.of(Op.setData(path("a"), new byte[] {3}, 1)), 100);
        }, threads);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (commits.queued() < 1) {
            assertTrue(System.nanoTime() - deadline < 0, "the late transaction queued");
            Thread.sleep(1);
        }
        for (Thread member : members) {
            member.interrupt(); // the sender of the batch and the two members waiting for its reply
        }
        late[0].interrupt();
        assertTrue(withdrawn.get(60, TimeUnit.SECONDS).unknown(), "a queued transaction is withdrawn");
        releaseSecond.countDown();
        for (int i = 0; i < second.size(); i++) {
            assertTrue(second.get(i).get(60, TimeUnit.SECONDS).ok(), "member " + i + " gets its batch's result");
            assertTrue(kept.get(i).get(), "member " + i + "'s interrupt is kept");
        }
        assertEquals(1, version(path("b")));
        assertEquals(1, version(path("c")));
        assertEquals(1, version(path("d")));
        assertEquals(1, version(path("a")), "the withdrawn transaction was never sent");
        assertEquals(List.of(1, 3), held.batchOps);
        assertEquals(0, commits.queued());
    }

    private static void assertArrayEqualsByte(int expected, byte[] data) {
        assertEquals(1, data.length);
        assertEquals(expected, data[0]);
    }
}
