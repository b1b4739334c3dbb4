package io.github.volpex.checkpoint.store;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.random.RandomGenerator;

/**
 * What the parts of a {@link CheckpointStore} share: its configuration and the repository calls they all make —
 * listing a job, reading its index copies, writing and verifying small objects on several repositories, deleting,
 * choosing repositories. Immutable; the store's per-job lock serialises the callers of one job.
 */
final class StoreContext {

    /** The last instant a {@link FragmentIndex} holds: its times are milliseconds since 1970 in a signed long. */
    private static final Instant LAST_LEASE_END = Instant.ofEpochMilli(Long.MAX_VALUE);

    final List<FragmentRepository> repositories;
    final Map<String, FragmentRepository> byId;
    final Dispersal dispersal;
    final Executor executor;
    final InstantSource clock;
    final RandomGenerator random;
    final PlacementPolicy placement;
    final EpochSource epochs;
    final Duration lease;
    final int reconstructionThreshold;
    final int segmentBytes;
    final int extraFetches;

    StoreContext(List<FragmentRepository> repositories, Map<String, FragmentRepository> byId, Dispersal dispersal,
                 Executor executor, InstantSource clock, RandomGenerator random, PlacementPolicy placement,
                 EpochSource epochs, Duration lease, int reconstructionThreshold, int segmentBytes, int extraFetches) {
        this.repositories = repositories;
        this.byId = byId;
        this.dispersal = dispersal;
        this.executor = executor;
        this.clock = clock;
        this.random = random;
        this.placement = placement;
        this.epochs = epochs;
        this.lease = lease;
        this.reconstructionThreshold = reconstructionThreshold;
        this.segmentBytes = segmentBytes;
        this.extraFetches = extraFetches;
    }

    /** Lists the job on every repository, in parallel. */
    JobView view(String jobId) {
        String prefix = StoreKeys.jobPrefix(jobId);
        List<Callable<List<String>>> listings = new ArrayList<>();
        for (FragmentRepository repository : repositories) {
            listings.add(() -> repository.list(prefix));
        }
        List<Parallel.Outcome<List<String>>> outcomes = Parallel.all(executor, listings);
        Map<String, List<String>> byRepository = new LinkedHashMap<>();
        Map<String, Throwable> failures = new LinkedHashMap<>();
        for (int r = 0; r < repositories.size(); r++) {
            Parallel.Outcome<List<String>> outcome = outcomes.get(r);
            byRepository.put(repositories.get(r).id(), outcome.ok() ? outcome.value() : null);
            if (!outcome.ok()) {
                failures.put(repositories.get(r).id(), outcome.failure());
            }
        }
        return JobView.of(jobId, byRepository, failures);
    }

    /**
     * What reading a checkpoint's index copies found: the highest revision that parses and names the checkpoint, and
     * the copy each repository returned that does.
     */
    record IndexCopies(Optional<FragmentIndex> best, Map<String, FragmentIndex> readable) {

        /** The repositories whose copy equals {@code index} (every field, the revision included). */
        Set<String> holding(FragmentIndex index) {
            Set<String> holding = new LinkedHashSet<>();
            readable.forEach((id, copy) -> {
                if (copy.equals(index)) {
                    holding.add(id);
                }
            });
            return holding;
        }
    }

