package io.github.volpex.checkpoint.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Repair of a job's newest committed checkpoint (de Camargo §4.3; see {@link CheckpointStore#repair}): when fewer than
 * the reconstruction threshold of its fragments verify, the missing ones are regenerated — a corrupt or lost copy on a
 * repository that answers is rewritten in place, the others move to repositories holding none — and a new revision of
 * the index and the commit markers go to every holder.
 */
final class Repairer {

    private static final byte[] MARKER = new byte[0];

    private final StoreContext context;
    private final Reads reads;
    private final Regenerator regenerator;

    Repairer(StoreContext context, Reads reads, Regenerator regenerator) {
        this.context = context;
        this.reads = reads;
        this.regenerator = regenerator;
    }

    RepairReport repair(String jobId, JobState state) {
        JobView view = context.view(jobId);
        Optional<JobView.Trace> newest = view.newestCommitted();
        if (newest.isEmpty()) {
            return new RepairReport(RepairReport.Status.NO_CHECKPOINT, null, 0, 0, List.of(), List.of(), List.of());
        }
        RepairReport report = repair(jobId, view, newest.get(), false);
        if (report.index() == null || !report.index().isDifferential()
                || report.status() == RepairReport.Status.EXPIRED) {
            return report;
        }
        return repairSegments(jobId, view, report, state);
    }

    /**
     * Repairs the segments a differential checkpoint's manifest lists, as its own: they hold its blocks. Their
     * leases do not matter — the newest checkpoint's does. The report is the newest checkpoint's, partial if a
     * segment's repair was, with every failure. The manifest is the one {@code state} remembers when the store
     * committed, recovered or repaired that checkpoint last, and is read from its segment otherwise.
     */
    private RepairReport repairSegments(String jobId, JobView view, RepairReport report, JobState state) {
        FragmentIndex index = report.index();
        List<FragmentFailure> failures = new ArrayList<>(report.failures());
        Manifest manifest = state.manifestOf(index.checkpointId());
        if (manifest == null) {
            manifest = Manifest.ofPayload(reads.rebuild(index).bytes());
        }
        // The newest revision of the index, which records where repair moved fragments to.
        state.learnt(index, manifest);
        boolean partial = report.status() == RepairReport.Status.PARTIALLY_REPAIRED;
        boolean repaired = report.status() == RepairReport.Status.REPAIRED;
        for (Manifest.Segment segment : manifest.segments) {
            JobView.Trace trace = view.traces.get(segment.id());
            if (trace == null || !trace.committed()) {
                failures.add(new FragmentFailure(-1, "any repository", FragmentFailure.Reason.MISSING,
                        "segment " + segment.id() + ", which the block manifest lists, is not listed"));
                throw new CheckpointUnavailableException(jobId, index.sequence(), index.m(), 0, failures);
            }
            RepairReport part = repair(jobId, view, trace, true);
            // The segment's newest revision, which the next commit's check that the segment is whole must go by.
            state.knownSegment(part.index(), null);
            failures.addAll(part.failures());
            partial |= part.status() == RepairReport.Status.PARTIALLY_REPAIRED;
            repaired |= part.status() == RepairReport.Status.REPAIRED;
        }
        RepairReport.Status status = partial ? RepairReport.Status.PARTIALLY_REPAIRED
                : repaired ? RepairReport.Status.REPAIRED : RepairReport.Status.HEALTHY;
        return new RepairReport(status, index, report.verifiedBefore(), report.availableAfter(), report.regenerated(),
                report.indexCopiesRewritten(), failures);
    }

