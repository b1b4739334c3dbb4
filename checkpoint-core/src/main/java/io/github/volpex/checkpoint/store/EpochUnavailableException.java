package io.github.volpex.checkpoint.store;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.List;
import java.util.Objects;

/**
 * Thrown when a store cannot commit because it cannot take an epoch that orders the new checkpoint after every earlier
 * one: its {@link EpochSource} failed, or the source {@linkplain EpochSource#requiresCompleteListing() orders epochs
 * by what the writer lists} and {@linkplain #unreachable() repositories} did not answer the listing of the job (a
 * checkpoint of a greater epoch may be there). Nothing of the new checkpoint was written; the previous committed
 * checkpoint is untouched.
 *
 * <p>Retry once the repositories answer. A writer acquires its epoch once per job, at its first commit, so a store
 * that has committed the job before never throws this for unreachable repositories. A host that must commit while
 * repositories are away for long needs fenced epochs ({@link EpochSource}).
 *
 * @since 0.1
 */
public class EpochUnavailableException extends CommitFailedException {

    private static final long serialVersionUID = 1L;

    /** The repositories that did not answer the listing (an array: a serializable field type). */
    private final String[] unreachable;

    /**
     * Creates the exception.
     *
     * @param jobId       the job
     * @param sequence    the sequence number the refused commit would have had
     * @param unreachable the repositories that did not answer the listing; empty when the epoch source itself failed
     * @param message     why no epoch could be taken
     * @param failures    what failed
     * @throws NullPointerException if {@code jobId}, {@code unreachable}, one of its elements or {@code failures} is
     *                              null
     */
    public EpochUnavailableException(String jobId, long sequence, List<String> unreachable, String message,
                                     List<FragmentFailure> failures) {
        super(jobId, sequence, 0, false, message, failures);
        this.unreachable = List.copyOf(unreachable).toArray(String[]::new);
    }

    /**
     * Returns the repositories that did not answer the listing of the job.
     *
     * @return their identifiers, an unmodifiable list; empty when the epoch source itself failed
     */
    public List<String> unreachable() {
        return List.of(unreachable);
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
        for (String id : Objects.requireNonNull(unreachable, "unreachable")) {
            Objects.requireNonNull(id, "unreachable repository id");
        }
    }
}
