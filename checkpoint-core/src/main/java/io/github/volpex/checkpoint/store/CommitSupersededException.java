package io.github.volpex.checkpoint.store;

import java.util.List;

/**
 * How the stage of an {@linkplain CheckpointStore#commitAsync asynchronous commit} completes when a newer commit of
 * the same job took its place while it waited for the one in flight: its snapshot was never written and nothing of it
 * is stored. The newer commit's stage tells whether the job's state was persisted. Not a failure of the repositories:
 * the job simply checkpointed faster than they could take it.
 *
 * @since 0.1
 */
public class CommitSupersededException extends CommitFailedException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param jobId the job
     * @throws NullPointerException if {@code jobId} is null
     */
    public CommitSupersededException(String jobId) {
        super(jobId, -1, 0, false, "superseded by a newer commit of the job before it started", List.of());
    }
}
