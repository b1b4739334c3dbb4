package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.zookeeper.WriterElection.Listener;
import io.github.volpex.dataspace.zookeeper.WriterElection.Role;
import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What readers of a {@link WriterElection} member see — its role, the epoch of its term, how many terms it began —
 * and the listener told of every change, on the executor, one call at a time and in order. A closed member stays
 * closed. Thread-safe.
 */
final class RoleState {

    private static final Logger LOG = LoggerFactory.getLogger(WriterElection.class);

    private final String member;
    private final String jobId;
    private final Executor executor;
    private final Listener listener;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private Role role = Role.CANDIDATE;
    private long epoch = -1;
    private long terms;
    /** The epoch of the last term begun: a reconnection under the same epoch is not a new term. */
    private long lastTerm = -1;

    private final ConcurrentLinkedQueue<Runnable> notices = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean notifying = new AtomicBoolean();

    /**
     * @param member   the member as logs name it
     * @param jobId    the job whose writer is elected
     * @param executor where the listener runs
     * @param listener told of every change, or null
     */
    RoleState(String member, String jobId, Executor executor, Listener listener) {
        this.member = member;
        this.jobId = jobId;
        this.executor = executor;
        this.listener = listener;
    }

    Role role() {
        lock.lock();
        try {
            return role;
        } finally {
            lock.unlock();
        }
    }

    /** The epoch of the current term while the member is the writer. */
    OptionalLong epoch() {
        lock.lock();
        try {
            return role == Role.WRITER ? OptionalLong.of(epoch) : OptionalLong.empty();
        } finally {
            lock.unlock();
        }
    }

    long terms() {
        lock.lock();
        try {
            return terms;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until the member is the writer, it is closed or the timeout passes; tells whether it writes. */
    boolean awaitWriter(Duration timeout) throws InterruptedException {
        long left = timeout.toNanos();
        lock.lock();
        try {
            while (role == Role.CANDIDATE) {
                if (left <= 0) {
                    return false;
                }
                left = changed.awaitNanos(left);
            }
            return role == Role.WRITER;
        } finally {
            lock.unlock();
        }
    }

    /** The epoch of the current term, or an {@link IOException} saying why the member is not the writer now. */
    long writerEpoch(String describe) throws IOException {
        lock.lock();
        try {
            if (role != Role.WRITER) {
                throw new IOException(describe + " does not hold the writer role of job \"" + jobId + "\" ("
                        + role.name().toLowerCase(Locale.ROOT) + ")");
            }
            return epoch;
        } finally {
            lock.unlock();
        }
    }

    /** Elected under {@code epoch}: a new term unless it is the epoch of the last one. */
    void elect(long epoch) {
        set(Role.WRITER, epoch);
    }

    /** Not the writer now. */
    void demote() {
        set(Role.CANDIDATE, -1);
    }

    /** Closed, for good. */
    void close() {
        set(Role.CLOSED, -1);
    }

    private void set(Role next, long nextEpoch) {
        Role before;
        long ended;
        lock.lock();
        try {
            before = role;
            if (before == Role.CLOSED || (before == next && epoch == nextEpoch)) {
                return;
            }
            ended = epoch;
            role = next;
            epoch = next == Role.WRITER ? nextEpoch : -1;
            if (next == Role.WRITER && nextEpoch != lastTerm) {
                terms++;
                lastTerm = nextEpoch;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (next == Role.WRITER) {
            LOG.info("{}: elected writer of job {} under epoch {}", member, jobId, nextEpoch);
        } else if (before == Role.WRITER) {
            LOG.info("{}: no longer the writer of job {} (epoch {}): {}", member, jobId, ended, next);
        }
        if (listener != null) {
            long told = next == Role.WRITER ? nextEpoch : before == Role.WRITER ? ended : -1;
            notify(() -> listener.roleChanged(next, told));
        }
    }

    /** Runs the listener's calls on the executor, one at a time, in order. */
    private void notify(Runnable notice) {
        notices.add(notice);
        if (notifying.compareAndSet(false, true)) {
            try {
                executor.execute(this::drainNotices);
            } catch (RejectedExecutionException ex) {
                drainNotices();
            }
        }
    }

    private void drainNotices() {
        do {
            for (Runnable notice; (notice = notices.poll()) != null; ) {
                try {
                    notice.run();
                } catch (RuntimeException ex) {
                    LOG.warn("the listener of {} failed", member, ex);
                }
            }
            notifying.set(false);
        } while (!notices.isEmpty() && notifying.compareAndSet(false, true));
    }
}
