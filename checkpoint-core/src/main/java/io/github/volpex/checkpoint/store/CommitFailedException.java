package io.github.volpex.checkpoint.store;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.Objects;

/**
 * Thrown when a commit could not store every fragment of the new checkpoint and enough copies of its index. The
 * previous checkpoint is untouched and stays recoverable. If some index copies were written
 * ({@link #indexCopiesWritten()} {@code > 0}), recovery may return the new checkpoint (it is complete), otherwise it
 * returns the previous one; either way the next successful commit removes what this one left behind.
 *
 * @since 0.1
 */
public class CommitFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The job. */
    private final String jobId;
    /** The sequence number the commit would have had. */
    private final long sequence;
    /** How many index copies were written. */
    private final int indexCopiesWritten;
    /** What failed; written and read by {@link #writeObject} and {@link #readObject}. */
    private transient List<FragmentFailure> failures;

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
        super("commit of " + jobId + " #" + sequence + " failed: " + message + "; " + failures);
        this.jobId = Objects.requireNonNull(jobId, "jobId");
        this.sequence = sequence;
        this.indexCopiesWritten = indexCopiesWritten;
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
     * Returns the sequence number the new checkpoint would have had.
     *
     * @return the sequence number
     */
    public long sequence() {
        return sequence;
    }

    /**
     * Returns how many copies of the new index were written before the commit gave up.
     *
     * @return the count; {@code 0} means recovery cannot see the new checkpoint
     */
    public int indexCopiesWritten() {
        return indexCopiesWritten;
    }

    /**
     * Returns the repository calls that failed.
     *
     * @return the failures, an unmodifiable list
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
