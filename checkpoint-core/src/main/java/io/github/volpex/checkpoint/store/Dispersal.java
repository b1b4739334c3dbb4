package io.github.volpex.checkpoint.store;

/**
 * How a store cuts one segment of a checkpoint into {@code n} pieces, any {@code m} of which rebuild it. The store
 * frames and hashes the pieces; a dispersal only computes them. Implementations are stateless and thread-safe, and
 * deterministic: encoding the same segment twice gives the same pieces (a regenerated fragment is checked against the
 * digest of the original).
 */
interface Dispersal {

    /** The encoding recorded in the index. */
    Encoding encoding();

    /** The stripe size recorded in the index ({@code 0} when the dispersal has none). */
    int stripeBytes();

    /** How many pieces rebuild a segment. */
    int m();

    /** How many pieces a segment is cut into. */
    int n();

    /** The length of each piece of a segment of {@code segmentLength} bytes. */
    int pieceLength(int segmentLength);

    /** Cuts {@code segment[0, length)} into {@code n} pieces of {@link #pieceLength} bytes each. */
    void encode(byte[] segment, int length, byte[][] pieces);

    /**
     * Rebuilds a segment of {@code segmentLength} bytes into {@code out}. {@code pieces[i]} is piece {@code i}, or
     * null when missing; at least {@code m} are present.
     */
    void decode(byte[][] pieces, int segmentLength, byte[] out);

    /**
     * Computes the missing pieces {@code missing} (each null in {@code pieces}) from at least {@code m} present ones,
     * storing each in {@code pieces}.
     */
    void regenerate(byte[][] pieces, int segmentLength, int[] missing);
}
