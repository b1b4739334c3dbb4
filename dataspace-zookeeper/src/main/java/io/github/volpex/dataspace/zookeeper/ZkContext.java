package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.DataspaceClosedException;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.zookeeper.Records.LogEntry;
import io.github.volpex.dataspace.zookeeper.Records.ProcessRecord;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ZKConfig;

/**
 * What the parts of a {@link ZkDataspace} share: its session, settings and layout, whether it is closed, and the
 * ZooKeeper calls they all make — reading in one multi while waiting out connection loss, reading a process record,
 * creating a bucket, turning a refusal into an exception. Immutable but for the closed flag; thread-safe.
 */
final class ZkContext {

    private static final byte[] EMPTY = new byte[0];

    final int processCount;
    final DataspaceOptions options;
    final String connectString;
    final String namespace;
    final Layout layout;
    final Session session;
    /** Lists a znode's children, failing typed when one answer cannot hold them. */
    final Listing listing;
    final boolean blobsInZooKeeper;
    final BlobStore blobStore;
    final int inlineLimit;
    final int transactionLimit;
    final Duration connectionLossTimeout;
    final Executor executor;
    private final long clientId;
    private final AtomicLong calls = new AtomicLong();
    private volatile boolean closed;

    /**
     * Opens the session ({@code nodeEvents} receives every watch event, {@code stateChanges} runs after every change of
     * the connection) with the builder's settings; the builder's arguments are checked already.
     */
    ZkContext(ZooKeeperDataspace.Builder builder, String namespace, long clientId, Consumer<WatchedEvent> nodeEvents,
            Runnable stateChanges) {
        this.processCount = builder.processCount;
        this.options = builder.options;
        this.connectString = builder.connectString;
        this.namespace = namespace;
        this.layout = new Layout(namespace);
        this.inlineLimit = builder.inlineLimitBytes;
        this.transactionLimit = TransactionBudget.limit(builder.juteMaxBuffer);
        this.connectionLossTimeout = builder.connectionLossTimeout;
        this.clientId = clientId;
        this.executor = builder.executor;
        this.session = new Session(builder.connectString, (int) builder.sessionTimeout.toMillis(),
                clientConfig(builder), nodeEvents, stateChanges);
        this.listing = new Listing(session, session.maxAnswerBytes(), this::waitForConnection);
        this.blobsInZooKeeper = builder.blobStore == null;
        this.blobStore = blobsInZooKeeper
                ? new ZooKeeperBlobStore(session, layout.store, connectionLossTimeout.toNanos())
                : builder.blobStore;
    }

    /** The client configuration of a builder, its {@code jute.maxbuffer} set to the builder's unless given. */
    static ZKClientConfig clientConfig(ZooKeeperDataspace.Builder builder) {
        ZKClientConfig clientConfig = builder.clientConfig != null ? builder.clientConfig : new ZKClientConfig();
        if (clientConfig.getProperty(ZKConfig.JUTE_MAXBUFFER) == null) {
            clientConfig.setProperty(ZKConfig.JUTE_MAXBUFFER, Integer.toString(builder.juteMaxBuffer));
        }
        return clientConfig;
    }

    boolean closed() {
        return closed;
    }

    /** Marks the dataspace closed; returns whether it was open. */
    boolean markClosed() {
        boolean wasOpen = !closed;
        closed = true;
        return wasOpen;
    }

    /** A new call token: this client's id and the number of its call, so that no two calls anywhere share one. */
    byte[] newToken() {
        return ByteBuffer.allocate(Records.TOKEN_BYTES).putLong(clientId).putLong(calls.incrementAndGet()).array();
    }

    // ---- reading ----------------------------------------------------------------------------------------------------

