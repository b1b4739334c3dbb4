package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceOptions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.random.RandomGenerator;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.PathUtils;

/**
 * A Volpex dataspace whose state lives in an Apache ZooKeeper ensemble: every replica, on any machine, connects to the
 * ensemble with the same connect string and namespace and observes exactly what a single run would — the same rules,
 * exceptions and statistics as {@link Dataspace#inProcess(int, DataspaceOptions)} — with no Volpex server to deploy,
 * and the dataspace survives the loss of a minority of the ensemble's servers.
 *
 * <pre>{@code
 * // On every host, for every replica it runs:
 * try (ZooKeeperDataspace dataspace = ZooKeeperDataspace.connect(
 *         "zk1:2181,zk2:2181,zk3:2181", "/volpex/job-42", 8, DataspaceOptions.defaults())) {
 *     Replica replica = dataspace.open(processId);
 *     replica.put("row-1", row);
 *     byte[] neighbour = replica.get("row-0");
 * }
 * }</pre>
 *
 * <p>The first client to connect creates the namespace; the others join it, and must ask for the same process count,
 * options and kind of blob store (a client that asks for others fails at once, naming both). The state is durable:
 * closing a client leaves it for the others and for restarts; {@link #destroy()} removes it. Every request is
 * exactly-once whatever the network does — a reply lost to a connection loss, a retry, an expired session, a leader
 * failover: the package description documents the protocol.
 *
 * <p>Cancelling a waiting read or get ({@link io.github.volpex.dataspace.DataspaceServer#cancel(int, long)},
 * {@link io.github.volpex.dataspace.Replica#cancelPending()}) is one transaction that logs the outcome "cancelled" in
 * the ensemble, so every client and every later restart sees it. {@link
 * io.github.volpex.dataspace.DataspaceServer#submit(io.github.volpex.dataspace.Request)} waits with no thread: a
 * ZooKeeper watch on the request's read-log entry wakes it, and the {@linkplain Builder#executor(Executor) executor}
 * reads its outcome.
 *
 * <p>What one client reads of other clients' work is linearizable wherever it decides something: a restart
 * ({@link #open(int, long)}), {@link io.github.volpex.dataspace.DataspaceServer#highWaterMark(int)}, {@link
 * io.github.volpex.dataspace.DataspaceServer#oldestRetained(int)} and {@link
 * io.github.volpex.dataspace.DataspaceServer#pendingRequest(int)} see every request completed before the call, through
 * whichever server this client talks to (each costs one transaction of the ensemble's quorum).
 *
 * <p>Thread-safe. The dataspace owns one ZooKeeper session (and the two threads of ZooKeeper's client); blocked
 * callers wait in their own threads, submitted requests in none. {@link #statistics()} counts the requests this
 * client handled.
 *
 * @since 0.1
 */
public interface ZooKeeperDataspace extends Dataspace {

    /**
     * Connects to (and if need be creates) the dataspace with the default options and settings.
     *
     * @param connectString the ensemble, as ZooKeeper's client takes it ({@code host:port,host:port,…})
     * @param namespace     the dataspace's znode, an absolute path such as {@code /volpex/job-42}
     * @param processCount  the number of logical processes, {@code ≥ 1}
     * @return the connected dataspace
     * @see Builder#connect()
     */
    static ZooKeeperDataspace connect(String connectString, String namespace, int processCount) {
        return builder(connectString, namespace).processCount(processCount).connect();
    }

    /**
     * Connects to (and if need be creates) the dataspace with the given options and default settings.
     *
     * @param connectString the ensemble, as ZooKeeper's client takes it ({@code host:port,host:port,…})
     * @param namespace     the dataspace's znode, an absolute path such as {@code /volpex/job-42}
     * @param processCount  the number of logical processes, {@code ≥ 1}
     * @param options       the limits; every client of the namespace must give the same
     * @return the connected dataspace
     * @see Builder#connect()
     */
    static ZooKeeperDataspace connect(String connectString, String namespace, int processCount,
            DataspaceOptions options) {
        return builder(connectString, namespace).processCount(processCount).options(options).connect();
    }

    /**
     * Returns a builder for a connection with settings beyond the options: session timeout, how long to wait for an
     * unreachable ensemble, the blob store, the inline limit.
     *
     * @param connectString the ensemble, as ZooKeeper's client takes it ({@code host:port,host:port,…})
     * @param namespace     the dataspace's znode, an absolute path such as {@code /volpex/job-42}
     * @return a new builder
     * @throws NullPointerException if an argument is null
     */
    static Builder builder(String connectString, String namespace) {
        return new Builder(connectString, namespace);
    }

