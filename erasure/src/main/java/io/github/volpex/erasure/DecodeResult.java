package io.github.volpex.erasure;

import io.github.volpex.erasure.NotEnoughFragmentsException.Rejection;
import java.util.List;

/**
 * What {@link IdaCodec#decodeBytesWithReport} rebuilt, and from what: the data, the dispersal it belongs to, the
 * fragments it was rebuilt from and the fragments that were set aside, with the reason for each.
 *
 * <p>A fragment is set aside (a {@linkplain #rejections() rejection}) when it does not verify, was encoded with
 * other parameters, belongs to another dispersal than the one decoded (a repository kept an older checkpoint's
 * fragment, say), differs from the decoded dispersal in a stripe's data checksum (a record spliced from other data),
 * or verifies on its own but does not match the data rebuilt (a fragment relabelled with another index). Fragments
 * that were not needed and so were never examined are in neither list, and no position is in both.
 *
 * <p>The report is exact about the fragments it lists as used: each is, byte for byte, the fragment of its index that
 * the rebuilt data encodes to. That is more than a decode needs, and the report checks it: a choice of fragments reads
 * only the cells it needs, so a fragment relabelled with another index whose data-carrying cells happen to hold the
 * right bytes (it differs only in the padding of the last stripe, say) rebuilds the right data. Such a fragment is
 * listed among the rejections, not as used, because a later decode with another choice of fragments would read the
 * cells where it differs.
 *
 * <p>Immutable and thread-safe; {@link #data()} returns a copy.
 *
 * @since 0.1
 */
public final class DecodeResult {

    private final byte[] data;
    private final String dispersalId;
    private final List<Integer> usedPositions;
    private final List<Rejection> rejections;

    /** Takes ownership of {@code data}. */
    DecodeResult(byte[] data, String dispersalId, List<Integer> usedPositions, List<Rejection> rejections) {
        this.data = data;
        this.dispersalId = dispersalId;
        this.usedPositions = List.copyOf(usedPositions);
        this.rejections = List.copyOf(rejections);
    }

    /**
     * Returns a copy of the rebuilt data, which matched its dispersal id.
     *
     * @return the data
     */
    public byte[] data() {
        return data.clone();
    }

    /** The data itself, for the codec's own {@code decodeBytes}. */
    byte[] dataArray() {
        return data;
    }

    /**
     * Returns the length of the rebuilt data.
     *
     * @return the length in bytes
     */
    public int dataLength() {
        return data.length;
    }

    /**
     * Returns the dispersal id of the data rebuilt: the SHA-256 of the data, in lowercase hexadecimal.
     *
     * @return 64 hexadecimal digits
     */
    public String dispersalId() {
        return dispersalId;
    }

    /**
     * Returns the positions, in the collection the caller passed, of the fragments the data was rebuilt from, each of
     * them the fragment of its index that the rebuilt data encodes to, byte for byte. A fragment that the decode read
     * but that turned out not to fit the data as a whole is not listed (it is among the {@linkplain #rejections()
     * rejections}); fitting fragments of other indexes stand in for it, since any {@code m} fitting fragments rebuild
     * the same data.
     *
     * @return an unmodifiable list of positions, ascending: {@code m} or more (more when a stripe needed another
     *         choice of fragments), with {@code m} distinct fragment indexes among them — fewer only when fewer than
     *         {@code m} of the fragments given fit the data, which was then rebuilt with the help of a fragment that
     *         differs from it only where the decode read padding
     */
    public List<Integer> usedPositions() {
        return usedPositions;
    }

    /**
     * Returns the fragments that were set aside, and why.
     *
     * @return an unmodifiable list, by position; empty if every fragment examined was usable
     */
    public List<Rejection> rejections() {
        return rejections;
    }

    /**
     * Returns a summary: the data length, the dispersal id and the counts.
     *
     * @return the summary
     */
    @Override
    public String toString() {
        return "DecodeResult[" + data.length + " bytes of dispersal " + dispersalId.substring(0, 12) + "…, from "
                + usedPositions.size() + " fragments, " + rejections.size() + " set aside]";
    }
}