    /**
     * Reads the copies of a checkpoint's index on {@code holders}, in parallel: those that fail, are missing, do not
     * parse or name another checkpoint are reported in {@code failures}.
     */
    IndexCopies readIndexCopies(String jobId, CheckpointId id, Collection<String> holders,
                                List<FragmentFailure> failures) {
        String key = StoreKeys.indexKey(jobId, id);
        List<String> targets = new ArrayList<>(new LinkedHashSet<>(holders));
        List<Callable<Optional<byte[]>>> reads = new ArrayList<>();
        for (String target : targets) {
            FragmentRepository repository = byId.get(target);
            reads.add(() -> repository.get(key));
        }
        List<Parallel.Outcome<Optional<byte[]>>> outcomes = Parallel.all(executor, reads);
        FragmentIndex best = null;
        Map<String, FragmentIndex> readable = new LinkedHashMap<>();
        for (int j = 0; j < targets.size(); j++) {
            Parallel.Outcome<Optional<byte[]>> outcome = outcomes.get(j);
            String holder = targets.get(j);
            if (!outcome.ok()) {
                failures.add(FragmentFailure.of(-1, holder, outcome.failure()));
                continue;
            }
            if (outcome.value().isEmpty()) {
                failures.add(new FragmentFailure(-1, holder, FragmentFailure.Reason.MISSING,
                        "index copy " + key + " is gone"));
                continue;
            }
            try {
                FragmentIndex index = FragmentIndex.parse(outcome.value().get());
                if (!index.jobId().equals(jobId) || !index.checkpointId().equals(id)) {
                    failures.add(new FragmentFailure(-1, holder, FragmentFailure.Reason.CORRUPT,
                            "index copy " + key + " describes another checkpoint: " + index.checkpointId()));
                    continue;
                }
                readable.put(holder, index);
                if (best == null || index.revision() > best.revision()) {
                    best = index;
                }
            } catch (CorruptIndexException e) {
                failures.add(new FragmentFailure(-1, holder, FragmentFailure.Reason.CORRUPT,
                        String.valueOf(e.getMessage())));
            }
        }
        return new IndexCopies(Optional.ofNullable(best), readable);
    }

    /**
     * Reads every listed copy of a checkpoint's index and returns the highest revision that parses and names this
     * checkpoint, or empty if none does.
     */
    Optional<FragmentIndex> readIndex(String jobId, JobView.Trace trace, List<FragmentFailure> failures) {
        return readIndexCopies(jobId, trace.id, trace.indexCopies, failures).best();
    }

    /** The index of a committed checkpoint, or the failure to rebuild it when no copy can be read. */
    FragmentIndex requireIndex(String jobId, JobView.Trace trace, List<FragmentFailure> failures) {
        return readIndex(jobId, trace, failures).orElseThrow(() -> noIndex(jobId, trace, failures));
    }

    /** The failure to rebuild a committed checkpoint none of whose index copies can be read. */
    CheckpointUnavailableException noIndex(String jobId, JobView.Trace trace, List<FragmentFailure> failures) {
        failures.add(new FragmentFailure(-1, trace.indexCopies.isEmpty() ? "any repository"
                : String.join(", ", trace.indexCopies), FragmentFailure.Reason.MISSING,
                "no readable copy of the index of " + trace.id));
        return new CheckpointUnavailableException(jobId, trace.id.sequence(), dispersal.m(), 0, failures);
    }

    /**
     * Puts {@code bytes} under {@code key} on every repository of {@code ids}, in parallel; returns those that took it.
     */
    Set<String> putAll(Collection<String> ids, String key, byte[] bytes, int fragmentIndex,
                       List<FragmentFailure> failures) {
        List<String> targets = new ArrayList<>(ids);
        List<Callable<Void>> tasks = new ArrayList<>();
        for (String id : targets) {
            FragmentRepository repository = byId.get(id);
            tasks.add(() -> {
                repository.put(key, bytes);
                return null;
            });
        }
        List<Parallel.Outcome<Void>> outcomes = Parallel.all(executor, tasks);
        Set<String> written = new LinkedHashSet<>();
        for (int j = 0; j < targets.size(); j++) {
            if (outcomes.get(j).ok()) {
                written.add(targets.get(j));
            } else {
                failures.add(FragmentFailure.of(fragmentIndex, targets.get(j), outcomes.get(j).failure()));
            }
        }
        return written;
    }

    /**
     * Lists the keys of one checkpoint on each of {@code ids}, in parallel: what really is stored after writes that
     * reported success (a write may have been dropped on the way). A repository that cannot be listed maps to null.
     */
    Map<String, Set<String>> listCheckpoint(String jobId, CheckpointId id, Collection<String> ids) {
        return listPrefix(StoreKeys.checkpointPrefix(jobId, id), ids);
    }

