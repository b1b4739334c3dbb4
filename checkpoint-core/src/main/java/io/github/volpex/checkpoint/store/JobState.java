package io.github.volpex.checkpoint.store;

/**
 * What a store remembers of one job between calls: the epoch it acquired to commit under, the next sequence number,
 * and the last checkpoint it committed. Guarded by the job's lock. A restarted process starts with none of it and
 * learns what it needs from the repositories.
 */
final class JobState {

    /** The epoch this store commits the job under, or -1 before its first commit. */
    long epoch = -1;
    /** The smallest sequence number the next commit may take. */
    long nextSequence;
    /** The last checkpoint this store committed, or null. */
    FragmentIndex lastCommitted;
}
