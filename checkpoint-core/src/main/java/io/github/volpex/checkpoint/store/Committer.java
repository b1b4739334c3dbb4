package io.github.volpex.checkpoint.store;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The commit protocol (see {@link CheckpointStore}): fragments, verified; index copies, verified; the epoch checked;
 * commit markers, verified — the first marker stored is the commit point; then older checkpoints are deleted.
 */
final class Committer {

    private static final byte[] MARKER = new byte[0];

    private final StoreContext context;
    private final Regenerator regenerator;
    /** Differential checkpoints, or null when the store writes full ones. */
    private final Differential differential;

    Committer(StoreContext context, Regenerator regenerator, Differential differential) {
        this.context = context;
        this.regenerator = regenerator;
        this.differential = differential;
    }

    /**
     * A commit that reached its commit point and is durable ({@code k + 1} holders list a marker): its index, and what
     * remains to do — markers on the other repositories that answer, deletion of the older checkpoints and of what
     * failed commits left. {@code finish} must run under the job's lock before any other operation on the job, and at
     * most once.
     */
    record Durable(FragmentIndex index, Runnable finish) {
    }

    /**
     * Commits a checkpoint read from {@code in}, up to the point where it is durable; {@code array} is the same bytes
     * when the caller gave an array, which lets a commit that lost too many fragment writes start over on other
     * repositories. {@code progress} hears of every step and may stop the commit before its commit point.
     */
    Durable commit(String jobId, JobState state, InputStream in, byte[] array, CommitProgress progress)
            throws IOException {
        JobView view = context.view(jobId);
        List<FragmentFailure> failures = new ArrayList<>();
        long sequence = Math.max(state.nextSequence, view.highestSequence() + 1);
        state.nextSequence = sequence + 1;
        long epoch = epoch(jobId, state, view, sequence, failures);
        Set<String> excluded = new HashSet<>();
        // A differential commit refers to blocks of the newest committed checkpoint only (the reference rule).
        Differential.Base base = differential.enabled() ? differential.base(jobId, state, view) : null;
        Differential.Plan plan = differential.enabled() && array != null ? differential.plan(array, base) : null;
        StreamedPlan streamed = differential.enabled() && array == null
                ? differential.stream(in, jobId, state, base) : null;
        long sizeHint = plan != null ? plan.payloadBytes() : array != null ? array.length
                : state.lastCommitted != null ? state.lastCommitted.checkpointBytes() : 0;
        while (true) {
            progress.step(sequence);
            CheckpointId id = new CheckpointId(epoch, sequence, context.nextCommitId());
            Attempt attempt = new Attempt(jobId, id, view.unreachable, excluded, failures, progress,
                    differential.enabled());
            InputStream input = plan != null ? plan.payload(array) : streamed != null ? streamed
                    : array != null ? new ByteArrayInputStream(array) : in;
            FragmentIndex index;
            try {
                index = attempt.storeFragments(input, sizeHint, array != null);
            } catch (TooFewFragments e) {
                attempt.abandon();
                int left = context.candidates(List.of(), excluded, view.unreachable).size();
                if (array != null && left >= context.dispersal.n()) {
                    continue;
                }
                throw new CommitFailedException(jobId, sequence, 0, false, e.getMessage(), failures);
            } catch (IOException | IllegalArgumentException e) {
                // The stream failed or outgrew what a differential checkpoint can hold: nothing is committed (and
                // when that happened while the payload was read, nothing was published: abandon deletes nothing).
                attempt.abandon();
                throw e;
            } catch (CheckpointUnavailableException e) {
                // A segment that compaction dropped could not be read back: nothing is committed or published.
                attempt.abandon();
                failures.addAll(e.failures());
                throw new CommitFailedException(jobId, sequence, 0, false, "the live blocks of a segment this commit "
                        + "stops referring to could not be read back: " + e.getMessage(), failures);
            } finally {
                if (streamed != null) {
                    streamed.close();
                }
            }
            // The segments the plan refers to must still be whole now that its own fragments are written (the
            // listing the commit started with is as old as the upload): one that lost fragments meanwhile is
            // referred to no more, and its live blocks are stored again from the array, in a new attempt.
            if (plan != null && !plan.manifest.segments.isEmpty() && !Collections.disjoint(
                    differential.recheck(jobId, state, base), Differential.segments(plan.manifest))) {
                attempt.abandon();
                plan = differential.plan(array, base);
                sizeHint = plan.payloadBytes();
                continue;
            }
            FragmentIndex committed = attempt.publish(index);
            state.lastCommitted = committed;
            Manifest manifest = plan != null ? plan.manifest : streamed != null ? streamed.manifest() : null;
            if (manifest != null) {
                state.learnt(committed, manifest);
            }
            Set<CheckpointId> retained = manifest != null ? Differential.segments(manifest) : Set.of();
            return new Durable(committed, () -> {
                attempt.markOthers(committed);
                // Committed and verified: what is older is no longer needed, but for the segments it refers to.
                context.delete(jobId, view.keysOlderThan(id, retained));
            });
        }
    }

