package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.DataspaceCancelledException;
import io.github.volpex.dataspace.DataspaceClosedException;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.ReadLogEvictedException;
import io.github.volpex.dataspace.ReplicaDivergenceException;
import io.github.volpex.dataspace.zookeeper.ClientMemory.EntryMeta;
import io.github.volpex.dataspace.zookeeper.Planner.Plan;
import io.github.volpex.dataspace.zookeeper.Planner.Txn;
import io.github.volpex.dataspace.zookeeper.Records.LogEntry;
import io.github.volpex.dataspace.zookeeper.Records.ProcessRecord;
import io.github.volpex.dataspace.zookeeper.Records.TagRecord;
import io.github.volpex.dataspace.zookeeper.Records.Value;
import io.github.volpex.dataspace.zookeeper.Records.Waiter;
import io.github.volpex.dataspace.zookeeper.RequestCounters.Category;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The request loop: read the process record, the request's log entry and (when the request may lead) the tag's guard
 * and record in one read-only multi — or, the first time round, take what this client remembers of them; decide;
 * commit the {@link Planner}'s one versioned transaction (through the {@link GroupCommit}, which may send it in one
 * multi with other requests'); on a conflict or an unknown outcome, read again. A request that
 * must wait waits through {@link Waiting}. Also the reads the planner asks for ({@link Planner.Reads}). Thread-safe:
 * each call is one caller's.
 */
final class RequestLoop implements Planner.Reads {

    private static final Logger LOG = LoggerFactory.getLogger(ZkDataspace.class);
    private static final HexFormat HEX = HexFormat.of();
    /** Consecutive unknown outcomes of one request's commits after which the request fails. */
    static final int MAX_UNKNOWN_COMMITS = 64;
    /**
     * Conflicts of one request after which it fails: each conflict is another request's commit, so only a livelock
     * (a defect) comes near this.
     */
    static final int MAX_CONFLICTS = 10_000;

    private final ZkContext context;
    private final NamespaceKeys keys;
    private final Layout layout;
    private final Session session;
    private final ClientMemory memory;
    private final RequestCounters counters;
    private final Waiting waiting;
    private final BlobPins blobs;
    final Planner planner;
    /** Sends the transactions of concurrent requests together. */
    final GroupCommit commits;

    RequestLoop(ZkContext context, NamespaceKeys keys, ClientMemory memory, RequestCounters counters,
            Waiting waiting, BlobPins blobs) {
        this.context = context;
        this.keys = keys;
        this.layout = context.layout;
        this.session = context.session;
        this.memory = memory;
        this.counters = counters;
        this.waiting = waiting;
        this.blobs = blobs;
        this.planner = new Planner(context.options, keys, context.inlineLimit, context.transactionLimit, this);
        this.commits = new GroupCommit(session::multi, context.transactionLimit);
    }

