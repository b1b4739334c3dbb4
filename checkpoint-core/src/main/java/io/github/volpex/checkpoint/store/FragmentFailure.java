package io.github.volpex.checkpoint.store;

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
                : e instanceof CorruptFragmentException ? Reason.CORRUPT
                : e instanceof MissingFragmentException ? Reason.MISSING : Reason.FAILED;
        return new FragmentFailure(fragmentIndex, repositoryId, reason, String.valueOf(e.getMessage()));
    }

    @Override
    public String toString() {
        return (fragmentIndex < 0 ? "index copy" : "fragment " + fragmentIndex) + " on " + repositoryId + ": "
                + reason + " (" + detail + ")";
    }
}