    /** The epoch to commit under: acquired at the first commit, refused once a greater one shows up. */
    private long epoch(String jobId, JobState state, JobView view, long sequence, List<FragmentFailure> failures) {
        long highest = view.highestEpoch();
        if (context.epochs.epochPerTerm()) {
            return termEpoch(jobId, state, highest, sequence, failures);
        }
        if (state.epoch < 0) {
            if (context.epochs.requiresCompleteListing() && !view.unreachable.isEmpty()) {
                throw new EpochUnavailableException(jobId, sequence, List.copyOf(view.unreachable), "no epoch can "
                        + "be taken while repositories " + view.unreachable + " do not answer: they may hold a "
                        + "checkpoint of a greater epoch (" + context.epochs + " orders writers by what they list)",
                        failures);
            }
            long acquired = acquire(jobId, highest, sequence, failures, "no epoch could be acquired");
            if (acquired <= highest || acquired < 0) {
                throw new IllegalStateException("the epoch source must return an epoch greater than " + highest
                        + " and >= 0: " + acquired);
            }
            state.epoch = acquired;
        } else if (highest > state.epoch) {
            throw new StaleWriterException(jobId, sequence, state.epoch, highest, failures);
        }
        return state.epoch;
    }

    /**
     * The epoch of the writer's current term ({@link EpochSource#epochPerTerm()}), asked at every commit: refused when
     * the job lists a greater one, and kept as the job's epoch so that a later term's is taken afresh.
     */
    private long termEpoch(String jobId, JobState state, long highest, long sequence, List<FragmentFailure> failures) {
        long held = acquire(jobId, highest, sequence, failures, "no epoch of a writer's term");
        if (held < 0) {
            throw new IllegalStateException("the epoch source must return an epoch >= 0: " + held);
        }
        if (held < highest) {
            throw new StaleWriterException(jobId, sequence, held, highest, failures);
        }
        state.epoch = held;
        return held;
    }

    /** Asks the epoch source for an epoch; its failure fails the commit before anything is written. */
    private long acquire(String jobId, long highest, long sequence, List<FragmentFailure> failures, String what) {
        try {
            return context.epochs.acquire(jobId, highest);
        } catch (IOException e) {
            failures.add(new FragmentFailure(-1, "epoch source", FragmentFailure.Reason.UNAVAILABLE,
                    String.valueOf(e.getMessage())));
            throw new EpochUnavailableException(jobId, sequence, List.of(), what + ": " + e.getMessage(), failures);
        }
    }

    /** Thrown inside a commit when fewer than {@code m} fragments were stored: nothing can regenerate the others. */
    private static final class TooFewFragments extends Exception {
        private static final long serialVersionUID = 1L;

        TooFewFragments(String message) {
            super(message, null, false, false);
        }
    }

