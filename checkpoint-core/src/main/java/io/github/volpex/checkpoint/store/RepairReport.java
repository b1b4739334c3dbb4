package io.github.volpex.checkpoint.store;

import java.util.List;
import java.util.Objects;

/**
 * What {@link CheckpointStore#repair} found and did.
 *
 * @param status               the outcome
 * @param index                the checkpoint's index after the repair (a new revision when fragments moved), or null
 *                             when there is no checkpoint
 * @param verifiedBefore       how many fragments were fetched and verified before repairing
 * @param availableAfter       how many fragments are stored and verified after repairing
 * @param regenerated          the indices of the fragments regenerated, in ascending order
 * @param indexCopiesRewritten the repositories whose copy of the index was missing, unreadable, corrupt or of an older
 *                             revision and now holds {@code index}, read back and verified
 * @param failures             what failed while checking and repairing
 * @since 0.1
 */
public record RepairReport(Status status, FragmentIndex index, int verifiedBefore, int availableAfter,
                           List<Integer> regenerated, List<String> indexCopiesRewritten,
                           List<FragmentFailure> failures) {

    /**
     * The outcome of a repair.
     *
     * @since 0.1
     */
    public enum Status {
        /**
         * Nothing to do: at least the reconstruction threshold of fragments verified, and every holder that answers
         * holds an intact copy of the index's newest revision.
         */
        HEALTHY,
        /**
         * Every fragment that failed to verify was regenerated (if fewer than the threshold verified) and every bad
         * index copy on a holder that answers was rewritten.
         */
        REPAIRED,
        /**
         * Some of what needed repair was done, not all (too few repositories accepted the fragments, or an index copy
         * could not be rewritten).
         */
        PARTIALLY_REPAIRED,
        /** The checkpoint's lease has ended: it is no longer repaired. */
        EXPIRED,
        /** No checkpoint of the job was found. */
        NO_CHECKPOINT
    }

    /**
     * Validates and copies the components.
     *
     * @param status               the outcome
     * @param index                the index, or null for {@link Status#NO_CHECKPOINT}
     * @param verifiedBefore       how many fragments verified before
     * @param availableAfter       how many fragments are available after
     * @param regenerated          the regenerated fragment indices
     * @param indexCopiesRewritten the repositories whose index copy was rewritten
     * @param failures             what failed
     * @throws NullPointerException if {@code status}, {@code regenerated}, {@code indexCopiesRewritten} or
     *                              {@code failures} is null, or {@code index} is null while a checkpoint exists
     */
    public RepairReport {
        Objects.requireNonNull(status, "status");
        if (status != Status.NO_CHECKPOINT) {
            Objects.requireNonNull(index, "index");
        }
        regenerated = List.copyOf(regenerated);
        indexCopiesRewritten = List.copyOf(indexCopiesRewritten);
        failures = List.copyOf(failures);
    }

    /**
     * Creates a report of a repair that rewrote no index copy.
     *
     * @param status         the outcome
     * @param index          the index, or null for {@link Status#NO_CHECKPOINT}
     * @param verifiedBefore how many fragments verified before
     * @param availableAfter how many fragments are available after
     * @param regenerated    the regenerated fragment indices
     * @param failures       what failed
     * @throws NullPointerException if {@code status}, {@code regenerated} or {@code failures} is null, or
     *                              {@code index} is null while a checkpoint exists
     */
    public RepairReport(Status status, FragmentIndex index, int verifiedBefore, int availableAfter,
                        List<Integer> regenerated, List<FragmentFailure> failures) {
        this(status, index, verifiedBefore, availableAfter, regenerated, List.of(), failures);
    }
}
