package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.DataspaceClosedException;
import io.github.volpex.dataspace.ReadLogEvictedException;
import io.github.volpex.dataspace.spi.WaitLimit;
import io.github.volpex.dataspace.zookeeper.Planner.Plan;
import io.github.volpex.dataspace.zookeeper.Records.LogEntry;
import io.github.volpex.dataspace.zookeeper.Records.ProcessRecord;
import io.github.volpex.dataspace.zookeeper.Records.TagRecord;
import java.util.List;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cancels a pending request in one transaction, or finds the outcome it completed with: a loop of its own, like the
 * request loop's, over the process record and the request's log entry. Thread-safe.
 */
final class Canceller {

    private static final Logger LOG = LoggerFactory.getLogger(ZkDataspace.class);

    private final ZkContext context;
    private final NamespaceKeys keys;
    private final Layout layout;
    private final RequestLoop loop;
    private final BlobPins blobs;

    Canceller(ZkContext context, NamespaceKeys keys, RequestLoop loop, BlobPins blobs) {
        this.context = context;
        this.keys = keys;
        this.layout = context.layout;
        this.loop = loop;
        this.blobs = blobs;
    }

    /**
     * Cancels request {@code requestNumber} of a process if it still waits, in one transaction: the request leaves its
     * tag's queue, the process record no longer names it pending, and its read-log entry records the outcome
     * "cancelled" (with the issuing call's token and issue zxid, as a put that served it would). Every write is
     * conditional on the version read, so a put that serves the request first, or another cancel, makes the commit
     * fail and the loop read again and find the entry. A commit with an unknown outcome is settled the same way: the
     * entry is there or the request still waits. {@code caller} is the replica handle cancelling its own request, or
     * {@link Call.Caller#NONE}.
     *
     * @return the request's logged outcome: cancelled (now or before), or what it completed with
     */
    Call.Completed cancel(int processId, long requestNumber, Call.Caller caller) {
        if (context.closed()) {
            throw new DataspaceClosedException(processId, Math.max(1, requestNumber), true);
        }
        if (caller.closed()) {
            throw new DataspaceClosedException(processId, requestNumber, false);
        }
        if (requestNumber < 1) {
            throw new IllegalArgumentException("requestNumber must be >= 1: " + requestNumber);
        }
        String during = "cancelling request " + requestNumber + " of process " + processId;
        List<Op> reads = List.of(Op.getData(layout.processPath(processId)),
                Op.getData(layout.entryPath(processId, requestNumber)));
        boolean linearizable = false;
        for (int inconsistent = 0, conflicts = 0, unknownCommits = 0; ; ) {
            checkOpen(processId, requestNumber, caller);
            List<OpResult> results = context.readAll(reads, linearizable, null, during);
            ProcessState read = context.processOf(results.get(0), null, during);
            ProcessRecord process = read.record();
            Stat processStat = read.stat();
            if (requestNumber > process.issued) {
                if (!linearizable) {
                    // The server may lag behind others: another client may have issued the request already.
                    linearizable = true;
                    continue;
                }
                throw new IllegalArgumentException("requestNumber must be <= " + process.issued
                        + " (the high-water mark of process " + processId + "): " + requestNumber);
            }
            if (results.get(1) instanceof OpResult.GetDataResult found) {
                LogEntry entry = LogEntry.decode(found.getData());
                Call call = new Call(entry.operation, processId, requestNumber, context.tagOf(entry.name), entry.name,
                        null, WaitLimit.immediate(), caller, context.newToken());
                return new Call.Completed(entry.operation,
                        entry.value == null ? null : blobs.materialize(call, entry.value), entry.stored,
                        entry.cancelled);
            }
            context.checkMissing(results.get(1), during);
            if (!process.pending() || process.issued != requestNumber) {
                if (requestNumber < process.oldest) {
                    throw new ReadLogEvictedException(processId, requestNumber, process.oldest, process.issued);
                }
                if (++inconsistent > 3) {
                    throw Records.corrupt("process record", "process " + processId + " retains requests "
                            + process.oldest + " to " + process.lastCompleted() + " but request " + requestNumber
                            + " has no log entry");
                }
                continue;
            }
            Call call = new Call(process.pendingOperation, processId, requestNumber,
                    context.tagOf(process.pendingName), process.pendingName, null, WaitLimit.immediate(), caller,
                    context.newToken());
            Plan plan;
            try {
                plan = planCancel(call, process, processStat);
            } catch (Retry retry) {
                loop.checkLivelock(call, ++conflicts, "a state that changed while it was read");
                continue;
            }
            Session.Result committed = loop.commits.commit(plan.txn().ops, plan.txn().bytes);
            if (LOG.isDebugEnabled()) {
                LOG.debug("cancel of {}: {} operations, blob references {} -> {}", call.describe(),
                        plan.txn().ops.size(), plan.txn().blobDeltas, committed.code());
            }
            if (committed.ok()) {
                loop.afterCommit(call, plan);
                return new Call.Completed(call.operation, null, false, true);
            }
            if (committed.unknown()) {
                if (++unknownCommits > RequestLoop.MAX_UNKNOWN_COMMITS) {
                    throw new IllegalStateException("ZooKeeper lost the connection on "
                            + RequestLoop.MAX_UNKNOWN_COMMITS + " commits in a row of the cancel of "
                            + call.describe());
                }
                context.waitForConnection(call);
                continue;
            }
            loop.onConflict(call, committed);
            loop.checkLivelock(call, ++conflicts, committed.code().toString());
        }
    }

    private void checkOpen(int processId, long requestNumber, Call.Caller caller) {
        if (context.closed()) {
            throw new DataspaceClosedException(processId, requestNumber, true);
        }
        if (caller.closed()) {
            throw new DataspaceClosedException(processId, requestNumber, false);
        }
    }

    /**
     * Reads the tag's guard and record and plans the cancel ({@link Planner#planCancel}), making sure the hashed tag
     * name's dictionary entry exists; throws {@link Retry} if the tag record no longer queues the request.
     */
    private Plan planCancel(Call call, ProcessRecord process, Stat processStat) {
        List<OpResult> read = context.readAll(List.of(Op.getData(keys.guardPath(call.name)),
                Op.getData(layout.tagPath(call.name))), false, call, null);
        int guardVersion = loop.guardVersion(read.get(0), call);
        if (!(read.get(1) instanceof OpResult.GetDataResult found)) {
            context.checkMissing(read.get(1), call);
            throw Retry.INSTANCE;
        }
        Plan plan = loop.planner.planCancel(call, process, processStat, guardVersion,
                TagRecord.decode(found.getData()), found.getStat());
        loop.prepare(call, plan.txn());
        return plan;
    }
}
