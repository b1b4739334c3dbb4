package io.github.volpex.checkpoint.store;

import java.util.List;

/**
 * Thrown when a commit could not store every fragment of the new checkpoint and enough copies of its index. The
 * previous checkpoint is untouched and stays recoverable. If some index copies were written
 * ({@link #indexCopiesWritten()} {@code > 0}), recovery may return the new checkpoint (it is complete), otherwise it
 * returns the previous one; either way the next successful commit removes what this one left behind.
 *
 * @since 0.1
 */
public class CommitFailedException extends CheckpointStoreException {

    private static final long serialVersionUID = 1L;

    /** How many index copies were written. */
    private final int indexCopiesWritten;

    /**
     * Creates the exception.
     *
     * @param jobId              the job
     * @param sequence           the sequence number of the failed commit
     * @param indexCopiesWritten how many copies of the new index were written
     * @param message            why the commit failed
     * @param failures           the repository calls that failed
     * @throws NullPointerException if {@code jobId} or {@code failures} is null
     */
    public CommitFailedException(String jobId, long sequence, int indexCopiesWritten, String message,
                                 List<FragmentFailure> failures) {
        super("commit of " + jobId + " #" + sequence + " failed: " + message + "; " + failures, jobId, sequence,
                failures);
        this.indexCopiesWritten = indexCopiesWritten;
    }

    /**
     * Returns how many copies of the new index were written before the commit gave up.
     *
     * @return the count; {@code 0} means recovery cannot see the new checkpoint
     */
    public int indexCopiesWritten() {
        return indexCopiesWritten;
    }
}
