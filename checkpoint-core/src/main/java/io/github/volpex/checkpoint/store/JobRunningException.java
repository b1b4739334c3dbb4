package io.github.volpex.checkpoint.store;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.List;
import java.util.Objects;

/**
 * Thrown when a job is not deleted because it still runs: its {@link EpochSource} knows of writers, or candidates for
 * its writer, that are alive (a writer election's members whose sessions live). Nothing was deleted. Delete the job
 * once they have stopped, or {@linkplain CheckpointStore#deleteJob(String, boolean) force} the deletion.
 *
 * @since 0.1
 */
public class JobRunningException extends CheckpointStoreException {

    private static final long serialVersionUID = 1L;

    /** Who is alive, one description each (an array: a serializable field type). */
    private final String[] writers;

    /**
     * Creates the exception.
     *
     * @param jobId   the job
     * @param writers the live writers and candidates, one description each (their names, which of them writes and
     *                under which epoch), at least one
     * @throws NullPointerException     if {@code jobId}, {@code writers} or one of its elements is null
     * @throws IllegalArgumentException if {@code writers} is empty
     */
    public JobRunningException(String jobId, List<String> writers) {
        super("job " + jobId + " still runs: " + describe(writers) + "; stop it first, or force the deletion", jobId,
                -1, List.of());
        this.writers = List.copyOf(writers).toArray(String[]::new);
    }

    private static String describe(List<String> writers) {
        if (writers.isEmpty()) {
            throw new IllegalArgumentException("writers must name at least one live writer or candidate");
        }
        return writers.size() == 1 ? "a writer or candidate is alive, " + writers.get(0)
                : writers.size() + " writers or candidates are alive, " + String.join(", ", writers);
    }

    /**
     * Returns the live writers and candidates.
     *
     * @return one description each, an unmodifiable list
     */
    public List<String> writers() {
        return List.of(writers);
    }

    /**
     * Reads the fields and checks them.
     *
     * @param in the stream
     * @throws IOException            if reading fails or the fields are invalid
     * @throws ClassNotFoundException if a class of the fields is missing
     */
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        for (String writer : Objects.requireNonNull(writers, "writers")) {
            Objects.requireNonNull(writer, "writer");
        }
    }
}
