package io.github.volpex.checkpoint.store;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.Objects;

/**
 * A failure of a {@link CheckpointStore} operation that a caller must handle: which job and checkpoint it concerns and
 * which repository calls failed. Catch it to handle {@link CommitFailedException} and
 * {@link CheckpointUnavailableException} alike.
 *
 * <p>Immutable; serializable, the failures included.
 *
 * @since 0.1
 */
public abstract class CheckpointStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The job. */
    private final String jobId;
    /** The checkpoint's sequence number. */
    private final long sequence;
    /** What failed; written and read by {@link #writeObject} and {@link #readObject}. */
    private transient List<FragmentFailure> failures;

    /**
     * Creates the exception.
     *
     * @param message  the detail message
     * @param jobId    the job
     * @param sequence the checkpoint's sequence number
     * @param failures what failed
     * @throws NullPointerException if {@code jobId} or {@code failures} is null
     */
    protected CheckpointStoreException(String message, String jobId, long sequence, List<FragmentFailure> failures) {
        super(message);
        this.jobId = Objects.requireNonNull(jobId, "jobId");
        this.sequence = sequence;
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
     * Returns the sequence number of the checkpoint concerned.
     *
     * @return the sequence number
     */
    public long sequence() {
        return sequence;
    }

    /**
     * Returns what failed.
     *
     * @return one entry per failed repository call or unusable fragment, an unmodifiable list
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
