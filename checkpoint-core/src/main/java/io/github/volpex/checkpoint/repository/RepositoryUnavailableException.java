package io.github.volpex.checkpoint.repository;

import java.io.IOException;
import java.util.Objects;

/**
 * Thrown by a {@link FragmentRepository} that cannot be reached: its host left, crashed, or is busy serving its
 * owner. Other {@link IOException}s mean the repository was reached but the operation failed.
 *
 * @since 0.1
 */
public class RepositoryUnavailableException extends IOException {

    private static final long serialVersionUID = 1L;

    /** The repository's identifier. */
    private final String repositoryId;

    /**
     * Creates the exception.
     *
     * @param repositoryId the unavailable repository's identifier
     * @param message      what was attempted, for people
     * @param cause        the underlying failure, or null
     * @throws NullPointerException if {@code repositoryId} is null
     */
    public RepositoryUnavailableException(String repositoryId, String message, Throwable cause) {
        super("repository " + repositoryId + " is unavailable: " + message, cause);
        this.repositoryId = Objects.requireNonNull(repositoryId, "repositoryId");
    }

    /**
     * Returns the unavailable repository's identifier.
     *
     * @return the identifier
     */
    public String repositoryId() {
        return repositoryId;
    }
}
