package io.github.volpex.checkpoint.store;

import java.util.concurrent.CompletableFuture;
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
    /** Completes with the stage of the commit that started last, which the next one waits for; guarded by the lock. */
    CompletableFuture<FragmentIndex> lastStarted = CompletableFuture.completedFuture(null);

    Job(String id) {
        this.id = id;
    }
}
