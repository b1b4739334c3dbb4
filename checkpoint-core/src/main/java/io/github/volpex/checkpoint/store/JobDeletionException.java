package io.github.volpex.checkpoint.store;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Thrown when {@link CheckpointStore#deleteJob} could not delete everything of a job: objects remain on repositories
 * that answered ({@link #remaining()}: their deletes failed or were dropped), repositories could not be listed, so
 * that what they hold of the job is unknown ({@link #unreachable()}), or the epoch source could not delete what it
 * keeps of the job ({@link #failures()} names it). What could be deleted was; running the deletion again once the
 * repositories answer finishes it.
 *
 * @since 0.1
 */
public class JobDeletionException extends CheckpointStoreException {

    private static final long serialVersionUID = 1L;

    /** Repository → the keys of the job it still lists. */
    private final LinkedHashMap<String, ArrayList<String>> remaining;
    /** The repositories that could not be listed (an array: a serializable field type). */
    private final String[] unreachable;
    /** How many objects were deleted. */
    private final int deleted;

    /**
     * Creates the exception.
     *
     * @param jobId       the job
     * @param deleted     how many objects were deleted
     * @param remaining   the keys of the job that each repository still lists, by repository identifier
     * @param unreachable the repositories that could not be listed
     * @param failures    what failed: each repository call, and the epoch source if it failed
     * @throws NullPointerException if an argument, a key or an identifier is null
     */
    public JobDeletionException(String jobId, int deleted, Map<String, List<String>> remaining,
                                List<String> unreachable, List<FragmentFailure> failures) {
        super(message(jobId, deleted, remaining, unreachable, failures), jobId, -1, failures);
        this.remaining = new LinkedHashMap<>();
        remaining.forEach((repository, keys) -> {
            List<String> copy = List.copyOf(keys);
            if (!copy.isEmpty()) {
                this.remaining.put(Objects.requireNonNull(repository, "repository id"), new ArrayList<>(copy));
            }
        });
        this.unreachable = List.copyOf(unreachable).toArray(String[]::new);
        this.deleted = deleted;
    }

    private static String message(String jobId, int deleted, Map<String, List<String>> remaining,
                                  List<String> unreachable, List<FragmentFailure> failures) {
        StringBuilder text = new StringBuilder("job " + jobId + " was not deleted completely (" + deleted
                + " objects deleted)");
        if (!unreachable.isEmpty()) {
            text.append("; repositories ").append(unreachable).append(" could not be listed");
        }
        int count = 0;
        List<String> shown = new ArrayList<>();
        for (Map.Entry<String, List<String>> entry : remaining.entrySet()) {
            for (String key : entry.getValue()) {
                if (count++ < 3) {
                    shown.add(key + " on " + entry.getKey());
                }
            }
        }
        if (count > 0) {
            text.append("; ").append(count).append(count == 1 ? " object remains: " : " objects remain: ")
                    .append(String.join(", ", shown)).append(count > shown.size() ? ", …" : "");
        }
        if (!failures.isEmpty()) {
            text.append("; first failure: ").append(failures.get(0));
        }
        return text.toString();
    }

    /**
     * Returns what remains of the job on the repositories that answered.
     *
     * @return the keys each repository still lists, by repository identifier; unmodifiable, repositories with none
     *         left out
     */
    public Map<String, List<String>> remaining() {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        remaining.forEach((repository, keys) -> copy.put(repository, List.copyOf(keys)));
        return Collections.unmodifiableMap(copy);
    }

    /**
     * Returns the repositories that could not be listed: what they hold of the job is unknown.
     *
     * @return their identifiers, an unmodifiable list
     */
    public List<String> unreachable() {
        return List.of(unreachable);
    }

    /**
     * Returns how many objects the deletion removed before it gave up, as the repositories reported their deletes.
     *
     * @return the count
     */
    public int deleted() {
        return deleted;
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
        Objects.requireNonNull(remaining, "remaining");
        remaining.forEach((repository, keys) -> {
            Objects.requireNonNull(repository, "repository id");
            Objects.requireNonNull(keys, "keys").forEach(key -> Objects.requireNonNull(key, "key"));
        });
        for (String id : Objects.requireNonNull(unreachable, "unreachable")) {
            Objects.requireNonNull(id, "unreachable repository id");
        }
    }
}
