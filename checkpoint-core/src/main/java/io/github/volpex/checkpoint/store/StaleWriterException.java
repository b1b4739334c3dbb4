package io.github.volpex.checkpoint.store;

import java.util.List;

/**
 * Thrown when a store refuses to commit because a newer writer of the job exists: its {@link EpochSource} says its
 * epoch is no longer current, or it found objects of the job under a greater epoch. Nothing of the new checkpoint
 * counts, and nothing of the newer writer's is touched. The writer should stop: another process has taken the job
 * over.
 *
 * @since 0.1
 */
public class StaleWriterException extends CommitFailedException {

    private static final long serialVersionUID = 1L;

    /** This writer's epoch. */
    private final long epoch;
    /** The newer writer's epoch, or -1 if the epoch source only said this one is stale. */
    private final long newerEpoch;

    /**
     * Creates the exception.
     *
     * @param jobId      the job
     * @param sequence   the sequence number the refused commit would have had
     * @param epoch      this writer's epoch
     * @param newerEpoch the greater epoch found, or {@code -1} if the epoch source only said this one is stale
     * @param failures   what failed before the refusal
     * @throws NullPointerException if {@code jobId} or {@code failures} is null
     */
    public StaleWriterException(String jobId, long sequence, long epoch, long newerEpoch,
                                List<FragmentFailure> failures) {
        super(jobId, sequence, 0, false, "the writer's epoch " + epoch + " is stale: "
                + (newerEpoch >= 0 ? "objects of epoch " + newerEpoch + " exist" : "the epoch source has a newer one"),
                failures);
        this.epoch = epoch;
        this.newerEpoch = newerEpoch;
    }

    /**
     * Returns the epoch of the refused writer.
     *
     * @return the epoch
     */
    public long epoch() {
        return epoch;
    }

    /**
     * Returns the newer writer's epoch, when the store saw its objects.
     *
     * @return the greater epoch, or {@code -1} if only the epoch source said this writer is stale
     */
    public long newerEpoch() {
        return newerEpoch;
    }
}
