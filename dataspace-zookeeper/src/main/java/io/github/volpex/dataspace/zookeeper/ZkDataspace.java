package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.DataspaceClosedException;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.DataspaceServer;
import io.github.volpex.dataspace.DataspaceStatistics;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.Reply;
import io.github.volpex.dataspace.Request;
import io.github.volpex.dataspace.spi.RequestChecks;
import io.github.volpex.dataspace.spi.WaitLimit;
import io.github.volpex.dataspace.zookeeper.Records.ProcessRecord;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.random.RandomGenerator;

/**
 * The ZooKeeper dataspace: a facade over package-private parts that share a {@link ZkContext} (session, settings,
 * layout). {@link NamespaceLifecycle} creates, checks, collects and destroys the namespace; {@link RequestLoop} runs
 * each request — reading the state or taking what the {@link ClientMemory} remembers, planning its one transaction
 * with the {@link Planner}, committing through the {@link GroupCommit} (concurrent requests share a {@code multi}),
 * reading again on a conflict — and {@link Canceller} cancels a pending one;
 * {@link Waiting} parks blocked callers and polls submitted requests, woken through the {@link WaitRegistry};
 * {@link BlobPins} stores, pins and reads the values kept in the blob store. The package description documents the
 * protocol.
 */
final class ZkDataspace implements ZooKeeperDataspace, DataspaceServer {

    private final ZkContext context;
    private final RequestChecks checks;
    private final WaitRegistry waits;
    private final NamespaceLifecycle lifecycle;
    private final NamespaceKeys keys;
    private final ClientMemory memory;
    private final RequestCounters counters = new RequestCounters();
    private final BlobPins blobs;
    private final RequestLoop loop;
    private final Canceller canceller;
    private final Waiting waiting;

    private ZkDataspace(ZkContext context, WaitRegistry waits, NamespaceLifecycle lifecycle, NamespaceKeys keys) {
        this.context = context;
        this.checks = RequestChecks.of(context.processCount, context.options);
        this.waits = waits;
        this.lifecycle = lifecycle;
        this.keys = keys;
        this.memory = new ClientMemory(context.processCount);
        this.blobs = new BlobPins(context, keys);
        this.waiting = new Waiting(context, waits);
        this.loop = new RequestLoop(context, keys, memory, counters, waiting, blobs);
        this.canceller = new Canceller(context, keys, loop, blobs);
    }

    // ---- connecting -------------------------------------------------------------------------------------------------

    static ZkDataspace connect(ZooKeeperDataspace.Builder builder) {
        ConnectStrings.check(builder.connectString);
        String namespace = ZooKeeperDataspace.Builder.checkPath("namespace", "/volpex/job-42", builder.namespace);
        TransactionBudget.check(builder.processCount, builder.options, builder.juteMaxBuffer,
                builder.inlineLimitBytes, namespace);
        RandomGenerator random = builder.random != null ? builder.random : new SecureRandom();
        long clientId = random.nextLong();
        WaitRegistry waits = new WaitRegistry();
        ZkContext context = new ZkContext(builder, namespace, clientId, waits::onNodeEvent, waits::wakeAll);
        try {
            long namespaceId = (builder.random != null ? builder.random : new SecureRandom()).nextLong();
            NamespaceLifecycle lifecycle = new NamespaceLifecycle(context);
            NamespaceLifecycle.Opened opened = lifecycle.open(namespaceId);
            ZkDataspace dataspace = new ZkDataspace(context, waits, lifecycle, opened.keys());
            if (!opened.created()) {
                dataspace.collectGarbage();
            }
            return dataspace;
        } catch (RuntimeException | Error ex) {
            context.session.close();
            throw ex;
        }
    }

    /**
     * Destroys a namespace with a session of its own, knowing none of its settings: see
     * {@link ZooKeeperDataspace.Builder#destroy()}.
     */
    static boolean destroy(ZooKeeperDataspace.Builder builder) {
        return NamespaceLifecycle.destroy(builder);
    }

    // ---- Dataspace --------------------------------------------------------------------------------------------------

    @Override
    public int processCount() {
        return context.processCount;
    }

    @Override
    public DataspaceOptions options() {
        return context.options;
    }

    @Override
    public String namespace() {
        return context.namespace;
    }

    @Override
    public Replica open(int processId) {
        return open(processId, 0);
    }

