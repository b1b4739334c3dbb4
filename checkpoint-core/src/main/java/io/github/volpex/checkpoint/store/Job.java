package io.github.volpex.checkpoint.store;

import java.lang.ref.SoftReference;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One job as a store sees it: the lock that serialises its operations, what the store remembers of it, and the queue
 * of its commits.
 */
final class Job {

    final String id;
    final ReentrantLock lock = new ReentrantLock();
    final JobState state = new JobState();
    final CommitQueue<Persists.Persist> commits = new CommitQueue<>();
    /** The commit that started last, whose delivery the next one waits for, or null; guarded by the lock. */
    Persists.Persist lastStarted;

    /**
     * The array of the last asynchronous snapshot whose persist ended, kept for the next snapshot to copy into, or
     * null. Softly referenced, so the collector frees it before the heap runs out.
     */
    private final AtomicReference<SoftReference<byte[]>> spare = new AtomicReference<>();

    Job(String id) {
        this.id = id;
    }

    /** Takes the spare snapshot array, if one is kept and not yet freed; the job keeps none after this call. */
    byte[] takeSpare() {
        SoftReference<byte[]> kept = spare.getAndSet(null);
        return kept == null ? null : kept.get();
    }

    /**
     * Keeps {@code array}, a snapshot whose persist ended and which nothing reads any more, for the next snapshot,
     * unless one is kept already.
     */
    void offerSpare(byte[] array) {
        spare.compareAndSet(null, new SoftReference<>(array));
    }

    /** Drops the spare snapshot array. */
    void dropSpare() {
        spare.set(null);
    }
}
