package io.github.volpex.dataspace.zookeeper;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooDefs;

/**
 * Group commit: the transactions of concurrent requests of one client go to ZooKeeper as one {@code multi}, on no
 * thread or timer of its own. A caller that finds no batch in flight sends its own transaction at once (one thread
 * waits exactly one {@code multi}); callers that come while a batch is in flight queue, and when it completes the
 * caller that sent it hands the queue to its head, which sends the next batch: the queued transactions that fit.
 *
 * <p>A batch is the members' operations one after another, and ZooKeeper applies a {@code multi}'s operations in
 * order, all or none: a batch that commits is the members' transactions committed one after another with nothing in
 * between, each as it would have committed alone. A batch never holds two members that touch the same znode (or one
 * whose parent the other creates or deletes under): the later one waits for the next batch. So within a batch no
 * member's operation sees another member's write, and a member's operation fails only on what the ensemble held before
 * the batch: a conflict it would have met alone. When a batch fails, ZooKeeper names the first failing operation; its
 * member gets that failure with its own operations' results (as from its own {@code multi}) and the others are sent
 * again without it. A lost connection (or any failure without results) leaves every member's outcome unknown, and each
 * settles its own as a request always does, by reading (its token recognises its commit).
 *
 * <p>A batch holds at most {@value #MAX_BATCH_OPS} operations and {@value #MAX_BATCH_BYTES} bytes (as
 * {@link TransactionBudget} counts them, each operation counted twice over for its header), and never more than one
 * transaction's budget, unless one transaction alone is larger; one transaction never exceeds the budget (the
 * planner's transactions fit it). Thread-safe.
 */
final class GroupCommit {

    /** The most operations of a batch of more than one transaction. */
    static final int MAX_BATCH_OPS = 1_000;
    /** The most bytes of a batch of more than one transaction. */
    static final int MAX_BATCH_BYTES = 128 << 10;

    private static final Session.Result ABANDONED = new Session.Result(Code.CONNECTIONLOSS, null, null, null, null);

    private final Function<List<Op>, Session.Result> multi;
    private final long maxBatchBytes;
    private final ReentrantLock lock = new ReentrantLock();
    /** Transactions waiting for the next batch, in arrival order; guarded by {@link #lock}. */
    private final ArrayDeque<Member> queue = new ArrayDeque<>();
    /** Whether a batch is in flight or a queued member was handed the next; guarded by {@link #lock}. */
    private boolean sending;
    private final LongAdder batches = new LongAdder();
    private final LongAdder transactions = new LongAdder();
    private final LongAdder resent = new LongAdder();
    /** The most operations and counted bytes of a batch of more than one transaction sent so far. */
    private final LongAccumulator largestOps = new LongAccumulator(Math::max, 0);
    private final LongAccumulator largestBytes = new LongAccumulator(Math::max, 0);

    /**
     * A group commit that sends each batch through {@code multi} (ZooKeeper's, returning the result of a
     * {@code multi} that fails whole with its per-operation results), batches of at most {@code transactionLimit}
     * bytes.
     */
    GroupCommit(Function<List<Op>, Session.Result> multi, int transactionLimit) {
        this.multi = multi;
        this.maxBatchBytes = Math.min(transactionLimit, MAX_BATCH_BYTES);
    }

    /** One transaction and, once its batch completed, its result. */
    private static final class Member {
        final List<Op> ops;
        final long bytes;
        final Thread thread = Thread.currentThread();
        /** The paths the transaction touches (and the parents it creates or deletes under); computed when needed. */
        private Set<String> paths;
        volatile Session.Result result;
        /** Set when the queue is handed to this member: it sends the next batch. */
        volatile boolean leads;

        Member(List<Op> ops, long bytes) {
            this.ops = ops;
            // Counted again per operation in a batch: the budget's margin for headers is one transaction's, and a
            // create's header (its ACL, mode) is larger than the budget's per-operation bytes.
            this.bytes = bytes + (long) TransactionBudget.OP_BYTES * ops.size();
        }

        Set<String> paths() {
            if (paths == null) {
                paths = new HashSet<>();
                for (Op op : ops) {
                    paths.add(op.getPath());
                    if (op.getType() == ZooDefs.OpCode.create || op.getType() == ZooDefs.OpCode.create2
                            || op.getType() == ZooDefs.OpCode.delete) {
                        int slash = op.getPath().lastIndexOf('/');
                        if (slash > 0) {
                            paths.add(op.getPath().substring(0, slash));
                        }
                    }
                }
            }
            return paths;
        }

        void complete(Session.Result outcome) {
            result = outcome;
            if (thread != Thread.currentThread()) {
                LockSupport.unpark(thread);
            }
        }
    }

    /**
     * Commits one transaction of {@code bytes} bytes, alone or in a batch, and returns its result as
     * {@link Session#multi} would: OK with the operations' results, or the code and results of its own first failing
     * operation, or a code whose outcome is unknown. Waits while a batch is in flight. As with {@link Session#multi},
     * an interrupt that came before the call never aborts it; one that comes while the transaction is still queued
     * withdraws it ({@code CONNECTIONLOSS}: nothing was sent, but the caller settles it as any unknown outcome), and
     * one that comes after it was sent is kept for the caller (as is one that came before).
     */
    Session.Result commit(List<Op> ops, long bytes) {
        Member self = new Member(ops, bytes);
        lock.lock();
        try {
            if (sending) {
                queue.addLast(self);
            } else {
                sending = true;
                self.leads = true;
            }
        } finally {
            lock.unlock();
        }
        if (!self.leads && !await(self)) {
            return ABANDONED;
        }
        if (self.result == null) {
            lead(self);
        }
        return self.result;
    }

