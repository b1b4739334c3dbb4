package io.github.volpex.checkpoint.store;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Regenerates fragments of a checkpoint from {@code m} of its stored ones, read in lockstep, onto other
 * repositories: how a commit replaces the fragments whose writes failed, and how repair replaces lost ones. Each
 * regenerated fragment must hash to the digest its index records (deterministic encoding makes it byte-identical), so
 * regeneration checks itself.
 */
final class Regenerator {

    private final StoreContext context;

    Regenerator(StoreContext context) {
        this.context = context;
    }

    /**
     * Regenerates fragments {@code missing} of {@code index} onto repositories outside {@code excluded} and the
     * current holders, placing them again as writes fail, until all are written or no candidate is left; returns the
     * index with their new locations (same revision) and removes the written ones from {@code missing}. Before each
     * write is tried, {@code trying} hears of the fragment and the repository it goes to.
     *
     * @throws StoreContext.NotEnoughRepositoriesException if the candidates run out first
     * @throws CheckpointUnavailableException              if fewer than {@code m} sources can be read
     */
    FragmentIndex relocate(FragmentIndex index, List<Integer> missing, Set<String> excluded, Set<String> unreachable,
                           List<FragmentFailure> failures, BiConsumer<Integer, String> trying) {
        FragmentIndex current = index;
        while (!missing.isEmpty()) {
            List<String> holders = new ArrayList<>();
            List<Integer> sources = new ArrayList<>();
            for (FragmentLocation location : current.fragments()) {
                if (!missing.contains(location.fragmentIndex())) {
                    holders.add(location.repositoryId());
                    sources.add(location.fragmentIndex());
                }
            }
            List<String> candidates = context.candidates(holders, excluded, unreachable);
            List<String> targets = context.place(index.jobId(), index.checkpointBytes(), index.m(), index.k(),
                    missing.size(), candidates, holders.stream().distinct().toList());
            for (int j = 0; j < missing.size(); j++) {
                trying.accept(missing.get(j), targets.get(j));
            }
            Map<Integer, String> written = regenerate(current, sources, missing, targets, excluded, failures);
            current = moved(current, written);
            missing.removeAll(written.keySet());
        }
        return current;
    }

    /** {@code index} with the fragments of {@code written} on their new repositories, same revision. */
    static FragmentIndex moved(FragmentIndex index, Map<Integer, String> written) {
        List<FragmentLocation> locations = new ArrayList<>(index.fragments());
        written.forEach((i, repository) -> locations.set(i, locations.get(i).movedTo(repository)));
        return index.relocated(locations);
    }

    /**
     * Regenerates fragments {@code missing} of {@code index} onto {@code targets} (parallel lists), reading the
     * {@code sources} in lockstep. Targets whose writes fail are added to {@code excluded}. Returns fragment index →
     * repository of what was written.
     */
    Map<Integer, String> regenerate(FragmentIndex index, List<Integer> sources, List<Integer> missing,
                                    List<String> targets, Set<String> excluded, List<FragmentFailure> failures) {
        Dispersal d = context.dispersalFor(index);
        Framing framing = new Framing(d, index.segmentBytes(), index.checkpointBytes());
        int[] which = missing.stream().mapToInt(Integer::intValue).toArray();
        FragmentRepository[] repos = new FragmentRepository[which.length];
        String[] keys = new String[which.length];
        for (int j = 0; j < which.length; j++) {
            repos[j] = context.byId.get(targets.get(j));
            keys[j] = index.fragmentKey(which[j]);
        }
        Map<Integer, String> written = new HashMap<>();
        int failuresBefore = failures.size();
        try (FragmentSink sink = new FragmentSink(context.executor, index.n(), failures);
             SegmentSource source = new SegmentSource(index, framing, d, context.byId, sources, failures)) {
            long[] lengths = new long[index.n()];
            for (FragmentLocation location : index.fragments()) {
                lengths[location.fragmentIndex()] = location.lengthBytes();
            }
            sink.open(which, repos, keys, lengths);
            for (long s = 0; s < framing.segments(); s++) {
                byte[][] pieces = source.next(s);
                int segmentLength = framing.segmentLength(s);
                d.regenerate(pieces, segmentLength, which);
                sink.write(pieces, d.pieceLength(segmentLength), which);
            }
            boolean sourcesVerified = source.finish();
            // Publish only what hashes to the recorded digest.
            List<Integer> good = new ArrayList<>();
            for (int j = 0; j < which.length; j++) {
                FragmentLocation expected = index.fragments().get(which[j]);
                if (sourcesVerified && sink.digest(which[j]).equals(expected.sha256())
                        && sink.length(which[j]) == expected.lengthBytes()) {
                    good.add(which[j]);
                }
            }
            sink.commit(good.stream().mapToInt(Integer::intValue).toArray());
            for (int j = 0; j < which.length; j++) {
                if (sink.committed(which[j])) {
                    written.put(which[j], targets.get(j));
                }
            }
        }
        for (int j = failuresBefore; j < failures.size(); j++) {
            FragmentFailure failure = failures.get(j);
            if (targets.contains(failure.repositoryId())) {
                excluded.add(failure.repositoryId());
            }
        }
        for (int j = 0; j < which.length; j++) {
            if (!written.containsKey(which[j])) {
                excluded.add(targets.get(j));
            }
        }
        return written;
    }
}