    /** One attempt at writing a checkpoint under one commit id. */
    private final class Attempt {
        private final String jobId;
        private final CheckpointId id;
        private final Set<String> unreachable;
        private final Set<String> excluded;
        private final List<FragmentFailure> failures;
        private final CommitProgress progress;
        /** Whether the payload is a differential checkpoint's segment and manifest. */
        private final boolean differential;
        /** The fragments this attempt wrote or tried to write, by repository. */
        private final Map<String, Set<Integer>> fragmentsTried = new LinkedHashMap<>();
        /** Every repository this attempt tried to store its index on. */
        private final Set<String> indexTried = new LinkedHashSet<>();
        /** Every repository this attempt tried to store a commit marker on. */
        private final Set<String> markersTried = new LinkedHashSet<>();
        /**
         * Whether any fragment of this attempt may be visible: set when the fragments are published. Until then
         * every fragment is an output not yet committed, which its repository discards and never shows.
         */
        private boolean published;

        Attempt(String jobId, CheckpointId id, Set<String> unreachable, Set<String> excluded,
                List<FragmentFailure> failures, CommitProgress progress, boolean differential) {
            this.differential = differential;
            this.jobId = jobId;
            this.id = id;
            this.unreachable = unreachable;
            this.excluded = excluded;
            this.failures = failures;
            this.progress = progress;
        }

        /**
         * Streams the checkpoint into {@code n} fragments and replaces those whose writes failed or vanished. When
         * {@code exact}, {@code in} holds exactly {@code sizeHint} bytes, and each repository is promised its
         * fragment's length.
         */
        FragmentIndex storeFragments(InputStream in, long sizeHint, boolean exact)
                throws IOException, TooFewFragments {
            Dispersal dispersal = context.dispersal;
            int n = dispersal.n();
            int m = dispersal.m();
            List<String> targets;
            try {
                targets = context.place(jobId, sizeHint, m, n - m, n,
                        context.candidates(List.of(), excluded, unreachable), List.of());
            } catch (StoreContext.NotEnoughRepositoriesException e) {
                throw new TooFewFragments(e.getMessage());
            }
            for (int i = 0; i < n; i++) {
                tried(i, targets.get(i));
            }
            int[] all = new int[n];
            Arrays.setAll(all, i -> i);
            FragmentRepository[] repositories = new FragmentRepository[n];
            String[] keys = new String[n];
            for (int i = 0; i < n; i++) {
                repositories[i] = context.byId.get(targets.get(i));
                keys[i] = StoreKeys.fragmentKey(jobId, id, i);
            }
            Sha256 checkpointSha;
            long length = 0;
            List<FragmentLocation> locations = new ArrayList<>(n);
            List<Integer> missing = new ArrayList<>();
            try (FragmentSink sink = new FragmentSink(context.executor, n, failures)) {
                long[] lengths = null;
                if (exact) {
                    lengths = new long[n];
                    Arrays.fill(lengths, new Framing(dispersal, context.segmentBytes, sizeHint).fragmentLength());
                }
                sink.open(all, repositories, keys, lengths);
                MessageDigest digest = Sha256.newDigest();
                int segmentBytes = context.segmentBytes;
                byte[] segment = new byte[segmentBytes];
                byte[][] pieces = new byte[n][dispersal.pieceLength(segmentBytes)];
                while (true) {
                    progress.step(id.sequence());
                    int read = Streams.readAtLeast(in, segment, 0, segmentBytes, segmentBytes);
                    if (read == 0) {
                        break;
                    }
                    length += read;
                    // The checkpoint's digest is computed beside the encoding and the fragments' writes.
                    int hashed = read;
                    Parallel.Task<Void> hashing = Parallel.start(context.executor, () -> {
                        digest.update(segment, 0, hashed);
                        return null;
                    });
                    dispersal.encode(segment, read, pieces);
                    sink.write(pieces, dispersal.pieceLength(read), all);
                    Parallel.Outcome<Void> outcome = Parallel.await(hashing);
                    if (!outcome.ok()) {
                        Parallel.rethrowErrors(outcome.failure());
                        throw new IllegalStateException("hashing the checkpoint failed", outcome.failure());
                    }
                    if (read < segmentBytes) {
                        break;
                    }
                }
                checkpointSha = Sha256.wrap(digest.digest());
                published = true;
                sink.commit(all);
                for (int i = 0; i < n; i++) {
                    locations.add(new FragmentLocation(i, targets.get(i), sink.length(i), sink.digest(i)));
                    if (!sink.committed(i)) {
                        missing.add(i);
                        excluded.add(targets.get(i));
                    }
                }
            }
            Instant now = context.clock.instant();
            FragmentIndex index = new FragmentIndex(jobId, id.epoch(), id.sequence(), id.commitId(), 0,
                    dispersal.encoding(), m, n - m, dispersal.stripeBytes(), context.segmentBytes, length,
                    checkpointSha, now, StoreContext.leaseEnd(now, context.lease), locations, differential);
            // Replace failed writes, then writes that reported success but are not there (dropped on the way).
            for (int round = 0; ; round++) {
                progress.step(id.sequence());
                if (n - missing.size() < m) {
                    throw new TooFewFragments("only " + (n - missing.size()) + " of " + n + " fragments were "
                            + "stored, " + m + " are needed to regenerate the others");
                }
                index = relocate(index, missing);
                missing = unlisted(index);
                if (missing.isEmpty()) {
                    return index;
                }
                if (round == n) {
                    throw new TooFewFragments("fragments " + missing + " vanish after every write");
                }
            }
        }

