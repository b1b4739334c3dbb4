package io.github.volpex.checkpoint.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a store knows about one job's objects: the committed checkpoints it found (newest first), the next sequence
 * number, every key it saw or wrote on each repository, and the repositories it could not list. Guarded by the job's
 * lock.
 */
final class JobState {

    /** Committed checkpoints, newest first: each with the highest revision of its index that was readable. */
    final List<FragmentIndex> checkpoints = new ArrayList<>();
    /** Keys of this job known to exist, by repository id. */
    final Map<String, Set<String>> known = new HashMap<>();
    /** Repositories whose listing failed: their keys are unknown. */
    final Set<String> unlisted = new HashSet<>();
    /** The sequence number the next commit takes. */
    long nextSequence;

    FragmentIndex latest() {
        return checkpoints.isEmpty() ? null : checkpoints.get(0);
    }

    void remember(String repositoryId, String key) {
        known.computeIfAbsent(repositoryId, r -> new HashSet<>()).add(key);
    }

    void forget(String repositoryId, String key) {
        Set<String> keys = known.get(repositoryId);
        if (keys != null) {
            keys.remove(key);
        }
    }
}
