package io.github.volpex.dataspace.zookeeper;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.client.ZKClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member's side of a {@link WriterElection}: its ZooKeeper session, its candidacy under the job's epoch counter,
 * and the passes that register it, find its place in the election order, watch the member ahead or take the next
 * epoch, and tell the {@link RoleState} what came of it. Passes never overlap: a request that comes during one makes
 * it run once more. Thread-safe.
 */
final class Candidacy {

    private static final Logger LOG = LoggerFactory.getLogger(WriterElection.class);
    /** The name of every candidacy: the prefix, a 16-hex-digit token, a dash, then ZooKeeper's sequence number. */
    private static final String CANDIDATE_PREFIX = "c-";
    private static final HexFormat HEX = HexFormat.of();

    /** Candidacies by their sequence number: the order of the election. */
    static final Comparator<String> ELECTION_ORDER = Comparator.comparingLong(Candidacy::sequenceOf)
            .thenComparing(Comparator.naturalOrder());

    final Session session;
    final EpochCounters counters;
    /** The job's epoch counter, whose children the candidacies are. */
    final String counter;
    private final String jobId;
    private final byte[] name;
    private final RandomGenerator random;
    private final RoleState roles;
    private final String member;

    /** Passes asked for and not yet run: the one thread that finds it at 0 runs them all. */
    private final AtomicInteger passes = new AtomicInteger();
    private volatile boolean started;
    private volatile boolean closed;

    // Touched by passes only (one at a time).
    /**
     * This member's candidacy, or null (volatile: {@link WriterElection#deleteJob} reads it on its caller's thread).
     */
    private volatile String node;
    /** The session that created it. */
    private long nodeSession;
    /** The token of a create whose outcome is unknown, or null. */
    private String pendingCandidacy;
    /** The epoch this member took for its candidacy, or -1. */
    private long held = -1;
    /** The token written with it. */
    private byte[] heldToken;
    /** The token of an acquisition whose outcome is unknown, or null. */
    private byte[] pendingAcquisition;

    /** Opens the member's session (it competes once {@link #start()} is called). */
    Candidacy(WriterElection.Builder builder, String path, RoleState roles, String member) {
        this.jobId = builder.jobId;
        this.name = builder.name.getBytes(StandardCharsets.UTF_8);
        this.random = builder.random != null ? builder.random : new SecureRandom();
        this.roles = roles;
        this.member = member;
        ZKClientConfig config = builder.clientConfig != null ? builder.clientConfig : new ZKClientConfig();
        this.session = new Session(builder.connectString, (int) builder.sessionTimeout.toMillis(), config,
                event -> requestPass(), this::requestPass);
        this.counters = new EpochCounters(session, builder.connectString, path, builder.connectionLossTimeout,
                "the writer election");
        this.counter = counters.counterPath(jobId);
    }

    /** Starts competing: runs the first pass on this thread. */
    void start() {
        started = true;
        requestPass();
    }

    boolean closed() {
        return closed;
    }

    /** Stops competing (the session is closed by the caller). */
    void markClosed() {
        closed = true;
    }

    /** This member's candidacy znode, or null. */
    String node() {
        return node;
    }

    /**
     * Runs a pass now on this thread, unless one is running (then that one runs another when it is done): passes
     * never overlap, and a request that comes during a pass is never lost.
     */
    void requestPass() {
        if (!started || passes.getAndIncrement() > 0) {
            return;
        }
        do {
            passes.set(1);
            try {
                pass();
            } catch (RuntimeException ex) {
                LOG.warn("the writer election of job {} failed a step; it tries again at the next event", jobId, ex);
            }
        } while (passes.decrementAndGet() > 0);
    }

    /**
     * One step of the election: each call synchronous and answered at once when the client is disconnected, so it
     * never waits for a connection (a connection event starts the next pass).
     */
    private void pass() {
        while (!closed) {
            if (!session.connected()) {
                suspend();
                return;
            }
            long sessionId = session.sessionId();
            if (node != null && nodeSession != sessionId) {
                LOG.info("{}: its session expired; it competes again", this);
                forget(); // the old session's candidacy is gone with it
            }
            if (node == null && !register(sessionId)) {
                return;
            }
            Session.Result listed = session.getChildren(counter);
            if (listed.unknown()) {
                suspend();
                return;
            }
            if (listed.code() == Code.NONODE) {
                jobDeleted();
                return;
            }
            if (!listed.ok()) {
                LOG.warn("{}: listing the candidates failed: {}", this, listed.code());
                return;
            }
            List<String> candidates = new ArrayList<>(listed.children());
            candidates.sort(ELECTION_ORDER);
            String own = node.substring(node.lastIndexOf('/') + 1);
            int place = candidates.indexOf(own);
            if (place < 0) {
                forget(); // deleted under it (a forced clean-up, an operator): register again
                continue;
            }
            if (place > 0) {
                Session.Result ahead = session.existsWatched(counter + "/" + candidates.get(place - 1));
                if (ahead.code() == Code.NONODE) {
                    continue; // it left meanwhile: look again
                }
                if (!ahead.ok()) {
                    suspend();
                    return;
                }
                demote();
                return;
            }
            Session.Result self = session.existsWatched(node); // learns of its deletion
            if (self.code() == Code.NONODE) {
                forget();
                continue;
            }
            if (!self.ok()) {
                suspend();
                return;
            }
            if (!takeEpoch()) {
                return;
            }
            if (node != null && held >= 0) {
                elect();
                return;
            }
        }
    }

