package io.github.volpex.checkpoint.store;

import java.util.List;

/**
 * Thrown when a checkpoint cannot be rebuilt: fewer than {@code m} of its fragments could be fetched and verified.
 * The fields say which fragments failed and why; nothing was lost that more available repositories could not bring
 * back, so retrying later may succeed.
 *
 * @since 0.1
 */
public class CheckpointUnavailableException extends CheckpointStoreException {

    private static final long serialVersionUID = 1L;

    /** How many verified fragments were needed. */
    private final int required;
    /** How many were verified. */
    private final int verified;

    /**
     * Creates the exception.
     *
     * @param jobId    the job
     * @param sequence the checkpoint's sequence number
     * @param required how many verified fragments are needed ({@code m})
     * @param verified how many were verified
     * @param failures what failed, one entry per fragment that could not be used
     * @throws NullPointerException if {@code jobId} or {@code failures} is null
     */
    public CheckpointUnavailableException(String jobId, long sequence, int required, int verified,
                                          List<FragmentFailure> failures) {
        this("checkpoint " + jobId + " #" + sequence + " needs " + required + " verified fragments, got " + verified
                + ": " + failures, jobId, sequence, required, verified, failures);
    }

    /**
     * Creates the exception with a message of the subclass's own.
     *
     * @param message  the detail message
     * @param jobId    the job
     * @param sequence the checkpoint's sequence number, {@code -1} if no checkpoint was found
     * @param required how many verified fragments are needed ({@code m}), {@code 0} if no checkpoint was found
     * @param verified how many were verified
     * @param failures what failed
     * @throws NullPointerException if {@code jobId} or {@code failures} is null
     */
    protected CheckpointUnavailableException(String message, String jobId, long sequence, int required, int verified,
                                             List<FragmentFailure> failures) {
        super(message, jobId, sequence, failures);
        this.required = required;
        this.verified = verified;
    }

    /**
     * Returns how many verified fragments rebuild the checkpoint.
     *
     * @return {@code m}
     */
    public int required() {
        return required;
    }

    /**
     * Returns how many fragments were fetched and verified.
     *
     * @return the count, less than {@link #required()} (both 0 when no checkpoint was found)
     */
    public int verified() {
        return verified;
    }
}
