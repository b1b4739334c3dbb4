package io.github.volpex.erasure;

/**
 * The parameters of an information dispersal: {@code m} data fragments and {@code k} redundant ones.
 *
 * <p>Each fragment carries {@code ⌈length / m⌉} payload bytes, so the dispersal stores {@code n/m} times the data.
 * {@code n = m + k} is at most 255 because fragments are indexed by distinct nonzero elements of GF(2^8).
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @since 0.1
 */
public final class IdaCodec {

    /** The largest number of fragments, {@code n = m + k}: the nonzero elements of GF(2^8). */
    public static final int MAX_FRAGMENTS = 255;

    private final int dataFragments;
    private final int parityFragments;

    private IdaCodec(int dataFragments, int parityFragments) {
        if (dataFragments < 1 || dataFragments > MAX_FRAGMENTS) {
            throw new IllegalArgumentException("m must be in [1, " + MAX_FRAGMENTS + "]: " + dataFragments);
        }
        if (parityFragments < 0 || parityFragments > MAX_FRAGMENTS - dataFragments) {
            throw new IllegalArgumentException(
                    "k must be in [0, " + (MAX_FRAGMENTS - dataFragments) + "] for m = " + dataFragments + ": "
                            + parityFragments);
        }
        this.dataFragments = dataFragments;
        this.parityFragments = parityFragments;
    }

    /**
     * Returns a systematic codec: the first {@code m} fragments are the data itself.
     *
     * @param m the number of fragments that rebuild the data, {@code 1 ≤ m}
     * @param k the number of redundant fragments, {@code 0 ≤ k}, with {@code m + k ≤ 255}
     * @return the codec
     * @throws IllegalArgumentException if {@code m} or {@code k} is out of range
     */
    public static IdaCodec systematic(int m, int k) {
        return new IdaCodec(m, k);
    }

    /**
     * Returns {@code m}, the number of fragments that rebuild the data.
     *
     * @return {@code m}
     */
    public int m() {
        return dataFragments;
    }

    /**
     * Returns {@code k}, the number of redundant fragments.
     *
     * @return {@code k}
     */
    public int k() {
        return parityFragments;
    }

    /**
     * Returns {@code n = m + k}, the number of fragments an encoding produces.
     *
     * @return {@code n}
     */
    public int n() {
        return dataFragments + parityFragments;
    }

    /**
     * Returns the payload bytes of each fragment for data of {@code dataLength} bytes: {@code ⌈dataLength / m⌉}.
     *
     * @param dataLength the length of the data, in bytes; {@code ≥ 0}
     * @return the payload length of one fragment, in bytes
     * @throws IllegalArgumentException if {@code dataLength} is negative
     */
    public long fragmentPayloadLength(long dataLength) {
        if (dataLength < 0) {
            throw new IllegalArgumentException("dataLength must be >= 0: " + dataLength);
        }
        return dataLength / dataFragments + (dataLength % dataFragments == 0 ? 0 : 1);
    }

    @Override
    public String toString() {
        return "IdaCodec.systematic(" + dataFragments + ", " + parityFragments + ")";
    }
}