    /**
     * Returns the dataspace's znode.
     *
     * @return the namespace path
     */
    String namespace();

    /**
     * Removes blobs that no tuple or read-log entry refers to but that a crashed client left behind (a put that
     * stored its value and died before committing). Connecting does this too; a long-running client may call it
     * now and then. Blobs of puts still in progress are kept: their writers pin them. It goes bucket by bucket, so
     * its time grows with the number of blobs (reads are pipelined) and no listing holds more than one bucket; a
     * collection cut short is simply run again.
     *
     * @return the number of blobs removed
     * @throws io.github.volpex.dataspace.DataspaceClosedException if this client is closed
     * @throws ZooKeeperUnavailableException                       if the ensemble cannot be reached
     * @throws BlobStoreException                                  if the blob store cannot be listed
     * @throws ListingTooLargeException                            if a bucket has more children than one ZooKeeper
     *                                                             answer can list (it names the znode and the
     *                                                             remedy)
     */
    int collectGarbage();

    /**
     * Deletes the dataspace — every tuple, pending request, read log and blob under the namespace — and closes this
     * client. Call it once every replica of every process has finished: the other clients' requests fail from then
     * on. Its time grows with the number of znodes (deletes are pipelined), and it never lists more than one
     * znode's children at a time. A destroy interrupted by a crash or a failure is completed by the next client that
     * connects to the namespace, which then starts a new, empty dataspace there.
     *
     * @throws io.github.volpex.dataspace.DataspaceClosedException if this client is closed
     * @throws ZooKeeperUnavailableException                       if the ensemble cannot be reached
     * @throws BlobStoreException                                  if an external blob store cannot be listed or
     *                                                             changed
     * @throws ListingTooLargeException                            if a znode of the namespace has more children than
     *                                                             one ZooKeeper answer can list (it names the znode
     *                                                             and the remedy); this client stays open
     */
    void destroy();

    /**
     * Collects the settings of a connection to a ZooKeeper dataspace; every setter checks its argument at once.
     *
     * <p>Not thread-safe; use one builder per thread.
     *
     * @since 0.1
     */
    final class Builder {

        /** The default session timeout: 10 s. */
        public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);
        /** The default time a call waits for an unreachable ensemble before it gives up: 60 s. */
        public static final Duration DEFAULT_CONNECTION_LOSS_TIMEOUT = Duration.ofSeconds(60);
        /** The default largest value kept inline in ZooKeeper records: 16 KiB. */
        public static final int DEFAULT_INLINE_LIMIT_BYTES = 16 << 10;
        /** The default size ZooKeeper accepts for one request: its {@code jute.maxbuffer} default, 1 MiB − 1. */
        public static final int DEFAULT_JUTE_MAX_BUFFER = 0xfffff;

        final String connectString;
        final String namespace;
        int processCount = -1;
        DataspaceOptions options = DataspaceOptions.defaults();
        Duration sessionTimeout = DEFAULT_SESSION_TIMEOUT;
        Duration connectionLossTimeout = DEFAULT_CONNECTION_LOSS_TIMEOUT;
        BlobStore blobStore;
        int inlineLimitBytes = DEFAULT_INLINE_LIMIT_BYTES;
        int juteMaxBuffer = DEFAULT_JUTE_MAX_BUFFER;
        RandomGenerator random;
        ZKClientConfig clientConfig;
        Executor executor = ForkJoinPool.commonPool();

        Builder(String connectString, String namespace) {
            this.connectString = Objects.requireNonNull(connectString, "connectString");
            this.namespace = Objects.requireNonNull(namespace, "namespace");
        }

