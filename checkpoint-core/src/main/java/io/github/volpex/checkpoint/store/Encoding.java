package io.github.volpex.checkpoint.store;

/**
 * How a checkpoint is cut into fragments (de Camargo, Castor and Kon §4.2).
 *
 * @since 0.1
 */
public enum Encoding {

    /**
     * Ephemeral mode: every fragment is a full copy of the checkpoint ({@code m = 1}); any one rebuilds it. Cheap to
     * write and read, costly in space; for checkpoints that are soon replaced.
     */
    REPLICAS(0),

    /**
     * Perennial mode: Rabin's information dispersal in its systematic form (the first {@code m} fragments are the
     * data, the others Cauchy parity over GF(2^8)); any {@code m} of the {@code n} fragments rebuild the checkpoint,
     * and the fragments together hold {@code n/m} times its size.
     */
    IDA_SYSTEMATIC(1),

    /**
     * Perennial mode: Rabin's original information dispersal, every fragment coded (Vandermonde rows); any {@code m}
     * of the {@code n} fragments rebuild the checkpoint. Decoding always computes, so it is slower than
     * {@link #IDA_SYSTEMATIC}; no single fragment reveals data in the clear.
     */
    IDA_RABIN(2),

    /**
     * Perennial mode with one parity fragment ({@code k = 1}): the first {@code m} fragments are the data and the last
     * is their XOR; any {@code m} of the {@code m + 1} rebuild the checkpoint. The fastest to encode and decode, but
     * survives the loss of one fragment only.
     */
    IDA_XOR(3);

    private final int code;

    Encoding(int code) {
        this.code = code;
    }

    /** The byte that stands for this encoding in the index format. */
    int code() {
        return code;
    }

    /** The encoding of a format byte, or null. */
    static Encoding ofCode(int code) {
        for (Encoding e : values()) {
            if (e.code == code) {
                return e;
            }
        }
        return null;
    }
}
