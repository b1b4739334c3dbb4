package io.github.volpex.checkpoint.store;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a {@link PlacementPolicy} is asked: choose {@code count} of the {@code candidates} to hold fragments of a
 * checkpoint whose other fragments are already on {@code holders}.
 *
 * <p>A commit asks for all {@code n = m + k} repositories with no holders; when writes fail, it asks again for
 * replacements, the repositories that already hold fragments being the holders; a repair asks for the fragments it
 * regenerates.
 *
 * @param jobId           the job
 * @param checkpointBytes the checkpoint's size, in bytes (for a streamed commit: the previous checkpoint's size, or
 *                        {@code 0} if unknown)
 * @param m               how many fragments rebuild the checkpoint
 * @param k               how many fragments beyond {@code m} are stored
 * @param count           how many repositories to choose, {@code 1 ≤ count ≤ candidates.size()}
 * @param candidates      the repositories to choose from, by id: available for this checkpoint, holding none of its
 *                        fragments
 * @param holders         the repositories already holding fragments of this checkpoint
 * @since 0.1
 */
public record PlacementRequest(String jobId, long checkpointBytes, int m, int k, int count, List<String> candidates,
                               List<String> holders) {

    /**
     * Validates and copies the components.
     *
     * @param jobId           the job
     * @param checkpointBytes the checkpoint's size, {@code ≥ 0}
     * @param m               {@code m ≥ 1}
     * @param k               {@code k ≥ 0}
     * @param count           in {@code [1, candidates.size()]}
     * @param candidates      candidate repository ids, distinct
     * @param holders         holder repository ids, distinct from the candidates
     * @throws NullPointerException     if a reference or an id is null
     * @throws IllegalArgumentException if a number is out of range, the candidates repeat an id, or the holders repeat
     *                                  one or name a candidate
     */
    public PlacementRequest {
        Objects.requireNonNull(jobId, "jobId");
        candidates = List.copyOf(candidates);
        holders = List.copyOf(holders);
        Set<String> ids = new HashSet<>();
        for (String id : candidates) {
            if (!ids.add(id)) {
                throw new IllegalArgumentException("candidates must be distinct: " + id + " appears twice");
            }
        }
        for (String id : holders) {
            if (!ids.add(id)) {
                throw new IllegalArgumentException("holders must be distinct and not candidates: " + id
                        + " appears twice");
            }
        }
        if (checkpointBytes < 0) {
            throw new IllegalArgumentException("checkpointBytes must be >= 0: " + checkpointBytes);
        }
        if (m < 1 || k < 0) {
            throw new IllegalArgumentException("m must be >= 1 and k >= 0: " + m + ", " + k);
        }
        if (count < 1 || count > candidates.size()) {
            throw new IllegalArgumentException("count must be in [1, " + candidates.size() + "]: " + count);
        }
    }
}
