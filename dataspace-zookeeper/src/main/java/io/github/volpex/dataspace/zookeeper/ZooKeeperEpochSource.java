package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.checkpoint.store.EpochSource;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.client.ZKClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fenced checkpoint epochs kept in a ZooKeeper ensemble: give it to a
 * {@link io.github.volpex.checkpoint.store.CheckpointStore.Builder#epochs CheckpointStore} on every host that may
 * write a job's checkpoints, and a writer that another has taken over can no longer commit over the newer writer's
 * checkpoints, whatever its clock says and however long it was paused or partitioned.
 *
 * <pre>{@code
 * try (ZooKeeperEpochSource epochs = ZooKeeperEpochSource.connect("zk1:2181,zk2:2181,zk3:2181", "/volpex/epochs")) {
 *     CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories)
 *             .epochs(epochs).build();
 *     store.commit("job-42", state);   // StaleWriterException once another writer of job-42 has started
 * }
 * }</pre>
 *
 * <p><b>How.</b> Each job has one counter, the znode {@code <path>/<job name>} (the job id escaped as tags are:
 * {@code [A-Za-z0-9_-]} kept, any other character as {@code %} and four hex digits). {@link #acquire} reads it and
 * sets it to {@code max(counter, highestSeen) + 1} conditionally on the version it read — a conditional write that
 * ZooKeeper's leader orders among all others, so two writers never receive the same epoch and a later acquisition
 * always receives a greater one. {@link #isCurrent} reads the counter and, when it still holds the epoch asked about,
 * confirms it with a version check that also goes through the leader (and confirms a counter it found missing the same
 * way): the answer is linearizable, never a lagging server's. A writer whose session expired while it was paused gets
 * a new session here and is told, at its next commit, that it is no longer current. The counters are persistent: no epoch depends on a session.
 *
 * <p><b>Exactly once.</b> Every acquisition writes a random 16-byte token with its epoch (in a one-operation
 * {@code multi}, as the dataspace's writes are). When a write's outcome is unknown (a lost reply, a connection loss, a
 * leader failover), the counter read afterwards tells, by the token, whether the epoch is this acquisition's or
 * another writer's; in the second case it acquires again. So two writers never both believe they hold one epoch.
 *
 * <p><b>Record format</b> (29 bytes, big-endian): {@code int} magic {@code 0x56505A45} ("VPZE"), {@code byte} format
 * (1), {@code long} epoch, 16-byte token. A counter holding anything else fails the call with
 * {@link IllegalStateException}, naming the znode: this source never overwrites data it does not understand. The
 * leader confirms such a counter (and one at {@code Long.MAX_VALUE}) by its version before the call fails: a server
 * that lags behind another session's write is read again, not reported.
 *
 * <p><b>Failures.</b> A call waits for an unreachable ensemble (no server, or no quorum) at most the connection-loss
 * timeout, then throws {@link IOException}; the store then fails the commit and keeps the previous checkpoint. An
 * interrupt ends the wait with {@link InterruptedIOException}, the interrupt status kept.
 *
 * <p>Thread-safe. The source owns one ZooKeeper session (and ZooKeeper client's two threads), replaced when the
 * ensemble expires it; {@link #close()} ends it. Use a path of its own, outside every dataspace namespace.
 *
 * @since 0.1
 */
public final class ZooKeeperEpochSource implements EpochSource, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperEpochSource.class);

    /** The first four bytes of a counter: "VPZE". */
    static final int MAGIC = 0x56505A45;
    /** The counter's format. */
    static final byte FORMAT = 1;
    /** Bytes of a counter record. */
    static final int RECORD_BYTES = 4 + 1 + 8 + 16;
    private static final byte[] EMPTY = new byte[0];
    /** Pause between attempts while a connection loss is being noticed. */
    private static final long RETRY_PAUSE_MILLIS = 10;

    private final String connectString;
    private final String path;
    private final Duration connectionLossTimeout;
    private final RandomGenerator random;
    private final Session session;

    private ZooKeeperEpochSource(Builder builder, String path) {
        this.connectString = builder.connectString;
        this.path = path;
        this.connectionLossTimeout = builder.connectionLossTimeout;
        this.random = builder.random != null ? builder.random : new SecureRandom();
        ZKClientConfig config = builder.clientConfig != null ? builder.clientConfig : new ZKClientConfig();
        this.session = new Session(connectString, (int) builder.sessionTimeout.toMillis(), config, event -> { },
                () -> { });
    }

    /**
     * Connects with the default settings.
     *
     * @param connectString the ensemble, as ZooKeeper's client takes it ({@code host:port,host:port,…})
     * @param path          the znode under which the job counters live, an absolute path such as
     *                      {@code /volpex/epochs}; created when the first counter is
     * @return the connected source
     * @see Builder#connect()
     */
    public static ZooKeeperEpochSource connect(String connectString, String path) {
        return builder(connectString, path).connect();
    }

    /**
     * Returns a builder for a connection with other settings: session timeout, how long to wait for an unreachable
     * ensemble, ZooKeeper's client configuration.
     *
     * @param connectString the ensemble, as ZooKeeper's client takes it ({@code host:port,host:port,…})
     * @param path          the znode under which the job counters live, an absolute path such as
     *                      {@code /volpex/epochs}
     * @return a new builder
     * @throws NullPointerException if an argument is null
     */
    public static Builder builder(String connectString, String path) {
        return new Builder(connectString, path);
    }

    /**
     * Returns the znode under which the job counters live.
     *
     * @return the path
     */
    public String path() {
        return path;
    }

    /**
     * Returns the znode of a job's counter.
     *
     * @param jobId the job
     * @return {@code <path>/<job name>}
     * @throws NullPointerException     if {@code jobId} is null
     * @throws IllegalArgumentException if {@code jobId} is empty
     */
    public String counterPath(String jobId) {
        Objects.requireNonNull(jobId, "jobId");
        if (jobId.isEmpty()) {
            throw new IllegalArgumentException("jobId must not be empty");
        }
        return path + "/" + TagNames.name(jobId);
    }

    /**
     * Acquires the next epoch of a job: sets its counter to {@code max(counter, highestSeen) + 1}, creating it (and
     * the path above it) at {@code highestSeen + 1} if the job has none.
     *
     * @param jobId       the job
     * @param highestSeen the greatest epoch the writer saw among the job's stored checkpoints, in
     *                    {@code [-1, Long.MAX_VALUE − 1)}
     * @return the epoch, greater than every epoch acquired for the job before and than {@code highestSeen}
     * @throws NullPointerException     if {@code jobId} is null
     * @throws IllegalArgumentException if {@code jobId} is empty or {@code highestSeen} is out of range
     * @throws IllegalStateException    if the counter holds something other than a counter record, or has reached
     *                                  {@code Long.MAX_VALUE}, or this source is closed
     * @throws InterruptedIOException   if interrupted while waiting for the ensemble (the interrupt status is kept)
     * @throws IOException              if the ensemble was unreachable for longer than the connection-loss timeout,
     *                                  or refused the request
     */
    @Override
    public long acquire(String jobId, long highestSeen) throws IOException {
        String node = counterPath(jobId);
        if (highestSeen < -1 || highestSeen >= Long.MAX_VALUE - 1) {
            throw new IllegalArgumentException("highestSeen must be in [-1, " + (Long.MAX_VALUE - 1) + "): "
                    + highestSeen);
        }
        byte[] token = new byte[16];
        ByteBuffer.wrap(token).putLong(random.nextLong()).putLong(random.nextLong());
        String during = "acquiring an epoch of job \"" + jobId + "\"";
        long deadline = System.nanoTime() + connectionLossTimeout.toNanos();
        long attempted = -1; // the epoch of a write whose outcome is unknown
        while (true) {
            Counter read = read(node, deadline, during);
            if (read == null) {
                if (attempted >= 0) {
                    attempted = -1; // a create whose outcome was unknown did not apply, or was deleted since
                }
                long epoch = highestSeen + 1;
                Session.Result created = session.multi(List.of(Op.create(node, encode(epoch, token), Records.OPEN_ACL,
                        CreateMode.PERSISTENT)));
                if (created.ok()) {
                    LOG.debug("acquired epoch {} of job {} (new counter {})", epoch, jobId, node);
                    return epoch;
                }
                if (created.code() == Code.NONODE) {
                    createAncestors(deadline, during);
                } else if (created.unknown()) {
                    attempted = epoch;
                    awaitConnection(deadline, during);
                } else if (created.code() != Code.NODEEXISTS) {
                    throw refused(created.code(), during);
                }
                continue;
            }
            long current = read.epoch();
            if (attempted >= 0 && current == attempted && Arrays.equals(token, read.token())) {
                LOG.debug("acquired epoch {} of job {} (after a lost reply)", current, jobId);
                return current;
            }
            attempted = -1;
            if (current == Long.MAX_VALUE) {
                if (confirmed(node, read.version(), deadline, during)) {
                    throw new IllegalStateException("the epoch counter " + node + " has reached Long.MAX_VALUE");
                }
                continue; // a lagging server's answer: read again
            }
            long epoch = Math.max(current, highestSeen) + 1;
            Session.Result set = session.multi(List.of(Op.setData(node, encode(epoch, token), read.version())));
            if (set.ok()) {
                LOG.debug("acquired epoch {} of job {}", epoch, jobId);
                return epoch;
            }
            if (set.unknown()) {
                attempted = epoch;
                awaitConnection(deadline, during);
            } else if (set.code() != Code.BADVERSION && set.code() != Code.NONODE) {
                throw refused(set.code(), during);
            }
            // Another writer acquired first, or the counter was deleted: read again.
        }
    }

    /**
     * Tells whether {@code epoch} is still the job's newest: linearizable (the ensemble's leader confirms the
     * counter's version), so a {@code true} answer means no writer had acquired a newer epoch when the check ran.
     *
     * @param jobId the job
     * @param epoch an epoch, {@code ≥ 0}
     * @return whether the job's counter holds {@code epoch}; {@code false} if the job has no counter
     * @throws NullPointerException     if {@code jobId} is null
     * @throws IllegalArgumentException if {@code jobId} is empty or {@code epoch} is negative
     * @throws IllegalStateException    if the counter holds something other than a counter record, or this source is
     *                                  closed
     * @throws InterruptedIOException   if interrupted while waiting for the ensemble (the interrupt status is kept)
     * @throws IOException              if the ensemble was unreachable for longer than the connection-loss timeout,
     *                                  or refused the request
     */
    @Override
    public boolean isCurrent(String jobId, long epoch) throws IOException {
        String node = counterPath(jobId);
        if (epoch < 0) {
            throw new IllegalArgumentException("epoch must be >= 0: " + epoch);
        }
        String during = "checking epoch " + epoch + " of job \"" + jobId + "\"";
        long deadline = System.nanoTime() + connectionLossTimeout.toNanos();
        while (true) {
            Counter read = read(node, deadline, during);
            if (read == null) {
                if (confirmed(node, -1, deadline, during)) {
                    session.sync(node); // the counter exists: the server that answered had not yet seen its creation
                    continue;
                }
                return false;
            }
            if (read.epoch() > epoch) {
                return false; // counters only grow: no later answer can be true
            }
            if (confirmed(node, read.version(), deadline, during)) {
                return read.epoch() == epoch;
            }
        }
    }

    /**
     * Tells whether the counter still has the version read (−1: any version, so whether it exists), as the ensemble's
     * leader orders it (a one-operation {@code multi} of a version check): the server that answered a read may lag
     * behind writes of other sessions. False if the counter changed or was deleted since (or does not exist).
     */
    private boolean confirmed(String node, int version, long deadline, String during) throws IOException {
        while (true) {
            Session.Result checked = session.multi(List.of(Op.check(node, version)));
            if (checked.ok()) {
                return true;
            }
            if (checked.unknown()) {
                awaitConnection(deadline, during); // a check changes nothing: asking again is safe
            } else if (checked.code() == Code.BADVERSION || checked.code() == Code.NONODE) {
                return false;
            } else {
                throw refused(checked.code(), during);
            }
        }
    }

    /** A job's counter as read: its epoch, the token of the acquisition that set it, and its znode's version. */
    private record Counter(long epoch, byte[] token, int version) {
    }

    /** Reads a job's counter; null if the job has none. */
    private Counter read(String node, long deadline, String during) throws IOException {
        while (true) {
            Session.Result read = session.getData(node);
            if (read.unknown()) {
                awaitConnection(deadline, during);
            } else if (read.code() == Code.NONODE) {
                return null;
            } else if (!read.ok()) {
                throw refused(read.code(), during);
            } else {
                int version = read.stat().getVersion();
                long epoch;
                try {
                    epoch = decode(node, read.data());
                } catch (IllegalStateException notACounter) {
                    // Reported only if it is what the counter holds now, not a lagging server's view.
                    if (confirmed(node, version, deadline, during)) {
                        throw notACounter;
                    }
                    continue;
                }
                return new Counter(epoch, Arrays.copyOfRange(read.data(), RECORD_BYTES - 16, RECORD_BYTES), version);
            }
        }
    }

    /** Creates the path's missing ancestors and the path itself. */
    private void createAncestors(long deadline, String during) throws IOException {
        int slash = 0;
        while (slash >= 0) {
            slash = path.indexOf('/', slash + 1);
            String ancestor = slash < 0 ? path : path.substring(0, slash);
            while (true) {
                Session.Result created = session.create(ancestor, EMPTY, CreateMode.PERSISTENT);
                if (created.ok() || created.code() == Code.NODEEXISTS) {
                    break;
                }
                if (!created.unknown()) {
                    throw refused(created.code(), during);
                }
                awaitConnection(deadline, during);
            }
        }
    }

    /** After an unknown outcome: waits for the session to be connected, or throws once the deadline has passed. */
    private void awaitConnection(long deadlineNanos, String during) throws IOException {
        if (session.closed()) {
            throw new IllegalStateException("the epoch source is closed");
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("interrupted while " + during);
        }
        // The client may still count itself connected just after a connection loss: pause before trying again.
        try {
            Thread.sleep(RETRY_PAUSE_MILLIS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while " + during);
        }
        if (!session.awaitConnected(deadlineNanos) || System.nanoTime() - deadlineNanos > 0) {
            if (session.closed()) {
                throw new IllegalStateException("the epoch source is closed");
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted while " + during);
            }
            throw new IOException(new ZooKeeperUnavailableException(connectString, connectionLossTimeout, during)
                    .getMessage());
        }
    }

    private IOException refused(Code code, String during) {
        if (session.closed()) {
            throw new IllegalStateException("the epoch source is closed");
        }
        return new IOException("ZooKeeper refused a request while " + during + ": " + code);
    }

    static byte[] encode(long epoch, byte[] token) {
        return ByteBuffer.allocate(RECORD_BYTES).putInt(MAGIC).put(FORMAT).putLong(epoch).put(token).array();
    }

    /** Returns the epoch a counter holds. */
    static long decode(String node, byte[] data) {
        ByteBuffer buffer = ByteBuffer.wrap(data == null ? EMPTY : data);
        if (buffer.remaining() != RECORD_BYTES || buffer.getInt() != MAGIC || buffer.get() != FORMAT) {
            throw new IllegalStateException("znode " + node + " is not an epoch counter ("
                    + (data == null ? 0 : data.length) + " bytes; a counter has " + RECORD_BYTES
                    + " starting with the magic VPZE and format 1)");
        }
        long epoch = buffer.getLong();
        if (epoch < 0) {
            throw new IllegalStateException("znode " + node + " holds a negative epoch: " + epoch);
        }
        return epoch;
    }

    /** The current session's id (for tests that expire it). */
    long sessionId() {
        return session.sessionId();
    }

    /** The current session's password (for tests that expire it). */
    byte[] sessionPassword() {
        return session.sessionPassword();
    }

    /** Sessions the ensemble expired so far (each replaced by a new one). */
    int expiries() {
        return session.expiries();
    }

    /** Ends the session. Idempotent; calls made afterwards throw {@link IllegalStateException}. */
    @Override
    public void close() {
        session.close();
    }

    @Override
    public String toString() {
        return "ZooKeeperEpochSource[" + connectString + path + "]";
    }

    /**
     * Collects the settings of a {@link ZooKeeperEpochSource}; every setter checks its argument at once.
     *
     * <p>Not thread-safe; use one builder per thread.
     *
     * @since 0.1
     */
    public static final class Builder {

        /** The default session timeout: 10 s. */
        public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);
        /** The default time a call waits for an unreachable ensemble before it fails: 60 s. */
        public static final Duration DEFAULT_CONNECTION_LOSS_TIMEOUT = Duration.ofSeconds(60);

        final String connectString;
        final String path;
        Duration sessionTimeout = DEFAULT_SESSION_TIMEOUT;
        Duration connectionLossTimeout = DEFAULT_CONNECTION_LOSS_TIMEOUT;
        ZKClientConfig clientConfig;
        RandomGenerator random;

        Builder(String connectString, String path) {
            this.connectString = Objects.requireNonNull(connectString, "connectString");
            this.path = Objects.requireNonNull(path, "path");
        }

        /**
         * Sets the ZooKeeper session timeout (default 10 s); the ensemble bounds it to [2, 20] ticks. No epoch depends
         * on the session: when it expires, a new one takes its place.
         *
         * @param timeout the session timeout, in {@code [1 ms, 1 h]}
         * @return this builder
         * @throws NullPointerException     if {@code timeout} is null
         * @throws IllegalArgumentException if {@code timeout} is out of range
         */
        public Builder sessionTimeout(Duration timeout) {
            this.sessionTimeout = ZooKeeperDataspace.Builder.checkDuration("sessionTimeout", timeout);
            return this;
        }

        /**
         * Sets how long a call waits for an unreachable ensemble before it throws {@link IOException} (default 60 s).
         *
         * @param timeout the longest wait, in {@code [1 ms, 1 h]}
         * @return this builder
         * @throws NullPointerException     if {@code timeout} is null
         * @throws IllegalArgumentException if {@code timeout} is out of range
         */
        public Builder connectionLossTimeout(Duration timeout) {
            this.connectionLossTimeout = ZooKeeperDataspace.Builder.checkDuration("connectionLossTimeout", timeout);
            return this;
        }

        /**
         * Sets ZooKeeper's client configuration (TLS, SASL, the socket implementation); by default one read from the
         * {@code zookeeper.*} system properties.
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
         * Sets where the tokens that tell this source's writes from others' come from; by default a
         * {@link SecureRandom}.
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
         * Connects: opens a ZooKeeper session and waits until it is connected (at most the connection-loss timeout).
         * Nothing is created until the first {@link #acquire}.
         *
         * @return the connected source
         * @throws IllegalArgumentException      if the connect string or the path is malformed, or the path is
         *                                       {@code /} or lies under {@code /zookeeper}
         * @throws ZooKeeperUnavailableException if no server could be reached in time
         */
        public ZooKeeperEpochSource connect() {
            ZooKeeperDataspace.Builder.checkPath("path", "/volpex/epochs", path);
            ZooKeeperEpochSource source = new ZooKeeperEpochSource(this, path);
            long deadline = System.nanoTime() + connectionLossTimeout.toNanos();
            if (!source.session.awaitConnected(deadline)) {
                source.close();
                throw new ZooKeeperUnavailableException(connectString, connectionLossTimeout, "connecting");
            }
            return source;
        }

    }
}
