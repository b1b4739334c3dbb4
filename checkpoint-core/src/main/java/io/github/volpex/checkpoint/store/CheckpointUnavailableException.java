package io.github.volpex.checkpoint.store;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.Objects;

/**
 * Thrown when a checkpoint cannot be rebuilt: fewer than {@code m} of its fragments could be fetched and verified.
 * The fields say which fragments failed and why; nothing was lost that more available repositories could not bring
 * back, so retrying later may succeed.
 *
 * @since 0.1
 */
public class CheckpointUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The job. */
    private final String jobId;
    /** The checkpoint's sequence number. */
    private final long sequence;
    /** How many verified fragments were needed. */
    private final int required;
    /** How many were verified. */
    private final int verified;
    /** What failed; written and read by {@link #writeObject} and {@link #readObject}. */
    private transient List<FragmentFailure> failures;

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
        super("checkpoint " + jobId + " #" + sequence + " needs " + required + " verified fragments, got " + verified
                + ": " + failures);
        this.jobId = Objects.requireNonNull(jobId, "jobId");
        this.sequence = sequence;
        this.required = required;
        this.verified = verified;
        this.failures = List.copyOf(failures);
    }

    /**
     * Returns the job.
     *
     * @return the job id
     */
    public String jobId() {
        return jobId;
    }

    /**
     * Returns the sequence number of the checkpoint that could not be rebuilt.
     *
     * @return the sequence number
     */
    public long sequence() {
        return sequence;
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
     * @return the count, less than {@link #required()}
     */
    public int verified() {
        return verified;
    }

    /**
     * Returns what failed.
     *
     * @return one entry per fragment that could not be used, an unmodifiable list
     */
    public List<FragmentFailure> failures() {
        return failures;
    }

    /**
     * Writes the fields and then the failures, which are plain values but not {@link java.io.Serializable}.
     *
     * @param out the stream
     * @throws IOException if writing fails
     * @serialData the default fields, then the number of failures ({@code int}) and for each one its fragment index
     *     ({@code int}), repository id, reason name and detail ({@code String}s)
     */
    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject();
        FragmentFailure.writeAll(failures, out);
    }

    /**
     * Reads what {@link #writeObject} wrote.
     *
     * @param in the stream
     * @throws IOException            if reading fails or the failures are invalid
     * @throws ClassNotFoundException if a class of the fields is missing
     */
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        failures = FragmentFailure.readAll(in);
    }
}
