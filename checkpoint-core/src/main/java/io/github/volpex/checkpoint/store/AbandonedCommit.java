package io.github.volpex.checkpoint.store;

import java.util.Objects;

/**
 * A commit that {@link CheckpointStore#close(java.time.Duration)} abandoned because it had not completed in time: the
 * same facts as the {@link CommitAbandonedException} its stage (or its synchronous caller) received.
 *
 * @param jobId              the job
 * @param sequence           the commit's sequence number, or {@code -1} if it had not taken one
 * @param started            whether it had started writing ({@code false}: it was waiting and wrote nothing)
 * @param reachedCommitPoint whether it was writing its commit markers, so that the new checkpoint may count
 * @since 0.1
 */
public record AbandonedCommit(String jobId, long sequence, boolean started, boolean reachedCommitPoint) {

    /**
     * Validates the components.
     *
     * @param jobId              the job
     * @param sequence           the sequence number, or {@code -1}
     * @param started            whether it had started writing
     * @param reachedCommitPoint whether it may have reached its commit point
     * @throws NullPointerException if {@code jobId} is null
     */
    public AbandonedCommit {
        Objects.requireNonNull(jobId, "jobId");
    }
}
