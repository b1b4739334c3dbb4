package io.github.volpex.checkpoint.store;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
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
     * Reads every listed copy of a checkpoint's index and returns the highest revision that parses and names this
     * checkpoint, or empty if none does.
     */
    Optional<FragmentIndex> readIndex(String jobId, JobView.Trace trace, List<FragmentFailure> failures) {
        String key = StoreKeys.indexKey(jobId, trace.id);
        List<String> holders = new ArrayList<>(trace.indexCopies);
        List<Callable<Optional<byte[]>>> reads = new ArrayList<>();
        for (String id : holders) {
            FragmentRepository repository = byId.get(id);
            reads.add(() -> repository.get(key));
        }
        List<Parallel.Outcome<Optional<byte[]>>> outcomes = Parallel.all(executor, reads);
        FragmentIndex best = null;
        for (int j = 0; j < holders.size(); j++) {
            Parallel.Outcome<Optional<byte[]>> outcome = outcomes.get(j);
            if (!outcome.ok()) {
                failures.add(FragmentFailure.of(-1, holders.get(j), outcome.failure()));
                continue;
            }
            if (outcome.value().isEmpty()) {
                failures.add(new FragmentFailure(-1, holders.get(j), FragmentFailure.Reason.MISSING,
                        "index copy " + key + " is gone"));
                continue;
            }
            try {
                FragmentIndex index = FragmentIndex.parse(outcome.value().get());
                if (!index.jobId().equals(jobId) || !index.checkpointId().equals(trace.id)) {
                    failures.add(new FragmentFailure(-1, holders.get(j), FragmentFailure.Reason.CORRUPT,
                            "index copy " + key + " describes another checkpoint: " + index.checkpointId()));
                } else if (best == null || index.revision() > best.revision()) {
                    best = index;
                }
            } catch (CorruptIndexException e) {
                failures.add(new FragmentFailure(-1, holders.get(j), FragmentFailure.Reason.CORRUPT,
                        String.valueOf(e.getMessage())));
            }
        }
        return Optional.ofNullable(best);
    }

    /** The index of a committed checkpoint, or the failure to rebuild it when no copy can be read. */
    FragmentIndex requireIndex(String jobId, JobView.Trace trace, List<FragmentFailure> failures) {
        return readIndex(jobId, trace, failures).orElseThrow(() -> {
            failures.add(new FragmentFailure(-1, trace.indexCopies.isEmpty() ? "any repository"
                    : String.join(", ", trace.indexCopies), FragmentFailure.Reason.MISSING,
                    "no readable copy of the index of " + trace.id));
            return new CheckpointUnavailableException(jobId, trace.id.sequence(), dispersal.m(), 0, failures);
        });
    }

    /** Puts {@code bytes} under {@code key} on every repository of {@code ids}, in parallel; returns those that took it. */
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
        String prefix = StoreKeys.checkpointPrefix(jobId, id);
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
     * Deletes keys, by repository, in parallel: commit markers first, then index copies, then fragments, so that a
     * checkpoint deleted half-way is no longer committed before anything it needs is gone. Best effort; returns how
     * many objects were deleted.
     */
    int delete(Map<String, List<String>> keysByRepository) {
        List<String[]> targets = new ArrayList<>();
        keysByRepository.forEach((id, keys) -> {
            if (byId.containsKey(id)) {
                keys.forEach(key -> targets.add(new String[] {id, key}));
            }
        });
        targets.sort(Comparator.comparingInt(t -> deletionRank(t[1])));
        int deleted = 0;
        int from = 0;
        while (from < targets.size()) {
            int rank = deletionRank(targets.get(from)[1]);
            int to = from;
            while (to < targets.size() && deletionRank(targets.get(to)[1]) == rank) {
                to++;
            }
            List<Callable<Boolean>> tasks = new ArrayList<>();
            for (String[] t : targets.subList(from, to)) {
                FragmentRepository repository = byId.get(t[0]);
                tasks.add(() -> repository.delete(t[1]));
            }
            for (Parallel.Outcome<Boolean> outcome : Parallel.all(executor, tasks)) {
                if (outcome.ok() && Boolean.TRUE.equals(outcome.value())) {
                    deleted++;
                }
            }
            from = to;
        }
        return deleted;
    }

    private static int deletionRank(String key) {
        StoreKeys.Parsed parsed = StoreKeys.parse(key);
        if (parsed == null) {
            return 3;
        }
        return switch (parsed.kind()) {
            case MARKER -> 0;
            case INDEX -> 1;
            case FRAGMENT -> 2;
        };
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
