package io.github.volpex.checkpoint.store;

import java.util.List;

/**
 * Thrown when a commit did not complete. The previous committed checkpoint is untouched and stays recoverable, and
 * the next successful commit removes what this one left behind.
 *
 * <p>Whether the new checkpoint counts depends on how far the commit went: if it never
 * {@linkplain #reachedCommitPoint() reached its commit point}, it never counts — recovery, repair and collection ignore
 * it. If it did, or may have (a commit marker was stored, or a marker whose storing could not be confirmed could not be
 * removed either), it is left whole — every fragment and index copy in place — and counts wherever a marker of it is
 * found: recovery may return it rather than the previous one, and the next repair or collection completes its markers.
 * Never does a commit leave a marker of the new checkpoint without its index and fragments.
 *
 * @since 0.1
 */
public class CommitFailedException extends CheckpointStoreException {

    private static final long serialVersionUID = 1L;

    /** How many index copies were written. */
    private final int indexCopiesWritten;
    /** Whether a commit marker was stored. */
    private final boolean reachedCommitPoint;

    /**
     * Creates the exception.
     *
     * @param jobId              the job
     * @param sequence           the sequence number of the failed commit
     * @param indexCopiesWritten how many copies of the new index were written
     * @param reachedCommitPoint whether the new checkpoint reached or may have reached its commit point (a commit
     *                           marker was stored, or may have been and could not be removed)
     * @param message            why the commit failed
     * @param failures           the repository calls that failed
     * @throws NullPointerException if {@code jobId} or {@code failures} is null
     */
    public CommitFailedException(String jobId, long sequence, int indexCopiesWritten, boolean reachedCommitPoint,
                                 String message, List<FragmentFailure> failures) {
        super("commit of " + jobId + " #" + sequence + " failed" + (reachedCommitPoint
                ? " at or after its commit point (the new checkpoint counts where a marker of it is found)"
                : " before its commit point (the new checkpoint does not count)")
                + ": " + message + "; " + failures, jobId, sequence, failures);
        this.indexCopiesWritten = indexCopiesWritten;
        this.reachedCommitPoint = reachedCommitPoint;
    }

    /**
     * Returns how many copies of the new index were written before the commit gave up.
     *
     * @return the count, verified by listing the repositories
     */
    public int indexCopiesWritten() {
        return indexCopiesWritten;
    }

    /**
     * Tells whether the new checkpoint reached its commit point before the commit gave up, or may have: it is then left
     * whole and counts wherever a commit marker of it is found.
     *
     * @return {@code true} if a commit marker of the new checkpoint was stored, or may have been and could not be
     *         removed; {@code false} if the new checkpoint never counts
     */
    public boolean reachedCommitPoint() {
        return reachedCommitPoint;
    }
}
