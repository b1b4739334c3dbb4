package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.checkpoint.store.EpochSource;
import io.github.volpex.checkpoint.store.JobRunningException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.random.RandomGenerator;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * Elects the one replica of a logical process that writes its checkpoints, and hands it the fencing epoch under which
 * it writes them. Every replica of the process, on whatever machine, joins the job's election; exactly one live
 * replica holds the writer role at a time; when it dies, is paused past its session timeout or is cut off from the
 * ensemble, another takes the role over, and the old one — if it comes back — learns that it lost it and can no
 * longer commit.
 *
 * <pre>{@code
 * try (WriterElection election = WriterElection.join("zk1:2181,zk2:2181,zk3:2181", "/volpex/epochs", "process-3")) {
 *     CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories)
 *             .epochs(election).build();                        // the election is the store's epoch source
 *     ...
 *     if (election.isWriter()) {
 *         store.commit("process-3", ProcessCheckpoint.of(replica.requestNumber(), state));
 *     }
 * }
 * }</pre>
 *
 * <h2>How</h2>
 * The job's epoch counter — the znode {@code <path>/<job name>} that {@link ZooKeeperEpochSource} keeps — is also the
 * election's: each member registers as an ephemeral sequential child of it, {@code c-<token>-<sequence>}, that lives as
 * long as the member's ZooKeeper session. The member with the lowest sequence number is the elected one; every other
 * watches the member just ahead of it (so a departure wakes one member, not all). The elected member then takes the
 * next epoch of the counter in one transaction that also checks that its own candidacy still exists: the epoch is only
 * ever taken by a member the ensemble still counts as elected, and two members never hold one epoch. From then on it
 * is {@linkplain Role#WRITER the writer} of that epoch until it loses the role. A store given this election as its
 * {@link EpochSource} commits under the epoch of the current term ({@link #epochPerTerm()}), and just before each
 * commit point asks the ensemble's leader whether the counter still holds that epoch ({@link #isCurrent}): a member
 * that lost the role, and every commit it had begun, is refused ({@code StaleWriterException}), and a checkpoint it
 * committed before it learnt orders below every checkpoint of the newer writer's epoch, so recovery never prefers it.
 *
 * <h2>Losing the role, and the bound on taking it over</h2>
 * A member stops being the writer — {@link #role()} says {@link Role#CANDIDATE}, the listener is told — as soon as its
 * client loses the connection (ZooKeeper's client gives up on a server it has not heard from for two thirds of the
 * session timeout), when its session expires, and when its candidacy is deleted. The ensemble expires the session of
 * a member it has not heard from for the session timeout (checking once per tick), which deletes its candidacy;
 * the next member's watch fires and it takes the role with a read, a listing and one transaction. So after the writer
 * dies, is paused (a long garbage collection, SIGSTOP, a suspended laptop) or is cut off, <b>another live member is
 * the writer within the session timeout plus one tick of the ensemble plus a few round trips</b> (measured on a
 * 3-server ensemble on loopback with a 2 s session timeout and a 500 ms tick: see the README). A writer that is cut
 * off stops counting itself the writer (at two thirds of the timeout) before anyone else can be elected (after the
 * full timeout). Only a writer whose process is paused can still believe it writes while another does; the fencing
 * epoch refuses its commits when it resumes. A brief disconnection that the session survives (a leader failover of
 * the ensemble) keeps the candidacy: the member is the writer again, under the same epoch, once it reconnects. A
 * member whose session expired opens a new session by itself and competes again with a new candidacy, for as long
 * as it is open.
 *
 * <h2>What it learnt from Curator's leader recipes</h2>
 * Curator's {@code LeaderLatch} and {@code LeaderSelector} and their trackers name the pitfalls this class avoids:
 * a latch that took a node of its expired session for its own and led beside another leader (CURATOR-696, -620) —
 * here a candidacy counts only in the session that created it, checked by the node's ephemeral owner; a create whose
 * reply was lost leaving an orphaned node (Curator's "protected" names, and CURATOR-498, where the protection matched
 * a node of the closing session) — here every create carries a fresh random token in the node's name and the node
 * found by it must belong to the current session; leadership kept through a suspended connection (TN14, CURATOR-460)
 * — here a disconnected member is no writer until it reconnects; a herd of watchers on every change (CURATOR-444) —
 * each member watches one node; a leader whose node was deleted under it not noticing (CURATOR-171) — the writer
 * watches its own candidacy. And where Curator's recipes stop — a leader paused longer than its session (TN10) — the
 * fencing epoch taken in the same transaction as the election takes over.
 *
 * <h2>Threads</h2>
 * Thread-safe. The election owns one ZooKeeper session (and the ZooKeeper client's two threads) and no thread of its
 * own: its work runs on ZooKeeper's event thread, each step one synchronous call that never waits for a connection
 * (a connection event starts the next step), and on the thread that calls {@link Builder#join()}. The listener is
 * called on the {@linkplain Builder#executor executor}, one call at a time, in the order the changes happened.
 *
 * @since 0.1
 */
public final class WriterElection implements EpochSource, AutoCloseable {

    /**
     * What a member of the election is.
     *
     * @since 0.1
     */
    public enum Role {
        /** Competing, connected or not: not the writer now. */
        CANDIDATE,
        /** The elected writer, under the epoch of its term ({@link #epoch()}). */
        WRITER,
        /** Closed, or the job was deleted: it competes no more. */
        CLOSED
    }

    /**
     * Told of every change of a member's role.
     *
     * @since 0.1
     */
    @FunctionalInterface
    public interface Listener {
        /**
         * Called once per change, on the election's executor, one call at a time and in order.
         *
         * @param role  the new role
         * @param epoch the epoch of the term that begins ({@link Role#WRITER}) or that ended (leaving the role), or
         *              {@code -1} when no term begins or ends
         */
        void roleChanged(Role role, long epoch);
    }

    private final String jobId;
    private final String name;
    private final RoleState roles;
    private final Candidacy candidacy;

    private WriterElection(Builder builder, String path) {
        this.jobId = builder.jobId;
        this.name = builder.name;
        this.roles = new RoleState(toString(), jobId, builder.executor, builder.listener);
        this.candidacy = new Candidacy(builder, path, roles, toString());
    }

    /**
     * Joins the election of a job's writer with the default settings.
     *
     * @param connectString the ensemble, as ZooKeeper's client takes it ({@code host:port,host:port,…})
     * @param path          the znode under which the job counters live, the same as the
     *                      {@link ZooKeeperEpochSource}'s path for these jobs, such as {@code /volpex/epochs}
     * @param jobId         the job whose writer is elected: the one all replicas of the process write
     * @return the member, competing
     * @see Builder#join()
     */
    public static WriterElection join(String connectString, String path, String jobId) {
        return builder(connectString, path, jobId).join();
    }

    /**
     * Returns a builder for a member with other settings: its name, session timeout, listener and executor.
     *
     * @param connectString the ensemble, as ZooKeeper's client takes it ({@code host:port,host:port,…})
     * @param path          the znode under which the job counters live, such as {@code /volpex/epochs}
     * @param jobId         the job whose writer is elected
     * @return a new builder
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code jobId} is empty
     */
    public static Builder builder(String connectString, String path, String jobId) {
        return new Builder(connectString, path, jobId);
    }

    /**
     * Returns the job whose writer this election chooses.
     *
     * @return the job id
     */
    public String jobId() {
        return jobId;
    }

    /**
     * Returns what this member is now.
     *
     * @return its role
     */
    public Role role() {
        return roles.role();
    }

    /**
     * Tells whether this member is the job's writer now: elected, connected, and holding the epoch of its term.
     *
     * @return whether its role is {@link Role#WRITER}
     */
    public boolean isWriter() {
        return role() == Role.WRITER;
    }

    /**
     * Returns the epoch of this member's term while it is the writer.
     *
     * @return the epoch, or empty unless its role is {@link Role#WRITER}
     */
    public OptionalLong epoch() {
        return roles.epoch();
    }

    /**
     * Returns how many terms this member began: how often it was elected under a new epoch (a reconnection that keeps
     * its epoch is the same term).
     *
     * @return the count
     */
    public long terms() {
        return roles.terms();
    }

    /**
     * Waits until this member is the writer, it is closed or the timeout passes.
     *
     * @param timeout the longest wait
     * @return whether it is the writer
     * @throws NullPointerException if {@code timeout} is null
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitWriter(Duration timeout) throws InterruptedException {
        return roles.awaitWriter(Objects.requireNonNull(timeout, "timeout"));
    }

    // ---- EpochSource ------------------------------------------------------------------------------------------------

    /**
     * Returns the epoch of this member's current term, for a store's commit: the store asks before every commit
     * ({@link #epochPerTerm()}).
     *
     * @param jobId       the job, this election's
     * @param highestSeen the greatest epoch the store lists for the job (the store refuses to commit if it exceeds the
     *                    term's)
     * @return the epoch of the current term
     * @throws IllegalArgumentException if {@code jobId} is not this election's job
     * @throws IOException              if this member is not the writer now (a candidate, disconnected, or closed)
     */
    @Override
    public long acquire(String jobId, long highestSeen) throws IOException {
        requireJob(jobId);
        return roles.writerEpoch(name);
    }

    /**
     * Tells whether {@code epoch} is still the job's newest, linearizably: the ensemble's leader confirms the
     * counter's version, as {@link ZooKeeperEpochSource#isCurrent} does. {@code false} once another member took the
     * role, whatever this member believes.
     *
     * @param jobId the job, this election's
     * @param epoch an epoch, {@code ≥ 0}
     * @return whether the job's counter holds {@code epoch}
     * @throws IllegalArgumentException if {@code jobId} is not this election's job or {@code epoch} is negative
     * @throws IllegalStateException    if this election is closed
     * @throws InterruptedIOException   if interrupted while waiting for the ensemble (the interrupt status is kept)
     * @throws IOException              if the ensemble was unreachable for longer than the connection-loss timeout
     */
    @Override
    public boolean isCurrent(String jobId, long epoch) throws IOException {
        requireJob(jobId);
        return candidacy.counters.isCurrent(jobId, epoch);
    }

    /**
     * Returns {@code true}: a store asks for the epoch of this member's current term before every commit, so one
     * store serves the member across its terms.
     *
     * @return {@code true}
     */
    @Override
    public boolean epochPerTerm() {
        return true;
    }

    /**
     * Resigns — this member's candidacy is deleted and the election closed — then deletes the job's counter and the
     * parents above it that this package created, as {@link ZooKeeperEpochSource#deleteJob} does: refused while
     * other members live, unless {@code force}.
     *
     * @param jobId the job, this election's
     * @param force whether to delete even while other members live (their candidacies are deleted: they stop)
     * @throws IllegalArgumentException if {@code jobId} is not this election's job
     * @throws JobRunningException      if other members live and {@code force} is false; this member still resigns
     * @throws IllegalStateException    if this election is closed
     * @throws IOException              if the ensemble was unreachable for longer than the connection-loss timeout
     */
    @Override
    public void deleteJob(String jobId, boolean force) throws IOException {
        requireJob(jobId);
        if (candidacy.closed()) {
            throw new IllegalStateException("the writer election is closed");
        }
        candidacy.markClosed();
        String own = candidacy.node();
        try {
            candidacy.counters.deleteJob(jobId, force, own == null ? null : own.substring(own.lastIndexOf('/') + 1));
        } finally {
            close();
        }
    }

    private void requireJob(String jobId) {
        Objects.requireNonNull(jobId, "jobId");
        if (!jobId.equals(this.jobId)) {
            throw new IllegalArgumentException("jobId must be this election's job, \"" + this.jobId + "\": \""
                    + jobId + "\"");
        }
    }

    // ---- for tests ------------------------------------------------------------------------------------------------

    /** The current session's id (for tests that expire it). */
    long sessionId() {
        return candidacy.session.sessionId();
    }

    /** The current session's password (for tests that expire it). */
    byte[] sessionPassword() {
        return candidacy.session.sessionPassword();
    }

    /** Sessions the ensemble expired so far. */
    int expiries() {
        return candidacy.session.expiries();
    }

    /** This member's candidacy znode, or null. */
    String candidacy() {
        return candidacy.node();
    }

    /**
     * Leaves the election: ends the session, which deletes this member's candidacy at once (the next member takes the
     * role without waiting for a timeout). Idempotent.
     */
    @Override
    public void close() {
        candidacy.markClosed();
        candidacy.session.close();
        roles.close();
    }

    @Override
    public String toString() {
        return "WriterElection[" + name + ", job " + jobId + "]";
    }

    /**
     * Collects the settings of a member of a {@link WriterElection}; every setter checks its argument at once.
     *
     * <p>Not thread-safe; use one builder per thread.
     *
     * @since 0.1
     */
    public static final class Builder {

        /**
         * The default session timeout: 10 s. A writer that dies is replaced within about this long; a shorter one
         * replaces it sooner and takes a pause of that length (a long garbage collection) for a death.
         */
        public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);

        final String connectString;
        final String path;
        final String jobId;
        String name = "pid " + ProcessHandle.current().pid();
        Duration sessionTimeout = DEFAULT_SESSION_TIMEOUT;
        Duration connectionLossTimeout = ZooKeeperEpochSource.Builder.DEFAULT_CONNECTION_LOSS_TIMEOUT;
        ZKClientConfig clientConfig;
        RandomGenerator random;
        Executor executor = ForkJoinPool.commonPool();
        Listener listener;

        Builder(String connectString, String path, String jobId) {
            this.connectString = Objects.requireNonNull(connectString, "connectString");
            this.path = Objects.requireNonNull(path, "path");
            this.jobId = Objects.requireNonNull(jobId, "jobId");
            if (jobId.isEmpty()) {
                throw new IllegalArgumentException("jobId must not be empty");
            }
        }

        /**
         * Names this member in the ensemble (its candidacy's data), in logs and in {@link JobRunningException}s; the
         * default is {@code pid <process id>}.
         *
         * @param name 1 to 200 characters, say the host and process
         * @return this builder
         * @throws NullPointerException     if {@code name} is null
         * @throws IllegalArgumentException if {@code name} is empty or longer than 200 characters
         */
        public Builder name(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isEmpty() || name.length() > 200) {
                throw new IllegalArgumentException("name must be 1 to 200 characters: " + name.length());
            }
            this.name = name;
            return this;
        }

        /**
         * Sets the ZooKeeper session timeout (default 10 s; the ensemble bounds it to [2, 20] ticks): the time after
         * which a member the ensemble no longer hears from loses its candidacy, and so, with one tick and a few round
         * trips, the time another takes to replace a writer that died.
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
         * Sets how long {@link #join()}, {@link WriterElection#isCurrent} and {@link WriterElection#deleteJob} wait for
         * an unreachable ensemble before they fail (default 60 s). The election itself waits for the ensemble as long
         * as the member is open.
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
         * Sets where the tokens in candidacies' names and epoch records come from; by default a {@link SecureRandom}.
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
         * Sets the listener told of every change of this member's role (none by default; {@link #role()} can be
         * polled instead).
         *
         * @param listener the listener
         * @return this builder
         * @throws NullPointerException if {@code listener} is null
         */
        public Builder listener(Listener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * Sets where the listener is called (by default {@link ForkJoinPool#commonPool()}); calls run one at a time,
         * in order, whatever the executor. A call the executor rejects runs on the thread that noticed the change.
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
         * Joins the election: opens a ZooKeeper session, waits until it is connected (at most the connection-loss
         * timeout), creates the job's counter (and the path above it) if it has none, registers this member and, if
         * it is the first, makes it the writer before returning. Otherwise it competes from then on, on ZooKeeper's
         * event thread.
         *
         * @return the member
         * @throws IllegalArgumentException      if the connect string cannot name a server (the message names it), or
         *                                       the path is malformed, {@code /} or under {@code /zookeeper}
         * @throws IllegalStateException         if the job's counter holds something other than a counter record
         * @throws ZooKeeperUnavailableException if no server could be reached in time
         */
        public WriterElection join() {
            ConnectStrings.check(connectString);
            String checked = ZooKeeperDataspace.Builder.checkPath("path", "/volpex/epochs", path);
            WriterElection election = new WriterElection(this, checked);
            try {
                Candidacy candidacy = election.candidacy;
                long deadline = candidacy.counters.deadline();
                if (!candidacy.session.awaitConnected(deadline)) {
                    throw new ZooKeeperUnavailableException(connectString, connectionLossTimeout, "joining the "
                            + "writer election of job \"" + jobId + "\"");
                }
                try {
                    candidacy.counters.ensureCounter(jobId);
                    if (candidacy.counters.read(candidacy.counter, deadline, "joining") == null) {
                        throw new IllegalStateException("the epoch counter " + candidacy.counter + " vanished while "
                                + "joining its election");
                    }
                } catch (IOException ex) {
                    throw new ZooKeeperUnavailableException(connectString, connectionLossTimeout, "joining the "
                            + "writer election of job \"" + jobId + "\"");
                }
                candidacy.start();
                return election;
            } catch (RuntimeException | Error ex) {
                election.close();
                throw ex;
            }
        }
    }
}
