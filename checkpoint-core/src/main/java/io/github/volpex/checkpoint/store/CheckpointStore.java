package io.github.volpex.checkpoint.store;

import io.github.volpex.erasure.IdaCodec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * Keeps the checkpoints of jobs on volatile repositories so that the last committed checkpoint of a job is never
 * lost while enough of its repositories survive (Ren, Eigenmann and Bagchi §6; de Camargo, Castor and Kon §4–5).
 *
 * <p><b>Modes.</b> {@link #ephemeral} stores two full replicas of each checkpoint; {@link #perennial} stores
 * {@code n = m + k} fragments of an information dispersal ({@link IdaCodec}), any {@code m} of which rebuild it.
 *
 * <p><b>Commit protocol.</b> {@link #commit} writes the {@code n} fragments of the new checkpoint to {@code n}
 * distinct repositories chosen by the {@link PlacementPolicy}; a fragment whose write fails is regenerated from the
 * others onto another repository. Only when all {@code n} are stored does it write the new {@link FragmentIndex}, a
 * copy next to every fragment, and the commit succeeds when at least {@code k + 1} copies are written, so that any
 * {@code m} of the fragment repositories hold one. Only then are the previous checkpoint and any leftovers of failed
 * commits deleted. A crash at any point therefore leaves the previous checkpoint or the new one recoverable, and
 * never a mixture: every fragment is checked against the SHA-256 its index records, and the rebuilt checkpoint against
 * the whole checkpoint's digest.
 *
 * <p><b>Recovery.</b> {@link #recover(String)} lists the job's objects on every repository, reads the newest index,
 * fetches fragments in parallel on the executor, keeps the first {@code m} that verify and decodes them. When the
 * newest checkpoint cannot be rebuilt it falls back to an older one that still exists.
 *
 * <p><b>Repair and leases.</b> {@link #repair} regenerates lost fragments onto other repositories when fewer than the
 * reconstruction threshold verify (de Camargo §4.3); checkpoints carry a lease after which they are no longer repaired
 * and may be collected.
 *
 * <p><b>Threads.</b> A store is thread-safe. Operations on one job are serialised; operations on different jobs run
 * in parallel. One store (one process) must be the only writer of a job's checkpoints. The store owns no threads:
 * repository calls run on the injected {@link Executor} (by default, the calling thread) and the caller's thread waits
 * for them, so calls block for as long as the repositories take; repositories should time out their own calls. A
 * store must not be given an executor whose threads call it. A task the executor rejects (a saturated or shut-down
 * pool) runs on the calling thread instead, so a rejection never fails an operation.
 *
 * @since 0.1
 */
public final class CheckpointStore {

    /** The default segment size: the unit of streaming, 1 MiB. */
    public static final int DEFAULT_SEGMENT_BYTES = 1 << 20;
    /** The default lease: 7 days. */
    public static final Duration DEFAULT_LEASE = Duration.ofDays(7);
    /** The longest checkpoint {@link #recover(String)} returns in an array; {@link #recoverTo} has no limit. */
    public static final int MAX_ARRAY_BYTES = Integer.MAX_VALUE - 16;
    /** The number of full replicas in ephemeral mode (de Camargo §4.2). */
    public static final int EPHEMERAL_REPLICAS = 2;

    /** The last instant a {@link FragmentIndex} holds: its times are milliseconds since 1970 in a signed long. */
    private static final Instant LAST_LEASE_END = Instant.ofEpochMilli(Long.MAX_VALUE);

    private final List<FragmentRepository> repositories;
    private final Map<String, FragmentRepository> byId;
    private final Dispersal dispersal;
    private final Executor executor;
    private final InstantSource clock;
    private final RandomGenerator random;
    private final PlacementPolicy placement;
    private final Duration lease;
    private final int reconstructionThreshold;
    private final int segmentBytes;
    private final int extraFetches;
    private final ConcurrentHashMap<String, Job> jobs = new ConcurrentHashMap<>();

    /** A job's lock and, once known, its state. */
    private static final class Job {
        final ReentrantLock lock = new ReentrantLock();
        JobState state;
    }

    private CheckpointStore(Builder builder) {
        this.repositories = builder.repositories;
        this.byId = builder.byId;
        this.dispersal = builder.dispersal;
        this.executor = builder.executor;
        this.clock = builder.clock;
        this.random = builder.random;
        this.placement = builder.placement != null ? builder.placement : PlacementPolicy.random(builder.random);
        this.lease = builder.lease;
        this.segmentBytes = builder.segmentBytes;
        this.extraFetches = builder.extraFetches;
        int threshold = builder.reconstructionThreshold;
        this.reconstructionThreshold = threshold > 0 ? threshold : defaultThreshold(dispersal.m(), dispersal.n());
    }

    /**
     * Starts building a store in ephemeral mode: two full replicas of every checkpoint (de Camargo §4.2).
     *
     * @param repositories the repositories, with distinct ids; at least two
     * @return a builder
     * @throws NullPointerException     if {@code repositories} or one of them is null
     * @throws IllegalArgumentException if two repositories share an id or there are fewer than two
     */
    public static Builder ephemeral(Collection<? extends FragmentRepository> repositories) {
        return new Builder(repositories, new Replication(EPHEMERAL_REPLICAS));
    }

    /**
     * Starts building a store in perennial mode: each checkpoint is dispersed with {@code codec} into {@code n = m + k}
     * fragments on distinct repositories, any {@code m} of which rebuild it (de Camargo §4.2; Ren §6.2).
     *
     * @param codec        the information dispersal (systematic, Rabin's or single-parity XOR), with its stripe size
     * @param repositories the repositories, with distinct ids; at least {@code n}
     * @return a builder
     * @throws NullPointerException     if an argument or a repository is null
     * @throws IllegalArgumentException if two repositories share an id or there are fewer than {@code n}
     */
    public static Builder perennial(IdaCodec codec, Collection<? extends FragmentRepository> repositories) {
        return new Builder(repositories, new IdaDispersal(Objects.requireNonNull(codec, "codec")));
    }

    /** Midpoint of m and n, rounded up (de Camargo §4.3: 9 fragments of which 3 rebuild give 6). */
    static int defaultThreshold(int m, int n) {
        return (m + n + 1) / 2;
    }

    // ----------------------------------------------------------------------------------------------------- commit

    /**
     * Commits a new checkpoint of {@code jobId}; see the class documentation for the protocol. The checkpoint gets the
     * next sequence number of the job.
     *
     * @param jobId      the job, 1 to 64 characters of {@code [A-Za-z0-9_-]}
     * @param checkpoint the checkpoint's bytes; not retained
     * @return the new checkpoint's index (also stored next to every fragment)
     * @throws CommitFailedException    if too few repositories accepted the fragments or the index; the previous
     *                                  checkpoint is then intact
     * @throws IllegalStateException    if the placement policy chooses other than the distinct candidates asked for
     *                                  (whatever the policy throws reaches the caller too); the previous checkpoint
     *                                  is then intact
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code jobId} is not valid
     */
    public FragmentIndex commit(String jobId, byte[] checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        try {
            return commit(jobId, new ByteArrayInputStream(checkpoint), checkpoint.length);
        } catch (IOException e) {
            throw new UncheckedIOException("a byte array cannot fail to read", e);
        }
    }

    /**
     * Commits a new checkpoint read from {@code checkpoint} until its end, in bounded memory: one segment and its
     * pieces at a time. The stream is not closed.
     *
     * @param jobId      the job, 1 to 64 characters of {@code [A-Za-z0-9_-]}
     * @param checkpoint the checkpoint's bytes
     * @return the new checkpoint's index
     * @throws IOException              if reading {@code checkpoint} fails; nothing is committed
     * @throws CommitFailedException    if too few repositories accepted the fragments or the index; the previous
     *                                  checkpoint is then intact
     * @throws IllegalStateException    if the placement policy chooses other than the distinct candidates asked for
     *                                  (whatever the policy throws reaches the caller too); the previous checkpoint
     *                                  is then intact
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code jobId} is not valid
     */
    public FragmentIndex commit(String jobId, InputStream checkpoint) throws IOException {
        return commit(jobId, checkpoint, -1);
    }

    private FragmentIndex commit(String jobId, InputStream in, long knownLength) throws IOException {
        Names.requireJobId(jobId);
        Objects.requireNonNull(in, "checkpoint");
        Job job = job(jobId);
        job.lock.lock();
        try {
            JobState state = job.state != null ? job.state : discover(jobId);
            job.state = state;
            relistUnlisted(jobId, state);
            return commitLocked(jobId, state, in, knownLength);
        } finally {
            job.lock.unlock();
        }
    }

    private FragmentIndex commitLocked(String jobId, JobState state, InputStream in, long knownLength)
            throws IOException {
        long sequence = state.nextSequence++;
        long commitId;
        synchronized (random) {
            commitId = random.nextLong();
        }
        Instant now = clock.instant();
        int n = dispersal.n();
        FragmentIndex previous = state.latest();
        long sizeHint = knownLength >= 0 ? knownLength : previous != null ? previous.checkpointBytes() : 0;
        List<FragmentFailure> failures = new ArrayList<>();
        Set<String> excluded = new HashSet<>();
        List<String> targets = place(jobId, sequence, sizeHint, n, List.of(), excluded, failures);

        // 1. Stream the checkpoint into n fragments.
        int[] all = new int[n];
        Arrays.setAll(all, i -> i);
        FragmentRepository[] targetRepositories = new FragmentRepository[n];
        String[] keys = new String[n];
        for (int i = 0; i < n; i++) {
            targetRepositories[i] = byId.get(targets.get(i));
            keys[i] = StoreKeys.fragmentKey(jobId, sequence, commitId, i);
        }
        Sha256 checkpointSha;
        long length = 0;
        List<FragmentLocation> locations = new ArrayList<>(n);
        List<Integer> missing = new ArrayList<>();
        try (FragmentSink sink = new FragmentSink(executor, n, failures)) {
            sink.open(all, targetRepositories, keys);
            MessageDigest digest = Sha256.newDigest();
            byte[] segment = new byte[segmentBytes];
            byte[][] pieces = new byte[n][dispersal.pieceLength(segmentBytes)];
            while (true) {
                int read = in.readNBytes(segment, 0, segmentBytes);
                if (read == 0) {
                    break;
                }
                digest.update(segment, 0, read);
                length += read;
                dispersal.encode(segment, read, pieces);
                sink.write(pieces, dispersal.pieceLength(read), all);
                if (read < segmentBytes) {
                    break;
                }
            }
            checkpointSha = Sha256.wrap(digest.digest());
            sink.commit(all);
            for (int i = 0; i < n; i++) {
                locations.add(new FragmentLocation(i, targets.get(i), sink.length(i), sink.digest(i)));
                if (sink.committed(i)) {
                    state.remember(targets.get(i), keys[i]);
                } else {
                    missing.add(i);
                    excluded.add(targets.get(i));
                }
            }
        }
        FragmentIndex index = new FragmentIndex(jobId, sequence, commitId, 0, dispersal.encoding(), dispersal.m(),
                n - dispersal.m(), dispersal.stripeBytes(), segmentBytes, length, checkpointSha, now,
                leaseEnd(now, lease), locations);

        // 2. Regenerate the fragments whose writes failed onto other repositories.
        if (n - missing.size() < dispersal.m()) {
            abandon(state, index);
            throw new CommitFailedException(jobId, sequence, 0, "only " + (n - missing.size()) + " of " + n
                    + " fragments were stored, " + dispersal.m() + " are needed to regenerate the others", failures);
        }
        try {
            index = regenerateMissing(index, missing, excluded, failures, state);
        } catch (CheckpointUnavailableException | NotEnoughRepositoriesException e) {
            abandon(state, index);
            throw new CommitFailedException(jobId, sequence, 0, "the fragments whose writes failed could not be "
                    + "placed elsewhere: " + e.getMessage(), failures);
        }

        // 3. Write the index next to every fragment; the commit point is k + 1 copies.
        int copies = writeIndexCopies(index, state, failures);
        int quorum = index.k() + 1;
        if (copies < quorum) {
            throw new CommitFailedException(jobId, sequence, copies, "the index was stored on " + copies
                    + " repositories, " + quorum + " (k + 1) are needed", failures);
        }

        // 4. Committed: delete the previous checkpoint and whatever failed commits left behind.
        state.checkpoints.add(0, index);
        state.checkpoints.subList(1, state.checkpoints.size()).clear();
        FragmentIndex committed = index;
        deleteKnown(state, key -> !ofCheckpoint(key, committed));
        return index;
    }

    /** The fragments of an abandoned commit: best-effort deletion, remembered for later when it fails. */
    private void abandon(JobState state, FragmentIndex index) {
        deleteKnown(state, key -> ofCheckpoint(key, index));
    }

    /**
     * Regenerates fragments {@code missing} of {@code index} onto repositories outside {@code excluded} and the
     * current holders, retrying on other repositories as writes fail; returns the index with their new locations.
     */
    private FragmentIndex regenerateMissing(FragmentIndex index, List<Integer> missing, Set<String> excluded,
                                            List<FragmentFailure> failures, JobState state) {
        FragmentIndex current = index;
        List<Integer> todo = new ArrayList<>(missing);
        while (!todo.isEmpty()) {
            List<String> holders = new ArrayList<>();
            List<Integer> sources = new ArrayList<>();
            for (FragmentLocation location : current.fragments()) {
                if (!todo.contains(location.fragmentIndex())) {
                    holders.add(location.repositoryId());
                    sources.add(location.fragmentIndex());
                }
            }
            List<String> targets = place(index.jobId(), index.sequence(), index.checkpointBytes(), todo.size(),
                    holders, excluded, failures);
            Map<Integer, String> written = regenerate(current, sources, todo, targets, excluded, failures);
            List<FragmentLocation> moved = new ArrayList<>(current.fragments());
            for (Map.Entry<Integer, String> entry : written.entrySet()) {
                int i = entry.getKey();
                moved.set(i, moved.get(i).movedTo(entry.getValue()));
                state.remember(entry.getValue(), current.fragmentKey(i));
            }
            current = current.relocated(moved);
            todo.removeAll(written.keySet());
        }
        return current;
    }

    /** Thrown inside the store when placement has fewer candidates than it needs. */
    private static final class NotEnoughRepositoriesException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotEnoughRepositoriesException(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Asks the placement policy for {@code count} repositories that hold no fragment of the checkpoint and have not
     * failed, and checks its answer.
     */
    private List<String> place(String jobId, long sequence, long bytes, int count, List<String> holders,
                               Set<String> excluded, List<FragmentFailure> failures) {
        List<String> candidates = new ArrayList<>();
        for (FragmentRepository repository : repositories) {
            String id = repository.id();
            if (!excluded.contains(id) && !holders.contains(id)) {
                candidates.add(id);
            }
        }
        if (candidates.size() < count) {
            throw new NotEnoughRepositoriesException(count + " repositories are needed for " + jobId + " #" + sequence
                    + ", " + candidates.size() + " remain that hold no fragment and have not failed");
        }
        List<String> chosen = placement.choose(new PlacementRequest(jobId, bytes, dispersal.m(),
                dispersal.n() - dispersal.m(), count, candidates, holders));
        Set<String> distinct = new LinkedHashSet<>(chosen);
        if (chosen.size() != count || distinct.size() != count || !candidates.containsAll(distinct)) {
            throw new IllegalStateException("the placement policy must choose " + count + " distinct candidates of "
                    + candidates + ": " + chosen);
        }
        return List.copyOf(chosen);
    }

    /** Writes {@code index} to every repository holding one of its fragments; returns how many copies were written. */
    private int writeIndexCopies(FragmentIndex index, JobState state, List<FragmentFailure> failures) {
        byte[] bytes = index.toBytes();
        List<String> holders = index.fragments().stream().map(FragmentLocation::repositoryId).distinct().toList();
        List<Callable<Void>> tasks = new ArrayList<>();
        for (String id : holders) {
            FragmentRepository repository = byId.get(id);
            tasks.add(() -> {
                repository.put(index.indexKey(), bytes);
                return null;
            });
        }
        List<Parallel.Outcome<Void>> outcomes = Parallel.all(executor, tasks);
        int copies = 0;
        for (int j = 0; j < holders.size(); j++) {
            if (outcomes.get(j).ok()) {
                copies++;
                state.remember(holders.get(j), index.indexKey());
            } else {
                failures.add(FragmentFailure.of(-1, holders.get(j), outcomes.get(j).failure()));
            }
        }
        return copies;
    }

    /**
     * Deletes the known objects of the job whose keys {@code doomed} accepts, fragments before index copies (an index
     * never outlives the fragments it lists for long). Objects whose deletion fails stay known, for the next attempt.
     */
    private void deleteKnown(JobState state, Predicate<String> doomed) {
        List<String[]> targets = new ArrayList<>();
        for (Map.Entry<String, Set<String>> entry : state.known.entrySet()) {
            for (String key : entry.getValue()) {
                if (doomed.test(key) && byId.containsKey(entry.getKey())) {
                    targets.add(new String[] {entry.getKey(), key});
                }
            }
        }
        targets.sort(Comparator.comparing((String[] t) -> StoreKeys.parse(t[1]) != null
                && StoreKeys.parse(t[1]).isIndex()));
        List<Callable<Boolean>> tasks = new ArrayList<>();
        for (String[] t : targets) {
            FragmentRepository repository = byId.get(t[0]);
            tasks.add(() -> repository.delete(t[1]));
        }
        List<Parallel.Outcome<Boolean>> outcomes = Parallel.all(executor, tasks);
        for (int j = 0; j < targets.size(); j++) {
            if (outcomes.get(j).ok()) {
                state.forget(targets.get(j)[0], targets.get(j)[1]);
            }
        }
    }

    /** Whether {@code key} belongs to the checkpoint of {@code index}. */
    private static boolean ofCheckpoint(String key, FragmentIndex index) {
        return key.startsWith(StoreKeys.checkpointPrefix(index.jobId(), index.sequence(), index.commitId()));
    }

    // -------------------------------------------------------------------------------------------------- discovery

    /** Lists the job's objects on every repository and reads its indexes. */
    private JobState discover(String jobId) {
        JobState state = new JobState();
        String prefix = StoreKeys.jobPrefix(jobId);
        List<Callable<List<String>>> listings = new ArrayList<>();
        for (FragmentRepository repository : repositories) {
            listings.add(() -> repository.list(prefix));
        }
        List<Parallel.Outcome<List<String>>> outcomes = Parallel.all(executor, listings);
        Map<String, List<String>> indexCopies = new LinkedHashMap<>();
        long maxSequence = -1;
        for (int r = 0; r < repositories.size(); r++) {
            String id = repositories.get(r).id();
            if (!outcomes.get(r).ok()) {
                state.unlisted.add(id);
                continue;
            }
            for (String key : outcomes.get(r).value()) {
                StoreKeys.Parsed parsed = StoreKeys.parse(key);
                if (parsed == null || !parsed.jobId().equals(jobId)) {
                    continue;
                }
                state.remember(id, key);
                maxSequence = Math.max(maxSequence, parsed.sequence());
                if (parsed.isIndex()) {
                    indexCopies.computeIfAbsent(key, k -> new ArrayList<>()).add(id);
                }
            }
        }
        state.nextSequence = maxSequence + 1;
        state.checkpoints.addAll(readIndexes(indexCopies));
        return state;
    }

    /** Lists again the repositories whose listing failed, adding what they hold to the known objects. */
    private void relistUnlisted(String jobId, JobState state) {
        if (state.unlisted.isEmpty()) {
            return;
        }
        List<String> ids = new ArrayList<>(state.unlisted);
        List<Callable<List<String>>> listings = new ArrayList<>();
        for (String id : ids) {
            FragmentRepository repository = byId.get(id);
            listings.add(() -> repository.list(StoreKeys.jobPrefix(jobId)));
        }
        List<Parallel.Outcome<List<String>>> outcomes = Parallel.all(executor, listings);
        for (int r = 0; r < ids.size(); r++) {
            if (!outcomes.get(r).ok()) {
                continue;
            }
            state.unlisted.remove(ids.get(r));
            for (String key : outcomes.get(r).value()) {
                StoreKeys.Parsed parsed = StoreKeys.parse(key);
                if (parsed != null && parsed.jobId().equals(jobId)) {
                    state.remember(ids.get(r), key);
                    state.nextSequence = Math.max(state.nextSequence, parsed.sequence() + 1);
                }
            }
        }
    }

    /**
     * Reads every copy of every index, keeping for each checkpoint the highest revision that parses; returns the
     * checkpoints newest first (by sequence number, then commit time).
     */
    private List<FragmentIndex> readIndexes(Map<String, List<String>> copiesByKey) {
        List<String[]> reads = new ArrayList<>();
        List<Callable<Optional<byte[]>>> tasks = new ArrayList<>();
        for (Map.Entry<String, List<String>> entry : copiesByKey.entrySet()) {
            for (String id : entry.getValue()) {
                FragmentRepository repository = byId.get(id);
                reads.add(new String[] {id, entry.getKey()});
                tasks.add(() -> repository.get(entry.getKey()));
            }
        }
        List<Parallel.Outcome<Optional<byte[]>>> outcomes = Parallel.all(executor, tasks);
        Map<String, FragmentIndex> best = new HashMap<>();
        for (int j = 0; j < reads.size(); j++) {
            Parallel.Outcome<Optional<byte[]>> outcome = outcomes.get(j);
            if (!outcome.ok() || outcome.value().isEmpty()) {
                continue;
            }
            FragmentIndex index;
            try {
                index = FragmentIndex.parse(outcome.value().get());
            } catch (CorruptIndexException e) {
                continue;
            }
            String key = reads.get(j)[1];
            if (!index.indexKey().equals(key)) {
                continue;
            }
            FragmentIndex seen = best.get(key);
            if (seen == null || index.revision() > seen.revision()) {
                best.put(key, index);
            }
        }
        List<FragmentIndex> newestFirst = new ArrayList<>(best.values());
        newestFirst.sort(Comparator.comparingLong(FragmentIndex::sequence)
                .thenComparing(FragmentIndex::createdAt)
                .thenComparingLong(FragmentIndex::commitId).reversed());
        return newestFirst;
    }

    /**
     * Returns the index of the newest checkpoint of {@code jobId} found on the repositories that answer.
     *
     * @param jobId the job
     * @return the newest index (its highest revision), or empty if no repository that answered holds one
     * @throws NullPointerException     if {@code jobId} is null
     * @throws IllegalArgumentException if {@code jobId} is not valid
     */
    public Optional<FragmentIndex> latestIndex(String jobId) {
        Names.requireJobId(jobId);
        Job job = job(jobId);
        job.lock.lock();
        try {
            JobState state = refresh(jobId, job);
            return Optional.ofNullable(state.latest());
        } finally {
            job.lock.unlock();
        }
    }

    /** Discovers the job afresh, keeping the next sequence number at least where this store had it. */
    private JobState refresh(String jobId, Job job) {
        JobState fresh = discover(jobId);
        if (job.state != null) {
            fresh.nextSequence = Math.max(fresh.nextSequence, job.state.nextSequence);
            job.state.known.forEach((id, keys) -> keys.forEach(key -> {
                if (fresh.unlisted.contains(id)) {
                    fresh.remember(id, key);
                }
            }));
        }
        job.state = fresh;
        return fresh;
    }

    // --------------------------------------------------------------------------------------------------- recovery

    /**
     * Rebuilds the newest checkpoint of {@code jobId} that can be rebuilt: it lists the job's objects on every
     * repository, reads the newest index, fetches fragments in parallel and keeps the first {@code m} that verify. If
     * the newest checkpoint cannot be rebuilt, an older one that still exists is tried. If none can, the job is listed
     * once more and, when the newest index has changed meanwhile (another process committed or repaired and deleted
     * what this one was reading), the recovery is tried once again.
     *
     * @param jobId the job
     * @return the checkpoint, verified against its digest, or empty if no repository that answered holds an index of
     *         the job
     * @throws CheckpointUnavailableException if checkpoints exist but none can be rebuilt (the exception describes the
     *                                        newest one's failures)
     * @throws IllegalStateException          if the newest checkpoint is longer than {@link #MAX_ARRAY_BYTES}
     * @throws NullPointerException           if {@code jobId} is null
     * @throws IllegalArgumentException       if {@code jobId} is not valid
     */
    public Optional<RecoveredCheckpoint> recover(String jobId) {
        Names.requireJobId(jobId);
        Job job = job(jobId);
        job.lock.lock();
        try {
            JobState state = refresh(jobId, job);
            for (int round = 0; ; round++) {
                CheckpointUnavailableException newest = null;
                for (FragmentIndex index : state.checkpoints) {
                    try {
                        return Optional.of(recoverLocked(index));
                    } catch (CheckpointUnavailableException e) {
                        newest = newest == null ? e : newest;
                    }
                }
                if (newest == null) {
                    return Optional.empty();
                }
                FragmentIndex tried = state.latest();
                if (round > 0) {
                    throw newest;
                }
                state = refresh(jobId, job);
                FragmentIndex latest = state.latest();
                if (latest == null || latest.equals(tried)) {
                    throw newest;
                }
            }
        } finally {
            job.lock.unlock();
        }
    }

    /**
     * Rebuilds the checkpoint that {@code index} describes, from the repositories it lists.
     *
     * @param index the checkpoint's index, as returned by {@link #commit} or {@link #latestIndex}
     * @return the checkpoint, verified against its digest
     * @throws CheckpointUnavailableException if fewer than {@code m} fragments can be fetched and verified
     * @throws IllegalStateException          if the checkpoint is longer than {@link #MAX_ARRAY_BYTES}
     * @throws NullPointerException           if {@code index} is null
     */
    public RecoveredCheckpoint recover(FragmentIndex index) {
        Objects.requireNonNull(index, "index");
        return recoverLocked(index);
    }

    /**
     * Streams the checkpoint that {@code index} describes into {@code out}, in bounded memory: fragments are read in
     * lockstep, {@code m} at a time, one segment at a time, each piece checked against its CRC-32C before use; a
     * fragment that fails is replaced by another, wound forward to the current segment. At the end every fragment
     * used is checked against its SHA-256 and the whole output against the checkpoint's.
     *
     * <p>Bytes are written as they are decoded, so when this method throws, {@code out} may hold a prefix of the
     * checkpoint or, if a fragment was corrupt in a way its CRCs missed, wrong bytes: use the output only when the
     * method returns. The stream is not closed.
     *
     * @param index the checkpoint's index
     * @param out   where to write the checkpoint
     * @return the number of bytes written, the checkpoint's length
     * @throws CheckpointUnavailableException if fewer than {@code m} fragments can be read, or the output does not
     *                                        match the checkpoint's digest
     * @throws IOException                    if writing to {@code out} fails
     * @throws NullPointerException           if an argument is null
     */
    public long recoverTo(FragmentIndex index, OutputStream out) throws IOException {
        Objects.requireNonNull(index, "index");
        Objects.requireNonNull(out, "out");
        Dispersal d = dispersalFor(index);
        Framing framing = new Framing(d, index.segmentBytes(), index.checkpointBytes());
        List<FragmentFailure> failures = new ArrayList<>();
        List<Integer> order = index.fragments().stream().map(FragmentLocation::fragmentIndex).toList();
        MessageDigest digest = Sha256.newDigest();
        byte[] segment = new byte[(int) Math.min(index.segmentBytes(), Math.max(1, index.checkpointBytes()))];
        long written = 0;
        try (SegmentSource source = new SegmentSource(index, framing, d, byId, order, failures)) {
            for (long s = 0; s < framing.segments(); s++) {
                byte[][] pieces = source.next(s);
                int segmentLength = framing.segmentLength(s);
                d.decode(pieces, segmentLength, segment);
                digest.update(segment, 0, segmentLength);
                out.write(segment, 0, segmentLength);
                written += segmentLength;
            }
            source.finish();
        }
        if (!index.checkpointSha256().equals(Sha256.wrap(digest.digest()))) {
            failures.add(new FragmentFailure(-1, "decoder", FragmentFailure.Reason.CORRUPT,
                    "the streamed checkpoint does not match its digest " + index.checkpointSha256()));
            throw new CheckpointUnavailableException(index.jobId(), index.sequence(), index.m(), 0, failures);
        }
        return written;
    }

    private RecoveredCheckpoint recoverLocked(FragmentIndex index) {
        Dispersal d = dispersalFor(index);
        Framing framing = new Framing(d, index.segmentBytes(), index.checkpointBytes());
        List<FragmentFailure> failures = new ArrayList<>();
        if (index.checkpointBytes() > MAX_ARRAY_BYTES) {
            throw new IllegalStateException("checkpoint " + index.jobId() + " #" + index.sequence() + " of "
                    + index.checkpointBytes() + " bytes does not fit in an array: use recoverTo");
        }
        Map<Integer, byte[]> verified = fetchVerified(index, framing, failures);
        if (verified.size() < index.m()) {
            throw new CheckpointUnavailableException(index.jobId(), index.sequence(), index.m(), verified.size(),
                    failures);
        }
        byte[] data = decode(index, d, framing, verified);
        if (!index.checkpointSha256().matches(data)) {
            failures.add(new FragmentFailure(-1, "decoder", FragmentFailure.Reason.CORRUPT,
                    "the rebuilt checkpoint does not match its digest " + index.checkpointSha256()));
            throw new CheckpointUnavailableException(index.jobId(), index.sequence(), index.m(), 0, failures);
        }
        return new RecoveredCheckpoint(index, data);
    }

    /**
     * Fetches whole fragments on the executor, {@code m + extraFetches} at a time, starting another whenever one
     * fails, until {@code m} verify or none is left.
     */
    private Map<Integer, byte[]> fetchVerified(FragmentIndex index, Framing framing, List<FragmentFailure> failures) {
        LinkedBlockingQueue<Object[]> done = new LinkedBlockingQueue<>();
        List<FragmentLocation> pending = new ArrayList<>(index.fragments());
        Map<Integer, byte[]> verified = new HashMap<>();
        int running = 0;
        int parallel = Math.min(index.n(), index.m() + extraFetches);
        long expectedLength = framing.fragmentLength();
        while (verified.size() < index.m()) {
            while (running < parallel - verified.size() && !pending.isEmpty()) {
                FragmentLocation location = pending.remove(0);
                running++;
                Parallel.start(executor, () -> fetch(index, location, expectedLength))
                        .whenComplete((bytes, failure) -> done.add(new Object[] {location, bytes, failure}));
            }
            if (running == 0) {
                break;
            }
            Object[] result = take(done);
            running--;
            FragmentLocation location = (FragmentLocation) result[0];
            Throwable failure = (Throwable) result[2];
            if (failure == null) {
                verified.put(location.fragmentIndex(), (byte[]) result[1]);
            } else {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                Parallel.rethrowErrors(cause);
                failures.add(FragmentFailure.of(location.fragmentIndex(), location.repositoryId(), cause));
            }
        }
        return verified;
    }

    private static Object[] take(LinkedBlockingQueue<Object[]> queue) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return queue.take();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Fetches one whole fragment and checks its length and digest. */
    private byte[] fetch(FragmentIndex index, FragmentLocation location, long expectedLength) throws IOException {
        FragmentRepository repository = byId.get(location.repositoryId());
        if (repository == null) {
            throw new RepositoryUnavailableException(location.repositoryId(), "the store has no repository with "
                    + "this id", null);
        }
        Optional<byte[]> bytes = repository.get(index.fragmentKey(location.fragmentIndex()));
        if (bytes.isEmpty()) {
            throw new MissingFragmentException(index.fragmentKey(location.fragmentIndex()));
        }
        byte[] fragment = bytes.get();
        if (fragment.length != expectedLength || location.lengthBytes() != expectedLength
                || !location.sha256().matches(fragment)) {
            throw new CorruptFragmentException("fragment " + location.fragmentIndex() + " of " + fragment.length
                    + " bytes does not match the index (" + expectedLength + " bytes, " + location.sha256() + ")");
        }
        return fragment;
    }

    /** Decodes the checkpoint from {@code m} verified whole fragments. */
    private static byte[] decode(FragmentIndex index, Dispersal d, Framing framing, Map<Integer, byte[]> fragments) {
        byte[] out = new byte[(int) index.checkpointBytes()];
        byte[] segment = new byte[(int) Math.min(index.segmentBytes(), Math.max(1, index.checkpointBytes()))];
        long offset = 0;
        int position = 0;
        List<Integer> use = fragments.keySet().stream().sorted().limit(index.m()).toList();
        for (long s = 0; s < framing.segments(); s++) {
            int segmentLength = framing.segmentLength(s);
            int pieceLength = d.pieceLength(segmentLength);
            byte[][] pieces = new byte[index.n()][];
            for (int i : use) {
                pieces[i] = Arrays.copyOfRange(fragments.get(i), (int) offset, (int) offset + pieceLength);
            }
            d.decode(pieces, segmentLength, segment);
            System.arraycopy(segment, 0, out, position, segmentLength);
            position += segmentLength;
            offset += pieceLength + Framing.CRC_BYTES;
        }
        return out;
    }

    // ----------------------------------------------------------------------------------------------------- repair

    /**
     * Checks the newest checkpoint of {@code jobId} and, when fewer than the reconstruction threshold of its fragments
     * verify, regenerates the missing ones from {@code m} verified fragments onto other repositories chosen by the
     * placement policy, and writes a new revision of the index (de Camargo §4.3). Every fragment is read in full to
     * check it, in bounded memory.
     *
     * @param jobId the job
     * @return what was found and done
     * @throws CheckpointUnavailableException if fewer than {@code m} fragments verify: the checkpoint cannot be
     *                                        repaired (an older one is not looked for)
     * @throws NullPointerException           if {@code jobId} is null
     * @throws IllegalArgumentException       if {@code jobId} is not valid
     */
    public RepairReport repair(String jobId) {
        Names.requireJobId(jobId);
        Job job = job(jobId);
        job.lock.lock();
        try {
            JobState state = refresh(jobId, job);
            FragmentIndex index = state.latest();
            if (index == null) {
                return new RepairReport(RepairReport.Status.NO_CHECKPOINT, null, 0, 0, List.of(), List.of());
            }
            if (index.isExpired(clock.instant())) {
                return new RepairReport(RepairReport.Status.EXPIRED, index, 0, 0, List.of(), List.of());
            }
            return repairLocked(index, state);
        } finally {
            job.lock.unlock();
        }
    }

    private RepairReport repairLocked(FragmentIndex index, JobState state) {
        List<FragmentFailure> failures = new ArrayList<>();
        Set<Integer> verified = probe(index, failures);
        int before = verified.size();
        if (before >= reconstructionThreshold(index)) {
            return new RepairReport(RepairReport.Status.HEALTHY, index, before, before, List.of(), failures);
        }
        if (before < index.m()) {
            throw new CheckpointUnavailableException(index.jobId(), index.sequence(), index.m(), before, failures);
        }
        List<Integer> missing = new ArrayList<>();
        Set<String> excluded = new HashSet<>();
        List<String> holders = new ArrayList<>();
        List<Integer> sources = new ArrayList<>();
        for (FragmentLocation location : index.fragments()) {
            if (verified.contains(location.fragmentIndex())) {
                holders.add(location.repositoryId());
                sources.add(location.fragmentIndex());
            } else {
                missing.add(location.fragmentIndex());
                excluded.add(location.repositoryId());
            }
        }
        List<FragmentLocation> locations = new ArrayList<>(index.fragments());
        List<Integer> regenerated = new ArrayList<>();
        List<Integer> todo = new ArrayList<>(missing);
        while (!todo.isEmpty()) {
            long room = repositories.stream()
                    .filter(r -> !excluded.contains(r.id()) && !holders.contains(r.id())).count();
            if (room == 0) {
                break;
            }
            List<Integer> batch = todo.subList(0, (int) Math.min(todo.size(), room));
            List<String> targets = place(index.jobId(), index.sequence(), index.checkpointBytes(), batch.size(),
                    holders, excluded, failures);
            Map<Integer, String> written = regenerate(index, sources, new ArrayList<>(batch), targets, excluded,
                    failures);
            for (Map.Entry<Integer, String> entry : written.entrySet()) {
                int i = entry.getKey();
                locations.set(i, locations.get(i).movedTo(entry.getValue()));
                holders.add(entry.getValue());
                regenerated.add(i);
                state.remember(entry.getValue(), index.fragmentKey(i));
            }
            todo.removeAll(written.keySet());
        }
        if (regenerated.isEmpty()) {
            return new RepairReport(RepairReport.Status.PARTIALLY_REPAIRED, index, before, before, List.of(),
                    failures);
        }
        FragmentIndex revised = index.revised(locations, index.leaseExpiry());
        int copies = writeIndexCopies(revised, state, failures);
        if (copies == 0) {
            return new RepairReport(RepairReport.Status.PARTIALLY_REPAIRED, index, before, before, List.of(),
                    failures);
        }
        state.checkpoints.set(0, revised);
        regenerated.sort(null);
        RepairReport.Status status = todo.isEmpty() ? RepairReport.Status.REPAIRED
                : RepairReport.Status.PARTIALLY_REPAIRED;
        return new RepairReport(status, revised, before, before + regenerated.size(), regenerated, failures);
    }

    private int reconstructionThreshold(FragmentIndex index) {
        return index.m() == dispersal.m() && index.n() == dispersal.n() ? reconstructionThreshold
                : defaultThreshold(index.m(), index.n());
    }

    /** Reads every fragment in full, in parallel, checking CRCs, length and digest; returns those that verify. */
    private Set<Integer> probe(FragmentIndex index, List<FragmentFailure> failures) {
        Dispersal d = dispersalFor(index);
        Framing framing = new Framing(d, index.segmentBytes(), index.checkpointBytes());
        List<Callable<Void>> tasks = new ArrayList<>();
        for (FragmentLocation location : index.fragments()) {
            tasks.add(() -> {
                FragmentRepository repository = byId.get(location.repositoryId());
                if (repository == null) {
                    throw new RepositoryUnavailableException(location.repositoryId(), "the store has no repository "
                            + "with this id", null);
                }
                if (location.lengthBytes() != framing.fragmentLength()) {
                    throw new CorruptFragmentException("the index records " + location.lengthBytes()
                            + " bytes for fragment " + location.fragmentIndex() + ", " + framing.fragmentLength()
                            + " expected");
                }
                Optional<InputStream> in = repository.open(index.fragmentKey(location.fragmentIndex()));
                if (in.isEmpty()) {
                    throw new MissingFragmentException(index.fragmentKey(location.fragmentIndex()));
                }
                try (PieceReader reader = new PieceReader(location, framing, d, in.get())) {
                    reader.verifyAll();
                }
                return null;
            });
        }
        List<Parallel.Outcome<Void>> outcomes = Parallel.all(executor, tasks);
        Set<Integer> verified = new LinkedHashSet<>();
        for (int j = 0; j < outcomes.size(); j++) {
            FragmentLocation location = index.fragments().get(j);
            if (outcomes.get(j).ok()) {
                verified.add(location.fragmentIndex());
            } else {
                failures.add(FragmentFailure.of(location.fragmentIndex(), location.repositoryId(),
                        outcomes.get(j).failure()));
            }
        }
        return verified;
    }

    /**
     * Regenerates fragments {@code missing} of {@code index} onto {@code targets} (parallel lists), reading the
     * {@code sources} in lockstep; each regenerated fragment must hash to the digest the index records. Targets whose
     * writes fail are added to {@code excluded}. Returns fragment index → repository of what was written.
     */
    private Map<Integer, String> regenerate(FragmentIndex index, List<Integer> sources, List<Integer> missing,
                                            List<String> targets, Set<String> excluded,
                                            List<FragmentFailure> failures) {
        Dispersal d = dispersalFor(index);
        Framing framing = new Framing(d, index.segmentBytes(), index.checkpointBytes());
        int[] which = missing.stream().mapToInt(Integer::intValue).toArray();
        FragmentRepository[] repos = new FragmentRepository[which.length];
        String[] keys = new String[which.length];
        for (int j = 0; j < which.length; j++) {
            repos[j] = byId.get(targets.get(j));
            keys[j] = index.fragmentKey(which[j]);
        }
        Map<Integer, String> written = new HashMap<>();
        int failuresBefore = failures.size();
        try (FragmentSink sink = new FragmentSink(executor, index.n(), failures);
             SegmentSource source = new SegmentSource(index, framing, d, byId, sources, failures)) {
            sink.open(which, repos, keys);
            for (long s = 0; s < framing.segments(); s++) {
                byte[][] pieces = source.next(s);
                int segmentLength = framing.segmentLength(s);
                d.regenerate(pieces, segmentLength, which);
                sink.write(pieces, d.pieceLength(segmentLength), which);
            }
            boolean sourcesVerified = source.finish();
            // Publish only what hashes to the recorded digest: deterministic encoding makes it byte-identical.
            List<Integer> good = new ArrayList<>();
            for (int j = 0; j < which.length; j++) {
                FragmentLocation expected = index.fragments().get(which[j]);
                if (sourcesVerified && sink.digest(which[j]).equals(expected.sha256())
                        && sink.length(which[j]) == expected.lengthBytes()) {
                    good.add(which[j]);
                }
            }
            int[] publish = good.stream().mapToInt(Integer::intValue).toArray();
            sink.commit(publish);
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

    // ------------------------------------------------------------------------------------------ leases, garbage

    /**
     * Extends the lease of the newest checkpoint of {@code jobId} to {@code duration} from now, writing a new revision
     * of its index next to its fragments. A lease that would end after the last millisecond the index format holds
     * ({@code Instant.ofEpochMilli(Long.MAX_VALUE)}, some 292 million years from 1970) ends there.
     *
     * @param jobId    the job
     * @param duration the new lease, from now; positive
     * @return the new index, or empty if no checkpoint of the job was found
     * @throws CommitFailedException    if no repository accepted the new index
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code jobId} is not valid or {@code duration} is not positive
     */
    public Optional<FragmentIndex> renewLease(String jobId, Duration duration) {
        Names.requireJobId(jobId);
        requirePositive(duration);
        Job job = job(jobId);
        job.lock.lock();
        try {
            JobState state = refresh(jobId, job);
            FragmentIndex index = state.latest();
            if (index == null) {
                return Optional.empty();
            }
            FragmentIndex renewed = index.revised(index.fragments(), leaseEnd(clock.instant(), duration));
            List<FragmentFailure> failures = new ArrayList<>();
            int copies = writeIndexCopies(renewed, state, failures);
            if (copies == 0) {
                throw new CommitFailedException(jobId, index.sequence(), 0, "no repository accepted the renewed "
                        + "index", failures);
            }
            state.checkpoints.set(0, renewed);
            return Optional.of(renewed);
        } finally {
            job.lock.unlock();
        }
    }

    /**
     * Deletes what older checkpoints and failed commits of {@code jobId} left on the repositories that answer, once
     * the newest checkpoint has at least {@code m} fragments listed; nothing is deleted otherwise, so that an older
     * checkpoint survives while it may be the only one left. A successful commit does this by itself. When the newest
     * checkpoint's lease has ended, every object of the job is deleted (de Camargo §4.3: expired files "can be
     * removed").
     *
     * @param jobId the job
     * @return how many objects were deleted
     * @throws NullPointerException     if {@code jobId} is null
     * @throws IllegalArgumentException if {@code jobId} is not valid
     */
    public int collectGarbage(String jobId) {
        Names.requireJobId(jobId);
        Job job = job(jobId);
        job.lock.lock();
        try {
            JobState state = refresh(jobId, job);
            FragmentIndex latest = state.latest();
            if (latest == null) {
                return 0;
            }
            int before = countKnown(state);
            if (latest.isExpired(clock.instant())) {
                deleteKnown(state, key -> true);
                state.checkpoints.clear();
                return before - countKnown(state);
            }
            int listed = 0;
            for (FragmentLocation location : latest.fragments()) {
                Set<String> keys = state.known.get(location.repositoryId());
                if (keys != null && keys.contains(latest.fragmentKey(location.fragmentIndex()))) {
                    listed++;
                }
            }
            if (listed < latest.m()) {
                return 0;
            }
            deleteKnown(state, key -> {
                StoreKeys.Parsed parsed = StoreKeys.parse(key);
                return parsed != null && !parsed.sameCheckpoint(latest) && parsed.sequence() <= latest.sequence();
            });
            return before - countKnown(state);
        } finally {
            job.lock.unlock();
        }
    }

    /**
     * Collects garbage ({@link #collectGarbage}) for every job that has objects on the repositories that answer, which
     * deletes the checkpoints whose lease has ended. It lists every repository in full: run it now and then, not at
     * every commit.
     *
     * @return how many objects were deleted
     */
    public int collectExpired() {
        List<Callable<List<String>>> listings = new ArrayList<>();
        for (FragmentRepository repository : repositories) {
            listings.add(() -> repository.list(""));
        }
        Set<String> jobIds = new TreeSet<>();
        for (Parallel.Outcome<List<String>> outcome : Parallel.all(executor, listings)) {
            if (outcome.ok()) {
                for (String key : outcome.value()) {
                    StoreKeys.Parsed parsed = StoreKeys.parse(key);
                    if (parsed != null) {
                        jobIds.add(parsed.jobId());
                    }
                }
            }
        }
        int deleted = 0;
        for (String jobId : jobIds) {
            deleted += collectGarbage(jobId);
        }
        return deleted;
    }

    private static int countKnown(JobState state) {
        return state.known.values().stream().mapToInt(Set::size).sum();
    }

    // ---------------------------------------------------------------------------------------------------- helpers

    private Job job(String jobId) {
        return jobs.computeIfAbsent(jobId, id -> new Job());
    }

    /** The dispersal that decodes {@code index}. */
    private Dispersal dispersalFor(FragmentIndex index) {
        boolean same = index.encoding() == dispersal.encoding() && index.m() == dispersal.m()
                && index.n() == dispersal.n() && index.stripeBytes() == dispersal.stripeBytes();
        if (same) {
            return dispersal;
        }
        return index.encoding() == Encoding.REPLICAS ? new Replication(index.n()) : IdaDispersal.of(index);
    }

    /** {@code now + lease}, saturated at the last instant the index format holds (its times are epoch milliseconds). */
    static Instant leaseEnd(Instant now, Duration lease) {
        Duration room = Duration.between(now, LAST_LEASE_END);
        return lease.compareTo(room) >= 0 ? LAST_LEASE_END : now.plus(lease);
    }

    private static void requirePositive(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be positive: " + duration);
        }
    }

    /**
     * Returns the repositories, in the order given to the builder.
     *
     * @return an unmodifiable list
     */
    public List<FragmentRepository> repositories() {
        return repositories;
    }

    /**
     * Returns how a checkpoint is cut into fragments.
     *
     * @return the encoding of new checkpoints
     */
    public Encoding encoding() {
        return dispersal.encoding();
    }

    /**
     * Returns how many fragments rebuild a checkpoint.
     *
     * @return {@code m}
     */
    public int m() {
        return dispersal.m();
    }

    /**
     * Returns how many fragments each checkpoint is stored as.
     *
     * @return {@code n = m + k}
     */
    public int n() {
        return dispersal.n();
    }

    /**
     * Returns the number of verified fragments below which {@link #repair} regenerates the missing ones.
     *
     * @return the reconstruction threshold, in {@code [m, n]}
     */
    public int reconstructionThreshold() {
        return reconstructionThreshold;
    }

    @Override
    public String toString() {
        return "CheckpointStore[" + dispersal.encoding() + " m=" + dispersal.m() + " n=" + dispersal.n() + ", "
                + repositories.size() + " repositories]";
    }

    /**
     * Configures a {@link CheckpointStore}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder {
        private final List<FragmentRepository> repositories;
        private final Map<String, FragmentRepository> byId;
        private final Dispersal dispersal;
        private Executor executor = Runnable::run;
        private InstantSource clock = InstantSource.system();
        private RandomGenerator random = RandomGenerator.getDefault();
        private PlacementPolicy placement;
        private Duration lease = DEFAULT_LEASE;
        private int reconstructionThreshold;
        private int segmentBytes = DEFAULT_SEGMENT_BYTES;
        private int extraFetches;

        Builder(Collection<? extends FragmentRepository> repositories, Dispersal dispersal) {
            Objects.requireNonNull(repositories, "repositories");
            this.repositories = List.copyOf(repositories);
            Map<String, FragmentRepository> map = new LinkedHashMap<>();
            for (FragmentRepository repository : this.repositories) {
                String id = Names.requireRepositoryId(repository.id());
                if (map.putIfAbsent(id, repository) != null) {
                    throw new IllegalArgumentException("repositories must have distinct ids: " + id
                            + " appears twice");
                }
            }
            if (this.repositories.size() < dispersal.n()) {
                throw new IllegalArgumentException("repositories must number at least n = " + dispersal.n() + " for "
                        + dispersal.encoding() + ": " + this.repositories.size());
            }
            this.byId = Map.copyOf(map);
            this.dispersal = dispersal;
        }

        /**
         * Sets the executor that runs repository calls; the default runs them on the calling thread, one after
         * another. With a pool, writes of a segment's fragments and fetches of fragments run in parallel. A task the
         * executor rejects runs on the calling thread.
         *
         * @param executor the executor; it must not run tasks on a thread that waits for the store
         * @return this builder
         * @throws NullPointerException if {@code executor} is null
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * Sets the clock that dates commits and leases; the default is {@link InstantSource#system()}.
         *
         * @param clock the clock
         * @return this builder
         * @throws NullPointerException if {@code clock} is null
         */
        public Builder clock(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Sets the source of commit ids and, unless a placement policy is set, of random placement; the default is
         * {@link RandomGenerator#getDefault()}. The store synchronises on it.
         *
         * @param random the generator
         * @return this builder
         * @throws NullPointerException if {@code random} is null
         */
        public Builder random(RandomGenerator random) {
            this.random = Objects.requireNonNull(random, "random");
            return this;
        }

        /**
         * Sets how repositories are chosen; the default is {@link PlacementPolicy#random} with this builder's
         * generator. Use {@link PlacementPolicy#selecting} for Ren et al.'s failure-aware selection.
         *
         * @param placement the policy
         * @return this builder
         * @throws NullPointerException if {@code placement} is null
         */
        public Builder placement(PlacementPolicy placement) {
            this.placement = Objects.requireNonNull(placement, "placement");
            return this;
        }

        /**
         * Sets the lease of new checkpoints; the default is {@link #DEFAULT_LEASE}. A lease that would end after the
         * last millisecond the index format holds ({@code Instant.ofEpochMilli(Long.MAX_VALUE)}) ends there, so
         * {@code Duration.ofSeconds(Long.MAX_VALUE)} stands for "forever".
         *
         * @param lease how long after its commit a checkpoint is kept and repaired; positive
         * @return this builder
         * @throws NullPointerException     if {@code lease} is null
         * @throws IllegalArgumentException if {@code lease} is not positive
         */
        public Builder lease(Duration lease) {
            requirePositive(lease);
            this.lease = lease;
            return this;
        }

        /**
         * Sets the reconstruction threshold; the default is the midpoint of {@code m} and {@code n}, rounded up
         * (de Camargo §4.3).
         *
         * @param fragments repair regenerates fragments when fewer than this many verify; in {@code [m, n]}
         * @return this builder
         * @throws IllegalArgumentException if {@code fragments} is out of range
         */
        public Builder reconstructionThreshold(int fragments) {
            if (fragments < dispersal.m() || fragments > dispersal.n()) {
                throw new IllegalArgumentException("reconstructionThreshold must be in [" + dispersal.m() + ", "
                        + dispersal.n() + "]: " + fragments);
            }
            this.reconstructionThreshold = fragments;
            return this;
        }

        /**
         * Sets the segment size: checkpoints are encoded one segment at a time, so a commit holds about one segment
         * and its {@code n} pieces in memory. The default is {@link #DEFAULT_SEGMENT_BYTES}.
         *
         * @param bytes the segment size; in {@code [1, 2^30]}
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is out of range
         */
        public Builder segmentBytes(int bytes) {
            if (bytes < 1 || bytes > FragmentIndex.MAX_SEGMENT_BYTES) {
                throw new IllegalArgumentException("segmentBytes must be in [1, " + FragmentIndex.MAX_SEGMENT_BYTES
                        + "]: " + bytes);
            }
            this.segmentBytes = bytes;
            return this;
        }

        /**
         * Sets how many fragments beyond {@code m} recovery fetches from the start; the default, 0, fetches
         * {@code m} and starts another only when one fails. More finishes sooner when some repositories are slow, at
         * the cost of bandwidth (with a parallel executor).
         *
         * @param fragments the extra fetches, {@code ≥ 0}
         * @return this builder
         * @throws IllegalArgumentException if {@code fragments} is negative
         */
        public Builder extraFetches(int fragments) {
            if (fragments < 0) {
                throw new IllegalArgumentException("extraFetches must be >= 0: " + fragments);
            }
            this.extraFetches = fragments;
            return this;
        }

        /**
         * Builds the store.
         *
         * @return the store
         */
        public CheckpointStore build() {
            return new CheckpointStore(this);
        }
    }
}
