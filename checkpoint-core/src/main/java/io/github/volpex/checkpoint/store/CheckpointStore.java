package io.github.volpex.checkpoint.store;

import io.github.volpex.checkpoint.internal.Checks;
import io.github.volpex.checkpoint.repository.FragmentRepository;

import io.github.volpex.erasure.IdaCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * Keeps the checkpoints of jobs on volatile repositories so that the last committed checkpoint of a job is never
 * lost while enough of its repositories survive (Ren, Eigenmann and Bagchi §6; de Camargo, Castor and Kon §4–5).
 *
 * <p><b>Modes.</b> {@link #ephemeral} stores two full replicas of each checkpoint; {@link #perennial} stores
 * {@code n = m + k} fragments of an information dispersal ({@link IdaCodec}), any {@code m} of which rebuild it.
 *
 * <h2>Commit protocol and commit point</h2>
 * {@link #commit} takes the job's next position in the checkpoint order (below), then:
 * <ol>
 *   <li>writes the {@code n} fragments to {@code n} distinct repositories chosen by the {@link PlacementPolicy},
 *       preferring those the last listing reached; a fragment whose write fails, or that its repository does not list
 *       afterwards (a write dropped on the way), is regenerated from the others onto another repository; a commit
 *       from an array whose writes fail so widely that fewer than {@code m} fragments remain starts over on other
 *       repositories;</li>
 *   <li>writes a copy of the {@link FragmentIndex} next to every fragment and lists them: at least {@code k + 1}
 *       copies must be listed, so that any {@code m} of the holders hold one;</li>
 *   <li>asks the {@link EpochSource} whether this writer's epoch is still current;</li>
 *   <li>writes a <em>commit marker</em> (an empty object) next to every fragment. <b>The first marker stored is the
 *       commit point</b>: a checkpoint counts — for recovery, repair and collection — only once a marker of it
 *       exists, and a marker is written only after all {@code n} fragments and {@code k + 1} index copies are
 *       stored. The commit succeeds once {@code k + 1} holders list a marker (so that any {@code m} holders show
 *       one), then writes markers to every other repository that answers;</li>
 *   <li>deletes every older checkpoint of the job and what failed commits left behind.</li>
 * </ol>
 * Deleting a checkpoint — an older one here, a failed commit's leftovers, an expired one — removes its commit markers
 * first, and its index copies and fragments only once every marker delete returned and a listing of those
 * repositories shows no marker of it left. A commit that gives up after storing a marker, or when it cannot tell
 * whether a marker was stored and cannot remove it, leaves the new checkpoint whole and says so
 * ({@link CommitFailedException#reachedCommitPoint()}). A crash or a failure at any point therefore leaves the
 * previous committed checkpoint intact, and the new one either counts in full or not at all: every fragment is checked
 * against the SHA-256 its index records and the rebuilt checkpoint against the whole checkpoint's digest, so a mixture
 * of two checkpoints, a stale fragment or a corrupt one is never returned.
 *
 * <h2>Checkpoint order</h2>
 * A job's checkpoints are ordered by the epoch of the writer that committed them, then by sequence number
 * ({@link FragmentIndex#epoch()}, {@link FragmentIndex#sequence()}). A store acquires its epoch for a job from the
 * {@link EpochSource} at its first commit of that job, greater than every epoch it lists. The default,
 * {@link EpochSource#listing()}, takes one more than the greatest epoch listed and no clock, and only from a listing
 * that every repository of the store answered: a writer that restarts while repositories are unreachable cannot see
 * whether they hold newer checkpoints, so its first commit fails with an {@link EpochUnavailableException} until they
 * answer, and from then on it orders its checkpoints after every checkpoint that still exists, whatever the hosts'
 * clocks say. A fenced epoch source (a coordination service's counter) needs no complete listing. A store that lists
 * objects of a greater epoch, or whose epoch source says its epoch is stale, refuses to commit
 * ({@link StaleWriterException}); and since it only ever deletes checkpoints older than one it committed or verified,
 * a stale writer can neither commit over a newer writer's checkpoints nor make them collectable. An epoch source that
 * hands an elected writer one epoch per term ({@link EpochSource#epochPerTerm()}) is asked before every commit: the
 * store commits under the epoch of the current term, so a host elected again later commits under its new one.
 *
 * <h2>Asynchronous commits</h2>
 * {@link #commitAsync} splits a commit into a snapshot, taken on the calling thread (a copy of the bytes), and a
 * persist, run on the executor with the same protocol; its stage completes once the checkpoint is durable. A job has
 * at most one persist running and one waiting, a newer commit supersedes the waiting one
 * ({@link CommitSupersededException}), and {@link #close(Duration)} waits a bounded time for them before abandoning
 * the rest ({@link CommitAbandonedException}). A crash at any instant of a persist is a crash of a commit: the
 * guarantee below holds with the stages that completed successfully counted as returned commits.
 *
 * <h2>Differential checkpoints</h2>
 * A store built with {@link Builder#differential} cuts each state into blocks named by their SHA-256 and commits only
 * the blocks the job's newest committed checkpoint does not refer to, as one segment that follows the protocol above;
 * its block manifest lists the older checkpoints whose segments hold the rest (a commit from an {@link InputStream}
 * too, in the memory of a segment buffer and the block list, not of the state). Deleting what is older than a new
 * checkpoint spares those, so the guarantee below holds for differential checkpoints as stated, with "rebuilt"
 * meaning from the checkpoint's own fragments and those of the segments it lists. A commit refers to an older
 * segment only if its listing shows all {@code n} of that segment's fragments where its index records them, and
 * stores the live blocks of any other segment again in its own: a committed differential checkpoint tolerates
 * {@code n − m} fragment losses on its own segment and on each segment it lists, as a full one tolerates them on its
 * own, however long those segments have gone unrepaired. The package documentation gives the format, the reference
 * rule, this durability check and its cost, compaction and the memory bound.
 *
 * <h2>The guarantee</h2>
 * Let <i>L</i> be the last checkpoint of a job whose {@link #commit} returned, or whose {@link #commitAsync} stage
 * completed successfully, whichever writer committed it. Then, as long as the assumptions below hold:
 * <ul>
 *   <li>{@link #recover(String)} returns <i>L</i> or a checkpoint that reached its commit point after <i>L</i>'s
 *       commit returned — never an older one, never one that never reached its commit point, never corrupted bytes —
 *       whenever {@code m} of <i>L</i>'s repositories (or of such a newer checkpoint's) answer with what they hold of
 *       it intact. Otherwise it throws: {@link RepositoriesUnreachableException} when repositories that may hold the
 *       newest checkpoint are unreachable (in particular, it never answers "no checkpoint" while any repository is
 *       unreachable), and {@link CheckpointUnavailableException} when the newest committed checkpoint cannot be
 *       rebuilt.</li>
 *   <li>No operation deletes <i>L</i> before a newer checkpoint has reached its commit point with markers on
 *       {@code k + 1} of its repositories and has had {@code m} of its fragments verified — at its commit, from the
 *       digests of the bytes written and a listing of what was stored, or by {@link #collectGarbage}, by reading them
 *       back.</li>
 *   <li>No operation deletes an index copy or a fragment of a checkpoint while a commit marker of it that the
 *       operation set out to delete may remain.</li>
 *   <li>{@link #repair} checks every fragment and every index copy of the newest committed checkpoint: it regenerates
 *       fragments once fewer than the reconstruction threshold verify and rewrites every index copy that is missing,
 *       unreadable, corrupt or of an older revision on a holder that answers, so damage that stays within the
 *       assumption below between repairs never accumulates.</li>
 * </ul>
 * Assumptions:
 * <ul>
 *   <li>a repository that answers a listing lists what it stores, and never brings back an object it lost or deleted
 *       (a repository that loses its data, such as a departed volunteer host, loses only what it held);</li>
 *   <li>at no time have more than {@code k} of a checkpoint's holders lost or damaged what they hold of it (fragment,
 *       index copy, marker); {@link #repair} restores index copies and markers at once, and fragments once fewer
 *       than the reconstruction threshold verify — run it often enough;</li>
 *   <li>at least one repository that took a commit marker of <i>L</i> answers — markers go to every repository that
 *       answered at <i>L</i>'s commit, so this fails only if every one of them is unreachable at once while an older
 *       checkpoint survives on repositories that were unreachable at <i>L</i>'s commit;</li>
 *   <li>one writer of a job at a time (a writer starts after the previous one stopped), or a fenced epoch source;
 *       and every writer of a job is given every repository that may hold the job's checkpoints;</li>
 *   <li>the store's clock ({@link Builder#clock}) dates commits and leases only: a clock more than the lease ahead
 *       makes {@link #collectGarbage} delete checkpoints as expired. No clock orders checkpoints.</li>
 * </ul>
 *
 * <h2>Recovery, repair and leases</h2>
 * {@link #recover(String)} lists the job on every repository, takes the newest committed checkpoint, fetches
 * fragments in parallel on the executor, keeps the first {@code m} that verify and decodes them. It never falls back
 * to an older checkpoint by itself — the newest committed one may be the last successful commit — but
 * {@link #checkpoints} and {@link #recover(FragmentIndex)} let a host choose an older one knowingly. {@link #repair}
 * regenerates lost or corrupt fragments when fewer than the reconstruction threshold verify (de Camargo §4.3) — a
 * corrupt copy on a repository that answers is rewritten in place — rewrites bad index copies and completes the
 * commit markers. Checkpoints carry a lease after which they are no longer repaired and may be collected.
 *
 * <p><b>Threads.</b> A store is thread-safe. Operations on one job are serialised; operations on different jobs run
 * in parallel. One writer at a time per job: another process writing the same job is detected only through epochs
 * (above). The store owns no threads: repository calls and asynchronous persists run on the injected
 * {@link Executor} (by default, the calling thread), and a thread that waits for repository calls runs itself those
 * the executor has not started yet, so a pool of any size never deadlocks and the store may be called from the
 * executor's own threads. Calls other than {@link #commitAsync} block for as long as the repositories take;
 * repositories should time out their own calls. A task the executor rejects (a saturated or shut-down pool) runs on
 * the calling thread instead, so a rejection never fails an operation.
 *
 * @since 0.1
 */
public final class CheckpointStore implements AutoCloseable {

    /** The default segment size: the unit of streaming, 1 MiB. */
    public static final int DEFAULT_SEGMENT_BYTES = 1 << 20;
    /** The default lease: 7 days. */
    public static final Duration DEFAULT_LEASE = Duration.ofDays(7);
    /** The longest checkpoint {@link #recover(String)} returns in an array; {@link #recoverTo} has no limit. */
    public static final int MAX_ARRAY_BYTES = Integer.MAX_VALUE - 16;
    /** The number of full replicas in ephemeral mode (de Camargo §4.2). */
    public static final int EPHEMERAL_REPLICAS = 2;
    /**
     * How long {@link #close()} waits for the commits a store accepted, unless {@link Builder#closeTimeout} says
     * otherwise: 30 seconds.
     *
     * @since 0.1
     */
    public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(30);
    /**
     * The space bound of differential checkpoints unless {@link Builder#maxSpaceAmplification} says otherwise: after
     * a differential commit, the block bytes its checkpoint keeps stored are at most twice its live blocks' bytes.
     *
     * @since 0.1
     */
    public static final double DEFAULT_MAX_SPACE_AMPLIFICATION = 2.0;
    /**
     * The greatest value {@link Builder#maxSpaceAmplification} accepts: 64, as many as the segments a differential
     * checkpoint lists besides its own, beyond which the bound no longer decides anything.
     *
     * @since 0.1
     */
    public static final double MAX_SPACE_AMPLIFICATION = 64.0;

    private final StoreContext context;
    private final Committer committer;
    private final Restorer restorer;
    private final Reads reads;
    private final Repairer repairer;
    private final Collector collector;
    private final Differential differential;
    private final JobDeletion deletion;
    private final Persists persists;
    private final Duration closeTimeout;
    private final ConcurrentHashMap<String, Job> jobs = new ConcurrentHashMap<>();

    private CheckpointStore(Builder builder) {
        int threshold = builder.reconstructionThreshold > 0 ? builder.reconstructionThreshold
                : defaultThreshold(builder.dispersal.m(), builder.dispersal.n());
        PlacementPolicy placement = builder.placement != null ? builder.placement
                : PlacementPolicy.random(builder.random);
        EpochSource epochs = builder.epochs != null ? builder.epochs : EpochSource.listing();
        this.context = new StoreContext(builder.repositories, builder.byId, builder.dispersal, builder.executor,
                builder.clock, builder.random, placement, epochs, builder.lease, threshold, builder.segmentBytes,
                builder.extraFetches);
        this.reads = new Reads(context);
        Regenerator regenerator = new Regenerator(context);
        this.differential = new Differential(context, reads, builder.chunking, builder.maxSpaceAmplification,
                builder.maxArrayBytes);
        this.committer = new Committer(context, regenerator, differential);
        this.restorer = new Restorer(context, differential);
        this.repairer = new Repairer(context, reads, regenerator);
        this.collector = new Collector(context, reads, repairer, differential);
        this.deletion = new JobDeletion(context);
        this.persists = new Persists(context, committer, this::job, jobs::values);
        this.closeTimeout = builder.closeTimeout;
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

    /** The parts' shared context, for this package's tests. */
    StoreContext context() {
        return context;
    }

    /** The commits' runner, for this package's tests. */
    Persists persists() {
        return persists;
    }

    /** The job's state and queue, made on first use; package-private for this package's tests. */
    Job job(String jobId) {
        return jobs.computeIfAbsent(jobId, Job::new);
    }

    /** Runs {@code operation} under the job's lock, after what the job's last commit left to do. */
    private <T> T locked(String jobId, Function<JobState, T> operation) {
        Names.requireJobId(jobId);
        Job job = job(jobId);
        job.lock.lock();
        try {
            job.state.finishPending();
            return operation.apply(job.state);
        } finally {
            job.lock.unlock();
        }
    }

    // ----------------------------------------------------------------------------------------------------- commit

    /**
     * Commits a new checkpoint of {@code jobId}; see the class documentation for the protocol. If a commit of the job
     * is running (an {@linkplain #commitAsync asynchronous} one persisting, say), this one waits for it, and it
     * supersedes an asynchronous commit waiting for its turn ({@link CommitSupersededException}).
     *
     * @param jobId      the job, 1 to 64 characters of {@code [A-Za-z0-9_-]}
     * @param checkpoint the checkpoint's bytes; not retained
     * @return the new checkpoint's index (also stored next to every fragment)
     * @throws CommitFailedException    if the commit did not complete (too few repositories accepted the fragments,
     *                                  the index or the markers); the previous checkpoint is then intact
     * @throws StaleWriterException     if a newer writer of the job exists; nothing is written
     * @throws EpochUnavailableException if this is the store's first commit of the job and no epoch can be taken (the
     *                                   epoch source failed, or it needs a listing that every repository answers and
     *                                   some did not); nothing is written
     * @throws IllegalStateException    if the placement policy chooses other than the distinct candidates asked for,
     *                                  or the epoch source breaks its contract (whatever they throw reaches the caller
     *                                  too); the previous checkpoint is then intact; or if the store is closed
     * @throws CommitAbandonedException if the store was closed while this commit waited for its turn or ran, and
     *                                  {@link #close(Duration)} gave up waiting for it
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code jobId} is not valid, or the store is differential and the payload
     *                                  the commit would store — its new blocks and a block manifest of 48 bytes per
     *                                  block — is longer than {@link #MAX_ARRAY_BYTES} bytes, which a recovery must
     *                                  hold in one array; nothing is committed and nothing deleted
     */
    public FragmentIndex commit(String jobId, byte[] checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        try {
            return persists.commit(jobId, null, checkpoint);
        } catch (IOException e) {
            throw new UncheckedIOException("a byte array cannot fail to read", e);
        }
    }

    /**
     * Commits a new checkpoint read from {@code checkpoint} until its end, in bounded memory: one segment and its
     * pieces at a time. The stream is not closed. It waits for a running commit of the job and supersedes a waiting
     * asynchronous one, as {@link #commit(String, byte[])} does. Unlike a commit from an array, one whose writes fail
     * so widely that fewer than {@code m} fragments remain cannot start over (the stream is consumed) and fails.
     *
     * <p><b>Differential stores.</b> On a store built with {@link Builder#differential} the commit is differential
     * and writes exactly the payload a commit of the same bytes from an array writes — the same blocks stored, the
     * same compaction, the same layout — with the same guarantee. The stream is cut into blocks as it is read; each
     * block is hashed, and one that the job's newest committed checkpoint does not hold is passed on to the encoder
     * at once. Once the stream has ended, when the live bytes of every older segment are known, the commit decides
     * the compaction as an array commit does; the live blocks of the segments it stops referring to are read back
     * from the repositories ({@code m} fragments, stripe by stripe, each block checked against the SHA-256 the
     * previous manifest records) and stored in the new segment before its manifest, so the space bound of
     * {@link Builder#maxSpaceAmplification} holds after the commit as after an array commit, and the segments dropped
     * are freed only once the new checkpoint is durable. Memory held: a window of two of the chunking's largest
     * blocks (at least 64 KiB) and one segment of encoding with its pieces ({@link Builder#segmentBytes}), one decoded
     * segment, {@code m} pieces and one block while reading back (with a repository that streams {@link
     * io.github.volpex.checkpoint.repository.FragmentRepository#open}; one that does not hands out whole fragments),
     * and the tables an array commit holds too, which grow with the number of blocks: about 300 bytes per block of the
     * state (the new manifest's 48 bytes per block, up to twice that while its table grows, a map entry of about 120
     * bytes per block new to the commit, the manifest's copy and encoding at the stream's end) and about 200 bytes per
     * block of the base's manifest (its 48, a map entry, compaction's arrays) — O(state / block size), never the state
     * itself: about 20 MB for a 1 GiB state of 16 KiB blocks. The state must fit in an array ({@link #MAX_ARRAY_BYTES}
     * bytes), since a recovery assembles a differential state in memory, and so must the payload it rebuilds first (the
     * new blocks and the block manifest): a longer stream, or one whose payload outgrows that length, fails the commit
     * with an {@link IllegalArgumentException} once it does, before the commit point (commit such states to a store
     * without {@code differential}, whose commits and {@link #recoverTo} stream).
     *
     * @param jobId      the job, 1 to 64 characters of {@code [A-Za-z0-9_-]}
     * @param checkpoint the checkpoint's bytes
     * @return the new checkpoint's index
     * @throws IOException              if reading {@code checkpoint} fails, or it returns 0 bytes for 1024 reads in
     *                                  a row (which {@link InputStream} forbids); nothing is committed, and nothing
     *                                  of the commit became visible: its fragments were not yet published, and each
     *                                  repository discards them, so no delete is sent
     * @throws CommitFailedException    if the commit did not complete — on a differential store also when the live
     *                                  blocks of a segment that compaction drops could not be read back, or did not
     *                                  match their digests; the previous checkpoint is then intact
     * @throws StaleWriterException     if a newer writer of the job exists; nothing is written
     * @throws EpochUnavailableException if this is the store's first commit of the job and no epoch can be taken (the
     *                                   epoch source failed, or it needs a listing that every repository answers and
     *                                   some did not); nothing is written
     * @throws IllegalStateException    if the placement policy or the epoch source breaks its contract (whatever they
     *                                  throw reaches the caller too, an {@link IllegalArgumentException} included);
     *                                  the previous checkpoint is then intact; or if the store is closed
     * @throws CommitAbandonedException if the store was closed while this commit waited for its turn or ran, and
     *                                  {@link #close(Duration)} gave up waiting for it
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code jobId} is not valid, or the store is differential and the stream is
     *                                  longer than {@link #MAX_ARRAY_BYTES} bytes, or so is the payload the commit
     *                                  would store (its new blocks and a block manifest of 48 bytes per block, which
     *                                  a recovery holds in one array) — found at the latest once the stream has
     *                                  ended and the compaction has decided which blocks to store again, before
     *                                  they are read back; nothing is committed and nothing deleted
     */
    public FragmentIndex commit(String jobId, InputStream checkpoint) throws IOException {
        Objects.requireNonNull(checkpoint, "checkpoint");
        return persists.commit(jobId, checkpoint, null);
    }

    /**
     * Commits a new checkpoint of {@code jobId} in the background: takes a snapshot — a copy of {@code checkpoint}, so
     * the caller may change its array as soon as this method returns — and persists it on the store's executor with
     * the protocol of {@link #commit(String, byte[])}. The calling thread pays for the copy only (with the default
     * executor, which runs tasks on the calling thread, the whole commit runs before this method returns).
     *
     * <p>The returned stage completes with the new checkpoint's index once the checkpoint has reached its commit point
     * and is durable ({@code k + 1} holders list a commit marker): from then on {@link #recover(String)} returns it or
     * a newer committed checkpoint. Marking the other repositories and deleting the checkpoints it replaces follow, on
     * the same thread or in the job's next operation. The stage completes exceptionally with what
     * {@link #commit(String, byte[])} would throw — {@link CommitFailedException} and its subclasses
     * {@link StaleWriterException} and {@link EpochUnavailableException}, {@link IllegalStateException} — and with
     * {@link CommitSupersededException} when a newer commit of the job took its place before it started, or
     * {@link CommitAbandonedException} when {@link #close(Duration)} gave up on it. Whatever the outcome, the job's
     * previous checkpoint is intact until a newer one is durable. As for any {@link CompletionStage}, dependent
     * stages see such a failure wrapped in a {@link java.util.concurrent.CompletionException} whose cause it is.
     *
     * <p><b>One at a time, in order.</b> A job has at most one commit persisting and one asynchronous commit waiting;
     * a newer commit of the job (asynchronous or not) supersedes the waiting one, which then never runs. A job's
     * commits run in the order they were accepted, and a commit's stage completes (or its synchronous call returns)
     * only after the stage of the commit that ran before it has completed and the dependent actions that completion
     * ran have returned: an action that records the latest durable checkpoint never sees an older one after a newer
     * one. Superseded stages complete when superseded. Commits of different jobs run in parallel.
     *
     * <p><b>Memory.</b> Per job, the store holds at most two snapshot arrays, each the size of its checkpoint, counting
     * the one persisting, the one waiting and the one kept from the last persist — plus the persisting commit's working
     * memory (one segment and its {@code n} pieces, as for {@link #commit(String, InputStream)}); a call holds one more
     * copy while it takes its snapshot, released if it is superseded. The array of a snapshot whose persist ended is
     * kept for the job's next snapshot, which copies into it when the lengths are equal instead of allocating (a new
     * array of a large checkpoint is also what makes the collector run while the caller waits); it is referenced
     * softly, so the collector frees it rather than run out of memory, and {@link #deleteJob(String, boolean)} and
     * {@link #close(Duration)} drop it. A job that committed asynchronously keeps that one array while idle. There is
     * no asynchronous commit from an {@link InputStream}: its snapshot would be the whole stream read on the caller's
     * thread into buffers the store owns — the state's size, twice per job — which is what a caller who streams a state
     * avoids, and reading it is most of what the caller would wait for. A state that fits in memory is committed in the
     * background from its array; one that does not is committed from its stream synchronously, or from a thread of the
     * caller's.
     *
     * <p><b>Threads.</b> Dependent actions registered on the stage run on the thread that completes it, an executor
     * thread, after the store has released the job: they may call the store, a commit of the same job included, but
     * should hand long work to an executor of their own, and must not wait for a later commit of the same job (that
     * commit's stage waits for them to return).
     *
     * @param jobId      the job, 1 to 64 characters of {@code [A-Za-z0-9_-]}
     * @param checkpoint the checkpoint's bytes; copied before this method returns
     * @return a stage that completes when the commit is durable, or fails as described above; completing it (through
     *         {@link CompletionStage#toCompletableFuture()}) does not affect the commit
     * @throws IllegalStateException    if the store is closed
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code jobId} is not valid
     * @since 0.1
     */
    public CompletionStage<FragmentIndex> commitAsync(String jobId, byte[] checkpoint) {
        return persists.commitAsync(jobId, checkpoint);
    }

    /**
     * Commits the checkpoint of a replicated process — its state and the request number its replicas reopen at — as
     * one checkpoint of {@code jobId}, in the format {@link ProcessCheckpoint} documents; {@link #recoverProcess}
     * gives both back. Otherwise as {@link #commit(String, byte[])}.
     *
     * @param jobId      the job, 1 to 64 characters of {@code [A-Za-z0-9_-]}
     * @param checkpoint the process's state and request number
     * @return the new checkpoint's index
     * @throws CommitFailedException    if the commit did not complete; the previous checkpoint is then intact
     * @throws StaleWriterException     if a newer writer of the job exists; nothing is written
     * @throws EpochUnavailableException if this is the store's first commit of the job and no epoch can be taken;
     *                                   nothing is written
     * @throws IllegalStateException    if the placement policy or the epoch source breaks its contract (the previous
     *                                  checkpoint is then intact), or if the store is closed
     * @throws CommitAbandonedException if the store was closed while this commit waited for its turn or ran, and
     *                                  {@link #close(Duration)} gave up waiting for it
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code jobId} is not valid
     * @since 0.1
     */
    public FragmentIndex commit(String jobId, ProcessCheckpoint checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        return commit(jobId, checkpoint.toBytes());
    }

    /**
     * Commits the checkpoint of a replicated process in the background, in the format {@link ProcessCheckpoint}
     * documents, as {@link #commitAsync(String, byte[])} commits an array; {@link #recoverProcess} gives its state and
     * request number back. The snapshot is the checkpoint's bytes ({@link ProcessCheckpoint#toBytes()}: the header
     * and a copy of the state), taken on the calling thread before this method returns; a {@code ProcessCheckpoint}
     * is immutable, so nothing the caller does afterwards reaches the commit. Everything else — when the stage
     * completes, its failures ({@link CommitFailedException} and its subclasses, {@link CommitSupersededException},
     * {@link CommitAbandonedException}, {@link IllegalStateException}), one commit persisting and one waiting per
     * job, the order, the memory held (each snapshot {@link ProcessCheckpoint#HEADER_BYTES} bytes longer than the
     * state) and the threads that run dependent actions — is as for {@link #commitAsync(String, byte[])}.
     *
     * @param jobId      the job, 1 to 64 characters of {@code [A-Za-z0-9_-]}
     * @param checkpoint the process's state and request number
     * @return a stage that completes with the new checkpoint's index when the commit is durable, or fails as
     *         {@link #commitAsync(String, byte[])} describes
     * @throws IllegalStateException    if the store is closed
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code jobId} is not valid
     * @since 0.1
     */
    public CompletionStage<FragmentIndex> commitAsync(String jobId, ProcessCheckpoint checkpoint) {
        return persists.commitAsync(jobId, checkpoint, ProcessCheckpoint::toBytes);
    }

    // --------------------------------------------------------------------------------------------------- recovery

    /**
     * Returns the index of the newest committed checkpoint of {@code jobId} found on the repositories that answer, at
     * its highest readable revision. Unlike {@link #recover(String)} it does not tell whether unreachable
     * repositories hold a newer one.
     *
     * @param jobId the job
     * @return the newest committed checkpoint's index, or empty if none was found (or none has a readable index)
     * @throws NullPointerException     if {@code jobId} is null
     * @throws IllegalArgumentException if {@code jobId} is not valid
     */
    public Optional<FragmentIndex> latestIndex(String jobId) {
        return locked(jobId, state -> checkpointsLocked(jobId, true).stream().findFirst());
    }

    /**
     * Returns the committed checkpoints of {@code jobId} found on the repositories that answer, newest first, each at
     * its highest readable revision: normally one, more while older ones wait for collection. With
     * {@link #recover(FragmentIndex)} a host can knowingly rebuild an older one when recovery of the newest fails.
     *
     * @param jobId the job
     * @return the indexes, an unmodifiable list; checkpoints whose index cannot be read are left out
     * @throws NullPointerException     if {@code jobId} is null
     * @throws IllegalArgumentException if {@code jobId} is not valid
     */
    public List<FragmentIndex> checkpoints(String jobId) {
        return locked(jobId, state -> checkpointsLocked(jobId, false));
    }

    private List<FragmentIndex> checkpointsLocked(String jobId, boolean firstOnly) {
        JobView view = context.view(jobId);
        List<FragmentIndex> indexes = new ArrayList<>();
        for (JobView.Trace trace : view.committedNewestFirst()) {
            context.readIndex(jobId, trace, new ArrayList<>()).ifPresent(indexes::add);
            if (firstOnly && !indexes.isEmpty()) {
                break;
            }
        }
        return List.copyOf(indexes);
    }

    /**
     * Rebuilds the newest committed checkpoint of {@code jobId}: it lists the job's objects on every repository, takes
     * the newest checkpoint that reached its commit point, fetches its fragments in parallel and keeps the first
     * {@code m} that verify. See the class documentation for what it guarantees.
     *
     * @param jobId the job
     * @return the checkpoint, verified against its digest, or empty if every repository answered and the job has no
     *         committed checkpoint
     * @throws RepositoriesUnreachableException if repositories that may hold the newest checkpoint, or the fragments
     *                                          it needs, are unreachable (it names them, and the newest checkpoint
     *                                          available without them)
     * @throws CheckpointUnavailableException   if the newest committed checkpoint cannot be rebuilt from the
     *                                          repositories that answer (corrupt or lost fragments); an older one
     *                                          is not returned in its place — see {@link #checkpoints} to choose one
     *                                          knowingly
     * @throws IllegalStateException            if the newest checkpoint is longer than {@link #MAX_ARRAY_BYTES}
     * @throws NullPointerException             if {@code jobId} is null
     * @throws IllegalArgumentException         if {@code jobId} is not valid
     */
    public Optional<RecoveredCheckpoint> recover(String jobId) {
        return locked(jobId, state -> restorer.recoverNewest(jobId, state));
    }

    /**
     * Rebuilds the newest committed checkpoint of a replicated process, as {@link #recover(String)} does, and returns
     * its state and the request number its replicas reopen at.
     *
     * @param jobId the job
     * @return the process's checkpoint, or empty if every repository answered and the job has no committed checkpoint
     * @throws RepositoriesUnreachableException if repositories that may hold the newest checkpoint, or the fragments
     *                                          it needs, are unreachable
     * @throws CheckpointUnavailableException   if the newest committed checkpoint cannot be rebuilt from the
     *                                          repositories that answer
     * @throws IllegalStateException            if the newest checkpoint is not a process checkpoint (it was committed
     *                                          with {@link #commit(String, byte[])}, say), or is longer than
     *                                          {@link #MAX_ARRAY_BYTES}
     * @throws NullPointerException             if {@code jobId} is null
     * @throws IllegalArgumentException         if {@code jobId} is not valid
     * @since 0.1
     */
    public Optional<ProcessCheckpoint> recoverProcess(String jobId) {
        return recover(jobId).map(recovered -> {
            try {
                return ProcessCheckpoint.parse(recovered.toByteArray());
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("the newest checkpoint of " + jobId + " (#"
                        + recovered.index().sequence() + ", epoch " + recovered.index().epoch()
                        + ") cannot be read: " + e.getMessage(), e);
            }
        });
    }

    /**
     * Rebuilds the checkpoint that {@code index} describes, from the repositories it lists. A
     * {@linkplain FragmentIndex#isDifferential() differential} checkpoint also needs the older segments its block
     * manifest lists: this lists the job to find them, and fails as below if one of them is gone.
     *
     * @param index the checkpoint's index, as returned by {@link #commit}, {@link #latestIndex} or
     *              {@link #checkpoints}
     * @return the checkpoint, verified against its digest
     * @throws CheckpointUnavailableException if fewer than {@code m} fragments can be fetched and verified
     * @throws IllegalStateException          if the checkpoint is longer than {@link #MAX_ARRAY_BYTES}
     * @throws NullPointerException           if {@code index} is null
     */
    public RecoveredCheckpoint recover(FragmentIndex index) {
        Objects.requireNonNull(index, "index");
        return differential.rebuild(index, index.isDifferential() ? context.view(index.jobId()) : null);
    }

    /**
     * Streams the checkpoint that {@code index} describes into {@code out}, in bounded memory: fragments are read in
     * lockstep, {@code m} at a time, one segment at a time, each piece checked against its CRC-32C before use; a
     * fragment that fails is replaced by another, wound forward to the current segment. At the end every fragment
     * used is checked against its SHA-256 and the whole output against the checkpoint's.
     *
     * <p>Bytes are written as they are decoded, so when this method throws, {@code out} may hold a prefix of the
     * checkpoint or, if a fragment was corrupt in a way its CRCs missed, wrong bytes: use the output only when the
     * method returns. The stream is not closed. A {@linkplain FragmentIndex#isDifferential() differential} checkpoint
     * is assembled in memory from its segments (as {@link #recover(FragmentIndex)} does) and then written, so it must
     * fit in an array.
     *
     * @param index the checkpoint's index
     * @param out   where to write the checkpoint
     * @return the number of bytes written, the checkpoint's length
     * @throws CheckpointUnavailableException if fewer than {@code m} fragments can be read, or the output does not
     *                                        match the checkpoint's digest
     * @throws IOException                    if writing to {@code out} fails
     * @throws IllegalStateException          if the checkpoint is differential and its state is longer than
     *                                        {@link #MAX_ARRAY_BYTES}
     * @throws NullPointerException           if an argument is null
     */
    public long recoverTo(FragmentIndex index, OutputStream out) throws IOException {
        Objects.requireNonNull(index, "index");
        Objects.requireNonNull(out, "out");
        if (index.isDifferential()) {
            byte[] state = differential.assemble(index, context.view(index.jobId())).bytes();
            out.write(state);
            return state.length;
        }
        return reads.streamTo(index, out);
    }

    // ----------------------------------------------------------------------------------------------------- repair

    /**
     * Checks the newest committed checkpoint of {@code jobId} and repairs it: when fewer than the reconstruction
     * threshold of its fragments verify, it regenerates the missing ones from {@code m} verified fragments — rewriting
     * a corrupt or lost copy on its own repository when that repository answers, placing the others on repositories
     * chosen by the placement policy — and writes a new revision of the index (de Camargo §4.3); and whatever the
     * fragments, it rewrites every copy of the index that is missing, unreadable, corrupt or of an older revision on
     * a holder that answers, and reads it back. Every fragment is read in full to check it, in bounded memory. It also
     * stores the commit marker on every holder that lacks one. A {@linkplain FragmentIndex#isDifferential()
     * differential} checkpoint's repair repairs, in the same way, every older checkpoint whose segment its block
     * manifest lists, since the state needs them; the report is then the newest checkpoint's, partial if any
     * segment's repair was, with the failures of all.
     *
     * @param jobId the job
     * @return what was found and done: {@link RepairReport.Status#HEALTHY} only if no fragment needed regenerating
     *         and every holder that answers holds an intact copy of the newest index
     * @throws CheckpointUnavailableException if fewer than {@code m} fragments verify, or no copy of the index can be
     *                                        read: the checkpoint cannot be repaired (an older one is not looked for);
     *                                        likewise for a segment a differential checkpoint lists, or if such a
     *                                        segment is not listed at all
     * @throws NullPointerException           if {@code jobId} is null
     * @throws IllegalArgumentException       if {@code jobId} is not valid
     */
    public RepairReport repair(String jobId) {
        return locked(jobId, state -> repairer.repair(jobId, state));
    }

    // ------------------------------------------------------------------------------------------ leases, garbage

    /**
     * Extends the lease of the newest committed checkpoint of {@code jobId} to {@code duration} from now, writing a
     * new revision of its index next to its fragments. A lease that would end after the last millisecond the index
     * format holds ({@code Instant.ofEpochMilli(Long.MAX_VALUE)}, some 292 million years from 1970) ends there.
     *
     * @param jobId    the job
     * @param duration the new lease, from now; positive
     * @return the new index, or empty if no committed checkpoint of the job was found
     * @throws CommitFailedException          if no repository accepted the new index
     * @throws CheckpointUnavailableException if no copy of the newest checkpoint's index can be read
     * @throws NullPointerException           if an argument is null
     * @throws IllegalArgumentException       if {@code jobId} is not valid or {@code duration} is not positive
     */
    public Optional<FragmentIndex> renewLease(String jobId, Duration duration) {
        requirePositive(duration);
        return locked(jobId, state -> collector.renewLease(jobId, duration));
    }

    /**
     * Deletes what older checkpoints and failed commits of {@code jobId} left on the repositories that answer — but
     * only once the newest committed checkpoint is durable (its commit marker, which this call completes, listed by
     * {@code k + 1} of its repositories) and {@code m} of its fragments have been read back and verified; nothing is
     * deleted otherwise. A successful commit does this by itself. When the newest checkpoint's lease has ended, it and
     * everything older are deleted (de Camargo §4.3: expired files "can be removed").
     *
     * @param jobId the job
     * @return how many objects were deleted
     * @throws NullPointerException     if {@code jobId} is null
     * @throws IllegalArgumentException if {@code jobId} is not valid
     */
    public int collectGarbage(String jobId) {
        return locked(jobId, state -> collector.collectGarbage(jobId));
    }

    /**
     * Collects garbage ({@link #collectGarbage}) for every job that has objects on the repositories that answer, which
     * deletes the checkpoints whose lease has ended. It lists every repository in full: run it now and then, not at
     * every commit.
     *
     * @return how many objects were deleted
     */
    public int collectExpired() {
        int deleted = 0;
        for (String jobId : collector.jobsWithObjects()) {
            deleted += collectGarbage(jobId);
        }
        return deleted;
    }

    // ------------------------------------------------------------------------------------------------ deletion

    /**
     * Deletes a finished job: {@link #deleteJob(String, boolean) deleteJob(jobId, false)}, which refuses while writers
     * of the job are alive.
     *
     * @param jobId the job
     * @return how many objects were deleted
     * @throws JobRunningException      if the epoch source knows of live writers or candidates of the job; nothing is
     *                                  deleted
     * @throws JobDeletionException     if something of the job could not be deleted; it names what
     * @throws NullPointerException     if {@code jobId} is null
     * @throws IllegalArgumentException if {@code jobId} is not valid
     * @since 0.1
     */
    public int deleteJob(String jobId) {
        return deleteJob(jobId, false);
    }

    /**
     * Deletes everything of a job: first what the {@link EpochSource} keeps of it ({@link EpochSource#deleteJob}: a
     * fenced source's counter, so that no earlier writer of the job can commit again), then every object of every
     * checkpoint, of every epoch, on every repository — commit markers first, then index copies, then fragments,
     * so that a deletion cut short never leaves a checkpoint that counts but lacks what it needs — and finally lists
     * the repositories again to check that nothing of the job is left. Objects of other jobs are untouched; the
     * repositories' own places (a directory, a bucket) stay. Idempotent: running it again after a failure finishes
     * the work, and deleting a job that has nothing does nothing.
     *
     * <p>It waits for a commit of the job that is persisting and runs after it, but does not cancel an
     * {@linkplain #commitAsync asynchronous} commit still waiting for its turn: that one runs after the deletion and
     * starts the job anew, as any commit after a deletion does. Wait for the stages of the job's commits (or
     * {@linkplain #close(Duration) close} the store) before deleting the job.
     *
     * @param jobId the job
     * @param force whether to delete even while the epoch source knows of live writers or candidates of the job
     *              (their commits are refused from then on)
     * @return how many objects were deleted
     * @throws JobRunningException      if {@code force} is false and the epoch source knows of live writers or
     *                                  candidates of the job; nothing is deleted
     * @throws JobDeletionException     if the epoch source failed (nothing else is then deleted), or repositories
     *                                  could not be listed or still list objects of the job; it names them
     * @throws NullPointerException     if {@code jobId} is null
     * @throws IllegalArgumentException if {@code jobId} is not valid
     * @since 0.1
     */
    public int deleteJob(String jobId, boolean force) {
        return locked(jobId, state -> {
            job(jobId).dropSpare();
            return deletion.delete(jobId, state, force);
        });
    }

    private static void requirePositive(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be positive: " + duration);
        }
    }

    /**
     * Closes the store for commits, waiting up to the builder's {@linkplain Builder#closeTimeout close timeout} for
     * the commits it accepted; see {@link #close(Duration)}. What it abandons is reported by the abandoned commits'
     * stages and callers.
     *
     * @since 0.1
     */
    @Override
    public void close() {
        close(closeTimeout);
    }

    /**
     * Closes the store for commits: from now on {@link #commit(String, byte[])}, {@link #commit(String, InputStream)}
     * and {@link #commitAsync} throw {@link IllegalStateException}. The commits already accepted — persisting, or
     * waiting for their turn — go on for up to {@code maxWait}; then every one not yet decided is abandoned: its stage
     * (or its synchronous caller) gets a {@link CommitAbandonedException}. An abandoned commit that had not started
     * never writes anything; one that had started stops at its next step — before its commit point, so that it never
     * counts — unless it was already writing its commit markers, in which case it may complete and count (its
     * exception then says it may have reached its commit point). The job's previous checkpoint is intact either way.
     *
     * <p>This method never waits longer than {@code maxWait} (plus the time to fail the stages), whatever the
     * repositories do: a repository call that never returns keeps its executor thread, not this one. Interrupting the
     * waiting thread abandons at once (the interrupt status is kept). Recovery, repair and collection still work on a
     * closed store; they hold nothing that needs closing. Closing twice is harmless.
     *
     * <p>It waits for commits to be decided, not for what a durable asynchronous commit leaves to do once its stage
     * has completed — marking the other repositories, deleting the checkpoints it replaces — which its executor thread
     * runs next and which may still be running when this method returns. A host that must know that nothing touches
     * the repositories any more (before it closes them, or inspects what they hold) shuts the executor down and
     * awaits its termination after closing the store.
     *
     * @param maxWait how long to wait for the accepted commits; zero abandons every one not yet decided at once
     * @return the commits abandoned, in no particular order; empty if every accepted commit was decided in time
     * @throws NullPointerException     if {@code maxWait} is null
     * @throws IllegalArgumentException if {@code maxWait} is negative
     * @since 0.1
     */
    public List<AbandonedCommit> close(Duration maxWait) {
        Objects.requireNonNull(maxWait, "maxWait");
        if (maxWait.isNegative()) {
            throw new IllegalArgumentException("maxWait must be >= 0: " + maxWait);
        }
        return persists.close(maxWait);
    }

    /**
     * Returns the repositories, in the order given to the builder.
     *
     * @return an unmodifiable list
     */
    public List<FragmentRepository> repositories() {
        return context.repositories;
    }

    /**
     * Returns how a checkpoint is cut into fragments.
     *
     * @return the encoding of new checkpoints
     */
    public Encoding encoding() {
        return context.dispersal.encoding();
    }

    /**
     * Returns how many fragments rebuild a checkpoint.
     *
     * @return {@code m}
     */
    public int m() {
        return context.dispersal.m();
    }

    /**
     * Returns how many fragments each checkpoint is stored as.
     *
     * @return {@code n = m + k}
     */
    public int n() {
        return context.dispersal.n();
    }

    /**
     * Returns the number of verified fragments below which {@link #repair} regenerates the missing ones.
     *
     * @return the reconstruction threshold, in {@code [m, n]}
     */
    public int reconstructionThreshold() {
        return context.reconstructionThreshold;
    }

    @Override
    public String toString() {
        return "CheckpointStore[" + context.dispersal.encoding() + " m=" + context.dispersal.m() + " n="
                + context.dispersal.n() + ", " + context.repositories.size() + " repositories]";
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
        private EpochSource epochs;
        private Duration lease = DEFAULT_LEASE;
        private int reconstructionThreshold;
        private int segmentBytes = DEFAULT_SEGMENT_BYTES;
        private int extraFetches;
        private Duration closeTimeout = DEFAULT_CLOSE_TIMEOUT;
        private Chunking chunking;
        private double maxSpaceAmplification = DEFAULT_MAX_SPACE_AMPLIFICATION;
        /** The most bytes a recovery holds in one array; lowered by tests only. */
        private long maxArrayBytes = MAX_ARRAY_BYTES;

        Builder(Collection<? extends FragmentRepository> repositories, Dispersal dispersal) {
            Objects.requireNonNull(repositories, "repositories");
            this.repositories = List.copyOf(repositories);
            Map<String, FragmentRepository> map = new LinkedHashMap<>();
            for (FragmentRepository repository : this.repositories) {
                String id = Checks.requireRepositoryId(repository.id());
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
         * Sets the executor that runs repository calls and asynchronous persists; the default runs them on the
         * calling thread, one after another (so {@link CheckpointStore#commitAsync} persists before it returns). With
         * a pool, writes of a segment's fragments and fetches of fragments run in parallel, a differential
         * recovery reads the segments it lists at once, and asynchronous commits persist in the background. A task the
         * executor rejects runs on the calling thread; {@code execute} must not block (a pool whose queue is full
         * should reject, not wait).
         *
         * @param executor the executor; the store's own waits never block it (a waiting thread runs the calls not
         *                 yet started itself)
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
         * Sets where the store takes its epoch for each job (see the class documentation, "Checkpoint order"); the
         * default is {@link EpochSource#listing()}, which reads no clock and needs every repository to answer at a
         * writer's first commit of a job. Give a coordination service's epochs to fence writers, or to commit while
         * repositories are away.
         *
         * @param epochs the epoch source
         * @return this builder
         * @throws NullPointerException if {@code epochs} is null
         */
        public Builder epochs(EpochSource epochs) {
            this.epochs = Objects.requireNonNull(epochs, "epochs");
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
         * Sets how long {@link CheckpointStore#close()} waits for the commits the store accepted before it abandons
         * them; the default is {@link #DEFAULT_CLOSE_TIMEOUT}.
         *
         * @param timeout the bound; zero abandons at once
         * @return this builder
         * @throws NullPointerException     if {@code timeout} is null
         * @throws IllegalArgumentException if {@code timeout} is negative
         * @since 0.1
         */
        public Builder closeTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative()) {
                throw new IllegalArgumentException("closeTimeout must be >= 0: " + timeout);
            }
            this.closeTimeout = timeout;
            return this;
        }

        /**
         * Makes commits from an array (and {@linkplain CheckpointStore#commitAsync asynchronous} ones) differential:
         * the state is cut into blocks by {@code chunking}, each named by its SHA-256, and a commit stores only the
         * blocks that the job's newest committed checkpoint does not already refer to, packed into one segment that
         * is dispersed, verified and committed exactly as a full checkpoint is; the checkpoint's block manifest, in
         * that segment, lists every block of the state and the older segments holding them
         * ({@link FragmentIndex#isDifferential()}). The guarantee of the class documentation holds unchanged:
         * deleting what is older than a durable, verified checkpoint spares the segments its manifest lists, so a
         * block a retained checkpoint refers to is never deleted. When the block bytes stored would exceed twice the
         * live ones, a commit compacts: it stores again the live blocks of the segments with the smallest share of
         * live bytes, until they do not, and those segments are freed. A commit from an {@link InputStream} is
         * differential too and writes what a commit of the same bytes from an array writes; it holds no more than a
         * segment buffer and a window of blocks besides the block list, decides the compaction once the stream has
         * ended and reads the live blocks it moves back from their segments
         * ({@link CheckpointStore#commit(String, InputStream)} says what it holds and its limits). By default
         * commits are full. {@link CheckpointStore#checkpoints} lists the
         * older checkpoints kept for their segments too; rebuilding one of those knowingly may fail once segments
         * that it, but not the newest, listed have been freed.
         *
         * <p>What it costs: hashing the state once per commit (SHA-256), the manifest (48 bytes per block, kept in
         * memory for the job's last commit), checking that every older segment the commit would refer to is listed
         * whole — in the listing the commit takes anyway, plus one read of the index copies of each such segment
         * whose index the store does not hold in memory (after a restart, or after a repair moved its fragments) —
         * and storing again the live blocks of those that are not, and at recovery reading the checkpoint's own
         * segment and each segment it lists (at most 64 besides its own), of which only the stripes holding blocks of
         * the state are decoded, every block taken from them checked against its SHA-256;
         * {@link CheckpointStore#recoverTo} of a differential checkpoint holds the state in memory. After a restart,
         * the first commit or repair reads the newest checkpoint's segment back to learn its manifest, unless the
         * store has learnt it since by {@linkplain CheckpointStore#recover(String) recovering} or repairing that
         * checkpoint (it remembers the manifest of the last differential checkpoint it committed, recovered or
         * repaired). Repair ({@link CheckpointStore#repair}) checks and repairs the newest checkpoint's segment and
         * every segment it lists, whatever their own leases say.
         *
         * @param chunking how to cut states into blocks: {@link Chunking#fixed()} for states updated in place,
         *                 {@link Chunking#contentDefined} for serialized ones
         * @return this builder
         * @throws NullPointerException if {@code chunking} is null
         * @since 0.1
         */
        public Builder differential(Chunking chunking) {
            this.chunking = Objects.requireNonNull(chunking, "chunking");
            return this;
        }

        /**
         * Sets the space bound of {@linkplain #differential differential} checkpoints: after a differential commit,
         * the block bytes its checkpoint keeps stored (its own segment's and those of the older segments it lists)
         * are at most {@code ratio} times the bytes of the blocks its state is made of (each distinct block counted
         * once; the block manifests, 48 bytes per block, aside). A commit that would keep more compacts: it stores
         * again the live blocks of the older segments with the smallest share of live bytes until the bound holds,
         * and those segments are freed. The default is {@link CheckpointStore#DEFAULT_MAX_SPACE_AMPLIFICATION}.
         *
         * <p>The bound trades space for bytes written: a lower one rewrites live blocks more often, a higher one
         * keeps more dead blocks stored. With 10% of the blocks changed per commit, spread uniformly, over 30
         * commits (the benchmarks' {@code DifferentialBytesReport}), a commit wrote on average 1.25× what a commit
         * that stores only the changed blocks must write at the bound 2, 1.12× at 2.5 and 1.07× at 3, with up to
         * that many times the state's bytes stored ({@code benchmarks/README.md} has the table). A recovery fetches
         * the fragments of every segment it needs whole, so the bound also bounds what it reads: at most that many
         * times a full checkpoint's bytes. On nine S3 endpoints, after ten such commits, recovering took 1.02× the
         * time of a full recovery at the bound 1.25, 1.37× at 1.5 and 1.60× at 2 — and over 30 such commits in
         * memory, a commit at 1.25 wrote 3.07× what a commit of only the changed blocks must write: a job that
         * recovers often and writes little lowers the bound, one whose network is its cost raises it. Whatever the
         * bound, a recovery reads at most 65 segments. Has no effect on a store whose commits are full.
         *
         * @param ratio the most stored block bytes per live block byte, in
         *              {@code [1, }{@link CheckpointStore#MAX_SPACE_AMPLIFICATION}{@code ]}
         * @return this builder
         * @throws IllegalArgumentException if {@code ratio} is not in that range (or is NaN)
         * @since 0.1
         */
        public Builder maxSpaceAmplification(double ratio) {
            if (!(ratio >= 1 && ratio <= MAX_SPACE_AMPLIFICATION)) {
                throw new IllegalArgumentException("maxSpaceAmplification must be in [1, " + MAX_SPACE_AMPLIFICATION
                        + "]: " + ratio);
            }
            this.maxSpaceAmplification = ratio;
            return this;
        }

        /** Lowers the array bound a differential commit checks against (tests cannot allocate 2 GiB). */
        Builder maxArrayBytes(long bytes) {
            if (bytes < 1 || bytes > MAX_ARRAY_BYTES) {
                throw new IllegalArgumentException("maxArrayBytes must be in [1, " + MAX_ARRAY_BYTES + "]: " + bytes);
            }
            this.maxArrayBytes = bytes;
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
