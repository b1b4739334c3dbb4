package io.github.volpex.checkpoint.store;

import io.github.volpex.checkpoint.internal.Checks;
import io.github.volpex.checkpoint.repository.FragmentRepository;

import java.util.Objects;

/**
 * Where one fragment of a checkpoint is stored and what it must hash to.
 *
 * @param fragmentIndex the fragment's index, in {@code [0, n)}
 * @param repositoryId  the {@linkplain FragmentRepository#id() repository} holding it
 * @param lengthBytes   the stored object's length, in bytes; {@code ≥ 0}
 * @param sha256        the SHA-256 of the stored object
 * @since 0.1
 */
public record FragmentLocation(int fragmentIndex, String repositoryId, long lengthBytes, Sha256 sha256) {

    /**
     * Validates the components.
     *
     * @param fragmentIndex the fragment's index, in {@code [0, 255)}
     * @param repositoryId  the repository's identifier, 1 to 255 bytes of UTF-8
     * @param lengthBytes   the object's length, in bytes; {@code ≥ 0}
     * @param sha256        the object's digest
     * @throws NullPointerException     if {@code repositoryId} or {@code sha256} is null
     * @throws IllegalArgumentException if a component is out of range
     */
    public FragmentLocation {
        if (fragmentIndex < 0 || fragmentIndex >= FragmentIndex.MAX_FRAGMENTS) {
            throw new IllegalArgumentException(
                    "fragmentIndex must be in [0, " + FragmentIndex.MAX_FRAGMENTS + "): " + fragmentIndex);
        }
        Checks.requireRepositoryId(repositoryId);
        if (lengthBytes < 0) {
            throw new IllegalArgumentException("lengthBytes must be >= 0: " + lengthBytes);
        }
        Objects.requireNonNull(sha256, "sha256");
    }

    /** This location moved to another repository, with the same content. */
    FragmentLocation movedTo(String otherRepositoryId) {
        return new FragmentLocation(fragmentIndex, otherRepositoryId, lengthBytes, sha256);
    }
}
