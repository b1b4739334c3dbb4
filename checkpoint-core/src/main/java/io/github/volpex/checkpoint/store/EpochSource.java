package io.github.volpex.checkpoint.store;

import java.io.IOException;
import java.time.InstantSource;
import java.util.Objects;

/**
 * Where a {@link CheckpointStore} takes the epoch under which it commits a job's checkpoints. Checkpoints are ordered
 * by epoch first ({@link FragmentIndex#epoch()}), so a writer that acquires a greater epoch than its predecessors
 * orders all its checkpoints after theirs: the order cannot go backwards when a restarted writer numbers its own from
 * the start.
 *
 * <p>Two kinds of source keep that order:
 * <ul>
 *   <li><b>Ordered by what the writer lists</b> ({@link #listing()}, the default, and {@link #clock}): the epoch is
 *       above the greatest one the writer's listing of the job shows, which orders it after every earlier writer's
 *       checkpoint only if the listing saw every repository that may hold one. Such a source says so
 *       ({@link #requiresCompleteListing()}), and the store acquires an epoch from it only after a listing that
 *       every one of its repositories answered; otherwise the commit fails with an {@link EpochUnavailableException}
 *       naming the repositories it could not list, and nothing is written. Nothing is fenced: two writers alive at
 *       once are told apart only when one of them lists the other's objects (a store then refuses to commit under
 *       the smaller epoch).</li>
 *   <li><b>Fenced</b>, by a coordination service: {@link #acquire} increments a per-job counter atomically, and
 *       {@link #isCurrent} tells a writer whose epoch has been superseded. The store asks {@code isCurrent} just
 *       before a commit reaches its commit point and refuses to commit with a stale epoch
 *       ({@link StaleWriterException}); and whatever the timing, a stale writer's checkpoints order before the newer
 *       writer's, so it can neither commit over them nor make them collectable (a store deletes only checkpoints
 *       older than one it has verified). Such a source needs no complete listing, and no clock.</li>
 * </ul>
 *
 * <p><b>Why not a majority.</b> Another way to order writers without a clock is the quorum argument of Paxos and of
 * ABD registers: take one more than the greatest epoch listed on a majority of the repositories, and return from a
 * commit only once its markers are on a majority, so that any two majorities share a repository. It tolerates a
 * minority of unreachable repositories, but only while the shared repository keeps what it stored; volatile storage
 * hosts lose their disks, and the loss of the markers on a single host of a bare majority would then order a
 * returned commit below an earlier one. Listing every repository needs no such assumption (a repository that answers
 * lists what it stores), and costs availability only at a writer's first commit of a job.
 *
 * <p>Implementations must be thread-safe.
 *
 * @since 0.1
 */
public interface EpochSource {

    /**
     * Acquires the epoch of a new writer of {@code jobId}: greater than {@code highestSeen} and, unless this source
     * {@linkplain #requiresCompleteListing() requires a complete listing}, greater than every epoch acquired for the
     * job before, by any writer.
     *
     * @param jobId       the job
     * @param highestSeen the greatest epoch the writer saw among the job's stored objects, {@code -1} if none
     * @return the epoch, {@code ≥ 0}
     * @throws IOException if the source cannot be reached, or has no epoch left above {@code highestSeen}; the commit
     *                     that asked then fails with an {@link EpochUnavailableException}
     */
    long acquire(String jobId, long highestSeen) throws IOException;

    /**
     * Tells whether {@code epoch} is still the newest epoch acquired for {@code jobId}.
     *
     * @param jobId the job
     * @param epoch an epoch this source returned from {@link #acquire}
     * @return {@code false} once a later writer acquired a greater epoch
     * @throws IOException if the source cannot be reached; the commit that asked then fails
     */
    boolean isCurrent(String jobId, long epoch) throws IOException;