        /**
         * Sets the number of logical processes (required).
         *
         * @param count the number of processes, {@code ≥ 1}
         * @return this builder
         * @throws IllegalArgumentException if {@code count < 1}
         */
        public Builder processCount(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("processCount must be >= 1: " + count);
            }
            this.processCount = count;
            return this;
        }

        /**
         * Sets the limits (default {@link DataspaceOptions#defaults()}); every client of the namespace must give the
         * same. A ZooKeeper dataspace accepts a read-log capacity of at most
         * {@value TransactionBudget#MAX_READ_LOG_CAPACITY} requests (each retained outcome is a znode).
         *
         * @param options the options
         * @return this builder
         * @throws NullPointerException if {@code options} is null
         */
        public Builder options(DataspaceOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * Sets the ZooKeeper session timeout (default 10 s); the ensemble bounds it to [2, 20] ticks. A client whose
         * process pauses longer than this (a long GC, a suspended host) gets a new session and carries on: the
         * dataspace's state does not depend on sessions.
         *
         * @param timeout the session timeout, in {@code [1 ms, 1 h]}
         * @return this builder
         * @throws NullPointerException     if {@code timeout} is null
         * @throws IllegalArgumentException if {@code timeout} is out of range
         */
        public Builder sessionTimeout(Duration timeout) {
            this.sessionTimeout = checkDuration("sessionTimeout", timeout);
            return this;
        }

        /**
         * Sets how long a call waits for an unreachable ensemble (no server answers, or no quorum) before it throws
         * {@link ZooKeeperUnavailableException} (default 60 s). Timeouts given to {@code read} and {@code get} bound
         * the wait for data, not this.
         *
         * @param timeout the longest wait for the ensemble, in {@code [1 ms, 1 h]}
         * @return this builder
         * @throws NullPointerException     if {@code timeout} is null
         * @throws IllegalArgumentException if {@code timeout} is out of range
         */
        public Builder connectionLossTimeout(Duration timeout) {
            this.connectionLossTimeout = checkDuration("connectionLossTimeout", timeout);
            return this;
        }

        /**
         * Sets where values larger than the inline limit go. By default they are cut into chunks kept in the ensemble
         * itself, under the namespace: nothing else to deploy, but ZooKeeper holds its whole database in memory, so
         * a job moving large values should give a shared store instead ({@link BlobStore#directory}, or its own over
         * an object store). Every client of the namespace must use the same kind of store.
         *
         * @param store the blob store
         * @return this builder
         * @throws NullPointerException if {@code store} is null
         */
        public Builder blobStore(BlobStore store) {
            this.blobStore = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * Sets the largest value kept inline in ZooKeeper's records (default 16 KiB); larger values go to the blob
         * store, referenced by their SHA-256. Inline values cost one transaction; a blob costs a few more and is
         * stored once however many read logs refer to it (an inline value is copied into each).
         *
         * @param bytes the inline limit, in {@code [0, 256 KiB]}
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is out of range
         */
        public Builder inlineLimitBytes(int bytes) {
            if (bytes < 0 || bytes > 256 << 10) {
                throw new IllegalArgumentException("inlineLimitBytes must be in [0, " + (256 << 10) + "]: " + bytes);
            }
            this.inlineLimitBytes = bytes;
            return this;
        }

        /**
         * Declares the ensemble's {@code jute.maxbuffer} (default 1 MiB − 1), the largest request its servers accept,
         * so that the dataspace keeps every transaction below it. Raise it only together with the servers' (and this
         * JVM's) {@code -Djute.maxbuffer}.
         *
         * @param bytes the servers' {@code jute.maxbuffer}, in {@code [256 KiB, 64 MiB]}
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is out of range
         */
        public Builder juteMaxBuffer(int bytes) {
            if (bytes < 256 << 10 || bytes > 64 << 20) {
                throw new IllegalArgumentException("juteMaxBuffer must be in [" + (256 << 10) + ", " + (64 << 20)
                        + "]: " + bytes);
            }
            this.juteMaxBuffer = bytes;
            return this;
        }

        /**
         * Sets the configuration of ZooKeeper's client — TLS, SASL, the socket implementation — as ZooKeeper's own
         * {@link ZKClientConfig} (by default one read from the {@code zookeeper.*} system properties). The dataspace
         * sets its {@code jute.maxbuffer} to {@link #juteMaxBuffer(int)} when the configuration leaves it unset, and
         * uses it for every session it opens, so do not change it afterwards.
         *
         * @param config the client configuration
         * @return this builder
         * @throws NullPointerException if {@code config} is null
         */
        public Builder clientConfig(ZKClientConfig config) {
            this.clientConfig = Objects.requireNonNull(config, "config");
            return this;
        }

        /**
         * Sets where submitted requests that waited are resumed (by default {@link ForkJoinPool#commonPool()}): when
         * a watch says that a request submitted with {@link
         * io.github.volpex.dataspace.DataspaceServer#submit(io.github.volpex.dataspace.Request)} may have its
         * outcome, a task on this executor reads it from the ensemble (a round trip or two, longer while the ensemble
         * is unreachable, and a blob read for a large value) and completes the request's future, on which dependent
         * actions attached without an executor then run. No task runs while a request merely waits. A task the
         * executor rejects fails its request's future with the {@link java.util.concurrent.RejectedExecutionException}.
         * The executor must run tasks on threads of its own, not in {@code execute} itself: watch events arrive on
         * ZooKeeper's event thread, which a task's reads must not block.
         *
         * @param executor the executor
         * @return this builder
         * @throws NullPointerException if {@code executor} is null
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * Sets the source of this client's identity (a random 64-bit id that tells its own requests from other
         * clients' after a connection loss); by default a {@link SecureRandom}.
         *
         * @param random the generator
         * @return this builder
         * @throws NullPointerException if {@code random} is null
         */
        public Builder random(RandomGenerator random) {
            this.random = Objects.requireNonNull(random, "random");
            return this;
        }

        /**
         * Connects: opens a ZooKeeper session, waits until it is connected (at most the connection-loss timeout),
         * creates the namespace if it is absent (in one transaction, so a crash never leaves half a namespace) or
         * checks that it holds a dataspace with the same settings, completes a destroy a crashed client left
         * unfinished, and collects orphaned blobs.
         *
         * @return the connected dataspace
         * @throws IllegalStateException         if the process count was not set, the namespace holds a dataspace
         *                                       with other settings, or its znode exists and is not a dataspace
         * @throws NamespaceFormatException      if the namespace holds a dataspace of another format (an
         *                                       {@code IllegalStateException} too)
         * @throws ListingTooLargeException      if collecting garbage, or completing an interrupted destroy, meets a
         *                                       znode with more children than one answer can list
         * @throws IllegalArgumentException      if the connect string cannot name a server (not host:port pairs
         *                                       separated by commas, or none of its hosts resolves: refused at once,
         *                                       naming it), the namespace is malformed, the namespace lies inside
         *                                       another dataspace, or the options do not fit ZooKeeper's limits (the
         *                                       message names the option and the bound)
         * @throws ZooKeeperUnavailableException if no server could be reached in time
         */
        public ZooKeeperDataspace connect() {
            if (processCount < 1) {
                throw new IllegalStateException("processCount must be set before connect()");
            }
            return ZkDataspace.connect(this);
        }

        /**
         * Destroys the namespace without connecting to it as a dataspace: it needs none of the namespace's settings
         * (process count, options), only the connect string and the namespace given to {@link
         * ZooKeeperDataspace#builder}, the session and connection-loss timeouts, the client configuration and — if the
         * namespace keeps its large values in an external store — the {@linkplain #blobStore(BlobStore) blob store}.
         * It deletes the namespace as {@link ZooKeeperDataspace#destroy()} does (every client's requests fail from
         * then on), then the parents above it that this package created when the namespace was, as far as they are
         * left empty (a parent someone else made stays). A namespace of an earlier format is erased whole. A missing
         * namespace is not an error: only its empty parents go, so running this again after a failure finishes it.
         *
         * @return whether a namespace was there and is now deleted
         * @throws IllegalArgumentException      if the connect string cannot name a server (the message names it), or
         *                                       the namespace is malformed
         * @throws IllegalStateException         if the namespace's znode exists and is not a Volpex dataspace, or the
         *                                       namespace keeps its blobs in an external store and none was given
         * @throws ListingTooLargeException      if a znode of the namespace has more children than one answer can
         *                                       list (it names the znode and the remedy)
         * @throws BlobStoreException            if the external blob store cannot be listed or changed
         * @throws ZooKeeperUnavailableException if the ensemble is unreachable for longer than the connection-loss
         *                                       timeout; running it again finishes the work
         * @since 0.1
         */
        public boolean destroy() {
            return ZkDataspace.destroy(this);
        }

        /**
         * Checks the path of a client's znodes: absolute and valid for ZooKeeper, neither {@code /} nor under
         * {@code /zookeeper}. The message names the parameter {@code name} and gives {@code example}.
         */
        static String checkPath(String name, String example, String path) {
            try {
                PathUtils.validatePath(path);
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException(name + " must be an absolute ZooKeeper path such as " + example
                        + ": \"" + path + "\" (" + ex.getMessage() + ")", ex);
            }
            if (path.equals("/") || path.equals("/zookeeper") || path.startsWith("/zookeeper/")) {
                throw new IllegalArgumentException(name + " must not be / or lie under /zookeeper: " + path);
            }
            return path;
        }

        /** Checks a setting's duration: in [1 ms, 1 h]. */
        static Duration checkDuration(String name, Duration value) {
            Objects.requireNonNull(value, name);
            if (value.compareTo(Duration.ofMillis(1)) < 0 || value.compareTo(Duration.ofHours(1)) > 0) {
                throw new IllegalArgumentException(name + " must be in [PT0.001S, PT1H]: " + value);
            }
            return value;
        }
    }
}
