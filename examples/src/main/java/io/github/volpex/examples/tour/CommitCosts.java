package io.github.volpex.examples.tour;

/**
 * What a run's checkpoints cost the job, committed asynchronously (and differentially in the tour in one JVM),
 * beside what full synchronous commits of the same checkpoints would have cost. The job's own figures are measured;
 * each full-commit figure says how it was obtained.
 *
 * @param kind             how the checkpoints were committed, in a few words ("asynchronous, differential")
 * @param taken            checkpoints taken: commits accepted, whatever became of them
 * @param durable          commits whose stage completed: the checkpoint is durable
 * @param superseded       commits a newer one of the same process replaced before they started (never written)
 * @param failed           commits that failed (too few storage hosts took them, or their writer was stale)
 * @param abandoned        commits abandoned when the store closed
 * @param blockingSeconds  measured: the real seconds the commit calls held the job's threads, summed
 * @param bytesWritten     measured: the bytes the durable commits wrote until durable (fragments, index copies)
 * @param fullSeconds      the real seconds full synchronous commits would have held the job, summed
 * @param fullSecondsBasis how {@code fullSeconds} was obtained, in a few words
 * @param fullBytes        the bytes full commits write
 * @param fullBytesBasis   how {@code fullBytes} was obtained, in a few words
 */
public record CommitCosts(String kind, int taken, int durable, int superseded, int failed, int abandoned,
                          double blockingSeconds, long bytesWritten, double fullSeconds, String fullSecondsBasis,
                          long fullBytes, String fullBytesBasis) {

    /** No checkpoint. */
    public static final CommitCosts NONE = new CommitCosts("none", 0, 0, 0, 0, 0, 0, 0, 0, "none taken", 0,
            "none taken");

    /**
     * Returns the commits taken whose outcome nobody learnt: their writer died first.
     *
     * @return {@code taken} minus the four outcomes
     */
    public int undecided() {
        return taken - durable - superseded - failed - abandoned;
    }

    /**
     * Returns the bytes a full commit of a state writes, derived: {@code n} fragments of {@code state / m} bytes and
     * {@code n} index copies; the fragments' framing (a CRC-32C per piece) left out.
     *
     * @param stateBytes the state's length
     * @param m          fragments that rebuild it
     * @param n          fragments stored
     * @param indexBytes the length of one copy of the index
     * @return the derived bytes
     */
    public static long fullCommitBytes(long stateBytes, int m, int n, int indexBytes) {
        return n * ((stateBytes + m - 1) / m) + (long) n * indexBytes;
    }
}
