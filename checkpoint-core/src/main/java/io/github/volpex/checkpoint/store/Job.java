package io.github.volpex.checkpoint.store;

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

    Job(String id) {
        this.id = id;
    }
}