    /**
     * Tells whether this source hands each writer one epoch per <em>term</em> — from the writer's election to the
     * moment it loses the role — as a writer election does, instead of a new epoch per {@link #acquire}. A store then
     * calls {@link #acquire} before every commit and commits under the epoch it returns: the same throughout a term,
     * and a new, greater one when its host is elected again after another writer held the role, so that one store
     * serves its host across terms. For such a source, {@link #acquire} returns the epoch of the current term, which
     * may equal {@code highestSeen} (the term's own checkpoints), and throws {@link IOException} when this host does
     * not hold the role (the commit then fails with an {@link EpochUnavailableException}, nothing written); a store
     * that lists a greater epoch than the term's refuses to commit ({@link StaleWriterException}). Such a source needs
     * no complete listing.
     *
     * <p>The default, {@code false}, is for sources whose every {@link #acquire} takes a new epoch: a store acquires
     * once per job, at its first commit, and keeps the epoch.
     *
     * @return whether epochs are held per term
     * @since 0.1
     */
    default boolean epochPerTerm() {
        return false;
    }

    /**
     * Deletes what this source keeps of {@code jobId} (a coordination service's counter of the job, and whatever it
     * created for it that is left empty), as {@link CheckpointStore#deleteJob} does before it deletes the job's
     * checkpoints. Once it returns, no writer that acquired an epoch of the job before can commit again:
     * {@link #isCurrent} answers {@code false} for every such epoch. A source that knows of live writers or candidates
     * of the job (an election's members whose sessions live) refuses unless {@code force}. Deleting a job that has
     * nothing here does nothing.
     *
     * <p>The default does nothing: a source that keeps nothing per job, as {@link #listing()} and {@link #clock} do.
     *
     * @param jobId the job
     * @param force whether to delete even while writers or candidates of the job are alive (they then stop: their
     *              commits are refused as stale)
     * @throws JobRunningException if writers or candidates of the job are alive and {@code force} is false; nothing
     *                             is deleted
     * @throws IOException         if the source cannot be reached; what it keeps of the job may remain
     * @since 0.1
     */
    default void deleteJob(String jobId, boolean force) throws IOException {
        // Nothing is kept per job.
    }

    /**
     * Tells whether this source orders a writer's epoch only above the {@code highestSeen} it is given, which orders
     * the writer after every earlier one only if the listing behind {@code highestSeen} saw every repository. A store
     * then calls {@link #acquire} only after a listing of the job that every one of its repositories answered, and
     * otherwise fails the commit with an {@link EpochUnavailableException}.
     *
     * <p>The default, {@code false}, is for sources that order epochs by themselves, as {@link #acquire} asks: a
     * coordination service's counter.
     *
     * @return {@code true} for {@link #listing()} and {@link #clock}
     */
    default boolean requiresCompleteListing() {
        return false;
    }

    /**
     * Returns the default: a writer's epoch is one more than the greatest epoch of any object of the job that its
     * listing shows, and every epoch counts as current. It {@linkplain #requiresCompleteListing() requires a
     * complete listing}: a writer acquires its epoch, at its first commit of a job, only when every repository of its
     * store answers, and never reads a clock.
     *
     * <p><b>Why it orders writers.</b> A commit that returned left objects carrying its epoch on the repositories
     * (its fragments, index copies and markers). A later writer that lists every repository sees every object that
     * still exists, so its epoch is greater than that of every checkpoint that can still be recovered, whatever the
     * clocks of the hosts say. This needs: one writer of a job at a time; every writer of a job given every
     * repository that may hold the job's checkpoints; and repositories that list what they store and never bring
     * back an object they lost or deleted.
     *
     * @return the epoch source
     */
    static EpochSource listing() {
        return Listed.NO_CLOCK;
    }

    /**
     * Returns {@link #listing()} with epochs that read as times: the epoch is the time of {@code clock} in
     * microseconds since 1970, or one more than the greatest epoch the writer lists if that is greater. The order of
     * checkpoints never depends on the clock: like {@link #listing()}, this source
     * {@linkplain #requiresCompleteListing() requires a complete listing}, so a clock that is wrong or steps back
     * cannot order a commit below an earlier one; it only makes an epoch tell roughly when its writer started.
     *
     * @param clock the clock
     * @return the epoch source
     * @throws NullPointerException if {@code clock} is null
     */
    static EpochSource clock(InstantSource clock) {
        return new Listed(Objects.requireNonNull(clock, "clock"));
    }
}