    /**
     * Registers this member's candidacy in the current session, or finds the one a create with a lost reply made.
     *
     * @return whether it has one now
     */
    private boolean register(long sessionId) {
        if (pendingCandidacy != null) {
            Session.Result listed = session.getChildren(counter);
            if (!listed.ok()) {
                if (listed.code() == Code.NONODE) {
                    jobDeleted();
                }
                return false;
            }
            for (String child : listed.children()) {
                if (child.startsWith(CANDIDATE_PREFIX + pendingCandidacy + "-")) {
                    Session.Result stat = session.exists(counter + "/" + child);
                    if (stat.ok() && stat.stat().getEphemeralOwner() == sessionId) {
                        adopt(counter + "/" + child, sessionId);
                        return true;
                    }
                }
            }
            pendingCandidacy = null; // it did not apply, or belonged to an older session: create again
        }
        String token = HEX.toHexDigits(random.nextLong());
        pendingCandidacy = token;
        Session.Result created = session.createSequential(counter + "/" + CANDIDATE_PREFIX + token + "-", name,
                CreateMode.EPHEMERAL_SEQUENTIAL);
        if (created.ok()) {
            if (created.stat().getEphemeralOwner() != sessionId) {
                return false; // made by a session that replaced the one this pass began with: next pass
            }
            adopt(created.children().get(0), sessionId);
            return true;
        }
        if (created.code() == Code.NONODE) {
            jobDeleted();
        } else if (!created.unknown()) {
            LOG.warn("{}: registering failed: {}", this, created.code());
            pendingCandidacy = null;
        }
        return false;
    }

    private void adopt(String path, long sessionId) {
        node = path;
        nodeSession = sessionId;
        pendingCandidacy = null;
        LOG.debug("{}: candidacy {}", this, path);
    }

    /**
     * Takes the next epoch of the counter on the condition that this member's candidacy exists, or confirms the one
     * it took; forgets the candidacy if it is gone.
     *
     * @return false if the pass must stop (an unknown outcome, or the job is gone)
     */
    private boolean takeEpoch() {
        Session.Result read = session.getData(counter);
        if (read.code() == Code.NONODE) {
            jobDeleted();
            return false;
        }
        if (!read.ok()) {
            suspend();
            return false;
        }
        EpochCounters.Counter current;
        try {
            current = EpochCounters.decodeCounter(counter, read.data(), read.stat().getVersion());
        } catch (IllegalStateException notACounter) {
            LOG.error("{}: cannot take an epoch: {}", this, notACounter.getMessage());
            demote();
            return false;
        }
        if (held >= 0) {
            if (current.epoch() == held && Arrays.equals(current.token(), heldToken)) {
                return true; // still its epoch (a reconnection with the same session)
            }
            LOG.info("{}: epoch {} was taken over outside the election (the counter holds {}); taking a new one",
                    this, held, current.epoch());
            demote();
            held = -1;
        }
        if (pendingAcquisition != null && Arrays.equals(current.token(), pendingAcquisition)) {
            held = current.epoch(); // the acquisition whose reply was lost applied
            heldToken = pendingAcquisition;
            pendingAcquisition = null;
            return true;
        }
        if (current.epoch() == Long.MAX_VALUE) {
            LOG.error("{}: the epoch counter {} has reached Long.MAX_VALUE", this, counter);
            return false;
        }
        byte[] token = new byte[16];
        ByteBuffer.wrap(token).putLong(random.nextLong()).putLong(random.nextLong());
        long next = current.epoch() + 1;
        pendingAcquisition = token;
        Session.Result taken = session.multi(List.of(Op.check(node, -1),
                Op.setData(counter, EpochCounters.encode(next, token), current.version())));
        if (taken.ok()) {
            held = next;
            heldToken = token;
            pendingAcquisition = null;
            return true;
        }
        if (taken.unknown()) {
            suspend();
            return false; // the next pass reads the counter and tells by the token
        }
        pendingAcquisition = null;
        List<OpResult> results = taken.results();
        if (results != null && results.size() == 2 && results.get(0) instanceof OpResult.ErrorResult own
                && own.getErr() == Code.NONODE.intValue()) {
            forget(); // the candidacy is gone: register again
        }
        return true; // the counter changed (or the candidacy went): the pass looks again
    }

    /** The candidacy is gone or belongs to an older session: nothing of it holds. */
    private void forget() {
        node = null;
        held = -1;
        heldToken = null;
        pendingAcquisition = null;
        demote();
    }

    private void elect() {
        roles.elect(held);
    }

    /** Not the writer now (disconnected, or not first); the candidacy and its epoch are kept. */
    private void suspend() {
        demote();
    }

    private void demote() {
        roles.demote();
    }

    /** The job's counter is gone (the job was deleted): stop competing. */
    private void jobDeleted() {
        LOG.info("{}: the job's epoch counter {} is gone (the job was deleted); it competes no more", this, counter);
        closed = true;
        node = null;
        held = -1;
        roles.close();
        session.close();
    }

    /** The sequence number at the end of a candidacy's name; candidacies of other shapes sort last. */
    static long sequenceOf(String candidate) {
        int dash = candidate.lastIndexOf('-');
        try {
            return Long.parseLong(candidate.substring(dash + 1));
        } catch (NumberFormatException ex) {
            return Long.MAX_VALUE;
        }
    }


    @Override
    public String toString() {
        return member;
    }
}