    /**
     * Executes one validated request, waiting as long as {@code call.wait} allows.
     * {@code call.data} is the caller's array for a put; it is copied only if the put leads. A submitted request
     * ({@code call.async} set) does not wait: where a blocking call would, it arms its wake-up and this returns null.
     */
    Call.Outcome execute(Call call) throws InterruptedException {
        try {
            checkOpen(call, true);
            for (int inconsistent = 0, conflicts = 0; ; ) {
                checkOpen(call, false);
                call.attempt++;
                ReadState state = null;
                if (!call.triedRemembered) {
                    call.triedRemembered = true;
                    state = memory.rememberedState(call);
                }
                if (state == null) {
                    state = readState(call, call.readLinearizable);
                    call.readLinearizable = false;
                }
                if (state.entry() != null) {
                    return fromLog(call, state);
                }
                ProcessRecord process = state.process();
                if (call.requestNumber <= process.issued) {
                    if (process.pending() && call.requestNumber == process.issued) {
                        checkSame(call, process.pendingOperation, process.pendingName);
                        if (Arrays.equals(process.pendingToken, call.token) && !call.counted) {
                            counters.recoveredCommits.increment();
                        } else if (!call.counted) {
                            counters.count(call, Category.JOINED_PENDING);
                            counters.recordLag(0);
                            call.duplicate = true;
                        }
                        counters.count(call, null);
                        if (await(call)) {
                            continue;
                        }
                        return null;
                    }
                    if (call.requestNumber < process.oldest) {
                        counters.recordLag(process.issued - call.requestNumber);
                        if (call.operation == Operation.PUT) {
                            counters.count(call, Category.DUPLICATE_IGNORED);
                            return new Call.Outcome(null, true, true);
                        }
                        counters.count(call, Category.EVICTED_REQUEST);
                        throw new ReadLogEvictedException(call.processId, call.requestNumber, process.oldest,
                                process.issued);
                    }
                    if (++inconsistent > 3) {
                        throw Records.corrupt("process record", "process " + call.processId + " retains requests "
                                + process.oldest + " to " + process.lastCompleted() + " but request "
                                + call.requestNumber + " has no log entry");
                    }
                    continue;
                }
                if (call.requestNumber > process.issued + 1) {
                    if (!state.linearizable()) {
                        // The server may lag behind others: another replica of the process may be further on.
                        call.readLinearizable = true;
                        continue;
                    }
                    throw new IllegalArgumentException("requestNumber must be <= " + (process.issued + 1)
                            + " (the next request of process " + call.processId + "): " + call.requestNumber);
                }
                if (process.pending()) {
                    if (!state.linearizable()) {
                        // The server may lag behind others: the pending request may be complete by now.
                        call.readLinearizable = true;
                        continue;
                    }
                    throw new IllegalStateException("process " + call.processId + " issued request "
                            + call.requestNumber + " while its request " + process.issued + " ("
                            + process.pendingOperation + " \"" + context.tagOf(process.pendingName)
                            + "\") is still pending");
                }
                if (!state.tagRead()) {
                    continue;
                }
                Plan plan;
                try {
                    plan = planner.plan(call, state);
                    prepare(call, plan.txn());
                } catch (Retry retry) {
                    memory.forget(call.processId, call.name);
                    checkLivelock(call, ++conflicts, "a state that changed while it was read");
                    continue;
                }
                if (state.remembered()) {
                    counters.triedUnread.increment();
                }
                Session.Result committed = commits.commit(plan.txn().ops, plan.txn().bytes);
                if (missingTagBucket(plan.txn(), call, committed)) {
                    // The first tag record of its bucket: create the bucket, and commit the same plan again.
                    try {
                        context.createBucket(layout.tagBucketPath(call.name), call);
                        committed = commits.commit(plan.txn().ops, plan.txn().bytes);
                    } catch (Retry retry) {
                        context.checkNamespaceExists(call);
                        checkLivelock(call, ++conflicts, "a missing " + layout.tags);
                    }
                }
                if (LOG.isDebugEnabled()) {
                    LOG.debug("{}, call {}: {} operations{}, blob references {} -> {}", call.describe(),
                            HEX.formatHex(call.token), plan.txn().ops.size(), state.remembered() ? " (unread)" : "",
                            plan.txn().blobDeltas, committed.code());
                }
                if (committed.ok()) {
                    call.unknownCommits = 0;
                    if (state.remembered()) {
                        counters.committedUnread.increment();
                    }
                    afterCommit(call, plan);
                    counters.count(call, null);
                    if (plan.pending()) {
                        if (await(call)) {
                            continue;
                        }
                        return null;
                    }
                    return new Call.Outcome(plan.value() == null ? null : blobs.materialize(call, plan.value()),
                            plan.stored(), false);
                }
                memory.forget(call.processId, call.name);
                if (committed.unknown()) {
                    if (++call.unknownCommits > MAX_UNKNOWN_COMMITS) {
                        throw new IllegalStateException("ZooKeeper lost the connection on " + MAX_UNKNOWN_COMMITS
                                + " commits in a row of " + call.describe() + " (" + plan.txn().bytes
                                + " bytes); is the ensemble's jute.maxbuffer smaller than declared?");
                    }
                    context.waitForConnection(call);
                    continue;
                }
                onConflict(call, committed);
                checkLivelock(call, ++conflicts, committed.code().toString());
            }
        } finally {
            if (call.pin != null) {
                blobs.releasePin(call.pin);
            }
            if (call.interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Waits for a pending request's outcome: a blocking call parks and returns true (the loop reads again); a
     * submitted one arms its wake-up and returns false (the loop returns), or true if it should read again now.
     */
    private boolean await(Call call) throws InterruptedException {
        if (call.async != null) {
            return waiting.arm(call);
        }
        waiting.awaitOutcome(call);
        return true;
    }

    /**
     * Fails a request that met {@value #MAX_CONFLICTS} conflicts in a row (a defect), and from the second conflict in a
     * row on brings this client's server up to date with the leader before the next read: each conflict is another
     * request's commit, which a server lagging behind may not show yet.
     */
    void checkLivelock(Call call, int conflicts, String last) {
        if (conflicts > MAX_CONFLICTS) {
            throw new IllegalStateException(call.describe() + " met " + MAX_CONFLICTS + " conflicts in a row (last: "
                    + last + ")");
        }
        if (conflicts >= 2) {
            Session.Result synced = session.sync(context.namespace);
            if (synced.unknown()) {
                context.waitForConnection(call);
            }
        }
    }

    /** Throws if the dataspace or the caller is closed; {@code counting}: the request counts then. */
    private void checkOpen(Call call, boolean counting) {
        try {
            context.checkOpen(call);
        } catch (DataspaceClosedException closed) {
            if (counting) {
                counters.count(call, null);
            }
            throw closed;
        }
    }

    private void checkSame(Call call, Operation loggedOperation, String loggedName) {
        if (loggedOperation != call.operation || !loggedName.equals(call.name)) {
            counters.count(call, null);
            throw new ReplicaDivergenceException(call.processId, call.requestNumber, loggedOperation,
                    context.tagOf(loggedName), call.operation, call.tag);
        }
    }

    /** Answers the request from its log entry. */
    private Call.Outcome fromLog(Call call, ReadState state) {
        LogEntry entry = state.entry();
        checkSame(call, entry.operation, entry.name);
        if (Arrays.equals(entry.token, call.token)) {
            if (!call.counted) {
                counters.recoveredCommits.increment();
            }
            counters.count(call, null);
        } else if (!call.counted) {
            counters.recordLag(state.process().issued - call.requestNumber);
            counters.count(call, call.operation.isPut() ? Category.DUPLICATE_IGNORED : Category.SERVED_FROM_LOG);
            call.duplicate = true;
        }
        if (entry.cancelled) {
            throw new DataspaceCancelledException(call.processId, call.requestNumber, entry.operation, call.tag);
        }
        return new Call.Outcome(entry.value == null ? null : blobs.materialize(call, entry.value), entry.stored,
                call.duplicate);
    }

    void onConflict(Call call, Session.Result committed) {
        Code code = committed.code();
        if (code != Code.BADVERSION && code != Code.NODEEXISTS && code != Code.NONODE && code != Code.NOTEMPTY) {
            throw context.refused(code, "committing " + call.describe());
        }
        if (code == Code.NONODE) {
            context.checkNamespaceExists(call);
        }
    }

    // ---- reading the state ------------------------------------------------------------------------------------------

    /**
     * Reads the state of a call; {@code linearizable}: as of a point after the call began, whatever other clients
     * wrote through other servers (for decisions that fail the call, which a lagging server must not cause).
     */
    private ReadState readState(Call call, boolean linearizable) {
        boolean withTag = call.requestNumber > memory.knownIssued(call.processId);
        List<Op> ops = new ArrayList<>(4);
        ops.add(Op.getData(layout.processPath(call.processId)));
        ops.add(Op.getData(layout.entryPath(call.processId, call.requestNumber)));
        if (withTag) {
            // The guard before the tag record: a deletion of the record after this read changes the guard's version.
            ops.add(Op.getData(keys.guardPath(call.name)));
            ops.add(Op.getData(layout.tagPath(call.name)));
            ops.add(Op.getData(layout.tagBucketPath(call.name))); // absent until a first record is created there
        }
        List<OpResult> results = context.readAll(ops, linearizable, call, null);
        ProcessState read = context.processOf(results.get(0), call, null);
        ProcessRecord process = read.record();
        Stat processStat = read.stat();
        memory.sawIssued(call.processId, process.issued);
        memory.remember(call.processId, process, processStat);
        LogEntry entry = null;
        if (results.get(1) instanceof OpResult.GetDataResult found) {
            entry = LogEntry.decode(found.getData());
            memory.cacheEntry(call.processId, call.requestNumber, entry);
        } else {
            context.checkMissing(results.get(1), call);
        }
        TagRecord tag = TagRecord.EMPTY;
        Stat tagStat = null;
        int guardVersion = -1;
        if (withTag) {
            guardVersion = guardVersion(results.get(2), call);
            if (results.get(3) instanceof OpResult.GetDataResult found) {
                tag = TagRecord.decode(found.getData());
                tagStat = found.getStat();
            } else {
                context.checkMissing(results.get(3), call);
            }
            call.tagBucketMissing = !(results.get(4) instanceof OpResult.GetDataResult);
            memory.remember(call.name, tag, tagStat == null ? -1 : tagStat.getVersion(), guardVersion);
        }
        return new ReadState(process, processStat, entry, withTag, tag, tagStat, guardVersion, false, linearizable);
    }

    /** The version of the call's tag guard read in a multi; a missing guard means the namespace was destroyed. */
    int guardVersion(OpResult result, Call call) {
        if (result instanceof OpResult.GetDataResult guard) {
            return guard.getStat().getVersion();
        }
        context.checkMissing(result, call);
        context.checkNamespaceExists(call);
        throw new IllegalStateException("namespace " + context.namespace + " no longer holds the dataspace this "
                + "client joined (it was destroyed; the tag guard " + keys.guardPath(call.name) + " is missing)");
    }

    // ---- what a plan reads ------------------------------------------------------------------------------------------

    @Override
    public List<ProcessState> waiters(Call call, List<Waiter> served) {
        List<ProcessState> states = new ArrayList<>(served.size());
        if (served.isEmpty()) {
            return states;
        }
        List<Op> ops = new ArrayList<>(served.size());
        for (Waiter waiter : served) {
            ops.add(Op.getData(layout.processPath(waiter.processId())));
        }
        List<OpResult> results = context.readAll(ops, false, call, null);
        for (int i = 0; i < served.size(); i++) {
            if (!(results.get(i) instanceof OpResult.GetDataResult found)) {
                throw Retry.INSTANCE;
            }
            ProcessRecord record = ProcessRecord.decode(found.getData());
            Waiter waiter = served.get(i);
            if (!record.pending() || record.issued != waiter.requestNumber()
                    || record.pendingOperation != waiter.operation()) {
                throw Retry.INSTANCE;
            }
            states.add(new ProcessState(record, found.getStat()));
        }
        return states;
    }

    @Override
    public EntryMeta entry(Call call, int processId, long requestNumber) {
        EntryMeta meta = memory.cachedEntry(processId, requestNumber);
        if (meta != null) {
            return meta;
        }
        LogEntry entry = LogEntry.decode(context.readForPlan(layout.entryPath(processId, requestNumber), call).data());
        memory.cacheEntry(processId, requestNumber, entry);
        return EntryMeta.of(entry);
    }

    @Override
    public Planner.Reference reference(Call call, String shaHex) {
        Session.Result read = context.readForPlan(layout.referencePath(shaHex), call);
        Stat stat = read.stat();
        return new Planner.Reference(Records.decodeCount(read.data()), stat.getVersion(), stat.getNumChildren(),
                stat.getCzxid());
    }

    @Override
    public Value pin(Call call) {
        return blobs.pinnedValue(call);
    }

    // ---- committing -------------------------------------------------------------------------------------------------

    /**
     * Creates what a planned transaction needs to exist before it commits: the tag's bucket when the read found it
     * missing and the transaction creates the record, and the dictionary entry of a hashed tag name.
     */
    void prepare(Call call, Txn txn) {
        if (txn.tagCreated && call.tagBucketMissing) {
            context.createBucket(layout.tagBucketPath(call.name), call);
            call.tagBucketMissing = false;
        }
        while (TagNames.isHashed(call.name) && !memory.inDictionary(call.name)) {
            Session.Result created = session.create(layout.dictionaryPath(call.name), Records.encodeTag(call.tag),
                    CreateMode.PERSISTENT);
            if (created.ok() || created.code() == Code.NODEEXISTS) {
                memory.addedToDictionary(call.name);
            } else if (created.code() == Code.NONODE) {
                context.createBucket(layout.dictionaryBucketPath(call.name), call);
            } else {
                if (created.unknown()) {
                    context.waitForConnection(call);
                }
                throw Retry.INSTANCE;
            }
        }
    }

    /**
     * Tells whether a transaction failed only because it creates its tag record in a bucket that does not exist yet:
     * its first failing operation is that create, and it failed with {@code NONODE}.
     */
    private boolean missingTagBucket(Txn txn, Call call, Session.Result committed) {
        if (!txn.tagCreated || committed.code() != Code.NONODE || committed.results() == null) {
            return false;
        }
        List<OpResult> results = committed.results();
        for (int i = 0; i < results.size() && i < txn.ops.size(); i++) {
            if (results.get(i) instanceof OpResult.ErrorResult failed
                    && failed.getErr() != Code.OK.intValue()
                    && failed.getErr() != Code.RUNTIMEINCONSISTENCY.intValue()) {
                return failed.getErr() == Code.NONODE.intValue()
                        && txn.ops.get(i).getType() == ZooDefs.OpCode.create
                        && txn.ops.get(i).getPath().equals(layout.tagPath(call.name));
            }
        }
        return false;
    }

    /** Counts and remembers what a committed plan wrote, and deletes the blobs it orphaned. */
    void afterCommit(Call call, Plan plan) {
        Txn txn = plan.txn();
        counters.addEvictions(txn.evictions);
        memory.committed(call, txn);
        if (call.pin != null && txn.blobDeltas.containsKey(call.pin.shaHex())) {
            call.pin = null; // the transaction took it
        }
        for (String key : txn.orphanedBlobs) {
            blobs.deleteBlob(key);
        }
    }
}