    /**
     * Runs a read-only multi, waiting for the connection as long as the connection-loss timeout allows, and returns
     * its results (a missing node is an error result in its place); when {@code linearizable}, its reads see every
     * write committed before the call, by any client through any server ({@link Session#linearizableRead}). Waits on
     * behalf of {@code call} if it is not null; {@code during} names the work otherwise.
     */
    List<OpResult> readAll(List<Op> ops, boolean linearizable, Call call, String during) {
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
    Session.Result readOrWait(String path, String during) {
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

    /** Reads a node while planning: a missing node means the state moved on ({@link Retry}). */
    Session.Result readForPlan(String path, Call call) {
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

    /**
     * Decodes a process record read in a multi: the initial record, with no stat, when the process has issued nothing.
     * Reads on behalf of {@code call} if it is not null; {@code during} names the work otherwise.
     */
    ProcessState processOf(OpResult result, Call call, String during) {
        if (result instanceof OpResult.GetDataResult found) {
            return new ProcessState(ProcessRecord.decode(found.getData()), found.getStat());
        }
        checkMissing(result, call != null ? "reading for " + call.describe() : during);
        return new ProcessState(ProcessRecord.INITIAL, null);
    }

    /**
     * Reads a process record: {@code linearizable}, it shows every write committed before the call (by any client);
     * otherwise it may lag behind other clients' writes.
     */
    ProcessState readProcess(int processId, boolean linearizable) {
        if (closed) {
            throw new DataspaceClosedException(processId, 1, true);
        }
        String during = "reading process " + processId;
        return processOf(readAll(List.of(Op.getData(layout.processPath(processId))), linearizable, null, during)
                .get(0), null, during);
    }

    /** Returns the tag a name stands for: unescaped, or looked up in the dictionary when hashed. */
    String tagOf(String name) {
        if (!TagNames.isHashed(name)) {
            return TagNames.unescape(name);
        }
        Session.Result read = readOrWait(layout.dictionaryPath(name), "looking up a tag");
        return read.ok() ? Records.decodeTag(read.data()) : "<tag with SHA-256 " + name.substring(1) + ">";
    }

    void checkMissing(OpResult result, Call call) {
        checkMissing(result, "reading " + call.describe());
    }

    /** Accepts an error result of a read-only multi that says the node is missing; any other error is refused. */
    void checkMissing(OpResult result, String during) {
        int error = ((OpResult.ErrorResult) result).getErr();
        if (error != Code.NONODE.intValue()) {
            throw refused(Code.get(error), during);
        }
    }

    void checkNamespaceExists(Call call) {
        if (readOrWait(namespace, call.describe()).code() == Code.NONODE) {
            throw destroyed();
        }
    }

    // ---- writing ----------------------------------------------------------------------------------------------------

    /**
     * Creates a bucket, which a request found missing when it created the first znode there (a bucket, once created,
     * stays until the namespace is destroyed, so requests create in it without checking first). Throws {@link Retry}
     * when the namespace's directory is gone: the request then reads and finds out why.
     */
    void createBucket(String bucket, Call call) {
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

    // ---- the connection ---------------------------------------------------------------------------------------------

    void waitIfUnknown(Session.Result result, String during) {
        if (result.unknown()) {
            waitForConnection(during);
        } else if (result.code() != Code.NODEEXISTS && result.code() != Code.NONODE) {
            throw refused(result.code(), during);
        }
    }

    void waitForConnection(String during) {
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

    void waitForConnection(Call call) {
        checkOpen(call);
        if (!session.awaitConnected(System.nanoTime() + connectionLossTimeout.toNanos())) {
            checkOpen(call);
            throw new ZooKeeperUnavailableException(connectString, connectionLossTimeout, call.describe());
        }
    }

    /** Throws if the dataspace or the call's caller is closed. */
    void checkOpen(Call call) {
        if (closed) {
            throw new DataspaceClosedException(call.processId, call.requestNumber, true);
        }
        if (call.caller.closed()) {
            throw new DataspaceClosedException(call.processId, call.requestNumber, false);
        }
    }

    IllegalStateException refused(Code code, String during) {
        return new IllegalStateException("ZooKeeper refused a request while " + during + ": " + code);
    }

    IllegalStateException destroyed() {
        return new IllegalStateException("namespace " + namespace + " no longer exists (it was destroyed)");
    }

    // ---- for tests of the protocol ----------------------------------------------------------------------------------

    /**
     * Returns the zxid at which a request was first issued — the global serial order of the dataspace — or empty if
     * the request was not issued or its log entry was evicted.
     */
    OptionalLong issueZxid(int processId, long requestNumber) {
        ProcessState process = readProcess(processId, false);
        if (process.record().pending() && process.record().issued == requestNumber) {
            return OptionalLong.of(process.stat().getMzxid());
        }
        Session.Result entry = readOrWait(layout.entryPath(processId, requestNumber), "reading an entry");
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
        Session.Result entry = readOrWait(layout.entryPath(processId, requestNumber), "reading an entry");
        return entry.ok() && LogEntry.decode(entry.data()).cancelled ? OptionalLong.of(entry.stat().getCzxid())
                : OptionalLong.empty();
    }
}
