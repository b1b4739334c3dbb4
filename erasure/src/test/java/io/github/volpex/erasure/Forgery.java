package io.github.volpex.erasure;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Stored fragments altered the way a careless repository or a deliberate forger could, with every checksum the
 * alteration breaks recomputed, so that each one still verifies on its own.
 */
final class Forgery {

    private Forgery() {
    }

    /** The byte offset of each record of a stored fragment, and where the trailer starts (the last entry). */
    static int[] recordOffsets(byte[] stored) {
        int m = stored[6] & 0xFF;
        int stripeData = m * FragmentFormat.getInt(stored, 12);
        int trailer = stored.length - FragmentFormat.TRAILER_BYTES;
        int[] offsets = new int[0];
        int at = FragmentFormat.HEADER_BYTES;
        while (at < trailer) {
            offsets = Arrays.copyOf(offsets, offsets.length + 1);
            offsets[offsets.length - 1] = at;
            int d = FragmentFormat.getInt(stored, at);
            at += FragmentFormat.RECORD_OVERHEAD_BYTES + Fragment.ceilDiv(d, m);
            if (d < stripeData) {
                break;
            }
        }
        offsets = Arrays.copyOf(offsets, offsets.length + 1);
        offsets[offsets.length - 1] = trailer;
        return offsets;
    }

    /** The fragment with another index in its header, header, record and trailer checksums recomputed. */
    static byte[] relabel(byte[] stored, int index) {
        byte[] b = stored.clone();
        b[8] = (byte) index;
        FragmentFormat.putInt(b, 16, FragmentFormat.crc(b, 0, 16));
        int m = b[6] & 0xFF;
        int[] offsets = recordOffsets(b);
        CRC32C crc = new CRC32C();
        for (int s = 0; s < offsets.length - 1; s++) {
            int at = offsets[s];
            int d = FragmentFormat.getInt(b, at);
            int cell = Fragment.ceilDiv(d, m);
            int dataCrc = FragmentFormat.getInt(b, at + 4 + cell);
            FragmentFormat.putInt(b, at + 8 + cell, FragmentFormat.recordCrc(crc, index, s, d, b, at + 4, cell,
                    dataCrc));
        }
        resealTrailer(b);
        return b;
    }

    /** The fragment with another stripe size in its header and the header checksum recomputed. */
    static byte[] withStripeSize(byte[] stored, int stripeBytes) {
        byte[] b = stored.clone();
        FragmentFormat.putInt(b, 12, stripeBytes);
        FragmentFormat.putInt(b, 16, FragmentFormat.crc(b, 0, 16));
        resealTrailer(b);
        return b;
    }

    /**
     * {@code into} with its record {@code stripe} replaced by {@code from}'s (a fragment of the same index, stripe
     * size and length, of other data), the content id and trailer checksum recomputed.
     */
    static byte[] spliceRecord(byte[] into, byte[] from, int stripe) {
        byte[] b = into.clone();
        int[] offsets = recordOffsets(b);
        int[] source = recordOffsets(from);
        int length = offsets[stripe + 1] - offsets[stripe];
        if (source[stripe + 1] - source[stripe] != length) {
            throw new IllegalArgumentException("records of different lengths");
        }
        System.arraycopy(from, source[stripe], b, offsets[stripe], length);
        // The content id is the SHA-256 of the concatenated cells.
        int m = b[6] & 0xFF;
        MessageDigest sha = Hashing.sha256();
        for (int s = 0; s < offsets.length - 1; s++) {
            int d = FragmentFormat.getInt(b, offsets[s]);
            sha.update(b, offsets[s] + 4, Fragment.ceilDiv(d, m));
        }
        int trailer = b.length - FragmentFormat.TRAILER_BYTES;
        System.arraycopy(sha.digest(), 0, b, trailer + 8 + FragmentFormat.HASH_BYTES, FragmentFormat.HASH_BYTES);
        resealTrailer(b);
        return b;
    }

    private static void resealTrailer(byte[] b) {
        int trailer = b.length - FragmentFormat.TRAILER_BYTES;
        FragmentFormat.putInt(b, b.length - 4, FragmentFormat.trailerCrc(b, b, trailer));
    }
}
