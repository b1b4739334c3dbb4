package io.github.volpex.checkpoint.store;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What a store remembers of one job between calls: the epoch it acquired to commit under, the next sequence number,
 * the last checkpoint it committed, and what an asynchronous commit left to do after its commit point. Guarded by the
 * job's lock. A restarted process starts with none of it and learns what it needs from the repositories.
 */
final class JobState {

    /** The epoch this store commits the job under, or -1 before its first commit. */
    long epoch = -1;
    /** The smallest sequence number the next commit may take. */
    long nextSequence;
    /** The last checkpoint this store committed, or null. */
    FragmentIndex lastCommitted;
    /**
     * The differential checkpoint whose block manifest this store learnt last — by committing, recovering or
     * repairing it — or null; {@link #manifest} is that manifest. A commit whose base it is, and a repair of it,
     * take the manifest from here instead of reading the checkpoint's segment back (only while it is the job's
     * newest committed checkpoint: they compare checkpoint ids, and a checkpoint's payload never changes).
     */
    FragmentIndex manifestOf;
    /** The block manifest of {@link #manifestOf}, or null. */
    Manifest manifest;
    /**
     * The indices of the segments the last differential commit's base referred to, by checkpoint — or that a repair
     * of this store revised since: what lets the next commit check that they are whole without reading them again.
     */
    final Map<CheckpointId, FragmentIndex> segmentIndices = new HashMap<>();
    /**
     * For each of {@link #segmentIndices}, the listing of its checkpoint's fragments (repository → fragment indices)
     * under which its index was last read from its copies, if it was; absent when the index came from elsewhere (a
     * commit or a repair).
     */
    final Map<CheckpointId, Map<String, Set<Integer>>> segmentListings = new HashMap<>();
    /**
     * What the last asynchronous commit left to do once durable (markers on the other repositories, deletion of what
     * is older), or null: the next operation on the job runs it first.
     */
    Runnable pendingFinish;

    /**
     * Remembers the block manifest of the differential checkpoint {@code index}, learnt by a commit, a recovery or a
     * repair.
     */
    void learnt(FragmentIndex index, Manifest blockManifest) {
        manifestOf = index;
        manifest = blockManifest;
    }

    /**
     * The block manifest of the checkpoint {@code id}, if this store learnt it last (any revision of its index),
     * else null.
     */
    Manifest manifestOf(CheckpointId id) {
        return manifestOf != null && manifestOf.checkpointId().equals(id) ? manifest : null;
    }

    /**
     * Remembers {@code index} as the newest revision of a segment's index known here, read from its copies under
     * {@code listing} (repository → fragment indices listed), or learnt otherwise when {@code listing} is null.
     */
    void knownSegment(FragmentIndex index, Map<String, Set<Integer>> listing) {
        segmentIndices.put(index.checkpointId(), index);
        if (listing == null) {
            segmentListings.remove(index.checkpointId());
        } else {
            segmentListings.put(index.checkpointId(), listing);
        }
    }

    /** Runs what the last commit left to do, if anything. */
    void finishPending() {
        Runnable finish = pendingFinish;
        pendingFinish = null;
        if (finish != null) {
            finish.run();
        }
    }
}