    /** Lists the keys starting with {@code prefix} on each of {@code ids}, in parallel; null for a failed listing. */
    private Map<String, Set<String>> listPrefix(String prefix, Collection<String> ids) {
        List<String> targets = new ArrayList<>(new LinkedHashSet<>(ids));
        List<Callable<List<String>>> tasks = new ArrayList<>();
        for (String target : targets) {
            FragmentRepository repository = byId.get(target);
            tasks.add(() -> repository.list(prefix));
        }
        List<Parallel.Outcome<List<String>>> outcomes = Parallel.all(executor, tasks);
        Map<String, Set<String>> listed = new HashMap<>();
        for (int j = 0; j < targets.size(); j++) {
            listed.put(targets.get(j), outcomes.get(j).ok() ? new LinkedHashSet<>(outcomes.get(j).value()) : null);
        }
        return listed;
    }

    /** How many of {@code ids} list {@code key}, according to {@code listed}. */
    static int countListing(Map<String, Set<String>> listed, Collection<String> ids, String key) {
        int count = 0;
        for (String id : new LinkedHashSet<>(ids)) {
            Set<String> keys = listed.get(id);
            if (keys != null && keys.contains(key)) {
                count++;
            }
        }
        return count;
    }

    /**
     * What a deletion did: how many objects it removed, and the checkpoints it kept whole because a commit marker of
     * them may remain.
     */
    record Deletion(int deleted, Set<CheckpointId> kept) {
    }

    /**
     * Deletes objects of {@code jobId}, by repository, in parallel. A checkpoint's commit markers go first; its index
     * copies and then its fragments only once every one of those marker deletes returned and a listing of the same
     * repositories shows no marker of it left (a delete may fail, or be dropped on the way). A checkpoint whose marker
     * may remain is kept whole, so that a checkpoint that may count never lacks its index or fragments. Best effort
     * otherwise: a failed delete of an index copy or a fragment leaves garbage for a later collection.
     */
    Deletion delete(String jobId, Map<String, List<String>> keysByRepository) {
        Map<CheckpointId, List<String[]>> markers = new LinkedHashMap<>();
        Map<CheckpointId, List<String[]>> indexCopies = new LinkedHashMap<>();
        Map<CheckpointId, List<String[]>> fragments = new LinkedHashMap<>();
        keysByRepository.forEach((id, keys) -> {
            if (!byId.containsKey(id)) {
                return;
            }
            for (String key : keys) {
                StoreKeys.Parsed parsed = StoreKeys.parse(key);
                if (parsed == null || !parsed.jobId().equals(jobId)) {
                    continue;
                }
                Map<CheckpointId, List<String[]>> group = switch (parsed.kind()) {
                    case MARKER -> markers;
                    case INDEX -> indexCopies;
                    case FRAGMENT -> fragments;
                };
                group.computeIfAbsent(parsed.id(), c -> new ArrayList<>()).add(new String[] {id, key});
            }
        });
        int[] deleted = new int[1];
        Set<CheckpointId> kept = new LinkedHashSet<>();
        List<String[]> markerTargets = new ArrayList<>();
        markers.values().forEach(markerTargets::addAll);
        List<Parallel.Outcome<Boolean>> outcomes = deleteAll(markerTargets, deleted);
        Set<String> listedRepositories = new LinkedHashSet<>();
        int j = 0;
        for (Map.Entry<CheckpointId, List<String[]>> entry : markers.entrySet()) {
            for (String[] target : entry.getValue()) {
                listedRepositories.add(target[0]);
                if (!outcomes.get(j++).ok()) {
                    kept.add(entry.getKey());
                }
            }
        }
        if (!listedRepositories.isEmpty()) {
            Map<String, Set<String>> listed = listPrefix(StoreKeys.jobPrefix(jobId), listedRepositories);
            for (Map.Entry<CheckpointId, List<String[]>> entry : markers.entrySet()) {
                String marker = StoreKeys.markerKey(jobId, entry.getKey());
                for (String[] target : entry.getValue()) {
                    if (listed.get(target[0]) == null) {
                        kept.add(entry.getKey());
                    }
                }
                for (Set<String> keys : listed.values()) {
                    if (keys != null && keys.contains(marker)) {
                        kept.add(entry.getKey());
                    }
                }
            }
        }
        for (Map<CheckpointId, List<String[]>> group : List.of(indexCopies, fragments)) {
            List<String[]> targets = new ArrayList<>();
            group.forEach((id, keys) -> {
                if (!kept.contains(id)) {
                    targets.addAll(keys);
                }
            });
            deleteAll(targets, deleted);
        }
        return new Deletion(deleted[0], kept);
    }

