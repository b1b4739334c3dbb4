package io.github.volpex.dataspace.zookeeper;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client's connection to the ensemble, across session expiries: when ZooKeeper expires the session, a new
 * {@link ZooKeeper} takes its place (the dataspace's state is persistent, so nothing but blob pins is lost). A call
 * reports ZooKeeper's result code instead of throwing. Calls are synchronous (ZooKeeper's send thread completes them,
 * with no hop through its event thread); an interrupt that arrives during one abandons the wait, so its outcome is
 * unknown, as after a connection loss, and the dataspace reads the state again. Chunk transfers are pipelined through
 * the asynchronous API.
 *
 * <p>Thread-safe.
 */
final class Session implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Session.class);

    private final String connectString;
    private final int sessionTimeoutMillis;
    private final Consumer<WatchedEvent> nodeEvents;
    private final Runnable stateChanges;
    private final ZKClientConfig clientConfig;
    /** How long a single call may wait for its callback before its outcome counts as unknown. */
    private final long callNanos;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private ZooKeeper zooKeeper;
    private ClientWatcher watcher;
    private int generation;
    /** Sessions that expired (for tests of the protocol). */
    private int expiries;
    private boolean connected;
    private volatile boolean closed;

    /**
     * Opens the first session (connecting in the background).
     *
     * @param nodeEvents   receives every watch event on a znode
     * @param stateChanges runs after every change of the connection state
     */
    Session(String connectString, int sessionTimeoutMillis, ZKClientConfig clientConfig,
            Consumer<WatchedEvent> nodeEvents, Runnable stateChanges) {
        this.connectString = connectString;
        this.clientConfig = clientConfig;
        this.sessionTimeoutMillis = sessionTimeoutMillis;
        this.nodeEvents = nodeEvents;
        this.stateChanges = stateChanges;
        this.callNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(60_000, 4L * sessionTimeoutMillis));
        lock.lock();
        try {
            open();
        } finally {
            lock.unlock();
        }
    }

    /** Opens a new ZooKeeper client; the lock is held. */
    private void open() {
        generation++;
        watcher = new ClientWatcher(generation);
        connected = false;
        try {
            zooKeeper = new ZooKeeper(connectString, sessionTimeoutMillis, watcher, clientConfig);
        } catch (IOException ex) {
            throw new IllegalArgumentException("cannot open a ZooKeeper client for connectString \""
                    + connectString + "\": " + ex.getMessage(), ex);
        }
    }

    private void onState(int eventGeneration, Watcher.Event.KeeperState state) {
        ZooKeeper expired = null;
        lock.lock();
        try {
            if (eventGeneration != generation || closed) {
                return;
            }
            switch (state) {
                case SyncConnected, ConnectedReadOnly -> connected = true;
                case Disconnected -> connected = false;
                case Expired -> {
                    LOG.info("ZooKeeper session 0x{} expired; opening a new session",
                            Long.toHexString(zooKeeper.getSessionId()));
                    expired = zooKeeper;
                    expiries++;
                    open();
                }
                default -> { }
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (expired != null) {
            closeQuietly(expired);
        }
        stateChanges.run();
    }

    /** The client watcher of one generation: connection events of older clients are ignored. */
    private final class ClientWatcher implements Watcher {
        private final int generation;

        ClientWatcher(int generation) {
            this.generation = generation;
        }

        @Override
        public void process(WatchedEvent event) {
            if (event.getType() == Event.EventType.None) {
                onState(generation, event.getState());
            } else {
                nodeEvents.accept(event);
            }
        }
    }

    /** Tells whether the session is connected now. */
    boolean connected() {
        lock.lock();
        try {
            return connected && !closed;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the client is connected, the session is closed or the deadline passes; never interrupted.
     *
     * @return whether the client is connected
     */
    boolean awaitConnected(long deadlineNanos) {
        boolean interrupted = false;
        lock.lock();
        try {
            while (!connected && !closed) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    changed.awaitNanos(left);
                } catch (InterruptedException ex) {
                    interrupted = true;
                }
            }
            return connected && !closed;
        } finally {
            lock.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private ZooKeeper client() {
        lock.lock();
        try {
            return zooKeeper;
        } finally {
            lock.unlock();
        }
    }

    private Watcher watcher() {
        lock.lock();
        try {
            return watcher;
        } finally {
            lock.unlock();
        }
    }

    int expiries() {
        lock.lock();
        try {
            return expiries;
        } finally {
            lock.unlock();
        }
    }

    long sessionId() {
        return client().getSessionId();
    }

    byte[] sessionPassword() {
        return client().getSessionPasswd();
    }

    ZooKeeper zooKeeper() {
        return client();
    }

    boolean closed() {
        return closed;
    }

    // ---- calls ----------------------------------------------------------------------------------------------------

    /** The result of one call: ZooKeeper's code and whatever the call returns. */
    record Result(Code code, byte[] data, Stat stat, List<OpResult> results, List<String> children) {
        boolean ok() {
            return code == Code.OK;
        }

        /** Connection loss, an expired or moved session, or a timeout: the call may or may not have taken effect. */
        boolean unknown() {
            return unknown(code);
        }

        static boolean unknown(Code code) {
            return code == Code.CONNECTIONLOSS || code == Code.SESSIONEXPIRED || code == Code.OPERATIONTIMEOUT
                    || code == Code.SESSIONMOVED || code == Code.REQUESTTIMEOUT || code == Code.NOTREADONLY;
        }
    }

    private static final Result TIMED_OUT = new Result(Code.OPERATIONTIMEOUT, null, null, null, null);

    /** A synchronous ZooKeeper call. */
    @FunctionalInterface
    private interface Call {
        Result run(ZooKeeper client) throws KeeperException, InterruptedException;
    }

    /**
     * Runs a synchronous call (ZooKeeper's send thread completes it: no hop through its event thread). The interrupt
     * status is cleared for the call and restored after it, so an interrupt that came before never aborts it; one
     * that comes during it abandons the wait, and the call reports {@code CONNECTIONLOSS}: its outcome is unknown.
     */
    private Result sync(Call call) {
        boolean interrupted = Thread.interrupted();
        try {
            return call.run(client());
        } catch (KeeperException ex) {
            return new Result(ex.code(), null, null, ex.getResults(), null);
        } catch (InterruptedException ex) {
            interrupted = true;
            return new Result(Code.CONNECTIONLOSS, null, null, null, null);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    Result multi(List<Op> ops) {
        return sync(client -> new Result(Code.OK, null, null, client.multi(ops), null));
    }

    /**
     * Runs a read-only multi. Its operations succeed or fail one by one (a missing node is an error result in its
     * place), so the code is OK whenever the server answered.
     */
    Result multiRead(List<Op> ops) {
        return sync(client -> new Result(Code.OK, null, null, client.multi(ops), null));
    }

    /**
     * Runs a read-only multi that sees every write committed before this call began, whichever client made it and
     * whichever server this client talks to: first a {@code check} of {@code barrier} (which must exist), a transaction
     * that the ensemble's quorum commits, then the reads on the same ZooKeeper session, which its server answers only
     * after applying that transaction. A plain read or {@code sync} is not enough: a server may lag behind the leader,
     * and ZooKeeper's {@code sync} is not a quorum operation. The code is that of the check when it fails
     * ({@code NONODE}: the barrier is gone), else OK whenever the server answered.
     */
    Result linearizableRead(String barrier, List<Op> reads) {
        return sync(client -> {
            client.multi(List.of(Op.check(barrier, -1)));
            return new Result(Code.OK, null, null, client.multi(reads), null);
        });
    }

    Result getData(String path) {
        return sync(client -> {
            Stat stat = new Stat();
            byte[] data = client.getData(path, false, stat);
            return new Result(Code.OK, data, stat, null, null);
        });
    }

    /** Checks whether the node exists (NONODE if not) and returns its stat. */
    Result exists(String path) {
        return sync(client -> {
            Stat stat = client.exists(path, false);
            return new Result(stat == null ? Code.NONODE : Code.OK, null, stat, null, null);
        });
    }

    /** Starts a listing and returns its future without waiting (for pipelined listings). */
    CompletableFuture<Result> getChildrenAsync(String path) {
        CompletableFuture<Result> done = new CompletableFuture<>();
        client().getChildren(path, false, (rc, p, ctx, children) -> done.complete(
                new Result(Code.get(rc), null, null, null, children)), null);
        return done;
    }

    /** Returns the largest answer this client accepts, in bytes: its {@code jute.maxbuffer}. */
    long maxAnswerBytes() {
        return clientConfig.getInt(org.apache.zookeeper.common.ZKConfig.JUTE_MAXBUFFER,
                ZKClientConfig.CLIENT_MAX_PACKET_LENGTH_DEFAULT);
    }

    /** Checks whether the node exists and leaves a watch on it that fires when it is created, changed or deleted. */
    Result existsWatched(String path) {
        Watcher current = watcher();
        return sync(client -> {
            Stat stat = client.exists(path, current);
            return new Result(stat == null ? Code.NONODE : Code.OK, null, stat, null, null);
        });
    }

    Result create(String path, byte[] data, CreateMode mode) {
        return sync(client -> {
            Stat stat = new Stat();
            client.create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, mode, stat);
            return new Result(Code.OK, null, stat, null, null);
        });
    }

    /**
     * Creates a znode of a sequential mode; on success, {@code children} holds the one path ZooKeeper gave it and
     * {@code stat} its stat (whose ephemeral owner names the session that created it).
     */
    Result createSequential(String prefix, byte[] data, CreateMode mode) {
        return sync(client -> {
            Stat stat = new Stat();
            String created = client.create(prefix, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, mode, stat);
            return new Result(Code.OK, null, stat, null, List.of(created));
        });
    }

    /**
     * Brings the server this client talks to up to date with the leader ({@code sync}), so that the next read sees
     * every write committed before this call, also other clients' writes; waits for it like a synchronous call.
     */
    Result sync(String path) {
        CompletableFuture<Result> done = new CompletableFuture<>();
        client().sync(path, (rc, p, ctx) -> done.complete(new Result(Code.get(rc), null, null, null, null)), null);
        return await(done);
    }

    /** Starts a create and returns its future without waiting (for pipelined writes). */
    CompletableFuture<Result> createAsync(String path, byte[] data) {
        CompletableFuture<Result> done = new CompletableFuture<>();
        client().create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT,
                (rc, p, ctx, name) -> done.complete(new Result(Code.get(rc), null, null, null, null)), null);
        return done;
    }

    /** Starts a read and returns its future without waiting (for pipelined reads). */
    CompletableFuture<Result> getDataAsync(String path) {
        CompletableFuture<Result> done = new CompletableFuture<>();
        client().getData(path, false, (rc, p, ctx, data, stat) -> done.complete(
                new Result(Code.get(rc), data, stat, null, null)), null);
        return done;
    }

    /** Starts a delete and returns its future without waiting (for pipelined deletes). */
    CompletableFuture<Result> deleteAsync(String path, int version) {
        CompletableFuture<Result> done = new CompletableFuture<>();
        client().delete(path, version, (rc, p, ctx) -> done.complete(
                new Result(Code.get(rc), null, null, null, null)), null);
        return done;
    }

    Result delete(String path, int version) {
        return sync(client -> {
            client.delete(path, version);
            return new Result(Code.OK, null, null, null, null);
        });
    }

    Result setData(String path, byte[] data, int version) {
        return sync(client -> new Result(Code.OK, null, client.setData(path, data, version), null, null));
    }

    Result getChildren(String path) {
        return sync(client -> new Result(Code.OK, null, null, null, client.getChildren(path, false)));
    }

    /** Waits for a call's callback without being interruptible (the interrupt status is kept). */
    Result await(CompletableFuture<Result> done) {
        boolean interrupted = false;
        long deadline = System.nanoTime() + callNanos;
        try {
            while (true) {
                try {
                    return done.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException ex) {
                    interrupted = true;
                } catch (TimeoutException ex) {
                    LOG.warn("a ZooKeeper call got no answer within {} ms; its outcome counts as unknown",
                            TimeUnit.NANOSECONDS.toMillis(callNanos));
                    return TIMED_OUT;
                } catch (ExecutionException ex) {
                    throw new IllegalStateException("a ZooKeeper callback failed", ex.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        ZooKeeper client;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            client = zooKeeper;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        closeQuietly(client);
        stateChanges.run();
    }

    private void closeQuietly(ZooKeeper client) {
        boolean interrupted = Thread.interrupted();
        try {
            // close() ends the session at the server; its threads then stop on their own within 100 ms, which
            // close(wait) would spend waiting.
            client.close();
        } catch (InterruptedException ex) {
            interrupted = true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
