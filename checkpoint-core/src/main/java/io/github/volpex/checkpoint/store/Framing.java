package io.github.volpex.checkpoint.store;

import java.util.zip.CRC32C;

/**
 * The layout of a stored fragment: the checkpoint is cut into segments of {@code segmentBytes} (the last one
 * shorter), each segment into pieces, and fragment {@code i} is the concatenation, over the segments in order, of
 * piece {@code i} followed by its CRC-32C (4 bytes, big-endian). The CRC lets a streaming reader detect a corrupt
 * piece before using it; the SHA-256 in the index covers the whole fragment.
 */
final class Framing {

    /** The bytes that follow each piece. */
    static final int CRC_BYTES = 4;

    private final Dispersal dispersal;
    private final int segmentBytes;
    private final long checkpointLength;

    Framing(Dispersal dispersal, int segmentBytes, long checkpointLength) {
        this.dispersal = dispersal;
        this.segmentBytes = segmentBytes;
        this.checkpointLength = checkpointLength;
    }

    /** How many segments the checkpoint has (none when it is empty). */
    long segments() {
        return checkpointLength / segmentBytes + (checkpointLength % segmentBytes == 0 ? 0 : 1);
    }

    /** The length of segment {@code s}. */
    int segmentLength(long s) {
        return (int) Math.min(segmentBytes, checkpointLength - s * segmentBytes);
    }

    /** The length of every fragment, pieces and CRCs. */
    long fragmentLength() {
        long full = checkpointLength / segmentBytes;
        int rest = (int) (checkpointLength % segmentBytes);
        long length = full * (dispersal.pieceLength(segmentBytes) + CRC_BYTES);
        if (rest > 0) {
            length += dispersal.pieceLength(rest) + CRC_BYTES;
        }
        return length;
    }

    static int crc(byte[] piece, int length) {
        CRC32C crc = new CRC32C();
        crc.update(piece, 0, length);
        return (int) crc.getValue();
    }

    static void putCrc(int crc, byte[] out) {
        out[0] = (byte) (crc >>> 24);
        out[1] = (byte) (crc >>> 16);
        out[2] = (byte) (crc >>> 8);
        out[3] = (byte) crc;
    }

    static int getCrc(byte[] in, int offset) {
        return ((in[offset] & 0xFF) << 24) | ((in[offset + 1] & 0xFF) << 16) | ((in[offset + 2] & 0xFF) << 8)
                | (in[offset + 3] & 0xFF);
    }
}