    /**
     * Parks until the member's batch completed or the member leads the next; returns false if an interrupt withdrew
     * it from the queue.
     */
    private boolean await(Member self) {
        boolean interrupted = Thread.interrupted(); // an interrupt from before the call: kept, not acted on
        try {
            while (self.result == null && !self.leads) {
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    interrupted = true;
                    lock.lock();
                    try {
                        if (queue.remove(self)) {
                            return false;
                        }
                    } finally {
                        lock.unlock();
                    }
                }
            }
            return true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Sends a batch headed by {@code self}, then hands the queue to its head (or marks that nothing is sending). */
    private void lead(Member self) {
        try {
            List<Member> batch = new ArrayList<>();
            batch.add(self);
            lock.lock();
            try {
                gather(batch);
            } finally {
                lock.unlock();
            }
            send(batch);
        } finally {
            Member next;
            lock.lock();
            try {
                next = queue.pollFirst();
                sending = next != null;
            } finally {
                lock.unlock();
            }
            if (next != null) {
                next.leads = true;
                LockSupport.unpark(next.thread);
            }
        }
    }

    /** Moves the queued members that fit into the batch, in order, skipping those that touch a member's znodes. */
    private void gather(List<Member> batch) {
        if (queue.isEmpty()) {
            return;
        }
        int ops = batch.get(0).ops.size();
        long bytes = batch.get(0).bytes;
        Set<String> touched = new HashSet<>(batch.get(0).paths());
        for (Iterator<Member> it = queue.iterator(); it.hasNext(); ) {
            Member member = it.next();
            if (ops + member.ops.size() > MAX_BATCH_OPS || bytes + member.bytes > maxBatchBytes) {
                continue;
            }
            if (!disjoint(touched, member.paths())) {
                continue;
            }
            it.remove();
            batch.add(member);
            touched.addAll(member.paths());
            ops += member.ops.size();
            bytes += member.bytes;
        }
    }

    private static boolean disjoint(Set<String> touched, Set<String> paths) {
        for (String path : paths) {
            if (touched.contains(path)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Sends the batch and completes its members: each with its own slice of the results; on a failure, the member of
     * the first failing operation with that failure, the others sent again without it.
     */
    private void send(List<Member> batch) {
        try {
            while (!batch.isEmpty()) {
                List<Op> ops;
                if (batch.size() == 1) {
                    ops = batch.get(0).ops;
                } else {
                    ops = new ArrayList<>();
                    long bytes = 0;
                    for (Member member : batch) {
                        ops.addAll(member.ops);
                        bytes += member.bytes;
                    }
                    largestOps.accumulate(ops.size());
                    largestBytes.accumulate(bytes);
                }
                batches.increment();
                transactions.add(batch.size());
                Session.Result result = multi.apply(ops);
                if (batch.size() == 1) {
                    batch.remove(0).complete(result);
                    return;
                }
                List<OpResult> results = result.results();
                if (result.ok() || results == null || results.size() != ops.size()) {
                    for (int i = 0, from = 0; i < batch.size(); i++) {
                        Member member = batch.get(i);
                        member.complete(results == null || results.size() != ops.size() ? result
                                : slice(result.code(), results, from, member.ops.size()));
                        from += member.ops.size();
                    }
                    batch.clear();
                    return;
                }
                int failing = firstFailure(results);
                int from = 0;
                int culprit = -1;
                for (int i = 0; i < batch.size() && culprit < 0; i++) {
                    if (failing >= 0 && failing < from + batch.get(i).ops.size()) {
                        culprit = i;
                    } else {
                        from += batch.get(i).ops.size();
                    }
                }
                if (culprit < 0) {
                    // No operation names the failure: every member gets it (none committed).
                    for (Member member : batch) {
                        member.complete(result);
                    }
                    batch.clear();
                    return;
                }
                Member failed = batch.remove(culprit);
                failed.complete(slice(Code.get(((OpResult.ErrorResult) results.get(failing)).getErr()), results,
                        from, failed.ops.size()));
                resent.add(batch.size());
            }
        } catch (RuntimeException | Error failure) {
            // Outcome unknown for whoever is left: each settles its own by reading.
            for (Member member : batch) {
                member.complete(ABANDONED);
            }
            throw failure;
        }
    }

    /** The index of the first operation that failed, or -1. */
    private static int firstFailure(List<OpResult> results) {
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i) instanceof OpResult.ErrorResult error && error.getErr() != Code.OK.intValue()
                    && error.getErr() != Code.RUNTIMEINCONSISTENCY.intValue()) {
                return i;
            }
        }
        return -1;
    }

    private static Session.Result slice(Code code, List<OpResult> results, int from, int count) {
        return new Session.Result(code, null, null, new ArrayList<>(results.subList(from, from + count)), null);
    }

    /** Transactions waiting for the next batch now. */
    int queued() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    /** Batches sent so far (each resending counts). */
    long batches() {
        return batches.sum();
    }

    /** Transactions sent so far, counted once per batch that carried them. */
    long transactions() {
        return transactions.sum();
    }

    /** The most operations a batch of more than one transaction held so far. */
    long largestBatchOps() {
        return largestOps.get();
    }

    /** The most bytes (as batches count them) a batch of more than one transaction held so far. */
    long largestBatchBytes() {
        return largestBytes.get();
    }

    /** Transactions sent again because a batch-mate's operation failed. */
    long resent() {
        return resent.sum();
    }
}