    /** Repairs one committed checkpoint; {@code anyLease} repairs it even after its lease ended. */
    private RepairReport repair(String jobId, JobView view, JobView.Trace trace, boolean anyLease) {
        List<FragmentFailure> failures = new ArrayList<>();
        // Every copy the listing shows and every copy a holder should have: a missing one is as bad as a corrupt one.
        Set<String> copyHolders = new LinkedHashSet<>(trace.indexCopies);
        trace.fragments.keySet().forEach(copyHolders::add);
        StoreContext.IndexCopies copies = context.readIndexCopies(jobId, trace.id, copyHolders, failures);
        if (copies.best().isEmpty()) {
            throw context.noIndex(jobId, trace, failures);
        }
        FragmentIndex index = copies.best().get();
        if (!anyLease && index.isExpired(context.clock.instant())) {
            return new RepairReport(RepairReport.Status.EXPIRED, index, 0, 0, List.of(), List.of(), List.of());
        }
        Set<Integer> verified = reads.probe(index, failures);
        int before = verified.size();
        if (before < index.m()) {
            throw new CheckpointUnavailableException(jobId, index.sequence(), index.m(), before, failures);
        }
        boolean fragmentsHealthy = before >= context.reconstructionThreshold(index);
        Map<Integer, String> moved = fragmentsHealthy ? Map.of()
                : regenerate(jobId, view, index, verified, failures);
        List<Integer> regenerated = new ArrayList<>(new TreeSet<>(moved.keySet()));
        boolean fragmentsComplete = fragmentsHealthy || before + regenerated.size() == index.n();
        FragmentIndex relocated = Regenerator.moved(index, moved);
        FragmentIndex revised = relocated.fragments().equals(index.fragments()) ? index
                : index.revised(relocated.fragments(), index.leaseExpiry());
        // Every holder that answers gets a copy of the newest revision, verified by reading it back.
        Set<String> intact = revised == index ? copies.holding(index) : Set.of();
        List<String> rewrite = new ArrayList<>();
        for (String holder : StoreContext.holders(revised)) {
            if (!intact.contains(holder) && !view.unreachable.contains(holder) && context.byId.containsKey(holder)) {
                rewrite.add(holder);
            }
        }
        Set<String> rewritten = context.putAll(rewrite, revised.indexKey(), revised.toBytes(), -1, failures);
        Set<String> confirmed = context.readIndexCopies(jobId, revised.checkpointId(), rewritten, failures)
                .holding(revised);
        if (revised != index && confirmed.isEmpty()) {
            // The new locations are recorded nowhere: the regenerated fragments do not count yet.
            completeMarkers(index, trace, view, failures);
            return new RepairReport(RepairReport.Status.PARTIALLY_REPAIRED, index, before, before, List.of(),
                    List.of(), failures);
        }
        completeMarkers(revised, trace, view, failures);
        RepairReport.Status status = fragmentsHealthy && rewrite.isEmpty() ? RepairReport.Status.HEALTHY
                : fragmentsComplete && confirmed.size() == rewrite.size() ? RepairReport.Status.REPAIRED
                : RepairReport.Status.PARTIALLY_REPAIRED;
        List<String> copiesWritten = rewrite.stream().filter(confirmed::contains).toList();
        return new RepairReport(status, revised, before, before + regenerated.size(), regenerated, copiesWritten,
                failures);
    }

