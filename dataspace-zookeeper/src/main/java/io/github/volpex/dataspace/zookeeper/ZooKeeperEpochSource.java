package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.checkpoint.store.EpochSource;
import io.github.volpex.checkpoint.store.JobRunningException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;
import org.apache.zookeeper.client.ZKClientConfig;

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
 * a new session here and is told, at its next commit, that it is no longer current. The counters are persistent: no
 * epoch depends on a session. The path and its ancestors are created when the first counter is, marked as this
 * package's, and {@link #deleteJob} deletes them again once they are empty.
 *
 * <p><b>Fenced, and elected.</b> This source fences whoever acquired last; it does not choose which host writes. A
 * {@link WriterElection} does, among the live replicas of a process, and hands its elected writer the next epoch of
 * the same counter — one mechanism, so the election and the fence never disagree. Give a job's writers either their
 * election or this source, not both: an {@link #acquire} here fences the elected writer, which then takes the role
 * back with a new epoch.
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

    private final String connectString;
    private final String path;
    private final RandomGenerator random;
    private final Session session;
    private final EpochCounters counters;

    private ZooKeeperEpochSource(Builder builder, String path) {
        this.connectString = builder.connectString;
        this.path = path;
        this.random = builder.random != null ? builder.random : new SecureRandom();
        ZKClientConfig config = builder.clientConfig != null ? builder.clientConfig : new ZKClientConfig();
        this.session = new Session(connectString, (int) builder.sessionTimeout.toMillis(), config, event -> { },
                () -> { });
        this.counters = new EpochCounters(session, connectString, path, builder.connectionLossTimeout,
                "the epoch source");
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
        return counters.counterPath(jobId);
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
        counterPath(jobId);
        if (highestSeen < -1 || highestSeen >= Long.MAX_VALUE - 1) {
            throw new IllegalArgumentException("highestSeen must be in [-1, " + (Long.MAX_VALUE - 1) + "): "
                    + highestSeen);
        }
        byte[] token = new byte[16];
        ByteBuffer.wrap(token).putLong(random.nextLong()).putLong(random.nextLong());
        return counters.acquire(jobId, highestSeen, token);
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
        return counters.isCurrent(jobId, epoch);
    }

    /**
     * Deletes the job's counter, then {@linkplain #path() the path} and the parents above it that this package
     * created, as far as they are left empty — a parent someone else made stays. Once it returns, {@link #isCurrent}
     * answers {@code false} for every epoch of the job, so no earlier writer can commit again; an {@link #acquire}
     * afterwards starts the job anew. The job's counter has children while members of its {@link WriterElection}
     * live: then the deletion is refused unless {@code force}, which deletes their candidacies first (they stop
     * competing, and their commits are refused). A writer that took its epoch through this source (not an election)
     * leaves no trace of being alive: delete a job once its writers have stopped.
     *
     * @param jobId the job
     * @param force whether to delete even while members of the job's writer election live
     * @throws NullPointerException     if {@code jobId} is null
     * @throws IllegalArgumentException if {@code jobId} is empty
     * @throws JobRunningException      if members of the job's writer election live and {@code force} is false (it
     *                                  names them, and which one writes under which epoch); nothing is deleted
     * @throws IllegalStateException    if this source is closed
     * @throws InterruptedIOException   if interrupted while waiting for the ensemble (the interrupt status is kept)
     * @throws IOException              if the ensemble was unreachable for longer than the connection-loss timeout,
     *                                  or refused the request
     */
    @Override
    public void deleteJob(String jobId, boolean force) throws IOException {
        counters.deleteJob(jobId, force, null);
    }

    static byte[] encode(long epoch, byte[] token) {
        return EpochCounters.encode(epoch, token);
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
         * @throws IllegalArgumentException      if the connect string cannot name a server (not host:port pairs
         *                                       separated by commas, or no host of it resolves; the message names
         *                                       it), the path is malformed, or the path is {@code /} or lies under
         *                                       {@code /zookeeper}
         * @throws ZooKeeperUnavailableException if no server could be reached in time
         */
        public ZooKeeperEpochSource connect() {
            ConnectStrings.check(connectString);
            ZooKeeperDataspace.Builder.checkPath("path", "/volpex/epochs", path);
            ZooKeeperEpochSource source = new ZooKeeperEpochSource(this, path);
            if (!source.session.awaitConnected(source.counters.deadline())) {
                source.close();
                throw new ZooKeeperUnavailableException(connectString, connectionLossTimeout, "connecting");
            }
            return source;
        }

    }
}
