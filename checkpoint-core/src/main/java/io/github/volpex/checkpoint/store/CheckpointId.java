package io.github.volpex.checkpoint.store;

/**
 * The identity of one checkpoint within its job, and the order of a job's checkpoints — defined here once for the
 * commit, recovery, repair and collection alike: by the writer's epoch, then the sequence number, then the commit id
 * (unsigned, a tie-break between two commits given the same epoch and number). Greater is newer.
 *
 * @param epoch    the epoch of the writer that committed it
 * @param sequence its sequence number
 * @param commitId its random commit id
 */
record CheckpointId(long epoch, long sequence, long commitId) implements Comparable<CheckpointId> {

    @Override
    public int compareTo(CheckpointId other) {
        int byEpoch = Long.compare(epoch, other.epoch);
        if (byEpoch != 0) {
            return byEpoch;
        }
        int bySequence = Long.compare(sequence, other.sequence);
        return bySequence != 0 ? bySequence : Long.compareUnsigned(commitId, other.commitId);
    }

    boolean isNewerThan(CheckpointId other) {
        return compareTo(other) > 0;
    }

    @Override
    public String toString() {
        return "epoch " + epoch + " #" + sequence + " (commit " + Long.toHexString(commitId) + ")";
    }
}
