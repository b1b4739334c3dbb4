package io.github.volpex.checkpoint.store;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Recovery of a job's newest committed checkpoint (see {@link CheckpointStore#recover(String)}): it never returns a
 * checkpoint that did not reach its commit point, never goes back past the newest committed one (which may be the
 * last successful commit) and never answers "no checkpoint" while repositories that may hold one are unreachable.
 */
final class Restorer {

    private final StoreContext context;
    private final Differential differential;

    Restorer(StoreContext context, Differential differential) {
        this.context = context;
        this.differential = differential;
    }

    /**
     * Recovers from a fresh listing; if that fails and a second listing shows another newest committed checkpoint
     * (another process committed, repaired or collected meanwhile), tries once more from the second listing.
     */
    Optional<RecoveredCheckpoint> recoverNewest(String jobId, JobState state) {
        JobView view = context.view(jobId);
        try {
            return recoverNewest(jobId, view, state);
        } catch (CheckpointUnavailableException e) {
            JobView again = context.view(jobId);
            if (newestCommitted(again).equals(newestCommitted(view))) {
                throw e;
            }
            return recoverNewest(jobId, again, state);
        }
    }

    private static Optional<CheckpointId> newestCommitted(JobView view) {
        return view.newestCommitted().map(trace -> trace.id);
    }

    private Optional<RecoveredCheckpoint> recoverNewest(String jobId, JobView view, JobState state) {
        List<JobView.Trace> committed = view.committedNewestFirst();
        if (committed.isEmpty()) {
            if (view.unreachable.isEmpty()) {
                return Optional.empty();
            }
            throw new RepositoriesUnreachableException(jobId, -1, 0, 0, List.copyOf(view.unreachable),
                    view.listingFailures, null, List.of());
        }
        // The newest committed checkpoint may be the last successful commit: never go back past it silently.
        List<JobView.Trace> older = committed.subList(1, committed.size());
        try {
            return Optional.of(differential.rebuild(context.requireIndex(jobId, committed.get(0), new ArrayList<>()),
                    view, state));
        } catch (CheckpointUnavailableException e) {
            throw unavailable(jobId, view, older, e);
        }
    }

    /** The failure to report for the newest committed checkpoint that could not be rebuilt. */
    private CheckpointUnavailableException unavailable(String jobId, JobView view, List<JobView.Trace> older,
                                                       CheckpointUnavailableException failure) {
        Set<String> unreachable = new LinkedHashSet<>(view.unreachable);
        for (FragmentFailure f : failure.failures()) {
            if (f.reason() == FragmentFailure.Reason.UNAVAILABLE && context.byId.containsKey(f.repositoryId())) {
                unreachable.add(f.repositoryId());
            }
        }
        if (unreachable.isEmpty()) {
            return failure;
        }
        return new RepositoriesUnreachableException(jobId, failure.sequence(), failure.required(),
                failure.verified(), List.copyOf(unreachable), view.listingFailures,
                newestAvailable(jobId, older, unreachable), failure.failures());
    }

    /**
     * The newest of {@code older} whose index can be read and at least {@code m} of whose fragments are listed on
     * repositories that answer: what the host can choose to recover explicitly.
     */
    private FragmentIndex newestAvailable(String jobId, List<JobView.Trace> older, Set<String> unreachable) {
        for (JobView.Trace trace : older) {
            Optional<FragmentIndex> index = context.readIndex(jobId, trace, new ArrayList<>());
            if (index.isEmpty()) {
                continue;
            }
            int listed = 0;
            for (FragmentLocation location : index.get().fragments()) {
                if (!unreachable.contains(location.repositoryId())
                        && trace.fragments.getOrDefault(location.repositoryId(), Set.of())
                        .contains(location.fragmentIndex())) {
                    listed++;
                }
            }
            if (listed >= index.get().m()) {
                return index.get();
            }
        }
        return null;
    }
}
