package io.github.volpex.checkpoint.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deletes a job (see {@link CheckpointStore#deleteJob(String, boolean)}): first what its epoch source keeps of it,
 * which refuses while writers of the job are alive and makes every earlier writer's next commit stale; then every
 * object of every checkpoint of every epoch on every repository — commit markers first, then index copies, then
 * fragments, so that a deletion cut short never leaves a checkpoint that counts without what it needs — and finally a
 * listing that shows nothing of the job left, or a {@link JobDeletionException} naming what is.
 */
final class JobDeletion {

    private final StoreContext context;

    JobDeletion(StoreContext context) {
        this.context = context;
    }

    int delete(String jobId, JobState state, boolean force) {
        try {
            context.epochs.deleteJob(jobId, force);
        } catch (IOException e) {
            throw new JobDeletionException(jobId, 0, Map.of(), List.of(), List.of(new FragmentFailure(-1,
                    "epoch source", FragmentFailure.Reason.UNAVAILABLE, "the epochs of the job could not be deleted, "
                    + "so no checkpoint was: " + e.getMessage())));
        }
        // The job's epochs are gone: whatever this store remembered of its own writing no longer holds.
        state.epoch = -1;
        state.nextSequence = 0;
        state.lastCommitted = null;
        state.learnt(null, null);
        Map<String, List<String>> keys = new LinkedHashMap<>();
        for (JobView.Trace trace : context.view(jobId).traces.values()) {
            trace.keys.forEach((repository, listed) -> keys.computeIfAbsent(repository, r -> new ArrayList<>())
                    .addAll(listed));
        }
        int deleted = context.delete(jobId, keys).deleted();
        JobView after = context.view(jobId);
        Map<String, List<String>> remaining = new LinkedHashMap<>();
        List<FragmentFailure> failures = new ArrayList<>();
        for (String repository : after.unreachable) {
            Throwable cause = after.listingFailures.get(repository);
            failures.add(cause != null ? FragmentFailure.of(-1, repository, cause) : new FragmentFailure(-1,
                    repository, FragmentFailure.Reason.UNAVAILABLE, "could not be listed"));
        }
        for (JobView.Trace trace : after.traces.values()) {
            trace.keys.forEach((repository, listed) -> {
                remaining.computeIfAbsent(repository, r -> new ArrayList<>()).addAll(listed);
                for (String key : listed) {
                    failures.add(new FragmentFailure(StoreKeys.parse(key).fragmentIndex(), repository,
                            FragmentFailure.Reason.FAILED, key + " is still listed after its delete"));
                }
            });
        }
        if (!after.unreachable.isEmpty() || !remaining.isEmpty()) {
            throw new JobDeletionException(jobId, deleted, remaining, List.copyOf(after.unreachable), failures);
        }
        return deleted;
    }
}
