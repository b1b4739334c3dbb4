package io.github.volpex.checkpoint.store;

/**
 * What a commit tells its caller as it goes, and how the caller stops it: before each step the committer calls
 * {@link #step}, and just before it writes its first commit marker {@link #commitPoint}; either may throw
 * {@link Stopped} to stop the commit there. A commit is never stopped after {@link #commitPoint} returned, so a
 * stopped commit never counts.
 */
interface CommitProgress {

    /** Never stops a commit. */
    CommitProgress NONE = new CommitProgress() {
        @Override
        public void step(long sequence) {
        }

        @Override
        public void commitPoint() {
        }
    };

    /**
     * Called before each step of the commit of sequence number {@code sequence}.
     *
     * @throws Stopped to stop the commit here
     */
    void step(long sequence);

    /**
     * Called just before the first commit marker is written.
     *
     * @throws Stopped to stop the commit here, before its commit point
     */
    void commitPoint();

    /** Stops a commit before its commit point; what it wrote is left for the next commit to delete. */
    final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super("commit stopped", null, false, false);
        }
    }
}