    @Override
    public Replica open(int processId, long savedRequestNumber) {
        checks.checkProcessId(processId);
        if (context.closed()) {
            throw RequestChecks.closedOnOpen(processId, savedRequestNumber);
        }
        long position = savedRequestNumber;
        if (savedRequestNumber != 0) {
            // Linearizable: a restart right after another client completed a request must see it completed.
            ProcessRecord record = context.readProcess(processId, true).record();
            position = checks.openAt(processId, savedRequestNumber, record.issued,
                    record.pending() && record.issued == savedRequestNumber);
        }
        return new ZkReplica(this, processId, position);
    }

    @Override
    public DataspaceServer server() {
        return this;
    }

    @Override
    public DataspaceStatistics statistics() {
        return counters.statistics();
    }

    @Override
    public boolean isClosed() {
        return context.closed();
    }

    @Override
    public void close() {
        if (!context.markClosed()) {
            return;
        }
        waits.forEachAsync(wait -> wait.fail(new DataspaceClosedException(wait.call.processId,
                wait.call.requestNumber, true)));
        waits.wakeAll();
        context.session.close();
    }

    @Override
    public int collectGarbage() {
        if (context.closed()) {
            throw new DataspaceClosedException(0, 1, true);
        }
        return lifecycle.collectGarbage(keys, blobs::deleteBlob);
    }

    @Override
    public void destroy() {
        if (context.closed()) {
            throw new DataspaceClosedException(0, 1, true);
        }
        lifecycle.destroy();
        close();
    }

    // ---- DataspaceServer --------------------------------------------------------------------------------------------

    @Override
    public Reply handle(Request request) throws InterruptedException {
        return serve(request, WaitLimit.unbounded());
    }

    @Override
    public Reply handle(Request request, Duration timeout) throws InterruptedException {
        return serve(request, WaitLimit.of(timeout));
    }

    private Reply serve(Request request, WaitLimit wait) throws InterruptedException {
        return loop.execute(callOf(request, wait)).reply(request);
    }

    /** Validates a request of the request-level interface and returns its call (of its own copy of a put's data). */
    private Call callOf(Request request, WaitLimit wait) {
        checks.checkRequest(request);
        byte[] data = request.operation().isPut() ? checks.checkData(request.data().orElseThrow()) : null;
        return call(request.operation(), request.processId(), request.requestNumber(), request.tag(), data, wait,
                Call.Caller.NONE);
    }

    @Override
    public CompletableFuture<Reply> submit(Request request) {
        return waiting.submit(request, callOf(request, WaitLimit.unbounded()), loop::execute);
    }

    @Override
    public Optional<Reply> cancel(int processId, long requestNumber) {
        checks.checkProcessId(processId);
        Call.Completed completed = cancel(processId, requestNumber, Call.Caller.NONE);
        return completed.cancelled() ? Optional.empty()
                : Optional.of(Reply.of(completed.operation(), processId, requestNumber, completed.data(),
                        completed.stored(), true));
    }

    @Override
    public Optional<Request> pendingRequest(int processId) {
        checks.checkProcessId(processId);
        ProcessRecord record = context.readProcess(processId, true).record();
        return record.pending()
                ? Optional.of(Request.of(record.pendingOperation, processId, record.issued,
                        context.tagOf(record.pendingName), null))
                : Optional.empty();
    }

    @Override
    public long highWaterMark(int processId) {
        checks.checkProcessId(processId);
        return context.readProcess(processId, true).record().issued;
    }

    @Override
    public long oldestRetained(int processId) {
        checks.checkProcessId(processId);
        return context.readProcess(processId, true).record().oldest;
    }

    // ---- for replica handles ----------------------------------------------------------------------------------------

    RequestChecks checks() {
        return checks;
    }

    /** A new call of request {@code requestNumber} of a process, with a token of its own. */
    Call call(Operation operation, int processId, long requestNumber, String tag, byte[] data, WaitLimit wait,
            Call.Caller caller) {
        return new Call(operation, processId, requestNumber, tag, data, wait, caller, context.newToken());
    }

    /** Executes a validated call: see {@link RequestLoop#execute}. */
    Call.Outcome execute(Call call) throws InterruptedException {
        return loop.execute(call);
    }

    /** Cancels a pending request: see {@link Canceller#cancel}. */
    Call.Completed cancel(int processId, long requestNumber, Call.Caller caller) {
        return canceller.cancel(processId, requestNumber, caller);
    }

    // ---- the parts, for tests ---------------------------------------------------------------------------------------

    ZkContext context() {
        return context;
    }

    RequestCounters counters() {
        return counters;
    }

    ClientMemory memory() {
        return memory;
    }

    GroupCommit commits() {
        return loop.commits;
    }

    @Override
    public String toString() {
        return "ZooKeeperDataspace[" + context.connectString + context.namespace + ", " + context.processCount
                + " processes" + (context.closed() ? ", closed]" : "]");
    }
}
