package io.github.volpex.checkpoint.store;

import java.io.IOException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;

/**
 * Where a {@link CheckpointStore} takes the epoch under which it commits a job's checkpoints. Checkpoints are ordered
 * by epoch first ({@link FragmentIndex#epoch()}), so a writer that acquires a greater epoch than its predecessors
 * orders all its checkpoints after theirs: the order cannot go backwards when a restarted writer does not see the
 * newest checkpoints (their repositories are unreachable) and numbers its own from the start.
 *
 * <p>A coordination service provides <em>fenced</em> epochs: {@link #acquire} increments a per-job counter atomically,
 * and {@link #isCurrent} tells a writer whose epoch has been superseded. The store asks {@code isCurrent} just before a
 * commit reaches its commit point and refuses to commit with a stale epoch ({@link StaleWriterException}); and whatever
 * the timing, a stale writer's checkpoints order before the newer writer's, so it can neither commit over them nor
 * make them collectable (a store deletes only checkpoints older than one it has verified).
 *
 * <p>Implementations must be thread-safe.
 *
 * @since 0.1
 */
public interface EpochSource {

    /**
     * Acquires the epoch of a new writer of {@code jobId}: greater than every epoch acquired for the job before, by any
     * writer, and greater than {@code highestSeen}.
     *
     * @param jobId       the job
     * @param highestSeen the greatest epoch the writer saw among the job's stored checkpoints, {@code -1} if none
     * @return the epoch, {@code ≥ 0}
     * @throws IOException if the source cannot be reached; the commit that asked then fails
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
     * not hold the role; a store that lists a greater epoch than the term's refuses to commit
     * ({@link StaleWriterException}).
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
     * <p>The default does nothing: a source that keeps nothing per job, as {@link #clock} keeps nothing.
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
     * Returns the in-process default: the epoch is the time of {@code clock} in microseconds since 1970, or
     * {@code highestSeen + 1} if that is greater, and every epoch counts as current.
     *
     * <p><b>Assumption.</b> A writer that starts after another reads a later time from its clock than the other did
     * when it acquired its epoch: the clocks of the hosts that run a job's successive writers agree to better than the
     * time between one writer's death and the next one's start, and never step back by more. Nothing is fenced: two
     * writers alive at once are told apart only when one of them lists the other's objects (a store then refuses to
     * commit under the smaller epoch). Where these assumptions do not hold, use an epoch source backed by a
     * coordination service.
     *
     * @param clock the clock
     * @return the epoch source
     * @throws NullPointerException if {@code clock} is null
     */
    static EpochSource clock(InstantSource clock) {
        Objects.requireNonNull(clock, "clock");
        return new EpochSource() {
            @Override
            public long acquire(String jobId, long highestSeen) {
                Instant now = clock.instant();
                long micros;
                try {
                    micros = Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1000);
                } catch (ArithmeticException e) {
                    micros = now.getEpochSecond() < 0 ? 0 : Long.MAX_VALUE - 1;
                }
                long floor = highestSeen < Long.MAX_VALUE - 1 ? highestSeen + 1 : Long.MAX_VALUE;
                return Math.max(0, Math.max(micros, floor));
            }

            @Override
            public boolean isCurrent(String jobId, long epoch) {
                return true;
            }

            @Override
            public String toString() {
                return "EpochSource.clock(" + clock + ")";
            }
        };
    }
}
