package io.github.volpex.checkpoint.store;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/**
 * Leases and garbage (de Camargo §4.3; see {@link CheckpointStore#collectGarbage} and
 * {@link CheckpointStore#renewLease}): older checkpoints and failed commits are deleted only once the newest committed
 * checkpoint's commit is durable ({@code k + 1} holders list its marker) and {@code m} of its fragments have been read
 * back and verified.
 */
final class Collector {

    private final StoreContext context;
    private final Reads reads;
    private final Repairer repairer;
    private final Differential differential;

    Collector(StoreContext context, Reads reads, Repairer repairer, Differential differential) {
        this.context = context;
        this.reads = reads;
        this.repairer = repairer;
        this.differential = differential;
    }

    int collectGarbage(String jobId) {
        JobView view = context.view(jobId);
        Optional<JobView.Trace> newest = view.newestCommitted();
        if (newest.isEmpty()) {
            return 0;
        }
        JobView.Trace trace = newest.get();
        List<FragmentFailure> failures = new ArrayList<>();
        StoreContext.IndexCopies copies = context.readIndexCopies(jobId, trace.id, trace.indexCopies, failures);
        if (copies.best().isEmpty()) {
            return 0;
        }
        FragmentIndex index = copies.best().get();
        if (index.isExpired(context.clock.instant())) {
            Map<String, List<String>> doomed = view.keysOlderThan(trace.id);
            trace.keys.forEach((repository, keys) -> doomed.computeIfAbsent(repository, r -> new ArrayList<>())
                    .addAll(keys));
            return context.delete(jobId, doomed).deleted();
        }
        repairer.completeMarkers(index, trace, view, failures);
        List<String> holders = StoreContext.holders(index);
        Map<String, Set<String>> listed = context.listCheckpoint(jobId, trace.id, holders);
        if (StoreContext.countListing(listed, holders, index.markerKey()) < index.k() + 1) {
            return 0;
        }
        Set<CheckpointId> retained;
        if (index.isDifferential()) {
            // The segments its manifest lists are kept; rebuilding the state reads and verifies every one of them.
            try {
                RecoveredCheckpoint own = reads.rebuild(index);
                retained = Differential.segments(Manifest.ofPayload(own.bytes()));
                differential.assemble(index, view);
            } catch (CheckpointStoreException | CorruptIndexException | IllegalStateException e) {
                return 0;
            }
        } else if (!reads.verifyRecoverable(index, failures)) {
            return 0;
        } else {
            retained = Set.of();
        }
        Map<String, List<String>> doomed = view.keysOlderThan(trace.id, retained);
        // Copies of the newest checkpoint's fragments and index left on repositories that no longer hold them — but
        // only when this index is certainly the newest revision: every repository listed, every copy of the index was
        // read, and no other copy has this revision or a newer one. A repair that moved a fragment writes a new
        // revision; taking an older one for the newest would make the moved fragment look left behind.
        boolean newestRevision = view.unreachable.isEmpty()
                && copies.readable().keySet().containsAll(trace.indexCopies)
                && copies.readable().values().stream()
                        .allMatch(copy -> copy.revision() < index.revision() || copy.equals(index));
        if (!newestRevision) {
            return context.delete(jobId, doomed).deleted();
        }
        trace.keys.forEach((repository, keys) -> {
            for (String key : keys) {
                StoreKeys.Parsed parsed = StoreKeys.parse(key);
                boolean stray = switch (parsed.kind()) {
                    case FRAGMENT -> parsed.fragmentIndex() >= index.n()
                            || !index.fragments().get(parsed.fragmentIndex()).repositoryId().equals(repository);
                    case INDEX -> !holders.contains(repository);
                    case MARKER -> false;
                };
                if (stray) {
                    doomed.computeIfAbsent(repository, r -> new ArrayList<>()).add(key);
                }
            }
        });
        return context.delete(jobId, doomed).deleted();
    }

    /** The job ids that have objects on the repositories that answer. */
    Set<String> jobsWithObjects() {
        List<Callable<List<String>>> listings = new ArrayList<>();
        for (FragmentRepository repository : context.repositories) {
            listings.add(() -> repository.list(""));
        }
        Set<String> jobIds = new TreeSet<>();
        for (Parallel.Outcome<List<String>> outcome : Parallel.all(context.executor, listings)) {
            if (outcome.ok()) {
                for (String key : outcome.value()) {
                    StoreKeys.Parsed parsed = StoreKeys.parse(key);
                    if (parsed != null) {
                        jobIds.add(parsed.jobId());
                    }
                }
            }
        }
        return jobIds;
    }

    Optional<FragmentIndex> renewLease(String jobId, Duration duration) {
        Optional<JobView.Trace> newest = context.view(jobId).newestCommitted();
        if (newest.isEmpty()) {
            return Optional.empty();
        }
        List<FragmentFailure> failures = new ArrayList<>();
        FragmentIndex index = context.requireIndex(jobId, newest.get(), failures);
        FragmentIndex renewed = index.revised(index.fragments(),
                StoreContext.leaseEnd(context.clock.instant(), duration));
        Set<String> copies = context.putAll(StoreContext.holders(renewed), renewed.indexKey(), renewed.toBytes(), -1,
                failures);
        if (copies.isEmpty()) {
            throw new CommitFailedException(jobId, index.sequence(), 0, true, "no repository accepted the renewed "
                    + "index", failures);
        }
        return Optional.of(renewed);
    }
}
