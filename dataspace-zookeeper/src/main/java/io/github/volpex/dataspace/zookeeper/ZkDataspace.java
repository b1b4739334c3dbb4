package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.DataspaceCancelledException;
import io.github.volpex.dataspace.DataspaceClosedException;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.DataspaceServer;
import io.github.volpex.dataspace.DataspaceStatistics;
import io.github.volpex.dataspace.DataspaceTimeoutException;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.ReadLogEvictedException;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.ReplicaDivergenceException;
import io.github.volpex.dataspace.Reply;
import io.github.volpex.dataspace.Request;
import io.github.volpex.dataspace.zookeeper.Records.Header;
import io.github.volpex.dataspace.zookeeper.Records.LogEntry;
import io.github.volpex.dataspace.zookeeper.Records.ProcessRecord;
import io.github.volpex.dataspace.zookeeper.Records.TagRecord;
import io.github.volpex.dataspace.zookeeper.Records.Value;
import io.github.volpex.dataspace.zookeeper.Records.Waiter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.random.RandomGenerator;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ZKConfig;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ZooKeeper dataspace. Each request is a loop: read the process record, the request's log entry and (when the
 * request may lead) the tag's guard and record in one read-only multi — or, the first time round, take what this
 * client remembers of them; decide; commit one versioned multi; on a conflict or an unknown outcome, read again. The
 * package description documents the protocol.
 */
final class ZkDataspace implements ZooKeeperDataspace, DataspaceServer {

    /** The largest read-log capacity: each retained outcome is a znode under its process's record. */
    static final int MAX_READ_LOG_CAPACITY = 65_536;
    /** The most retained outcomes per process whose value is a blob (their numbers live in the process record). */
    static final int MAX_BLOB_ENTRIES = 4_096;