    /**
     * Regenerates the fragments of {@code index} that did not verify from {@code m} that did: a corrupt copy is
     * rewritten where it is, if its repository takes the write; a lost one moves to a repository holding none, or
     * comes back where it was when no other is left; an unreachable one moves. Returns fragment index → repository
     * of every regenerated fragment that its repository lists afterwards.
     */
    private Map<Integer, String> regenerate(String jobId, JobView view, FragmentIndex index, Set<Integer> verified,
                                            List<FragmentFailure> failures) {
        Map<Integer, FragmentFailure.Reason> reasons = new HashMap<>();
        for (FragmentFailure failure : failures) {
            if (failure.fragmentIndex() >= 0) {
                reasons.putIfAbsent(failure.fragmentIndex(), failure.reason());
            }
        }
        List<Integer> sources = new ArrayList<>(verified);
        List<Integer> inPlace = new ArrayList<>();
        List<Integer> elsewhere = new ArrayList<>();
        Set<String> answering = new HashSet<>();
        Set<String> excluded = new HashSet<>();
        for (FragmentLocation location : index.fragments()) {
            int i = location.fragmentIndex();
            if (verified.contains(i)) {
                continue;
            }
            FragmentFailure.Reason reason = reasons.get(i);
            boolean answers = reason != FragmentFailure.Reason.UNAVAILABLE
                    && !view.unreachable.contains(location.repositoryId())
                    && context.byId.containsKey(location.repositoryId());
            if (answers) {
                answering.add(location.repositoryId());
            }
            (answers && reason == FragmentFailure.Reason.CORRUPT ? inPlace : elsewhere).add(i);
            excluded.add(location.repositoryId());
        }
        Map<Integer, String> written = new HashMap<>(rewriteInPlace(index, sources, inPlace, excluded, failures));
        inPlace.stream().filter(i -> !written.containsKey(i)).forEach(elsewhere::add);
        FragmentIndex current = Regenerator.moved(index, written);
        List<Integer> todo = new ArrayList<>(elsewhere);
        while (!todo.isEmpty()) {
            List<String> holders = new ArrayList<>();
            for (FragmentLocation location : current.fragments()) {
                if (!todo.contains(location.fragmentIndex())) {
                    holders.add(location.repositoryId());
                }
            }
            List<String> candidates = context.candidates(holders, excluded, view.unreachable);
            if (candidates.isEmpty()) {
                break;
            }
            List<Integer> batch = new ArrayList<>(todo.subList(0, Math.min(todo.size(), candidates.size())));
            List<String> targets = context.place(jobId, index.checkpointBytes(), index.m(), index.k(), batch.size(),
                    candidates, holders.stream().distinct().toList());
            Map<Integer, String> moved = regenerator.regenerate(current, sources, batch, targets, excluded, failures);
            written.putAll(moved);
            current = Regenerator.moved(current, moved);
            todo.removeAll(moved.keySet());
        }
        // Last resort: back onto the repositories that lost them, if they answer.
        List<Integer> back = todo.stream().filter(i -> answering.contains(index.fragments().get(i).repositoryId()))
                .toList();
        written.putAll(rewriteInPlace(index, sources, back, new HashSet<>(), failures));
        // A regenerated fragment counts once its repository lists it.
        Map<String, Set<String>> listed = context.listCheckpoint(jobId, index.checkpointId(), written.values());
        Map<Integer, String> regenerated = new HashMap<>();
        for (Map.Entry<Integer, String> entry : written.entrySet()) {
            Set<String> keys = listed.get(entry.getValue());
            if (keys != null && keys.contains(index.fragmentKey(entry.getKey()))) {
                regenerated.put(entry.getKey(), entry.getValue());
            }
        }
        return regenerated;
    }

    /** Regenerates {@code fragments} of {@code index} onto the repositories that held them. */
    private Map<Integer, String> rewriteInPlace(FragmentIndex index, List<Integer> sources, List<Integer> fragments,
                                                Set<String> excluded, List<FragmentFailure> failures) {
        if (fragments.isEmpty()) {
            return Map.of();
        }
        List<String> targets = fragments.stream().map(i -> index.fragments().get(i).repositoryId()).toList();
        return regenerator.regenerate(index, sources, new ArrayList<>(fragments), targets, excluded, failures);
    }

    /** Stores the commit marker on every holder of {@code index} that does not list one yet. */
    void completeMarkers(FragmentIndex index, JobView.Trace trace, JobView view, List<FragmentFailure> failures) {
        Set<String> lacking = new LinkedHashSet<>(StoreContext.holders(index));
        lacking.removeAll(trace.markers);
        lacking.removeAll(view.unreachable);
        context.putAll(lacking, index.markerKey(), MARKER, -1, failures);
    }
}
