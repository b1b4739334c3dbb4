package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.checkpoint.store.JobRunningException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-job epoch counters under one path, over one session: the one mechanism behind both
 * {@link ZooKeeperEpochSource} (a writer takes the next epoch) and {@link WriterElection} (the elected writer takes
 * it, on the condition that it still is the elected one). Every call here blocks its caller until it has an answer or
 * the connection-loss timeout passes, so it runs on callers' threads, never on ZooKeeper's event thread.
 *
 * <p>A counter is the znode {@code <path>/<job name>} holding a 29-byte record (see {@link ZooKeeperEpochSource});
 * the candidates of a job's writer election are its ephemeral children ({@link WriterElection}).
 */
final class EpochCounters {

    private static final Logger LOG = LoggerFactory.getLogger(EpochCounters.class);

    /** The first four bytes of a counter: "VPZE". */
    static final int MAGIC = 0x56505A45;
    /** The counter's format. */
    static final byte FORMAT = 1;
    /** Bytes of a counter record. */
    static final int RECORD_BYTES = 4 + 1 + 8 + 16;
    private static final byte[] EMPTY = new byte[0];
    /** Pause between attempts while a connection loss is being noticed. */
    private static final long RETRY_PAUSE_MILLIS = 10;

    private final Session session;
    private final String connectString;
    private final String path;
    private final Duration connectionLossTimeout;
    /** What the owner is called in "closed" messages: "the epoch source", "the writer election". */
    private final String owner;

    EpochCounters(Session session, String connectString, String path, Duration connectionLossTimeout, String owner) {
        this.session = session;
        this.connectString = connectString;
        this.path = path;
        this.connectionLossTimeout = connectionLossTimeout;
        this.owner = owner;
    }

    /** The znode of a job's counter, {@code <path>/<job name>}. */
    String counterPath(String jobId) {
        Objects.requireNonNull(jobId, "jobId");
        if (jobId.isEmpty()) {
            throw new IllegalArgumentException("jobId must not be empty");
        }
        return path + "/" + TagNames.name(jobId);
    }

    /** A job's counter as read: its epoch, the token of the acquisition that set it, and its znode's version. */
    record Counter(long epoch, byte[] token, int version) {
    }

