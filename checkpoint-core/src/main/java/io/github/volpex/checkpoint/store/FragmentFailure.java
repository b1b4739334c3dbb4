package io.github.volpex.checkpoint.store;

import io.github.volpex.checkpoint.repository.RepositoryUnavailableException;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Why one fragment (or one index copy) could not be used.
 *
 * @param fragmentIndex the fragment's index, or {@code -1} for an index copy
 * @param repositoryId  the repository that was asked
 * @param reason        what went wrong
 * @param detail        a description for people (an exception's message, the digests that differ)
 * @since 0.1
 */
public record FragmentFailure(int fragmentIndex, String repositoryId, Reason reason, String detail) {

    /**
     * What went wrong with a fragment.
     *
     * @since 0.1
     */
    public enum Reason {
        /** The repository could not be reached ({@link RepositoryUnavailableException}). */
        UNAVAILABLE,
        /** The repository was reached but does not hold the object. */
        MISSING,
        /** The object's length, checksum or digest is wrong. */
        CORRUPT,
        /** The repository was reached but the operation failed otherwise. */
        FAILED
    }

    /**
     * Validates the components.
     *
     * @param fragmentIndex the fragment's index, or {@code -1}
     * @param repositoryId  the repository's identifier
     * @param reason        what went wrong
     * @param detail        a description
     * @throws NullPointerException if a reference is null
     */
    public FragmentFailure {
        Objects.requireNonNull(repositoryId, "repositoryId");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(detail, "detail");
    }

    /** The failure an exception from a repository call stands for. */
    static FragmentFailure of(int fragmentIndex, String repositoryId, Throwable e) {
        Reason reason = e instanceof RepositoryUnavailableException ? Reason.UNAVAILABLE
                : e instanceof DamagedFragmentException ? Reason.CORRUPT
                : e instanceof MissingFragmentException ? Reason.MISSING : Reason.FAILED;
        return new FragmentFailure(fragmentIndex, repositoryId, reason, String.valueOf(e.getMessage()));
    }

    /** Writes {@code failures} for an exception's serialized form: their count, then each one's four components. */
    static void writeAll(List<FragmentFailure> failures, ObjectOutputStream out) throws IOException {
        out.writeInt(failures.size());
        for (FragmentFailure failure : failures) {
            out.writeInt(failure.fragmentIndex);
            out.writeObject(failure.repositoryId);
            out.writeObject(failure.reason.name());
            out.writeObject(failure.detail);
        }
    }

    /** Reads what {@link #writeAll} wrote. */
    static List<FragmentFailure> readAll(ObjectInputStream in) throws IOException, ClassNotFoundException {
        int count = in.readInt();
        if (count < 0) {
            throw new InvalidObjectException("failure count must be >= 0: " + count);
        }
        List<FragmentFailure> failures = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            int fragmentIndex = in.readInt();
            Object repositoryId = in.readObject();
            Object reason = in.readObject();
            Object detail = in.readObject();
            try {
                failures.add(new FragmentFailure(fragmentIndex, (String) repositoryId, Reason.valueOf((String) reason),
                        (String) detail));
            } catch (RuntimeException e) {
                InvalidObjectException invalid = new InvalidObjectException("invalid failure " + i + ": " + e);
                invalid.initCause(e);
                throw invalid;
            }
        }
        return List.copyOf(failures);
    }

    @Override
    public String toString() {
        return (fragmentIndex < 0 ? "index copy" : "fragment " + fragmentIndex) + " on " + repositoryId + ": "
                + reason + " (" + detail + ")";
    }
}
