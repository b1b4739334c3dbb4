package io.github.volpex.checkpoint.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One listing of a job's objects on every repository: which checkpoints are present (by {@link CheckpointId}, in
 * order), which repositories list each one's fragments, index copies and commit markers, and which repositories could
 * not be listed. Every operation of the store starts from a fresh view, taken under the job's lock.
 *
 * <p>A checkpoint is <em>committed</em> once it reached its commit point, which a commit marker proves; the view sees
 * it as committed as long as one repository holding one of its markers answers. Checkpoints without a visible marker
 * are leftovers of commits that failed or are still running, and are never recovered, repaired or preferred.
 */
final class JobView {

    /** What the listings show of one checkpoint. */
    static final class Trace {
        final CheckpointId id;
        /** Repository → fragment indices it lists. */
        final Map<String, Set<Integer>> fragments = new LinkedHashMap<>();
        /** Repositories listing an index copy. */
        final Set<String> indexCopies = new LinkedHashSet<>();
        /** Repositories listing a commit marker. */
        final Set<String> markers = new LinkedHashSet<>();
        /** Repository → every key of this checkpoint it lists. */
        final Map<String, List<String>> keys = new LinkedHashMap<>();

        Trace(CheckpointId id) {
            this.id = id;
        }

        boolean committed() {
            return !markers.isEmpty();
        }

        /** How many distinct fragment indices are listed somewhere. */
        int distinctFragmentsListed() {
            Set<Integer> all = new TreeSet<>();
            fragments.values().forEach(all::addAll);
            return all.size();
        }
    }

    final String jobId;
    /** Repositories whose listing failed. */
    final Set<String> unreachable;
    /** Why each repository of {@link #unreachable} could not be listed, when known: what its listing threw. */
    final Map<String, Throwable> listingFailures;
    /** Every checkpoint present, oldest first. */
    final TreeMap<CheckpointId, Trace> traces;

    private JobView(String jobId, Set<String> unreachable, Map<String, Throwable> listingFailures,
                    TreeMap<CheckpointId, Trace> traces) {
        this.jobId = jobId;
        this.unreachable = Collections.unmodifiableSet(unreachable);
        this.listingFailures = Collections.unmodifiableMap(listingFailures);
        this.traces = traces;
    }

    /**
     * Builds the view from the listings of every repository, in the store's order: {@code listings.get(id)} is the
     * repository's keys with the job's prefix, or null if it could not be listed.
     */
    static JobView of(String jobId, Map<String, List<String>> listings) {
        return of(jobId, listings, Map.of());
    }

    /**
     * Builds the view as {@link #of(String, Map)} does; {@code failures} holds what the listing of each repository
     * that could not be listed threw.
     */
    static JobView of(String jobId, Map<String, List<String>> listings, Map<String, Throwable> failures) {
        Set<String> unreachable = new LinkedHashSet<>();
        Map<String, Throwable> listingFailures = new LinkedHashMap<>();
        TreeMap<CheckpointId, Trace> traces = new TreeMap<>();
        for (Map.Entry<String, List<String>> listing : listings.entrySet()) {
            String repositoryId = listing.getKey();
            if (listing.getValue() == null) {
                unreachable.add(repositoryId);
                if (failures.get(repositoryId) != null) {
                    listingFailures.put(repositoryId, failures.get(repositoryId));
                }
                continue;
            }
            for (String key : listing.getValue()) {
                StoreKeys.Parsed parsed = StoreKeys.parse(key);
                if (parsed == null || !parsed.jobId().equals(jobId)) {
                    continue;
                }
                Trace trace = traces.computeIfAbsent(parsed.id(), Trace::new);
                trace.keys.computeIfAbsent(repositoryId, r -> new ArrayList<>()).add(key);
                switch (parsed.kind()) {
                    case FRAGMENT -> trace.fragments.computeIfAbsent(repositoryId, r -> new TreeSet<>())
                            .add(parsed.fragmentIndex());
                    case INDEX -> trace.indexCopies.add(repositoryId);
                    case MARKER -> trace.markers.add(repositoryId);
                    default -> throw new AssertionError(parsed.kind());
                }
            }
        }
        return new JobView(jobId, unreachable, listingFailures, traces);
    }

    /** The committed checkpoints, newest first. */
    List<Trace> committedNewestFirst() {
        return committedNewestFirstStream().collect(Collectors.toList());
    }

    /** The newest committed checkpoint, if any. */
    Optional<Trace> newestCommitted() {
        return committedNewestFirstStream().findFirst();
    }

    private Stream<Trace> committedNewestFirstStream() {
        return traces.descendingMap().values().stream().filter(Trace::committed);
    }

    /** The greatest epoch of any object of the job, or -1. */
    long highestEpoch() {
        return traces.keySet().stream().mapToLong(CheckpointId::epoch).max().orElse(-1);
    }

    /** The greatest sequence number of any object of the job, or -1. */
    long highestSequence() {
        return traces.keySet().stream().mapToLong(CheckpointId::sequence).max().orElse(-1);
    }

    /** Every key of the checkpoints older than {@code id}, by repository. */
    Map<String, List<String>> keysOlderThan(CheckpointId id) {
        return keysOlderThan(id, Set.of());
    }

    /**
     * Every key of the checkpoints older than {@code id} but those of {@code retained} (the segments a differential
     * checkpoint's manifest lists), by repository.
     */
    Map<String, List<String>> keysOlderThan(CheckpointId id, Set<CheckpointId> retained) {
        Map<String, List<String>> doomed = new LinkedHashMap<>();
        for (Trace trace : traces.headMap(id, false).values()) {
            if (retained.contains(trace.id)) {
                continue;
            }
            trace.keys.forEach((repository, keys) -> doomed.computeIfAbsent(repository, r -> new ArrayList<>())
                    .addAll(keys));
        }
        return doomed;
    }
}