    /**
     * Sets the job's counter to {@code max(counter, highestSeen) + 1}, creating it (and the path above it) at
     * {@code highestSeen + 1} if the job has none; see {@link ZooKeeperEpochSource#acquire}.
     */
    long acquire(String jobId, long highestSeen, byte[] token) throws IOException {
        String node = counterPath(jobId);
        String during = "acquiring an epoch of job \"" + jobId + "\"";
        long deadline = deadline();
        long attempted = -1; // the epoch of a write whose outcome is unknown
        while (true) {
            Counter read = read(node, deadline, during);
            if (read == null) {
                attempted = -1; // a create whose outcome was unknown did not apply, or was deleted since
                long epoch = highestSeen + 1;
                Session.Result created = session.multi(List.of(Op.create(node, encode(epoch, token), Records.OPEN_ACL,
                        CreateMode.PERSISTENT)));
                if (created.ok()) {
                    LOG.debug("acquired epoch {} of job {} (new counter {})", epoch, jobId, node);
                    return epoch;
                }
                if (created.code() == Code.NONODE) {
                    createPath(deadline, during);
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

    /** Whether {@code epoch} is still the job's newest, linearizably; see {@link ZooKeeperEpochSource#isCurrent}. */
    boolean isCurrent(String jobId, long epoch) throws IOException {
        String node = counterPath(jobId);
        if (epoch < 0) {
            throw new IllegalArgumentException("epoch must be >= 0: " + epoch);
        }
        String during = "checking epoch " + epoch + " of job \"" + jobId + "\"";
        long deadline = deadline();
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
     * Makes sure the job has a counter, creating it (and the path above it) at epoch 0 with a zero token — an epoch no
     * writer holds: an election's first writer takes 1 — if it has none.
     */
    void ensureCounter(String jobId) throws IOException {
        String node = counterPath(jobId);
        String during = "creating the epoch counter of job \"" + jobId + "\"";
        long deadline = deadline();
        while (true) {
            Session.Result created = session.create(node, encode(0, new byte[16]), CreateMode.PERSISTENT);
            if (created.ok() || created.code() == Code.NODEEXISTS) {
                return;
            }
            if (created.code() == Code.NONODE) {
                createPath(deadline, during);
            } else if (created.unknown()) {
                awaitConnection(deadline, during);
            } else {
                throw refused(created.code(), during);
            }
        }
    }

    /**
     * Deletes the job's counter and the parents above it that this package created and that are left empty. Its
     * children are the candidates of the job's writer election, each an ephemeral znode of a live session: with any,
     * the deletion is refused unless {@code force}, which deletes them first (their owners then stop competing).
     * {@code own}, if not null, is a candidate that does not count as live (the caller's own, which it resigns).
     */
    void deleteJob(String jobId, boolean force, String own) throws IOException {
        String node = counterPath(jobId);
        String during = "deleting the epoch counter of job \"" + jobId + "\"";
        long deadline = deadline();
        while (true) {
            Session.Result listed = session.getChildren(node);
            if (listed.unknown()) {
                awaitConnection(deadline, during);
                continue;
            }
            if (listed.code() == Code.NONODE) {
                break;
            }
            if (!listed.ok()) {
                throw refused(listed.code(), during);
            }
            List<String> candidates = new ArrayList<>(listed.children());
            candidates.remove(own);
            if (!candidates.isEmpty() && !force) {
                throw new JobRunningException(jobId, describe(node, candidates, deadline, during));
            }
            if (own != null) {
                candidates.add(own);
            }
            for (String candidate : candidates) {
                deleteOne(node + "/" + candidate, deadline, during);
            }
            Session.Result removed = session.delete(node, -1);
            if (removed.ok() || removed.code() == Code.NONODE) {
                break;
            }
            if (removed.unknown()) {
                awaitConnection(deadline, during);
            } else if (removed.code() != Code.NOTEMPTY) {
                throw refused(removed.code(), during);
            }
            // NOTEMPTY: a candidate joined meanwhile; look again.
        }
        deleteEmptyPath(deadline, during);
        LOG.debug("deleted the epoch counter {} of job {}", node, jobId);
    }

    /** Deletes a znode, waiting through unknown outcomes; a missing one is fine. */
    private void deleteOne(String node, long deadline, String during) throws IOException {
        while (true) {
            Session.Result removed = session.delete(node, -1);
            if (removed.ok() || removed.code() == Code.NONODE) {
                return;
            }
            if (!removed.unknown()) {
                throw refused(removed.code(), during);
            }
            awaitConnection(deadline, during);
        }
    }

    /** "name (writer, epoch 7)" or "name (candidate)" for each live candidate, in election order. */
    private List<String> describe(String node, List<String> candidates, long deadline, String during)
            throws IOException {
        List<String> sorted = new ArrayList<>(candidates);
        sorted.sort(Candidacy.ELECTION_ORDER);
        Counter counter = read(node, deadline, during);
        List<String> described = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i++) {
            Session.Result data = session.getData(node + "/" + sorted.get(i));
            String name = data.ok() && data.data() != null ? new String(data.data(), StandardCharsets.UTF_8)
                    : sorted.get(i);
            described.add(name + (i == 0 && counter != null && counter.epoch() > 0 ? " (writer, epoch "
                    + counter.epoch() + ")" : " (candidate)"));
        }
        return described;
    }

    /**
     * Tells whether the counter still has the version read (−1: any version, so whether it exists), as the ensemble's
     * leader orders it (a one-operation {@code multi} of a version check): the server that answered a read may lag
     * behind writes of other sessions. False if the counter changed or was deleted since (or does not exist).
     */
    boolean confirmed(String node, int version, long deadline, String during) throws IOException {
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

    /** Reads a job's counter; null if the job has none. */
    Counter read(String node, long deadline, String during) throws IOException {
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
                try {
                    return decodeCounter(node, read.data(), version);
                } catch (IllegalStateException notACounter) {
                    // Reported only if it is what the counter holds now, not a lagging server's view.
                    if (confirmed(node, version, deadline, during)) {
                        throw notACounter;
                    }
                }
            }
        }
    }

    /** The counter a record holds, with its znode's version. */
    static Counter decodeCounter(String node, byte[] data, int version) {
        long epoch = decode(node, data);
        return new Counter(epoch, Arrays.copyOfRange(data, RECORD_BYTES - 16, RECORD_BYTES), version);
    }

    /** Creates the path and its missing ancestors, marked as this package's. */
    private void createPath(long deadline, String during) throws IOException {
        withWait(deadline, during, wait -> Parents.create(session, path, true, wait, during));
    }

    /** Deletes the path and the parents above it that this package created, as long as they are empty. */
    private void deleteEmptyPath(long deadline, String during) throws IOException {
        withWait(deadline, during, wait -> Parents.deleteEmpty(session, path, true, wait, during));
    }

    /** Runs {@code work} with a connection wait that throws this class's {@link IOException}s through it. */
    private void withWait(long deadline, String during, Consumer<Listing.ConnectionWait> work)
            throws IOException {
        try {
            work.accept(ignored -> {
                try {
                    awaitConnection(deadline, during);
                } catch (IOException ex) {
                    throw new Unreachable(ex);
                }
            });
        } catch (Unreachable ex) {
            throw ex.io;
        }
    }

    /** Carries an {@link IOException} through a connection wait that cannot throw it. */
    private static final class Unreachable extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient IOException io;

        Unreachable(IOException io) {
            super(io.getMessage(), io, false, false);
            this.io = io;
        }
    }

    long deadline() {
        return System.nanoTime() + connectionLossTimeout.toNanos();
    }

    /** After an unknown outcome: waits for the session to be connected, or throws once the deadline has passed. */
    void awaitConnection(long deadlineNanos, String during) throws IOException {
        if (session.closed()) {
            throw new IllegalStateException(owner + " is closed");
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
                throw new IllegalStateException(owner + " is closed");
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted while " + during);
            }
            throw new IOException(new ZooKeeperUnavailableException(connectString, connectionLossTimeout, during)
                    .getMessage());
        }
    }

    IOException refused(Code code, String during) {
        if (session.closed()) {
            throw new IllegalStateException(owner + " is closed");
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
}
