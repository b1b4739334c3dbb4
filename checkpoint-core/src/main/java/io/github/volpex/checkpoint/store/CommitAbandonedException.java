package io.github.volpex.checkpoint.store;

import java.util.List;

/**
 * How a commit ends when {@link CheckpointStore#close(java.time.Duration)} gave up waiting for it: the stage of an
 * asynchronous commit completes with it, and a synchronous commit that was waiting for its turn or still writing
 * throws it. A commit that had not {@linkplain #started() started} wrote nothing. One that had is stopped at its next
 * step, leaving what it wrote for the next commit to delete — unless it was already writing its commit markers: then
 * it may still complete, and {@link #reachedCommitPoint()} is {@code true} (the new checkpoint counts wherever a marker
 * of it is found). Either way, the job's previous checkpoint is intact.
 *
 * @since 0.1
 */
public class CommitAbandonedException extends CommitFailedException {

    private static final long serialVersionUID = 1L;

    /** Whether the commit had started writing. */
    private final boolean started;

    /**
     * Creates the exception.
     *
     * @param jobId              the job
     * @param sequence           the commit's sequence number, or {@code -1} if it had not taken one
     * @param started            whether the commit had started writing
     * @param reachedCommitPoint whether the commit was writing its commit markers, so that the new checkpoint may
     *                           count
     * @throws NullPointerException if {@code jobId} is null
     */
    public CommitAbandonedException(String jobId, long sequence, boolean started, boolean reachedCommitPoint) {
        super(jobId, sequence, 0, reachedCommitPoint, "abandoned when the store was closed "
                + (started ? "while it was being written" : "before it started"), List.of());
        this.started = started;
    }

    /**
     * Tells whether the commit had started writing when it was abandoned.
     *
     * @return {@code false} if it was waiting for its turn and wrote nothing
     */
    public boolean started() {
        return started;
    }
}