    /** Deletes each (repository, key) of {@code targets} in parallel, counting in {@code deleted} what existed. */
    private List<Parallel.Outcome<Boolean>> deleteAll(List<String[]> targets, int[] deleted) {
        List<Callable<Boolean>> tasks = new ArrayList<>();
        for (String[] target : targets) {
            FragmentRepository repository = byId.get(target[0]);
            tasks.add(() -> repository.delete(target[1]));
        }
        List<Parallel.Outcome<Boolean>> outcomes = Parallel.all(executor, tasks);
        for (Parallel.Outcome<Boolean> outcome : outcomes) {
            if (outcome.ok() && Boolean.TRUE.equals(outcome.value())) {
                deleted[0]++;
            }
        }
        return outcomes;
    }

    /**
     * Asks the placement policy for {@code count} of the {@code candidates} (in order of preference, holders and
     * excluded repositories already removed) and checks its answer.
     */
    List<String> place(String jobId, long bytes, int m, int k, int count, List<String> candidates,
                       List<String> holders) {
        if (candidates.size() < count) {
            throw new NotEnoughRepositoriesException(count + " repositories are needed for " + jobId + ", "
                    + candidates.size() + " remain that hold no fragment and have not failed");
        }
        List<String> chosen = placement.choose(new PlacementRequest(jobId, bytes, m, k, count, candidates, holders));
        Set<String> distinct = new LinkedHashSet<>(chosen);
        if (chosen.size() != count || distinct.size() != count || !candidates.containsAll(distinct)) {
            throw new IllegalStateException("the placement policy must choose " + count + " distinct candidates of "
                    + candidates + ": " + chosen);
        }
        return List.copyOf(chosen);
    }

    /**
     * The repositories outside {@code holders} and {@code excluded}, in the store's order, those the last listing
     * reached first ({@code unreachable} last): a commit skips repositories that failed to list as long as others
     * can take its fragments.
     */
    List<String> candidates(Collection<String> holders, Collection<String> excluded, Set<String> unreachable) {
        List<String> reachable = new ArrayList<>();
        List<String> others = new ArrayList<>();
        for (FragmentRepository repository : repositories) {
            String id = repository.id();
            if (!holders.contains(id) && !excluded.contains(id)) {
                (unreachable.contains(id) ? others : reachable).add(id);
            }
        }
        reachable.addAll(others);
        return reachable;
    }

    /** Thrown inside the store when placement has fewer candidates than it needs. */
    static final class NotEnoughRepositoriesException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotEnoughRepositoriesException(String message) {
            super(message, null, false, false);
        }
    }

    /** The dispersal that decodes {@code index}. */
    Dispersal dispersalFor(FragmentIndex index) {
        boolean same = index.encoding() == dispersal.encoding() && index.m() == dispersal.m()
                && index.n() == dispersal.n() && index.stripeBytes() == dispersal.stripeBytes();
        if (same) {
            return dispersal;
        }
        return index.encoding() == Encoding.REPLICAS ? new Replication(index.n()) : IdaDispersal.of(index);
    }

    /** The reconstruction threshold for {@code index}: the configured one for the store's own codec. */
    int reconstructionThreshold(FragmentIndex index) {
        return index.m() == dispersal.m() && index.n() == dispersal.n() ? reconstructionThreshold
                : CheckpointStore.defaultThreshold(index.m(), index.n());
    }

    /** A new random commit id. */
    long nextCommitId() {
        synchronized (random) {
            return random.nextLong();
        }
    }

    /** {@code now + lease}, saturated at the last instant the index format holds (its times are epoch milliseconds). */
    static Instant leaseEnd(Instant now, Duration lease) {
        Duration room = Duration.between(now, LAST_LEASE_END);
        return lease.compareTo(room) >= 0 ? LAST_LEASE_END : now.plus(lease);
    }

    /** The ids of the repositories holding {@code index}'s fragments, distinct, in fragment order. */
    static List<String> holders(FragmentIndex index) {
        return index.fragments().stream().map(FragmentLocation::repositoryId).distinct().toList();
    }
}