        private FragmentIndex relocate(FragmentIndex index, List<Integer> missing) throws TooFewFragments {
            if (missing.isEmpty()) {
                return index;
            }
            try {
                return regenerator.relocate(index, missing, excluded, unreachable, failures, this::tried);
            } catch (StoreContext.NotEnoughRepositoriesException | CheckpointUnavailableException e) {
                throw new TooFewFragments("the fragments whose writes failed could not be placed elsewhere: "
                        + e.getMessage());
            }
        }

        /** Records that fragment {@code fragment} of this attempt is about to be written to {@code repository}. */
        private void tried(int fragment, String repository) {
            fragmentsTried.computeIfAbsent(repository, r -> new LinkedHashSet<>()).add(fragment);
        }

        /** The fragments that their repositories do not list; those repositories are excluded from now on. */
        private List<Integer> unlisted(FragmentIndex index) {
            Map<String, Set<String>> listed = context.listCheckpoint(jobId, id, StoreContext.holders(index));
            List<Integer> missing = new ArrayList<>();
            for (FragmentLocation location : index.fragments()) {
                Set<String> keys = listed.get(location.repositoryId());
                String key = index.fragmentKey(location.fragmentIndex());
                if (keys == null || !keys.contains(key)) {
                    missing.add(location.fragmentIndex());
                    excluded.add(location.repositoryId());
                    failures.add(new FragmentFailure(location.fragmentIndex(), location.repositoryId(),
                            keys == null ? FragmentFailure.Reason.UNAVAILABLE : FragmentFailure.Reason.MISSING,
                            keys == null ? "could not be listed after the write" : "not listed after its write"));
                }
            }
            return missing;
        }

