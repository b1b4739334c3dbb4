package io.github.volpex.checkpoint.store;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Thrown by {@link CheckpointStore#recover(String)} when it cannot tell what the job's newest checkpoint is because
 * repositories are unreachable: either no committed checkpoint was found but {@linkplain #unreachable() unreachable
 * repositories} may hold one, or the newest committed checkpoint found cannot be rebuilt without them. It is never
 * "this job has no checkpoint": a host that starts the job from scratch after it does so knowingly.
 *
 * <p>Retrying once the repositories are back may succeed. {@link #newestAvailable()} names the newest committed
 * checkpoint that could be read, if any; {@link CheckpointStore#recover(FragmentIndex)} rebuilds it on request.
 * {@link #causes()} says why each repository could not be reached, as its calls failed (each cause is also
 * {@linkplain #getSuppressed() suppressed} by this exception, so that a stack trace shows it), and the message names
 * the first: a wrong endpoint, refused credentials and a missing bucket read differently.
 *
 * @since 0.1
 */
public class RepositoriesUnreachableException extends CheckpointUnavailableException {

    private static final long serialVersionUID = 1L;

    /** The repositories that could not be reached (an array: a serializable field type). */
    private final String[] unreachable;
    /** The repository of each suppressed exception, in order: what {@link #causes()} pairs them with. */
    private final String[] causeRepositories;
    /** The newest checkpoint that is available, or null; serialised in its own format. */
    private transient FragmentIndex newestAvailable;

    /**
     * Creates the exception, with no cause recorded for the repositories.
     *
     * @param jobId           the job
     * @param sequence        the sequence number of the newest committed checkpoint found, {@code -1} if none
     * @param required        how many verified fragments that checkpoint needs, {@code 0} if none
     * @param verified        how many were verified
     * @param unreachable     the identifiers of the repositories that could not be reached
     * @param newestAvailable the newest committed checkpoint that can be rebuilt without them, or null
     * @param failures        what failed
     * @throws NullPointerException if {@code jobId}, {@code unreachable} or {@code failures} is null
     */
    public RepositoriesUnreachableException(String jobId, long sequence, int required, int verified,
                                            List<String> unreachable, FragmentIndex newestAvailable,
                                            List<FragmentFailure> failures) {
        this(jobId, sequence, required, verified, unreachable, Map.of(), newestAvailable, failures);
    }

    /**
     * Creates the exception with what each unreachable repository's call threw. Each cause is added as a
     * {@linkplain #addSuppressed suppressed} exception, and the message names the first unreachable repository's
     * cause (or, without one, the first failure recorded for that repository).
     *
     * @param jobId           the job
     * @param sequence        the sequence number of the newest committed checkpoint found, {@code -1} if none
     * @param required        how many verified fragments that checkpoint needs, {@code 0} if none
     * @param verified        how many were verified
     * @param unreachable     the identifiers of the repositories that could not be reached
     * @param causes          what the calls of each unreachable repository threw, by identifier; repositories
     *                        without an entry have no recorded cause
     * @param newestAvailable the newest committed checkpoint that can be rebuilt without them, or null
     * @param failures        what failed
     * @throws NullPointerException if {@code jobId}, {@code unreachable}, {@code causes}, a cause or
     *                              {@code failures} is null
     */
    public RepositoriesUnreachableException(String jobId, long sequence, int required, int verified,
                                            List<String> unreachable, Map<String, ? extends Throwable> causes,
                                            FragmentIndex newestAvailable, List<FragmentFailure> failures) {
        super((sequence < 0 ? "no committed checkpoint of " + jobId + " was found, but "
                : "the newest committed checkpoint of " + jobId + ", #" + sequence + ", needs " + required
                        + " verified fragments and got " + verified + "; ")
                + "repositories " + unreachable + " that may hold "
                + (sequence < 0 ? "one" : "its fragments") + " are unreachable"
                + firstCause(unreachable, causes, failures)
                + (newestAvailable == null ? "" : "; the newest checkpoint available is #"
                        + newestAvailable.sequence() + " (epoch " + newestAvailable.epoch() + ")"),
                jobId, sequence, required, verified, failures);
        this.unreachable = List.copyOf(unreachable).toArray(String[]::new);
        List<String> causeRepositories = new ArrayList<>();
        for (Map.Entry<String, ? extends Throwable> cause : causes.entrySet()) {
            Objects.requireNonNull(cause.getValue(), "cause of " + cause.getKey());
            causeRepositories.add(Objects.requireNonNull(cause.getKey(), "repository id"));
            addSuppressed(cause.getValue());
        }
        this.causeRepositories = causeRepositories.toArray(String[]::new);
        this.newestAvailable = newestAvailable;
    }

    /** ": r0 failed: ..." for the first unreachable repository, from its cause or its first recorded failure. */
    private static String firstCause(List<String> unreachable, Map<String, ? extends Throwable> causes,
                                     List<FragmentFailure> failures) {
        Objects.requireNonNull(causes, "causes");
        Objects.requireNonNull(failures, "failures");
        if (unreachable.isEmpty()) {
            return "";
        }
        String first = unreachable.get(0);
        Throwable cause = causes.get(first);
        if (cause != null) {
            String message = cause.getMessage();
            return " (" + first + ": " + (message == null || message.isBlank() ? cause.getClass().getName()
                    : message.strip()) + ")";
        }
        for (FragmentFailure failure : failures) {
            if (failure.repositoryId().equals(first)) {
                return " (" + first + ": " + failure.detail() + ")";
            }
        }
        return "";
    }

    /**
     * Returns the repositories that could not be reached.
     *
     * @return their identifiers, an unmodifiable list
     */
    public List<String> unreachable() {
        return List.of(unreachable);
    }

    /**
     * Returns why each unreachable repository could not be reached, as far as the store recorded it: what its listing
     * (or fetch) threw. The same exceptions are {@linkplain #getSuppressed() suppressed} by this one.
     *
     * @return the causes by repository identifier, in the order of {@link #unreachable()}; an unmodifiable map
     *         without entries for repositories whose cause was not recorded
     */
    public Map<String, Throwable> causes() {
        Throwable[] suppressed = getSuppressed();
        Map<String, Throwable> causes = new LinkedHashMap<>();
        String[] repositories = causeRepositories == null ? new String[0] : causeRepositories;
        for (int i = 0; i < repositories.length && i < suppressed.length; i++) {
            causes.put(repositories[i], suppressed[i]);
        }
        return Collections.unmodifiableMap(causes);
    }

    /**
     * Returns the newest committed checkpoint that the repositories that answered can rebuild, which may be older
     * than the job's newest.
     *
     * @return its index, or empty if there is none
     */
    public Optional<FragmentIndex> newestAvailable() {
        return Optional.ofNullable(newestAvailable);
    }

    /**
     * Writes the fields and then the index, in its own binary format.
     *
     * @param out the stream
     * @throws IOException if writing fails
     * @serialData the default fields, then the length of the index in bytes ({@code int}, {@code -1} for none)
     *     and those bytes
     */
    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject();
        if (newestAvailable == null) {
            out.writeInt(-1);
        } else {
            byte[] bytes = newestAvailable.toBytes();
            out.writeInt(bytes.length);
            out.write(bytes);
        }
    }

    /**
     * Reads what {@link #writeObject} wrote.
     *
     * @param in the stream
     * @throws IOException            if reading fails or the index is invalid
     * @throws ClassNotFoundException if a class of the fields is missing
     */
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        for (String id : Objects.requireNonNull(unreachable, "unreachable")) {
            Objects.requireNonNull(id, "unreachable repository id");
        }
        if (causeRepositories != null) { // absent from the form written before causes were recorded
            for (String id : causeRepositories) {
                Objects.requireNonNull(id, "cause repository id");
            }
        }
        int length = in.readInt();
        if (length >= 0) {
            byte[] bytes = in.readNBytes(length);
            try {
                newestAvailable = FragmentIndex.parse(bytes);
            } catch (CorruptIndexException e) {
                InvalidObjectException invalid = new InvalidObjectException(e.getMessage());
                invalid.initCause(e);
                throw invalid;
            }
        }
    }
}
