package io.github.volpex.checkpoint.store;

import java.util.List;
import java.util.Objects;

/**
 * What {@link CheckpointStore#repair} found and did.
 *
 * @param status         the outcome
 * @param index          the checkpoint's index after the repair (a new revision when fragments moved), or null when
 *                       there is no checkpoint
 * @param verifiedBefore how many fragments were fetched and verified before repairing
 * @param availableAfter how many fragments are stored and verified after repairing
 * @param regenerated    the indices of the fragments regenerated onto other repositories
 * @param failures       what failed while checking and repairing
 * @since 0.1
 */
public record RepairReport(Status status, FragmentIndex index, int verifiedBefore, int availableAfter,
                           List<Integer> regenerated, List<FragmentFailure> failures) {

    /**
     * The outcome of a repair.
     *
     * @since 0.1
     */
    public enum Status {
        /** At least the reconstruction threshold of fragments verified: nothing to do. */
        HEALTHY,
        /** Every missing fragment was regenerated. */
        REPAIRED,
        /** Some missing fragments were regenerated, not all (too few repositories accepted them). */
        PARTIALLY_REPAIRED,
        /** The checkpoint's lease has ended: it is no longer repaired. */
        EXPIRED,
        /** No checkpoint of the job was found. */
        NO_CHECKPOINT
    }

    /**
     * Validates and copies the components.
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
    public RepairReport {
        Objects.requireNonNull(status, "status");
        if (status != Status.NO_CHECKPOINT) {
            Objects.requireNonNull(index, "index");
        }
        regenerated = List.copyOf(regenerated);
        failures = List.copyOf(failures);
    }
}