        /**
         * Index copies, the epoch check and the commit markers, until {@code k + 1} holders list one; returns the
         * committed index.
         */
        FragmentIndex publish(FragmentIndex index) {
            progress.step(id.sequence());
            List<String> holders = StoreContext.holders(index);
            int quorum = index.k() + 1;
            indexTried.addAll(holders);
            context.putAll(holders, index.indexKey(), index.toBytes(), -1, failures);
            Map<String, Set<String>> listed = context.listCheckpoint(jobId, id, holders);
            int copies = StoreContext.countListing(listed, holders, index.indexKey());
            if (copies < quorum) {
                abandon();
                throw new CommitFailedException(jobId, id.sequence(), copies, false, "the index was stored on "
                        + copies + " repositories, " + quorum + " (k + 1) are needed", failures);
            }
            boolean current;
            try {
                current = context.epochs.isCurrent(jobId, id.epoch());
            } catch (IOException e) {
                abandon();
                failures.add(new FragmentFailure(-1, "epoch source", FragmentFailure.Reason.UNAVAILABLE,
                        String.valueOf(e.getMessage())));
                throw new CommitFailedException(jobId, id.sequence(), copies, false, "the epoch could not be "
                        + "checked", failures);
            }
            if (!current) {
                abandon();
                throw new StaleWriterException(jobId, id.sequence(), id.epoch(), -1, failures);
            }
            progress.commitPoint();
            // The commit point: the first marker stored. The commit is durable once k + 1 holders list one.
            int markers = 0;
            for (int round = 0; round < 2 && markers < quorum; round++) {
                List<String> lacking = new ArrayList<>();
                for (String holder : holders) {
                    Set<String> keys = listed.get(holder);
                    if (keys == null || !keys.contains(index.markerKey())) {
                        lacking.add(holder);
                    }
                }
                markersTried.addAll(lacking);
                context.putAll(lacking, index.markerKey(), MARKER, -1, failures);
                listed = context.listCheckpoint(jobId, id, holders);
                markers = StoreContext.countListing(listed, holders, index.markerKey());
            }
            if (markers < quorum) {
                boolean mayCount = markers > 0 || abandon();
                throw new CommitFailedException(jobId, id.sequence(), copies, mayCount, "commit markers were "
                        + "listed on " + markers + " repositories, " + quorum + " (k + 1) are needed"
                        + (markers == 0 && mayCount ? "; one may remain where its removal failed, so the checkpoint "
                        + "was kept whole" : ""), failures);
            }
            return index;
        }

        /** Durable: markers on every other repository that answers make the commit visible to more readers. */
        void markOthers(FragmentIndex index) {
            List<String> holders = StoreContext.holders(index);
            List<String> others = new ArrayList<>();
            for (FragmentRepository repository : context.repositories) {
                if (!holders.contains(repository.id()) && !unreachable.contains(repository.id())) {
                    others.add(repository.id());
                }
            }
            context.putAll(others, index.markerKey(), MARKER, -1, new ArrayList<>());
        }

        /**
         * Deletes what this attempt may have made visible, best effort; the next successful commit deletes what
         * remains. Before the fragments are published (a failed stream, a refused or unreadable payload) nothing is
         * visible and nothing is deleted: each repository discards the outputs never committed. After, each
         * repository is asked to delete what the attempt tried to store there and nothing else: the fragments placed
         * on it (first or as replacements), its index copy where one was tried, its marker where one was tried.
         * Returns whether a commit marker of it may remain, in which case its index copies and fragments are kept (see
         * {@link StoreContext#delete}): the checkpoint then counts in full if a marker is found.
         */
        boolean abandon() {
            if (!published) {
                return false;
            }
            Set<String> repositories = new LinkedHashSet<>(fragmentsTried.keySet());
            repositories.addAll(indexTried);
            repositories.addAll(markersTried);
            Map<String, List<String>> keys = new LinkedHashMap<>();
            for (String repository : repositories) {
                List<String> tried = new ArrayList<>();
                if (markersTried.contains(repository)) {
                    tried.add(StoreKeys.markerKey(jobId, id));
                }
                if (indexTried.contains(repository)) {
                    tried.add(StoreKeys.indexKey(jobId, id));
                }
                for (int fragment : fragmentsTried.getOrDefault(repository, Set.of())) {
                    tried.add(StoreKeys.fragmentKey(jobId, id, fragment));
                }
                keys.put(repository, tried);
            }
            return context.delete(jobId, keys).kept().contains(id);
        }
    }
}