    private static final Logger LOG = LoggerFactory.getLogger(ZkDataspace.class);
    /** Bytes of every transaction kept free below jute.maxbuffer for ZooKeeper's own headers. */
    private static final int TRANSACTION_MARGIN = 16 << 10;
    /** Bytes one operation of a multi costs beyond its path and data. */
    private static final int OP_BYTES = 32;
    /** Consecutive unknown outcomes of one request's commits after which the request fails. */
    private static final int MAX_UNKNOWN_COMMITS = 64;
    /**
     * Conflicts of one request after which it fails: each conflict is another request's commit, so only a livelock
     * (a defect) comes near this.
     */
    private static final int MAX_CONFLICTS = 10_000;
    private static final int ENTRY_CACHE_SIZE = 4_096;
    /** Tag records whose last known state this client keeps, for requests that commit without reading first. */
    private static final int TAG_CACHE_SIZE = 4_096;
    /** Bytes of inline values the remembered tag records may hold together; the least recently used go first. */
    private static final long TAG_CACHE_BYTES = 4L << 20;
    /** Tag guards per namespace: the data version of guard k counts the deletions of tag records hashed to k. */
    static final int GUARDS = 64;
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] EMPTY = new byte[0];

    private final int processCount;
    private final DataspaceOptions options;
    private final String connectString;
    private final String namespace;
    private final Layout layout;
    private final Session session;
    /** Lists a znode's children, failing typed when one answer cannot hold them. */
    private final Listing listing;
    private final boolean blobsInZooKeeper;
    private final BlobStore blobStore;
    private final int inlineLimit;
    private final int transactionLimit;
    private final Duration connectionLossTimeout;
    private final long clientId;
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLongArray knownIssued;
    private final Executor executor;
    /** The callers waiting for each read-log entry's creation: blocked threads and submitted requests. */
    private final ConcurrentHashMap<String, Set<Waker>> waiting = new ConcurrentHashMap<>();
    /** The submitted requests that wait, so that closing fails them. */
    private final Set<AsyncWait> asyncWaits = ConcurrentHashMap.newKeySet();
    private final Map<Long, EntryMeta> entryCache = new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, EntryMeta> eldest) {
            return size() > ENTRY_CACHE_SIZE;
        }
    };
    private final Set<String> knownDictionary = ConcurrentHashMap.newKeySet();
    private volatile String blobPrefix;
    /** The path prefix of this namespace's guards: {@code <ns>/g/<namespace id>-}. */
    private volatile String guardPrefix;
    /** The last known record and version of each process, for requests that commit without reading first. */
    private final AtomicReferenceArray<KnownProcess> knownProcesses;
    /** In access order; guarded by itself, as is {@link #knownTagBytes}. */
    private final LinkedHashMap<String, KnownTag> knownTags = new LinkedHashMap<>(64, 0.75f, true);
    private long knownTagBytes;
    /** Commits sent on a remembered state without reading first, and those that applied (for tests of the protocol). */
    private final LongAdder triedUnread = new LongAdder();
    private final LongAdder committedUnread = new LongAdder();
    private volatile boolean closed;

    private final LongAdder[] requests = new LongAdder[Operation.values().length];
    private final LongAdder duplicatesIgnored = new LongAdder();
    private final LongAdder servedFromLog = new LongAdder();
    private final LongAdder joinedPending = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private final LongAdder evictedRequests = new LongAdder();
    private final AtomicLong maxReplicaLag = new AtomicLong();
    /** Commits whose reply was lost and that a later read found applied (for tests of the protocol). */
    private final LongAdder recoveredCommits = new LongAdder();

    private ZkDataspace(ZooKeeperDataspace.Builder builder, String namespace) {
        this.processCount = builder.processCount;
        this.options = builder.options;
        this.connectString = builder.connectString;
        this.namespace = namespace;
        this.layout = new Layout(namespace);
        this.inlineLimit = builder.inlineLimitBytes;
        this.transactionLimit = builder.juteMaxBuffer - TRANSACTION_MARGIN;
        this.connectionLossTimeout = builder.connectionLossTimeout;
        RandomGenerator random = builder.random != null ? builder.random : new SecureRandom();
        this.clientId = random.nextLong();
        this.knownIssued = new AtomicLongArray(processCount);
        this.knownProcesses = new AtomicReferenceArray<>(processCount);
        this.executor = builder.executor;
        for (int i = 0; i < requests.length; i++) {
            requests[i] = new LongAdder();
        }
        this.session = new Session(builder.connectString, (int) builder.sessionTimeout.toMillis(),
                clientConfig(builder), this::onNodeEvent, this::wakeAll);
        this.listing = new Listing(session, session.maxAnswerBytes(), this::waitForConnection);
        this.blobsInZooKeeper = builder.blobStore == null;
        this.blobStore = blobsInZooKeeper
                ? new ZooKeeperBlobStore(session, layout.store, connectionLossTimeout.toNanos())
                : builder.blobStore;
    }

    /** The client configuration of a builder, its {@code jute.maxbuffer} set to the builder's unless given. */
    private static ZKClientConfig clientConfig(ZooKeeperDataspace.Builder builder) {
        ZKClientConfig clientConfig = builder.clientConfig != null ? builder.clientConfig : new ZKClientConfig();
        if (clientConfig.getProperty(ZKConfig.JUTE_MAXBUFFER) == null) {
            clientConfig.setProperty(ZKConfig.JUTE_MAXBUFFER, Integer.toString(builder.juteMaxBuffer));
        }
        return clientConfig;
    }

    // ---- connecting ---------------------------------------------------------------------------------------------

    static ZkDataspace connect(ZooKeeperDataspace.Builder builder) {
        ConnectStrings.check(builder.connectString);
        String namespace = ZooKeeperDataspace.Builder.checkPath("namespace", "/volpex/job-42", builder.namespace);
        checkLimits(builder, namespace);
        ZkDataspace dataspace = new ZkDataspace(builder, namespace);
        try {
            long namespaceId = (builder.random != null ? builder.random : new SecureRandom()).nextLong();
            if (!dataspace.open(namespaceId)) {
                dataspace.collectGarbage();
            }
            return dataspace;
        } catch (RuntimeException | Error ex) {
            dataspace.session.close();
            throw ex;
        }
    }

    /** Rejects options whose worst-case transaction would not fit one ZooKeeper request. */
    private static void checkLimits(ZooKeeperDataspace.Builder builder, String namespace) {
        DataspaceOptions options = builder.options;
        if (options.readLogCapacity() > MAX_READ_LOG_CAPACITY) {
            throw new IllegalArgumentException("options.readLogCapacity must be <= " + MAX_READ_LOG_CAPACITY
                    + " for a ZooKeeper dataspace (each retained outcome is a znode): " + options.readLogCapacity());
        }
        int limit = builder.juteMaxBuffer - TRANSACTION_MARGIN;
        // A put that serves a waiting read of every other process writes each one's record and log entry.
        long perWaiter = 2L * (namespace.length() + 32) + Records.PROCESS_BYTES + Records.ENTRY_BYTES
                + TagNames.MAX_ESCAPED + Records.VALUE_BLOB_BYTES + 2L * OP_BYTES + 13;
        // Plus the tag guard's operation: its path is the namespace, "/g/" and 16 + 1 + 2 characters.
        long fixed = builder.inlineLimitBytes + 8L * MAX_BLOB_ENTRIES + 4096 + namespace.length() + 22 + OP_BYTES;
        long worst = (long) builder.processCount * perWaiter + fixed;
        if (worst > limit) {
            long most = (limit - fixed) / perWaiter;
            throw new IllegalArgumentException("processCount must be <= " + most + " for a ZooKeeper dataspace at "
                    + namespace + " with jute.maxbuffer " + builder.juteMaxBuffer + " (a put that serves every "
                    + "process's waiting read is one transaction): " + builder.processCount);
        }
        if (2L * options.maxTagLength() + namespace.length() + 1024 > limit) {
            throw new IllegalArgumentException("options.maxTagLength must be <= "
                    + (limit - namespace.length() - 1024) / 2 + " for a ZooKeeper dataspace with jute.maxbuffer "
                    + builder.juteMaxBuffer + ": " + options.maxTagLength());
        }
    }

    /**
     * Creates the namespace in one transaction, or checks the one there (completing an interrupted destroy). One
     * read-only multi reads the ancestors, the namespace and its children; a namespace inside another dataspace is
     * refused.
     *
     * @return whether the namespace was created (so it holds no garbage to collect)
     */
    private boolean open(long namespaceId) {
        String during = "opening namespace " + namespace;
        long deadline = System.nanoTime() + connectionLossTimeout.toNanos();
        if (!session.awaitConnected(deadline)) {
            throw new ZooKeeperUnavailableException(connectString, connectionLossTimeout,
                    "connecting to namespace " + namespace);
        }
        Header wanted = Header.of(processCount, options, blobsInZooKeeper, namespaceId);
        List<String> ancestors = new ArrayList<>();
        for (int slash = namespace.indexOf('/', 1); slash > 0; slash = namespace.indexOf('/', slash + 1)) {
            ancestors.add(namespace.substring(0, slash));
        }
        List<String> children = List.of(layout.directories());
        List<Op> reads = new ArrayList<>();
        for (String path : ancestors) {
            reads.add(Op.getData(path));
        }
        reads.add(Op.getData(namespace));
        for (String path : children) {
            reads.add(Op.getData(path));
        }
        while (true) {
            List<OpResult> results = readAll(reads, null, during);
            List<String> missing = new ArrayList<>();
            for (int i = 0; i < ancestors.size(); i++) {
                if (results.get(i) instanceof OpResult.GetDataResult found) {
                    if (Header.isHeader(found.getData())) {
                        throw new IllegalArgumentException("namespace " + namespace + " lies inside the dataspace at "
                                + ancestors.get(i));
                    }
                } else {
                    missing.add(ancestors.get(i));
                }
            }
            if (!(results.get(ancestors.size()) instanceof OpResult.GetDataResult root)) {
                for (String ancestor : missing) {
                    Session.Result created = session.create(ancestor, Parents.MARKER, CreateMode.PERSISTENT);
                    if (!created.ok() && created.code() != Code.NODEEXISTS) {
                        waitIfUnknown(created, during);
                    }
                }
                List<Op> creates = new ArrayList<>();
                creates.add(Op.create(namespace, wanted.encode(), Records.OPEN_ACL, CreateMode.PERSISTENT));
                for (String path : children) {
                    creates.add(Op.create(path, EMPTY, Records.OPEN_ACL, CreateMode.PERSISTENT));
                }
                String guards = guardPrefix(namespaceId);
                for (int k = 0; k < GUARDS; k++) {
                    creates.add(Op.create(guards + guardSuffix(k), EMPTY, Records.OPEN_ACL, CreateMode.PERSISTENT));
                }
                Session.Result created = session.multi(creates);
                if (!created.ok()) {
                    waitIfUnknown(created, "creating namespace " + namespace);
                    continue;
                }
                blobPrefix = Long.toHexString(namespaceId) + "-";
                guardPrefix = guards;
                LOG.info("created dataspace namespace {} ({})", namespace, wanted.describe());
                return true;
            }
            Header header = Header.decodeOrNull(root.getData(), namespace);
            if (header == null) {
                throw new IllegalStateException("namespace " + namespace + " exists and is not a Volpex dataspace ("
                        + root.getStat().getNumChildren() + " children, " + root.getData().length
                        + " bytes of data)");
            }
            blobPrefix = Long.toHexString(header.namespaceId()) + "-";
            guardPrefix = guardPrefix(header.namespaceId());
            if (header.destroying()) {
                LOG.info("completing the interrupted destroy of dataspace namespace {}", namespace);
                destroyer().deleteTree(header);
                continue;
            }
            if (!header.sameSettings(wanted)) {
                throw new IllegalStateException("namespace " + namespace + " holds a dataspace of "
                        + header.describe() + "; this client asked for " + wanted.describe());
            }
            for (int i = 0; i < children.size(); i++) {
                if (!(results.get(ancestors.size() + 1 + i) instanceof OpResult.GetDataResult)) {
                    throw new IllegalStateException("namespace " + namespace + " is damaged: " + children.get(i)
                            + " is missing");
                }
            }
            return false;
        }
    }

    /**
     * Runs a read-only multi, waiting for the connection as long as the connection-loss timeout allows, and returns
     * its results (a missing node is an error result in its place). Waits on behalf of {@code call} if it is not null;
     * {@code during} names the work otherwise.
     */
    private List<OpResult> readAll(List<Op> ops, Call call, String during) {
        return readAll(ops, false, call, during);
    }

    /**
     * Runs a read-only multi as {@link #readAll(List, Call, String)} does; when {@code linearizable}, its reads see
     * every write committed before the call, by any client through any server ({@link Session#linearizableRead}).
     */
    private List<OpResult> readAll(List<Op> ops, boolean linearizable, Call call, String during) {
        while (true) {
            Session.Result read = linearizable ? session.linearizableRead(namespace, ops) : session.multiRead(ops);
            if (read.ok()) {
                return read.results();
            }
            if (linearizable && read.code() == Code.NONODE) {
                throw destroyed();
            }
            if (!read.unknown()) {
                throw refused(read.code(), call != null ? "reading for " + call.describe() : during);
            }
            if (call != null) {
                waitForConnection(call);
            } else {
                waitForConnection(during);
            }
        }
    }

    /** Reads a node, waiting for the connection as long as the connection-loss timeout allows. */
    private Session.Result readOrWait(String path, String during) {
        while (true) {
            Session.Result result = session.getData(path);
            if (!result.unknown()) {
                if (!result.ok() && result.code() != Code.NONODE) {
                    throw refused(result.code(), during);
                }
                return result;
            }
            waitForConnection(during);
        }
    }

    private void waitIfUnknown(Session.Result result, String during) {
        if (result.unknown()) {
            waitForConnection(during);
        } else if (result.code() != Code.NODEEXISTS && result.code() != Code.NONODE) {
            throw refused(result.code(), during);
        }
    }

    private void waitForConnection(String during) {
        if (closed || session.closed()) {
            throw new DataspaceClosedException(0, 1, true);
        }
        if (!session.awaitConnected(System.nanoTime() + connectionLossTimeout.toNanos())) {
            if (closed) {
                throw new DataspaceClosedException(0, 1, true);
            }
            throw new ZooKeeperUnavailableException(connectString, connectionLossTimeout, during);
        }
    }

    private IllegalStateException refused(Code code, String during) {
        return new IllegalStateException("ZooKeeper refused a request while " + during + ": " + code);
    }

    // ---- Dataspace ------------------------------------------------------------------------------------------------

    @Override
    public int processCount() {
        return processCount;
    }

    @Override
    public DataspaceOptions options() {
        return options;
    }

    @Override
    public String namespace() {
        return namespace;
    }

    @Override
    public Replica open(int processId) {
        return open(processId, 0);
    }

    @Override
    public Replica open(int processId, long savedRequestNumber) {
        checkProcessId(processId);
        if (closed) {
            throw new DataspaceClosedException(processId, Math.max(1, savedRequestNumber + 1), true);
        }
        long position = savedRequestNumber;
        if (savedRequestNumber != 0) {
            // Linearizable: a restart right after another client completed a request must see it completed.
            ProcessRecord record = readProcess(processId, true).record;
            if (savedRequestNumber < 0 || savedRequestNumber > record.issued) {
                throw new IllegalArgumentException("savedRequestNumber must be in [0, " + record.issued
                        + "] (the high-water mark of process " + processId + "): " + savedRequestNumber);
            }
            // A request still pending was completed by no replica: the checkpoint was taken inside it.
            if (record.pending() && record.issued == savedRequestNumber) {
                position = savedRequestNumber - 1;
            }
        }
        return new ZkReplica(this, processId, position);
    }

    @Override
    public DataspaceServer server() {
        return this;
    }

    @Override
    public DataspaceStatistics statistics() {
        EnumMap<Operation, Long> byOperation = new EnumMap<>(Operation.class);
        for (Operation operation : Operation.values()) {
            byOperation.put(operation, requests[operation.ordinal()].sum());
        }
        return new DataspaceStatistics(byOperation, duplicatesIgnored.sum(), servedFromLog.sum(),
                joinedPending.sum(), evictions.sum(), evictedRequests.sum(), maxReplicaLag.get());
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (AsyncWait wait : asyncWaits) {
            wait.fail(new DataspaceClosedException(wait.call.processId, wait.call.requestNumber, true));
        }
        wakeAll();
        session.close();
    }

    // ---- DataspaceServer ------------------------------------------------------------------------------------------

    @Override
    public Reply handle(Request request) throws InterruptedException {
        return serve(request, null);
    }

    @Override
    public Reply handle(Request request, Duration timeout) throws InterruptedException {
        return serve(request, DataspaceOptions.checkTimeout(timeout));
    }

    private Reply serve(Request request, Duration checkedTimeout) throws InterruptedException {
        return reply(request, execute(callOf(request, checkedTimeout)));
    }

    /** Validates a request of the request-level interface and returns its call (of its own copy of a put's data). */
    private Call callOf(Request request, Duration checkedTimeout) {
        Objects.requireNonNull(request, "request");
        checkProcessId(request.processId());
        checkTag(request.tag());
        byte[] data = request.operation().isPut() ? request.data().orElseThrow() : null;
        if (data != null) {
            checkData(data);
        }
        return new Call(request.operation(), request.processId(), request.requestNumber(), request.tag(), data,
                checkedTimeout, Caller.NONE);
    }

    private static Reply reply(Request request, Outcome outcome) {
        return Reply.of(request.operation(), request.processId(), request.requestNumber(), outcome.data,
                outcome.stored, outcome.duplicate);
    }

    @Override
    public CompletableFuture<Reply> submit(Request request) {
        AsyncWait wait = new AsyncWait(request, callOf(request, null));
        wait.start();
        return wait.reply;
    }

    @Override
    public Optional<Reply> cancel(int processId, long requestNumber) {
        checkProcessId(processId);
        Completed completed = cancel(processId, requestNumber, Caller.NONE);
        return completed.cancelled() ? Optional.empty()
                : Optional.of(Reply.of(completed.operation(), processId, requestNumber, completed.data(),
                        completed.stored(), true));
    }

    @Override
    public Optional<Request> pendingRequest(int processId) {
        checkProcessId(processId);
        ProcessRecord record = readProcess(processId, true).record;
        return record.pending()
                ? Optional.of(Request.of(record.pendingOperation, processId, record.issued,
                        tagOf(record.pendingName), null))
                : Optional.empty();
    }

    @Override
    public long highWaterMark(int processId) {
        checkProcessId(processId);
        return readProcess(processId, true).record.issued;
    }

    @Override
    public long oldestRetained(int processId) {
        checkProcessId(processId);
        return readProcess(processId, true).record.oldest;
    }

    // ---- argument checks ------------------------------------------------------------------------------------------

    void checkProcessId(int processId) {
        DataspaceOptions.checkProcessId(processId, processCount);
    }

    void checkTag(String tag) {
        options.checkTag(tag);
    }

    void checkData(byte[] data) {
        options.checkData(data);
    }

    // ---- paths ----------------------------------------------------------------------------------------------------

    private String processPath(int processId) {
        return layout.processPath(processId);
    }

    private String entryPath(int processId, long requestNumber) {
        return layout.entryPath(processId, requestNumber);
    }

    private String tagPath(String name) {
        return layout.tagPath(name);
    }

    private String guardPrefix(long namespaceId) {
        return layout.guards + "/" + Long.toHexString(namespaceId) + "-";
    }

    /**
     * Creates a bucket, which a request found missing when it created the first znode there (a bucket, once created,
     * stays until the namespace is destroyed, so requests create in it without checking first). Throws {@link Retry}
     * when the namespace's directory is gone: the request then reads and finds out why.
     */
    private void createBucket(String bucket, Call call) {
        while (true) {
            Session.Result created = session.create(bucket, EMPTY, CreateMode.PERSISTENT);
            if (created.ok() || created.code() == Code.NODEEXISTS) {
                return;
            } else if (created.unknown()) {
                waitForConnection(call);
            } else if (created.code() == Code.NONODE) {
                throw Retry.INSTANCE;
            } else {
                throw refused(created.code(), "creating " + bucket + " for " + call.describe());
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
                        && txn.ops.get(i).getPath().equals(tagPath(call.name));
            }
        }
        return false;
    }

    private static String guardSuffix(int k) {
        return HEX.toHexDigits((byte) k);
    }

    /** The guard of a tag name: one of {@value #GUARDS}, by the name's {@link String#hashCode()} (same on every JVM). */
    private String guardPath(String name) {
        return guardPrefix + guardSuffix(Math.floorMod(name.hashCode(), GUARDS));
    }

    private String blobKey(String shaHex, long incarnation) {
        return blobPrefix + shaHex + "-" + Long.toHexString(incarnation);
    }

    // ---- one request ----------------------------------------------------------------------------------------------

    /** Who issues a request: a replica handle (which can be closed) or a one-off caller of {@link #handle}. */
    interface Caller {
        Caller NONE = () -> false;

        boolean closed();
    }

    /** The outcome a request returns to its caller. */
    record Outcome(byte[] data, boolean stored, boolean duplicate) {
    }

    /** Thrown while planning when what was read has changed: the request loop reads again. */
    private static final class Retry extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final Retry INSTANCE = new Retry();

        private Retry() {
            super("state changed", null, false, false);
        }
    }

    /** One call of {@link #execute}: the request and what the loop has learnt about it so far. */
    final class Call {
        final Operation operation;
        final int processId;
        final long requestNumber;
        final String tag;
        final String name;
        final byte[] data;
        final Duration timeout;
        final Caller caller;
        final byte[] token;
        boolean counted;
        boolean duplicate;
        boolean interrupted;
        long waitDeadline;
        boolean waitStarted;
        int unknownCommits;
        /** Whether the loop has tried the remembered state (once per call: then it reads). */
        boolean triedRemembered;
        /** Whether the next read must be linearizable: a decision that fails the call is pending on it. */
        boolean readLinearizable;
        /** Whether the last read found the tag's bucket missing: a commit that creates the record creates it first. */
        boolean tagBucketMissing;
        byte[] owned;
        /** The turns of the request loop so far: a pin taken or checked in an earlier turn is checked again. */
        int attempt;
        Pin pin;
        /** The submitted request this call runs for, which waits with no thread; null for a blocking call. */
        AsyncWait async;

        Call(Operation operation, int processId, long requestNumber, String tag, byte[] data, Duration timeout,
                Caller caller) {
            this(operation, processId, requestNumber, tag, TagNames.name(tag), data, timeout, caller);
        }

        Call(Operation operation, int processId, long requestNumber, String tag, String name, byte[] data,
                Duration timeout, Caller caller) {
            this.operation = operation;
            this.processId = processId;
            this.requestNumber = requestNumber;
            this.tag = tag;
            this.name = name;
            this.data = data;
            this.timeout = timeout;
            this.caller = caller;
            this.token = ByteBuffer.allocate(Records.TOKEN_BYTES).putLong(clientId).putLong(calls.incrementAndGet())
                    .array();
        }

        String describe() {
            return "process " + processId + ", request " + requestNumber + " (" + operation + " \"" + tag + "\")";
        }
    }

    /**
     * Executes one validated request, waiting as long as {@code call.timeout} allows (null: as long as needed).
     * {@code call.data} is the caller's array for a put; it is copied only if the put leads. A submitted request
     * ({@code call.async} set) does not wait: where a blocking call would, it arms its wake-up and this returns null.
     */
    Outcome execute(Call call) throws InterruptedException {
        try {
            checkOpen(call, true);
            for (int inconsistent = 0, conflicts = 0; ; ) {
                checkOpen(call, false);
                call.attempt++;
                State state = null;
                if (!call.triedRemembered) {
                    call.triedRemembered = true;
                    state = rememberedState(call);
                }
                if (state == null) {
                    state = readState(call, call.readLinearizable);
                    call.readLinearizable = false;
                }
                if (state.entry != null) {
                    return fromLog(call, state);
                }
                ProcessRecord process = state.process;
                if (call.requestNumber <= process.issued) {
                    if (process.pending() && call.requestNumber == process.issued) {
                        checkSame(call, process.pendingOperation, process.pendingName);
                        if (Arrays.equals(process.pendingToken, call.token) && !call.counted) {
                            recoveredCommits.increment();
                        } else if (!call.counted) {
                            count(call, joinedPending);
                            recordLag(0);
                            call.duplicate = true;
                        }
                        count(call, null);
                        if (call.async != null) {
                            if (arm(call)) {
                                continue;
                            }
                            return null;
                        }
                        awaitOutcome(call);
                        continue;
                    }
                    if (call.requestNumber < process.oldest) {
                        recordLag(process.issued - call.requestNumber);
                        if (call.operation == Operation.PUT) {
                            count(call, duplicatesIgnored);
                            return new Outcome(null, true, true);
                        }
                        count(call, evictedRequests);
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
                    if (!state.linearizable) {
                        // The server may lag behind others: another replica of the process may be further on.
                        call.readLinearizable = true;
                        continue;
                    }
                    throw new IllegalArgumentException("requestNumber must be <= " + (process.issued + 1)
                            + " (the next request of process " + call.processId + "): " + call.requestNumber);
                }
                if (process.pending()) {
                    if (!state.linearizable) {
                        // The server may lag behind others: the pending request may be complete by now.
                        call.readLinearizable = true;
                        continue;
                    }
                    throw new IllegalStateException("process " + call.processId + " issued request "
                            + call.requestNumber + " while its request " + process.issued + " ("
                            + process.pendingOperation + " \"" + tagOf(process.pendingName) + "\") is still pending");
                }
                if (!state.tagRead) {
                    continue;
                }
                Plan plan;
                try {
                    plan = plan(call, state);
                } catch (Retry retry) {
                    forget(call);
                    checkLivelock(call, ++conflicts, "a state that changed while it was read");
                    continue;
                }
                if (state.remembered) {
                    triedUnread.increment();
                }
                Session.Result committed = session.multi(plan.txn.ops);
                if (missingTagBucket(plan.txn, call, committed)) {
                    // The first tag record of its bucket: create the bucket, and commit the same plan again.
                    try {
                        createBucket(layout.tagBucketPath(call.name), call);
                        committed = session.multi(plan.txn.ops);
                    } catch (Retry retry) {
                        checkNamespaceExists(call);
                        checkLivelock(call, ++conflicts, "a missing " + layout.tags);
                    }
                }
                if (LOG.isDebugEnabled()) {
                    LOG.debug("{}, call {}: {} operations{}, blob references {} -> {}", call.describe(),
                            HEX.formatHex(call.token), plan.txn.ops.size(), state.remembered ? " (unread)" : "",
                            plan.txn.blobDeltas, committed.code());
                }
                if (committed.ok()) {
                    call.unknownCommits = 0;
                    if (state.remembered) {
                        committedUnread.increment();
                    }
                    afterCommit(call, plan);
                    count(call, null);
                    if (plan.pending) {
                        if (call.async != null) {
                            if (arm(call)) {
                                continue;
                            }
                            return null;
                        }
                        awaitOutcome(call);
                        continue;
                    }
                    return new Outcome(plan.value == null ? null : materialize(call, plan.value), plan.stored, false);
                }
                forget(call);
                if (committed.unknown()) {
                    if (++call.unknownCommits > MAX_UNKNOWN_COMMITS) {
                        throw new IllegalStateException("ZooKeeper lost the connection on " + MAX_UNKNOWN_COMMITS
                                + " commits in a row of " + call.describe() + " (" + plan.txn.bytes
                                + " bytes); is the ensemble's jute.maxbuffer smaller than declared?");
                    }
                    waitForConnection(call);
                    continue;
                }
                onConflict(call, committed);
                checkLivelock(call, ++conflicts, committed.code().toString());
            }
        } finally {
            if (call.pin != null) {
                releasePin(call.pin);
            }
            if (call.interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Fails a request that met {@value #MAX_CONFLICTS} conflicts in a row (a defect), and from the second conflict in a
     * row on brings this client's server up to date with the leader before the next read: each conflict is another
     * request's commit, which a server lagging behind may not show yet.
     */
    private void checkLivelock(Call call, int conflicts, String last) {
        if (conflicts > MAX_CONFLICTS) {
            throw new IllegalStateException(call.describe() + " met " + MAX_CONFLICTS + " conflicts in a row (last: "
                    + last + ")");
        }
        if (conflicts >= 2) {
            Session.Result synced = session.sync(namespace);
            if (synced.unknown()) {
                waitForConnection(call);
            }
        }
    }

    private void checkOpen(Call call, boolean counting) {
        if (closed) {
            if (counting) {
                count(call, null);
            }
            throw new DataspaceClosedException(call.processId, call.requestNumber, true);
        }
        if (call.caller.closed()) {
            if (counting) {
                count(call, null);
            }
            throw new DataspaceClosedException(call.processId, call.requestNumber, false);
        }
    }

    /** Counts the request once, in its first category (null: none beyond its kind). */
    private void count(Call call, LongAdder category) {
        if (!call.counted) {
            call.counted = true;
            requests[call.operation.ordinal()].increment();
            if (category != null) {
                category.increment();
            }
        }
    }

    private void recordLag(long lag) {
        maxReplicaLag.accumulateAndGet(lag, Math::max);
    }

    private void checkSame(Call call, Operation loggedOperation, String loggedName) {
        if (loggedOperation != call.operation || !loggedName.equals(call.name)) {
            count(call, null);
            throw new ReplicaDivergenceException(call.processId, call.requestNumber, loggedOperation,
                    tagOf(loggedName), call.operation, call.tag);
        }
    }

    /** Answers the request from its log entry. */
    private Outcome fromLog(Call call, State state) {
        LogEntry entry = state.entry;
        checkSame(call, entry.operation, entry.name);
        if (Arrays.equals(entry.token, call.token)) {
            if (!call.counted) {
                recoveredCommits.increment();
            }
            count(call, null);
        } else if (!call.counted) {
            recordLag(state.process.issued - call.requestNumber);
            count(call, call.operation.isPut() ? duplicatesIgnored : servedFromLog);
            call.duplicate = true;
        }
        if (entry.cancelled) {
            throw new DataspaceCancelledException(call.processId, call.requestNumber, entry.operation, call.tag);
        }
        return new Outcome(entry.value == null ? null : materialize(call, entry.value), entry.stored, call.duplicate);
    }

    private void onConflict(Call call, Session.Result committed) {
        Code code = committed.code();
        if (code != Code.BADVERSION && code != Code.NODEEXISTS && code != Code.NONODE && code != Code.NOTEMPTY) {
            throw refused(code, "committing " + call.describe());
        }
        if (code == Code.NONODE) {
            checkNamespaceExists(call);
        }
    }

    private void checkNamespaceExists(Call call) {
        if (readOrWait(namespace, call.describe()).code() == Code.NONODE) {
            throw destroyed();
        }
    }

    private IllegalStateException destroyed() {
        return new IllegalStateException("namespace " + namespace + " no longer exists (it was destroyed)");
    }

    private void waitForConnection(Call call) {
        checkOpen(call, false);
        if (!session.awaitConnected(System.nanoTime() + connectionLossTimeout.toNanos())) {
            checkOpen(call, false);
            throw new ZooKeeperUnavailableException(connectString, connectionLossTimeout, call.describe());
        }
    }

    // ---- cancelling ----------------------------------------------------------------------------------------------

    /** The final outcome of a request a cancel found: cancelled, or what it completed with (its data read). */
    record Completed(Operation operation, byte[] data, boolean stored, boolean cancelled) {
    }

    /**
     * Cancels request {@code requestNumber} of a process if it still waits, in one transaction: the request leaves its
     * tag's queue, the process record no longer names it pending, and its read-log entry records the outcome
     * "cancelled" (with the issuing call's token and issue zxid, as a put that served it would). Every write is
     * conditional on the version read, so a put that serves the request first, or another cancel, makes the commit
     * fail and the loop read again and find the entry. A commit with an unknown outcome is settled the same way: the
     * entry is there or the request still waits. {@code caller} is the replica handle cancelling its own request, or
     * {@link Caller#NONE}.
     *
     * @return the request's logged outcome: cancelled (now or before), or what it completed with
     */
    Completed cancel(int processId, long requestNumber, Caller caller) {
        if (closed) {
            throw new DataspaceClosedException(processId, Math.max(1, requestNumber), true);
        }
        if (caller.closed()) {
            throw new DataspaceClosedException(processId, requestNumber, false);
        }
        if (requestNumber < 1) {
            throw new IllegalArgumentException("requestNumber must be >= 1: " + requestNumber);
        }
        String during = "cancelling request " + requestNumber + " of process " + processId;
        List<Op> reads = List.of(Op.getData(processPath(processId)), Op.getData(entryPath(processId, requestNumber)));
        boolean linearizable = false;
        for (int inconsistent = 0, conflicts = 0, unknownCommits = 0; ; ) {
            checkCancelOpen(processId, requestNumber, caller);
            List<OpResult> results = readAll(reads, linearizable, null, during);
            ProcessState read = processOf(results.get(0), null, during);
            ProcessRecord process = read.record;
            Stat processStat = read.stat;
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
                Call call = new Call(entry.operation, processId, requestNumber, tagOf(entry.name), entry.name, null,
                        Duration.ZERO, caller);
                return new Completed(entry.operation, entry.value == null ? null : materialize(call, entry.value),
                        entry.stored, entry.cancelled);
            }
            checkMissing(results.get(1), during);
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
            Call call = new Call(process.pendingOperation, processId, requestNumber, tagOf(process.pendingName),
                    process.pendingName, null, Duration.ZERO, caller);
            Plan plan;
            try {
                plan = planCancel(call, process, processStat);
            } catch (Retry retry) {
                checkLivelock(call, ++conflicts, "a state that changed while it was read");
                continue;
            }
            Session.Result committed = session.multi(plan.txn.ops);
            if (LOG.isDebugEnabled()) {
                LOG.debug("cancel of {}: {} operations, blob references {} -> {}", call.describe(),
                        plan.txn.ops.size(), plan.txn.blobDeltas, committed.code());
            }
            if (committed.ok()) {
                afterCommit(call, plan);
                return new Completed(call.operation, null, false, true);
            }
            if (committed.unknown()) {
                if (++unknownCommits > MAX_UNKNOWN_COMMITS) {
                    throw new IllegalStateException("ZooKeeper lost the connection on " + MAX_UNKNOWN_COMMITS
                            + " commits in a row of the cancel of " + call.describe());
                }
                waitForConnection(call);
                continue;
            }
            onConflict(call, committed);
            checkLivelock(call, ++conflicts, committed.code().toString());
        }
    }

    private void checkCancelOpen(int processId, long requestNumber, Caller caller) {
        if (closed) {
            throw new DataspaceClosedException(processId, requestNumber, true);
        }
        if (caller.closed()) {
            throw new DataspaceClosedException(processId, requestNumber, false);
        }
    }

    /**
     * Plans the cancel of the process's pending request: it leaves its tag's queue, and its outcome "cancelled" is
     * logged like any outcome (with the evictions that causes). Throws {@link Retry} if the tag record no longer
     * queues it (a put served it, or it was cancelled, since the process record was read).
     */
    private Plan planCancel(Call call, ProcessRecord process, Stat processStat) {
        List<OpResult> read = readAll(List.of(Op.getData(guardPath(call.name)), Op.getData(tagPath(call.name))),
                call, null);
        int guardVersion = guardVersion(read.get(0), call);
        if (!(read.get(1) instanceof OpResult.GetDataResult found)) {
            checkMissing(read.get(1), call);
            throw Retry.INSTANCE;
        }
        TagRecord tag = TagRecord.decode(found.getData());
        List<Waiter> left = new ArrayList<>(tag.waiters);
        if (!left.remove(new Waiter(call.processId, call.requestNumber, call.operation))) {
            throw Retry.INSTANCE;
        }
        Txn txn = new Txn(guardVersion);
        writeTag(txn, call.name, found.getStat(), new TagRecord(tag.value, left));
        LogEntry entry = LogEntry.cancelled(call.operation, call.name, process.pendingToken,
                processStat.getMzxid());
        ProcessRecord after = appendEntry(txn, call, call.processId, process, call.requestNumber, entry);
        writeProcess(txn, call.processId, processStat, new ProcessRecord(call.requestNumber, after.oldest,
                after.logBytes, null, null, null, after.blobEntries));
        return finish(txn, call, null, false, false);
    }

    // ---- reading the state ----------------------------------------------------------------------------------------

    /**
     * What one read-only multi saw — the process record, the request's log entry and perhaps the tag guard's version
     * and the tag record — or what this client remembers of them ({@code remembered}: the entry is absent then).
     */
    private record State(ProcessRecord process, Stat processStat, LogEntry entry, boolean tagRead, TagRecord tag,
            Stat tagStat, int guardVersion, boolean remembered, boolean linearizable) {
    }

    /**
     * Reads the state of a call; {@code linearizable}: as of a point after the call began, whatever other clients
     * wrote through other servers (for decisions that fail the call, which a lagging server must not cause).
     */
    private State readState(Call call, boolean linearizable) {
        boolean withTag = call.requestNumber > knownIssued.get(call.processId);
        List<Op> ops = new ArrayList<>(4);
        ops.add(Op.getData(processPath(call.processId)));
        ops.add(Op.getData(entryPath(call.processId, call.requestNumber)));
        if (withTag) {
            // The guard before the tag record: a deletion of the record after this read changes the guard's version.
            ops.add(Op.getData(guardPath(call.name)));
            ops.add(Op.getData(tagPath(call.name)));
            ops.add(Op.getData(layout.tagBucketPath(call.name))); // absent until a first record is created there
        }
        List<OpResult> results = readAll(ops, linearizable, call, null);
        ProcessState read = processOf(results.get(0), call, null);
        ProcessRecord process = read.record;
        Stat processStat = read.stat;
        knownIssued.accumulateAndGet(call.processId, process.issued, Math::max);
        remember(call.processId, process, processStat);
        LogEntry entry = null;
        if (results.get(1) instanceof OpResult.GetDataResult found) {
            entry = LogEntry.decode(found.getData());
            cacheEntry(call.processId, call.requestNumber, entry);
        } else {
            checkMissing(results.get(1), call);
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
                checkMissing(results.get(3), call);
            }
            call.tagBucketMissing = !(results.get(4) instanceof OpResult.GetDataResult);
            remember(call.name, tag, tagStat == null ? -1 : tagStat.getVersion(), guardVersion);
        }
        return new State(process, processStat, entry, withTag, tag, tagStat, guardVersion, false, linearizable);
    }

    /** The version of the call's tag guard read in a multi; a missing guard means the namespace was destroyed. */
    private int guardVersion(OpResult result, Call call) {
        if (result instanceof OpResult.GetDataResult guard) {
            return guard.getStat().getVersion();
        }
        checkMissing(result, call);
        checkNamespaceExists(call);
        throw new IllegalStateException("namespace " + namespace + " no longer holds the dataspace this client joined"
                + " (it was destroyed; the tag guard " + guardPath(call.name) + " is missing)");
    }

    // ---- what this client remembers --------------------------------------------------------------------------------

    /** A process record this client last saw or committed, and its version (−1: the process has no record yet). */
    private record KnownProcess(ProcessRecord record, int version) {
    }

    /**
     * A tag record this client last saw or committed and its version (−1: absent, record empty), and a version of its
     * guard seen no later than the record: while the guard keeps that version, the record was not deleted since, so
     * the same version means the same record (a deleted and re-created record starts at version 0 again).
     */
    private record KnownTag(TagRecord record, int version, int guardVersion) {
        /** The bytes of its inline value, which the memory's byte bound counts. */
        long bytes() {
            return record.value == null || record.value.isBlob() ? 0 : record.value.inline.length;
        }
    }

    private void remember(int processId, ProcessRecord record, Stat stat) {
        knownProcesses.set(processId, new KnownProcess(record, stat == null ? -1 : stat.getVersion()));
    }

    private void remember(String name, TagRecord record, int version, int guardVersion) {
        KnownTag known = new KnownTag(record, version, guardVersion);
        synchronized (knownTags) {
            knownTagBytes += known.bytes() - bytesOf(knownTags.put(name, known));
            Iterator<KnownTag> eldest = knownTags.values().iterator();
            while (knownTags.size() > TAG_CACHE_SIZE || knownTagBytes > TAG_CACHE_BYTES) {
                knownTagBytes -= eldest.next().bytes(); // the one just put is the last: it stays if it fits alone
                eldest.remove();
            }
        }
    }

    private static long bytesOf(KnownTag known) {
        return known == null ? 0 : known.bytes();
    }

    /** Forgets what a request's commit found out of date (or could not settle). */
    private void forget(Call call) {
        knownProcesses.set(call.processId, null);
        synchronized (knownTags) {
            knownTagBytes -= bytesOf(knownTags.remove(call.name));
        }
    }

    /**
     * The state a leading request may commit on without reading first: the process record this client last saw or
     * committed names request r − 1 complete, and the tag record's state is remembered with its guard. Every write of
     * the commit is conditional on those versions (and on the guard's), so a state that moved on makes it fail, and
     * the request reads. Null when nothing usable is remembered.
     */
    private State rememberedState(Call call) {
        KnownProcess process = knownProcesses.get(call.processId);
        if (process == null || process.record.pending() || process.record.issued != call.requestNumber - 1
                || knownIssued.get(call.processId) >= call.requestNumber) {
            return null;
        }
        KnownTag tag;
        synchronized (knownTags) {
            tag = knownTags.get(call.name);
        }
        if (tag == null) {
            return null;
        }
        return new State(process.record, versionOnly(process.version), null, true, tag.record,
                versionOnly(tag.version), tag.guardVersion, true, false);
    }

    /** A stat that carries a version only (null for −1: no node), as the plans read it from a remembered state. */
    private static Stat versionOnly(int version) {
        if (version < 0) {
            return null;
        }
        Stat stat = new Stat();
        stat.setVersion(version);
        return stat;
    }

    /**
     * Decodes a process record read in a multi: the initial record, with no stat, when the process has issued nothing.
     * Reads on behalf of {@code call} if it is not null; {@code during} names the work otherwise.
     */
    private ProcessState processOf(OpResult result, Call call, String during) {
        if (result instanceof OpResult.GetDataResult found) {
            return new ProcessState(ProcessRecord.decode(found.getData()), found.getStat());
        }
        checkMissing(result, call != null ? "reading for " + call.describe() : during);
        return new ProcessState(ProcessRecord.INITIAL, null);
    }

    private void checkMissing(OpResult result, Call call) {
        checkMissing(result, "reading " + call.describe());
    }

    private void checkMissing(OpResult result, String during) {
        int error = ((OpResult.ErrorResult) result).getErr();
        if (error != Code.NONODE.intValue()) {
            throw refused(Code.get(error), during);
        }
    }

    /** A process record and its stat (null when the process has issued nothing). */
    private record ProcessState(ProcessRecord record, Stat stat) {
    }

    /**
     * Reads a process record: {@code linearizable}, it shows every write committed before the call (by any client);
     * otherwise it may lag behind other clients' writes.
     */
    private ProcessState readProcess(int processId, boolean linearizable) {
        if (closed) {
            throw new DataspaceClosedException(processId, 1, true);
        }
        String during = "reading process " + processId;
        return processOf(readAll(List.of(Op.getData(processPath(processId))), linearizable, null, during).get(0),
                null, during);
    }

    /** Reads a node while planning: a missing node means the state moved on. */
    private Session.Result readForPlan(String path, Call call) {
        while (true) {
            Session.Result read = session.getData(path);
            if (read.ok()) {
                return read;
            }
            if (read.code() == Code.NONODE) {
                throw Retry.INSTANCE;
            }
            if (!read.unknown()) {
                throw refused(read.code(), "reading " + path + " for " + call.describe());
            }
            waitForConnection(call);
        }
    }

    /** Returns the tag a name stands for: unescaped, or looked up in the dictionary when hashed. */
    private String tagOf(String name) {
        if (!TagNames.isHashed(name)) {
            return TagNames.unescape(name);
        }
        Session.Result read = readOrWait(layout.dictionaryPath(name), "looking up a tag");
        return read.ok() ? Records.decodeTag(read.data()) : "<tag with SHA-256 " + name.substring(1) + ">";
    }

    // ---- planning a leading request -------------------------------------------------------------------------------

    /** A transaction under construction. */
    private static final class Txn {
        final List<Op> ops = new ArrayList<>();
        /** Log entries to create, added after every process record (a process's first request creates its record). */
        final List<Op> entries = new ArrayList<>();
        int bytes;
        /** Blob reference changes by SHA-256 hex. */
        final Map<String, Integer> blobDeltas = new HashMap<>();
        /** Blob keys to delete from the store once the transaction committed. */
        final List<String> orphanedBlobs = new ArrayList<>();
        /** Log entries this transaction creates: (process, request) → entry. */
        final Map<Long, LogEntry> created = new HashMap<>();
        int evictions;
        /** The version of the tag's guard the plan's state was read with. */
        final int guardVersion;
        /** Whether an operation on the tag record is conditional on its version, and whether it deletes the record. */
        boolean tagVersioned;
        boolean tagDeleted;
        /** Whether the transaction creates the tag record (in a bucket that may not exist yet). */
        boolean tagCreated;
        /** The tag record once committed (empty: absent) and its version (−1: absent); every plan decides it. */
        TagRecord tagAfter;
        int tagVersionAfter;
        /** The process records the transaction writes, once committed. */
        final Map<Integer, KnownProcess> processesAfter = new HashMap<>();

        Txn(int guardVersion) {
            if (guardVersion < 0) {
                throw new AssertionError("a transaction planned without its tag guard's version");
            }
            this.guardVersion = guardVersion;
        }

        void decideTag(TagRecord record, int version) {
            tagAfter = record;
            tagVersionAfter = version;
        }

        void add(Op op, int dataBytes) {
            ops.add(op);
            bytes += op.getPath().length() + dataBytes + OP_BYTES;
        }

        void addEntry(Op op, int dataBytes) {
            entries.add(op);
            bytes += op.getPath().length() + dataBytes + OP_BYTES;
        }

        void blob(Value value, int delta) {
            if (value != null && value.isBlob()) {
                blobDeltas.merge(value.shaHex(), delta, Integer::sum);
            }
        }
    }

    /**
     * What committing a transaction does: the request completes with {@code value} (null for puts and for try-ops
     * that found the tag absent) and {@code stored}, or it becomes pending.
     */
    private record Plan(Txn txn, Value value, boolean stored, boolean pending) {
    }

    /** Plans a request at the leading front against the state read; throws {@link Retry} if the state moved. */
    private Plan plan(Call call, State state) {
        TagRecord tag = state.tag;
        Value current = tag.value;
        switch (call.operation) {
            case PUT:
                return planPut(call, state, true);
            case PUT_IF_ABSENT:
                if (current != null) {
                    Txn txn = new Txn(state.guardVersion);
                    checkTag(txn, call.name, state.tagStat, tag);
                    complete(txn, call, state, null, false);
                    return finish(txn, call, null, false, false);
                }
                return planPut(call, state, true);
            case READ:
            case TRY_READ:
                if (current != null) {
                    Txn txn = new Txn(state.guardVersion);
                    checkTag(txn, call.name, state.tagStat, tag);
                    complete(txn, call, state, current, false);
                    txn.blob(current, 1);
                    return finish(txn, call, current, false, false);
                }
                break;
            case GET:
            case TRY_GET:
                if (current != null) {
                    Txn txn = new Txn(state.guardVersion);
                    TagRecord left = new TagRecord(null, tag.waiters);
                    writeTag(txn, call.name, state.tagStat, left);
                    complete(txn, call, state, current, false);
                    return finish(txn, call, current, false, false);
                }
                break;
            default:
                throw new AssertionError(call.operation);
        }
        Txn txn = new Txn(state.guardVersion);
        if (call.operation.isBlocking()) {
            List<Waiter> waiters = new ArrayList<>(tag.waiters);
            waiters.add(new Waiter(call.processId, call.requestNumber, call.operation));
            writeTag(txn, call.name, state.tagStat, new TagRecord(null, waiters));
            ProcessRecord process = state.process;
            ProcessRecord pending = new ProcessRecord(call.requestNumber, process.oldest, process.logBytes,
                    call.operation, call.name, call.token, process.blobEntries);
            writeProcess(txn, call.processId, state.processStat, pending);
            return finish(txn, call, null, false, true);
        }
        // A try-op on an absent tag: assert the absence in the same transaction.
        if (state.tagStat != null) {
            checkTag(txn, call.name, state.tagStat, tag);
        } else {
            txn.add(Op.create(tagPath(call.name), EMPTY, Records.OPEN_ACL, CreateMode.PERSISTENT), 0);
            txn.add(Op.delete(tagPath(call.name), 0), 0);
            txn.tagCreated = true;
            txn.decideTag(TagRecord.EMPTY, -1);
        }
        complete(txn, call, state, null, false);
        return finish(txn, call, null, false, false);
    }

    /**
     * Plans a put (or a single-assignment put of an absent tag): the tag's waiters are served in arrival order — every
     * read before the first get receives the value, the first get takes it — and the value stays unless a get took it.
     */
    private Plan planPut(Call call, State state, boolean stored) {
        if (call.owned == null) {
            call.owned = call.data.clone();
        }
        TagRecord tag = state.tag;
        List<Waiter> served = new ArrayList<>();
        boolean taken = false;
        for (Waiter waiter : tag.waiters) {
            served.add(waiter);
            if (waiter.operation() == Operation.GET) {
                taken = true;
                break;
            }
        }
        List<Waiter> left = tag.waiters.subList(served.size(), tag.waiters.size());
        List<ProcessState> waiterStates = readWaiters(call, served);
        int copies = served.size() + (taken ? 0 : 1);
        Value value = null;
        if (call.owned.length <= inlineLimit
                && (long) copies * call.owned.length + 4096L * (1 + served.size()) < transactionLimit / 2) {
            value = Value.inline(call.owned);
        }
        while (true) {
            if (value == null) {
                value = pinnedValue(call);
            }
            Txn txn = new Txn(state.guardVersion);
            writeTag(txn, call.name, state.tagStat, new TagRecord(taken ? null : value, left));
            if (!taken) {
                txn.blob(value, 1);
            }
            txn.blob(tag.value, -1);
            for (int i = 0; i < served.size(); i++) {
                Waiter waiter = served.get(i);
                ProcessState waiterState = waiterStates.get(i);
                ProcessRecord before = waiterState.record;
                LogEntry entry = new LogEntry(waiter.operation(), call.name, false, value, before.pendingToken,
                        waiterState.stat.getMzxid());
                ProcessRecord after = appendEntry(txn, call, waiter.processId(), before, waiter.requestNumber(),
                        entry);
                writeProcess(txn, waiter.processId(), waiterState.stat, new ProcessRecord(before.issued,
                        after.oldest, after.logBytes, null, null, null, after.blobEntries));
                txn.blob(value, 1);
            }
            complete(txn, call, state, null, stored);
            if (txn.bytes > transactionLimit && !value.isBlob()) {
                value = null; // too many inline copies: store the value once, as a blob
                continue;
            }
            return finish(txn, call, null, stored, false);
        }
    }

    /** Reads the records of the waiters a put serves; each must show its request pending. */
    private List<ProcessState> readWaiters(Call call, List<Waiter> served) {
        List<ProcessState> states = new ArrayList<>(served.size());
        if (served.isEmpty()) {
            return states;
        }
        List<Op> ops = new ArrayList<>(served.size());
        for (Waiter waiter : served) {
            ops.add(Op.getData(processPath(waiter.processId())));
        }
        List<OpResult> results = readAll(ops, call, null);
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

    /** Logs the issuing process's own outcome and advances its high-water mark. */
    private void complete(Txn txn, Call call, State state, Value value, boolean stored) {
        LogEntry entry = new LogEntry(call.operation, call.name, stored, value, call.token, 0);
        ProcessRecord after = appendEntry(txn, call, call.processId, state.process, call.requestNumber, entry);
        writeProcess(txn, call.processId, state.processStat, new ProcessRecord(call.requestNumber, after.oldest,
                after.logBytes, null, null, null, after.blobEntries));
    }

    /**
     * Adds a log entry for {@code requestNumber} and the evictions it causes: the oldest entry when the log is full,
     * then the oldest ones while the byte budget is exceeded (never the newest), and, when the entry holds a blob,
     * the oldest ones while more than {@value #MAX_BLOB_ENTRIES} entries hold blobs. Returns the record's new log
     * window; the caller sets the rest.
     */
    private ProcessRecord appendEntry(Txn txn, Call call, int processId, ProcessRecord record, long requestNumber,
            LogEntry entry) {
        long oldest = record.oldest;
        long bytes = record.logBytes;
        List<Long> blobEntries = new ArrayList<>(record.blobEntries.length + 1);
        for (long blobEntry : record.blobEntries) {
            blobEntries.add(blobEntry);
        }
        long size = requestNumber - oldest;
        if (size >= options.readLogCapacity()) {
            bytes -= evict(txn, call, processId, oldest, blobEntries);
            oldest++;
            size--;
        }
        txn.addEntry(Op.create(entryPath(processId, requestNumber), entry.encode(), Records.OPEN_ACL,
                CreateMode.PERSISTENT), entry.estimatedBytes());
        txn.created.put(entryKey(processId, requestNumber), entry);
        size++;
        long budget = options.readLogBudgetBytes().orElse(-1);
        if (budget >= 0) {
            bytes += entry.dataBytes(); // tracked for the budget only: eviction reads no sizes without one
        }
        if (entry.value != null && entry.value.isBlob()) {
            blobEntries.add(requestNumber);
        }
        while ((budget >= 0 && bytes > budget || blobEntries.size() > MAX_BLOB_ENTRIES) && size > 1) {
            bytes -= evict(txn, call, processId, oldest, blobEntries);
            oldest++;
            size--;
        }
        long[] blobs = new long[blobEntries.size()];
        for (int i = 0; i < blobs.length; i++) {
            blobs[i] = blobEntries.get(i);
        }
        return new ProcessRecord(record.issued, oldest, bytes, record.pendingOperation, record.pendingName,
                record.pendingToken, blobs);
    }

    /** Deletes one log entry and drops its blob reference; returns its data bytes when a budget counts them. */
    private long evict(Txn txn, Call call, int processId, long requestNumber, List<Long> blobEntries) {
        txn.add(Op.delete(entryPath(processId, requestNumber), -1), 0);
        txn.evictions++;
        boolean blob = blobEntries.remove(Long.valueOf(requestNumber));
        boolean budget = options.readLogBudgetBytes().isPresent();
        if (!blob && !budget) {
            return 0; // nothing to learn from the entry: read nothing
        }
        EntryMeta meta = entryMeta(call, processId, requestNumber);
        txn.blob(meta.value, -1);
        return budget ? meta.bytes : 0;
    }

    private void writeProcess(Txn txn, int processId, Stat stat, ProcessRecord record) {
        byte[] data = record.encode();
        if (stat == null) {
            txn.add(Op.create(processPath(processId), data, Records.OPEN_ACL, CreateMode.PERSISTENT), data.length);
            txn.processesAfter.put(processId, new KnownProcess(record, 0));
        } else {
            txn.add(Op.setData(processPath(processId), data, stat.getVersion()), data.length);
            txn.processesAfter.put(processId, new KnownProcess(record, stat.getVersion() + 1));
        }
    }

    /**
     * Writes a tag record at the version read: creates it (no guard needed: a create fails on any record there),
     * sets it, or deletes it when it holds nothing. {@link #finish} adds the guard of a set or delete.
     */
    private void writeTag(Txn txn, String name, Stat stat, TagRecord record) {
        if (record.isEmpty()) {
            if (stat != null) {
                txn.add(Op.delete(tagPath(name), stat.getVersion()), 0);
                txn.tagVersioned = true;
                txn.tagDeleted = true;
            }
            txn.decideTag(TagRecord.EMPTY, -1);
            return;
        }
        byte[] data = record.encode();
        if (stat == null) {
            txn.add(Op.create(tagPath(name), data, Records.OPEN_ACL, CreateMode.PERSISTENT), data.length);
            txn.tagCreated = true;
            txn.decideTag(record, 0);
        } else {
            txn.add(Op.setData(tagPath(name), data, stat.getVersion()), data.length);
            txn.tagVersioned = true;
            txn.decideTag(record, stat.getVersion() + 1);
        }
    }

    /** Asserts that the tag record is still the one read (its version, and its guard's in {@link #finish}). */
    private void checkTag(Txn txn, String name, Stat stat, TagRecord record) {
        txn.add(Op.check(tagPath(name), stat.getVersion()), 0);
        txn.tagVersioned = true;
        txn.decideTag(record, stat.getVersion());
    }

    /**
     * Completes a transaction: the blob reference counts it changes (a count reaching zero deletes its reference node,
     * unless a writer pins it, and the blob with it after the commit), the put's pin, and the dictionary entry of a
     * hashed tag name.
     */
    private Plan finish(Txn txn, Call call, Value value, boolean stored, boolean pending) {
        if (txn.tagVersioned) {
            // A version of a tag record proves it unchanged only while the record was not deleted and created again
            // (versions restart at 0): the guard's version, read no later than the record, proves that. Whoever
            // deletes a tag record moves its guard's version.
            String guard = guardPath(call.name);
            if (txn.tagDeleted) {
                txn.add(Op.setData(guard, EMPTY, txn.guardVersion), 0);
            } else {
                txn.add(Op.check(guard, txn.guardVersion), 0);
            }
        } else {
            // No version to check, but the guard's name carries the namespace id: a transaction planned for a
            // namespace destroyed and created again since (by others) fails instead of applying to the new one.
            txn.add(Op.check(guardPath(call.name), -1), 0);
        }
        List<String> changed = new ArrayList<>();
        for (Map.Entry<String, Integer> delta : txn.blobDeltas.entrySet()) {
            if (delta.getValue() != 0) {
                changed.add(delta.getKey());
            }
        }
        for (String shaHex : changed) {
            Session.Result reference = readForPlan(layout.referencePath(shaHex), call);
            long count = Records.decodeCount(reference.data()) + txn.blobDeltas.get(shaHex);
            if (count < 0) {
                // Planning reads are not one snapshot: the count was read after a commit that the records read
                // earlier do not show yet. The commit would fail on their versions; read again.
                throw Retry.INSTANCE;
            }
            Stat stat = reference.stat();
            if (count == 0 && stat.getNumChildren() == 0) {
                txn.add(Op.delete(layout.referencePath(shaHex), stat.getVersion()), 0);
                txn.orphanedBlobs.add(blobKey(shaHex, stat.getCzxid()));
            } else {
                txn.add(Op.setData(layout.referencePath(shaHex), Records.encodeCount(count), stat.getVersion()), 8);
            }
        }
        if (call.pin != null && txn.blobDeltas.containsKey(call.pin.shaHex)) {
            txn.add(Op.delete(call.pin.path, -1), 0);
        }
        if (txn.tagCreated && call.tagBucketMissing) {
            createBucket(layout.tagBucketPath(call.name), call);
            call.tagBucketMissing = false;
        }
        while (TagNames.isHashed(call.name) && !knownDictionary.contains(call.name)) {
            Session.Result created = session.create(layout.dictionaryPath(call.name), Records.encodeTag(call.tag),
                    CreateMode.PERSISTENT);
            if (created.ok() || created.code() == Code.NODEEXISTS) {
                knownDictionary.add(call.name);
            } else if (created.code() == Code.NONODE) {
                createBucket(layout.dictionaryBucketPath(call.name), call);
            } else {
                if (created.unknown()) {
                    waitForConnection(call);
                }
                throw Retry.INSTANCE;
            }
        }
        txn.ops.addAll(txn.entries);
        txn.entries.clear();
        if (txn.bytes > transactionLimit) {
            throw new IllegalStateException("the transaction of " + call.describe() + " needs " + txn.bytes
                    + " bytes, more than jute.maxbuffer allows (" + transactionLimit + " after ZooKeeper's headers)");
        }
        return new Plan(txn, value, stored, pending);
    }

    private void afterCommit(Call call, Plan plan) {
        Txn txn = plan.txn;
        evictions.add(txn.evictions);
        for (Map.Entry<Integer, KnownProcess> written : txn.processesAfter.entrySet()) {
            knownProcesses.set(written.getKey(), written.getValue());
        }
        remember(call.name, txn.tagAfter, txn.tagVersionAfter,
                txn.tagDeleted ? txn.guardVersion + 1 : txn.guardVersion);
        for (Map.Entry<Long, LogEntry> created : txn.created.entrySet()) {
            synchronized (entryCache) {
                entryCache.put(created.getKey(), new EntryMeta(created.getValue().dataBytes(),
                        created.getValue().value));
            }
        }
        knownIssued.accumulateAndGet(call.processId, call.requestNumber, Math::max);
        if (call.pin != null && txn.blobDeltas.containsKey(call.pin.shaHex)) {
            call.pin = null; // the transaction took it
        }
        for (String key : txn.orphanedBlobs) {
            deleteBlob(key);
        }
    }

    // ---- the read-log entry cache ---------------------------------------------------------------------------------

    /** What eviction needs of a log entry: its data bytes and its value (for blob references). */
    private record EntryMeta(long bytes, Value value) {
    }

    private static long entryKey(int processId, long requestNumber) {
        return ((long) processId << 40) ^ requestNumber;
    }

    private void cacheEntry(int processId, long requestNumber, LogEntry entry) {
        synchronized (entryCache) {
            entryCache.put(entryKey(processId, requestNumber), new EntryMeta(entry.dataBytes(), entry.value));
        }
    }

    private EntryMeta entryMeta(Call call, int processId, long requestNumber) {
        synchronized (entryCache) {
            EntryMeta meta = entryCache.get(entryKey(processId, requestNumber));
            if (meta != null) {
                return meta;
            }
        }
        LogEntry entry = LogEntry.decode(readForPlan(entryPath(processId, requestNumber), call).data());
        cacheEntry(processId, requestNumber, entry);
        return new EntryMeta(entry.dataBytes(), entry.value);
    }

    // ---- waiting --------------------------------------------------------------------------------------------------

    /**
     * Waits until the pending request's log entry may exist: a watch on the entry's path fires when a put creates it.
     * Returns to let the loop read again; throws when the timeout elapses, the caller is interrupted or closed.
     */
    private void awaitOutcome(Call call) throws InterruptedException {
        checkOpen(call, false);
        if (!call.waitStarted) {
            call.waitStarted = true;
            call.waitDeadline = call.timeout == null ? 0 : System.nanoTime() + call.timeout.toNanos();
        }
        if (call.timeout != null && call.waitDeadline - System.nanoTime() <= 0) {
            throw timedOut(call);
        }
        if (call.interrupted || Thread.interrupted()) {
            call.interrupted = false;
            throw new InterruptedException();
        }
        String path = entryPath(call.processId, call.requestNumber);
        Waker self = new ThreadWaker(Thread.currentThread());
        register(path, self);
        try {
            Session.Result watched = session.existsWatched(path);
            if (watched.ok()) {
                return;
            }
            if (watched.unknown()) {
                checkOpen(call, false);
                long deadline = System.nanoTime() + connectionLossTimeout.toNanos();
                boolean bounded = call.timeout != null && call.waitDeadline - deadline < 0;
                if (!session.awaitConnected(bounded ? call.waitDeadline : deadline)) {
                    checkOpen(call, false);
                    if (bounded) {
                        throw timedOut(call);
                    }
                    throw new ZooKeeperUnavailableException(connectString, connectionLossTimeout, call.describe());
                }
                return;
            }
            if (watched.code() != Code.NONODE) {
                throw refused(watched.code(), "waiting for " + call.describe());
            }
            checkOpen(call, false);
            if (call.timeout == null) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, call.waitDeadline - System.nanoTime());
            }
            if (Thread.interrupted()) {
                call.interrupted = true;
            }
        } finally {
            deregister(path, self);
        }
    }

    private static DataspaceTimeoutException timedOut(Call call) {
        return new DataspaceTimeoutException(call.processId, call.requestNumber, call.operation, call.tag,
                call.timeout);
    }

    private void onNodeEvent(WatchedEvent event) {
        String path = event.getPath();
        Set<Waker> wakers = path == null ? null : waiting.get(path);
        if (wakers != null) {
            wakers.forEach(Waker::wake);
        }
    }

    /** Wakes every waiting caller: the connection changed or the dataspace closed, so they read again. */
    private void wakeAll() {
        for (Set<Waker> wakers : waiting.values()) {
            wakers.forEach(Waker::wake);
        }
    }

    private void register(String path, Waker waker) {
        waiting.computeIfAbsent(path, p -> ConcurrentHashMap.newKeySet()).add(waker);
    }

    private void deregister(String path, Waker waker) {
        waiting.computeIfPresent(path, (p, wakers) -> {
            wakers.remove(waker);
            return wakers.isEmpty() ? null : wakers;
        });
    }

    /** What a watch event on a read-log entry's path, or a change of the connection, wakes. */
    private interface Waker {
        /** Called on ZooKeeper's event thread (or the closing thread): must not block. */
        void wake();
    }

    /** A caller's thread parked in {@link #awaitOutcome}. */
    private record ThreadWaker(Thread thread) implements Waker {
        @Override
        public void wake() {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Arms the wake-up of a submitted request that must wait: registers it for its entry's path, then sets an
     * {@code exists} watch there (so a creation after the registration cannot be missed). Returns true if the entry
     * exists already, or the connection was lost and is back, so that the caller reads again; false once armed: a
     * watch event or a change of the connection will schedule the next {@link AsyncWait#drain()}.
     */
    private boolean arm(Call call) {
        AsyncWait wait = call.async;
        checkOpen(call, false);
        if (!wait.armed) {
            wait.armed = true;
            register(wait.path, wait);
            asyncWaits.add(wait);
            // Closing sets its flag, then fails the registered requests: one of the two sees the other.
            checkOpen(call, false);
            if (wait.reply.isDone()) {
                wait.forget(); // completed meanwhile (the caller cancelled the future): nothing to arm
                return false;
            }
        }
        Session.Result watched = session.existsWatched(wait.path);
        if (watched.ok()) {
            return true;
        }
        if (watched.unknown()) {
            waitForConnection(call);
            return true;
        }
        if (watched.code() != Code.NONODE) {
            throw refused(watched.code(), "waiting for " + call.describe());
        }
        return false;
    }

    /**
     * A submitted request: its future, and the polls that run its request loop — first on the submitting thread, then,
     * while it waits, one on the executor per wake-up (several wake-ups that come during one poll make one more
     * poll). No thread is held between polls; polls of one request never overlap.
     */
    private final class AsyncWait implements Waker {
        final Request request;
        final Call call;
        final String path;
        final CompletableFuture<Reply> reply = new CompletableFuture<>();
        /** Wake-ups not yet served by a poll; a poll is running or scheduled while it is above zero. */
        private final AtomicInteger wakeups = new AtomicInteger();
        /** Whether the request registered for its entry's path; written by polls only. */
        boolean armed;

        AsyncWait(Request request, Call call) {
            this.request = request;
            this.call = call;
            this.path = entryPath(call.processId, call.requestNumber);
            call.async = this;
            // However the future completes (served, failed, or cancelled by the caller), the dataspace forgets it.
            reply.whenComplete((done, failure) -> forget());
        }

        /**
         * Runs the first poll on the submitting thread: caller mistakes are thrown, as {@code handle} throws them;
         * every other failure completes the future.
         */
        void start() {
            wakeups.set(1);
            try {
                poll();
            } catch (IllegalArgumentException | IllegalStateException | NullPointerException mistake) {
                // Thrown before the request could wait: nothing armed it, so nothing can wake it.
                forget();
                throw mistake;
            } catch (RuntimeException | Error failure) {
                reply.completeExceptionally(failure);
            }
            if (wakeups.addAndGet(-1) != 0) {
                schedule();
            }
        }

        @Override
        public void wake() {
            if (wakeups.getAndIncrement() == 0) {
                schedule();
            }
        }

        private void schedule() {
            try {
                executor.execute(this::drain);
            } catch (RejectedExecutionException rejected) {
                reply.completeExceptionally(rejected);
            }
        }

        /** Polls once, then again while wake-ups came meanwhile. Runs on the executor. */
        void drain() {
            int missed = wakeups.get();
            do {
                try {
                    poll();
                } catch (RuntimeException | Error failure) {
                    reply.completeExceptionally(failure);
                }
                missed = wakeups.addAndGet(-missed);
            } while (missed != 0);
        }

        /** Runs the request loop once, unless the future is complete: it completes it, or arms the next wake-up. */
        private void poll() {
            if (reply.isDone()) {
                return;
            }
            Outcome outcome;
            try {
                outcome = execute(call);
            } catch (InterruptedException ex) {
                throw new AssertionError("a submitted request never waits on its thread", ex);
            }
            if (outcome != null) {
                reply.complete(reply(request, outcome));
            }
        }

        /** Fails the future (the dataspace closed). */
        void fail(RuntimeException failure) {
            reply.completeExceptionally(failure);
        }

        /** Deregisters the request; harmless if it never registered. */
        void forget() {
            deregister(path, this);
            asyncWaits.remove(this);
        }
    }

    // ---- blobs ----------------------------------------------------------------------------------------------------

    /**
     * A blob a put has stored and pins with an ephemeral child of its reference node until its commit; {@code attempt}
     * is the turn of the request loop that last took or checked the pin.
     */
    private record Pin(String shaHex, byte[] sha256, long incarnation, String path, int length, int attempt) {
        Pin checkedIn(int turn) {
            return new Pin(shaHex, sha256, incarnation, path, length, turn);
        }
    }

    /**
     * Returns the put's value as a pinned blob, storing it first: the reference node (created with count 0 if absent)
     * gets an ephemeral child named after the call's token, so that no one deletes the blob while the put is in
     * flight; the incarnation — the reference node's creation zxid — is read after pinning, so it is the one the pin
     * protects.
     */
    private Value pinnedValue(Call call) {
        if (call.pin != null && call.pin.attempt != call.attempt) {
            call.pin = checkPin(call, call.pin);
        }
        if (call.pin == null) {
            byte[] sha = TagNames.sha256().digest(call.owned);
            String shaHex = HEX.formatHex(sha);
            String reference = layout.referencePath(shaHex);
            String pinPath = reference + "/" + HEX.formatHex(call.token);
            while (true) {
                Session.Result created = session.create(reference, Records.encodeCount(0), CreateMode.PERSISTENT);
                if (created.code() == Code.NONODE) {
                    createBucket(layout.referenceBucketPath(shaHex), call);
                    continue;
                }
                if (!created.ok() && created.code() != Code.NODEEXISTS) {
                    expectUnknown(created, call);
                    continue;
                }
                Session.Result pinned = session.create(pinPath, EMPTY, CreateMode.EPHEMERAL);
                if (pinned.code() == Code.NONODE) {
                    continue; // the reference was collected meanwhile
                }
                if (!pinned.ok() && pinned.code() != Code.NODEEXISTS) {
                    expectUnknown(pinned, call);
                    continue;
                }
                Session.Result read = session.getData(reference);
                if (!read.ok()) {
                    if (read.code() != Code.NONODE) {
                        expectUnknown(read, call);
                    }
                    continue;
                }
                call.pin = new Pin(shaHex, sha, read.stat().getCzxid(), pinPath, call.owned.length, call.attempt);
                break;
            }
            String key = blobKey(shaHex, call.pin.incarnation);
            try {
                blobStore.write(key, call.owned);
            } catch (IOException | RuntimeException ex) {
                checkOpen(call, false);
                throw new BlobStoreException(key, "storing a value of " + call.owned.length + " bytes for "
                        + call.describe() + " failed", ex);
            }
        }
        return Value.blob(call.pin.sha256, call.pin.incarnation, call.pin.length);
    }

    /**
     * Checks, in a later turn of the request loop, that a put's pin still holds its blob: the pin's session may have
     * expired meanwhile (the ensemble deleted the pin with it), and then any client collecting garbage may have deleted
     * the unreferenced blob and its reference node. Returns the pin, taken again if only the pin went (its blob is
     * there: a blob is deleted only after its reference node, which is still the same incarnation); or null when the
     * reference node went too, after deleting the blob this put may have stored after the collection — the put then
     * pins and stores its value anew, under the new incarnation. The commit deletes the pin, so a pin that vanishes
     * after this check makes the commit fail and the next turn check again.
     */
    private Pin checkPin(Call call, Pin pin) {
        String reference = layout.referencePath(pin.shaHex);
        while (true) {
            // Linearizable: a server lagging behind must not make a live reference look deleted.
            List<OpResult> read = readAll(List.of(Op.getData(reference), Op.getData(pin.path)), true, call, null);
            if (!(read.get(0) instanceof OpResult.GetDataResult found)
                    || found.getStat().getCzxid() != pin.incarnation) {
                deleteBlob(blobKey(pin.shaHex, pin.incarnation));
                return null;
            }
            if (read.get(1) instanceof OpResult.GetDataResult) {
                return pin.checkedIn(call.attempt);
            }
            Session.Result pinned = session.create(pin.path, EMPTY, CreateMode.EPHEMERAL);
            if (pinned.ok() || pinned.code() == Code.NODEEXISTS) {
                return pin.checkedIn(call.attempt);
            }
            if (pinned.code() != Code.NONODE) {
                expectUnknown(pinned, call); // NONODE: the reference went meanwhile; read again
            }
        }
    }

    private void expectUnknown(Session.Result result, Call call) {
        if (!result.unknown()) {
            throw refused(result.code(), "storing a blob for " + call.describe());
        }
        waitForConnection(call);
    }

    /** Drops a pin the put no longer needs, and the blob if nothing else refers to it. */
    private void releasePin(Pin pin) {
        if (closed) {
            return; // the session's end removes the pin; the next connect collects the blob
        }
        try {
            session.delete(pin.path, -1);
            Session.Result reference = session.getData(layout.referencePath(pin.shaHex));
            if (reference.ok() && Records.decodeCount(reference.data()) == 0
                    && reference.stat().getNumChildren() == 0
                    && session.delete(layout.referencePath(pin.shaHex), reference.stat().getVersion()).ok()) {
                deleteBlob(blobKey(pin.shaHex, reference.stat().getCzxid()));
            }
        } catch (RuntimeException ex) {
            LOG.warn("could not release the pin {}; the next garbage collection removes it", pin.path, ex);
        }
    }

    private void deleteBlob(String key) {
        try {
            blobStore.delete(key);
        } catch (IOException | RuntimeException ex) {
            LOG.warn("could not delete blob {} from {}; the next garbage collection removes it", key, blobStore, ex);
        }
    }

    /** Returns a value's bytes: inline, or read from the blob store and verified. */
    private byte[] materialize(Call call, Value value) {
        if (!value.isBlob()) {
            return value.inline.clone(); // the record may be remembered: the caller gets its own copy
        }
        String key = blobKey(value.shaHex(), value.incarnation);
        Optional<byte[]> read;
        try {
            read = blobStore.read(key);
        } catch (IOException | RuntimeException ex) {
            checkOpen(call, false);
            throw new BlobStoreException(key, "reading a value of " + value.length + " bytes failed", ex);
        }
        byte[] data = read.orElseThrow(() -> new BlobStoreException(key, "a value of " + value.length
                + " bytes is missing from " + blobStore, null));
        if (data.length != value.length || !MessageDigest.isEqual(TagNames.sha256().digest(data), value.sha256)) {
            throw new BlobStoreException(key, "a value read from " + blobStore + " fails verification: "
                    + data.length + " bytes, expected " + value.length + " with SHA-256 " + value.shaHex(), null);
        }
        return data;
    }

    @Override
    public int collectGarbage() {
        if (closed) {
            throw new DataspaceClosedException(0, 1, true);
        }
        String during = "collecting garbage in " + namespace;
        int removed = new GarbageCollector(session, layout, listing, blobStore, blobsInZooKeeper, blobPrefix,
                ops -> readAll(ops, true, null, during), this::deleteBlob).collect();
        if (removed > 0) {
            LOG.info("removed {} orphaned blobs from namespace {}", removed, namespace);
        }
        return removed;
    }

    // ---- destroying -----------------------------------------------------------------------------------------------

    @Override
    public void destroy() {
        if (closed) {
            throw new DataspaceClosedException(0, 1, true);
        }
        String during = "destroying namespace " + namespace;
        Destroyer destroyer = destroyer();
        Session.Result root = readOrWait(namespace, during);
        if (root.ok()) {
            Header header = Header.decodeOrNull(root.data(), namespace);
            if (header != null) {
                destroyer.markDestroying(header);
                destroyer.deleteTree(header);
            }
        }
        destroyer.deleteParents();
        close();
    }

    /**
     * Destroys a namespace with a session of its own, knowing none of its settings: see
     * {@link ZooKeeperDataspace.Builder#destroy()}.
     */
    static boolean destroy(ZooKeeperDataspace.Builder builder) {
        String connectString = ConnectStrings.check(builder.connectString);
        String namespace = ZooKeeperDataspace.Builder.checkPath("namespace", "/volpex/job-42", builder.namespace);
        Duration timeout = builder.connectionLossTimeout;
        String during = "destroying namespace " + namespace;
        try (Session session = new Session(connectString, (int) builder.sessionTimeout.toMillis(),
                clientConfig(builder), event -> { }, () -> { })) {
            Listing.ConnectionWait connection = what -> {
                if (!session.awaitConnected(System.nanoTime() + timeout.toNanos())) {
                    throw new ZooKeeperUnavailableException(connectString, timeout, what);
                }
            };
            connection.await(during);
            Layout layout = new Layout(namespace);
            Listing listing = new Listing(session, session.maxAnswerBytes(), connection);
            Session.Result root = new Destroyer(session, layout, listing, connection, null).read(namespace, during);
            boolean destroyed = false;
            if (root.ok()) {
                if (!Header.isHeader(root.data())) {
                    throw new IllegalStateException("namespace " + namespace + " exists and is not a Volpex dataspace ("
                            + root.stat().getNumChildren() + " children, " + root.data().length + " bytes of data)");
                }
                Header header;
                try {
                    header = Header.decodeOrNull(root.data(), namespace);
                } catch (NamespaceFormatException otherFormat) {
                    header = null;
                }
                if (header == null) {
                    new Destroyer(session, layout, listing, connection, null).eraseOtherFormat();
                } else {
                    if (!header.blobsInZooKeeper() && builder.blobStore == null) {
                        throw new IllegalStateException("namespace " + namespace + " keeps its large values in an "
                                + "external blob store: give it to the builder (blobStore) to destroy the namespace");
                    }
                    Destroyer destroyer = new Destroyer(session, layout, listing, connection,
                            header.blobsInZooKeeper() ? null : builder.blobStore);
                    destroyer.markDestroying(header);
                    destroyer.deleteTree(header);
                }
                destroyed = true;
            }
            new Destroyer(session, layout, listing, connection, null).deleteParents();
            return destroyed;
        }
    }

    /** Deletes the namespace's blobs, znodes and emptied parents ({@link Destroyer}). */
    private Destroyer destroyer() {
        return new Destroyer(session, layout, listing, this::waitForConnection, blobsInZooKeeper ? null : blobStore);
    }

    // ---- for tests of the protocol ----------------------------------------------------------------------------------

    Session session() {
        return session;
    }

    long recoveredCommits() {
        return recoveredCommits.sum();
    }

    /** Bytes of inline values the remembered tag records hold (for tests of the bound). */
    long rememberedTagBytes() {
        synchronized (knownTags) {
            return knownTagBytes;
        }
    }

    /** Commits sent on a remembered state, without reading first (for tests of the protocol). */
    long triedUnread() {
        return triedUnread.sum();
    }

    /** Commits on a remembered state that applied, their reply received (for tests of the protocol). */
    long committedUnread() {
        return committedUnread.sum();
    }

    /**
     * Returns the zxid at which a request was first issued — the global serial order of the dataspace — or empty if
     * the request was not issued or its log entry was evicted.
     */
    OptionalLong issueZxid(int processId, long requestNumber) {
        ProcessState process = readProcess(processId, false);
        if (process.record.pending() && process.record.issued == requestNumber) {
            return OptionalLong.of(process.stat.getMzxid());
        }
        Session.Result entry = readOrWait(entryPath(processId, requestNumber), "reading an entry");
        if (!entry.ok()) {
            return OptionalLong.empty();
        }
        long issued = LogEntry.decode(entry.data()).issueZxid;
        return OptionalLong.of(issued != 0 ? issued : entry.stat().getCzxid());
    }

    /**
     * Returns the zxid at which a request was cancelled — its place in the global serial order — or empty if it was
     * not cancelled (or its log entry was evicted).
     */
    OptionalLong cancelZxid(int processId, long requestNumber) {
        Session.Result entry = readOrWait(entryPath(processId, requestNumber), "reading an entry");
        return entry.ok() && LogEntry.decode(entry.data()).cancelled ? OptionalLong.of(entry.stat().getCzxid())
                : OptionalLong.empty();
    }

    @Override
    public String toString() {
        return "ZooKeeperDataspace[" + connectString + namespace + ", " + processCount + " processes"
                + (closed ? ", closed]" : "]");
    }
}
