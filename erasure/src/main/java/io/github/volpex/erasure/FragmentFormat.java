package io.github.volpex.erasure;

import java.util.zip.CRC32C;

/**
 * Constants and byte-level helpers of the fragment wire format (documented in {@code package-info.java}).
 * All integers are big-endian.
 */
final class FragmentFormat {

    /** "VPXF". */
    static final int MAGIC = 0x5650_5846;
    static final int VERSION = 1;
    static final int HEADER_BYTES = 20;
    static final int RECORD_OVERHEAD_BYTES = 12;
    static final int TRAILER_BYTES = 76;
    static final int HASH_BYTES = 32;
    /** The smallest fragment: the header, one empty record, the trailer. */
    static final int MIN_FRAGMENT_BYTES = HEADER_BYTES + RECORD_OVERHEAD_BYTES + TRAILER_BYTES;
    static final int MAX_STRIPE_BYTES = 1 << 22;
    static final int DEFAULT_STRIPE_BYTES = 1 << 16;

    private FragmentFormat() {
    }

    /** The verified fixed fields of a header. */
    record Header(Layout layout, int m, int n, int index, int stripeBytes) {

        int stripeDataBytes() {
            return m * stripeBytes;
        }

        void write(byte[] dst) {
            putInt(dst, 0, MAGIC);
            dst[4] = (byte) VERSION;
            dst[5] = (byte) layout.code();
            dst[6] = (byte) m;
            dst[7] = (byte) n;
            dst[8] = (byte) index;
            dst[9] = 0;
            dst[10] = 0;
            dst[11] = 0;
            putInt(dst, 12, stripeBytes);
            putInt(dst, 16, crc(dst, 0, 16));
        }

        static Header read(byte[] src, int offset, int available) {
            if (available < HEADER_BYTES) {
                throw new CorruptFragmentException(-1,
                        "truncated: " + available + " bytes, a fragment header has " + HEADER_BYTES);
            }
            int magic = getInt(src, offset);
            if (magic != MAGIC) {
                throw new CorruptFragmentException(-1, String.format(
                        "not a fragment: magic 0x%08X, expected 0x%08X (\"VPXF\")", magic, MAGIC));
            }
            int version = src[offset + 4] & 0xFF;
            if (version != VERSION) {
                throw new CorruptFragmentException(-1,
                        "unsupported format version " + version + ": this library reads version " + VERSION);
            }
            int stored = getInt(src, offset + 16);
            int actual = crc(src, offset, 16);
            if (stored != actual) {
                throw new CorruptFragmentException(-1, String.format(
                        "header checksum mismatch: stored 0x%08X, computed 0x%08X", stored, actual));
            }
            int layoutCode = src[offset + 5] & 0xFF;
            Layout layout = Layout.fromCode(layoutCode);
            int m = src[offset + 6] & 0xFF;
            int n = src[offset + 7] & 0xFF;
            int index = src[offset + 8] & 0xFF;
            int stripeBytes = getInt(src, offset + 12);
            String problem = null;
            if (layout == null) {
                problem = "unknown layout code " + layoutCode;
            } else if (m < 1 || n < m) {
                problem = "m must be in [1, n] and n in [m, 255]: m = " + m + ", n = " + n;
            } else if (layout == Layout.XOR && n != m + 1) {
                problem = "the xor layout has n = m + 1: m = " + m + ", n = " + n;
            } else if (index >= n) {
                problem = "fragment index must be in [0, " + (n - 1) + "]: " + index;
            } else if ((src[offset + 9] | src[offset + 10] | src[offset + 11]) != 0) {
                problem = "reserved header bytes 9..11 must be zero";
            } else if (stripeBytes < 1 || stripeBytes > MAX_STRIPE_BYTES) {
                problem = "stripe size must be in [1, " + MAX_STRIPE_BYTES + "]: " + stripeBytes;
            }
            if (problem != null) {
                throw new CorruptFragmentException(-1, problem);
            }
            return new Header(layout, m, n, index, stripeBytes);
        }
    }

    /**
     * The CRC32C of one record: over the fragment index, the stripe number (its low 32 bits: a stream may hold more
     * stripes), the data byte count, the cell and the stripe's data checksum, so a record moved to another fragment
     * or position fails.
     */
    static int recordCrc(CRC32C crc, int index, int stripe, int dataBytes, byte[] cell, int offset, int length,
                         int dataCrc) {
        crc.reset();
        byte[] word = new byte[12];
        putInt(word, 0, index);
        putInt(word, 4, stripe);
        putInt(word, 8, dataBytes);
        crc.update(word, 0, 12);
        crc.update(cell, offset, length);
        putInt(word, 0, dataCrc);
        crc.update(word, 0, 4);
        return (int) crc.getValue();
    }

    /** The CRC32C of a stripe's original data bytes: equal in every fragment's record of that stripe. */
    static int dataCrc(CRC32C crc, byte[] data, int offset, int length) {
        crc.reset();
        crc.update(data, offset, length);
        return (int) crc.getValue();
    }

    /** The data checksum of every stripe of {@code data[offset … offset+length)}. */
    static int[] dataCrcs(byte[] data, int offset, int length, int stripeDataBytes) {
        int[] crcs = new int[(int) recordCount(length, stripeDataBytes)];
        CRC32C crc = new CRC32C();
        for (int s = 0; s < crcs.length; s++) {
            int from = s * stripeDataBytes;
            crcs[s] = dataCrc(crc, data, offset + from, Math.min(stripeDataBytes, length - from));
        }
        return crcs;
    }

    /** The trailer's checksum: over the header's first 16 bytes and the trailer's first 72. */
    static int trailerCrc(byte[] header, byte[] trailer, int trailerOffset) {
        CRC32C crc = new CRC32C();
        crc.update(header, 0, 16);
        crc.update(trailer, trailerOffset, TRAILER_BYTES - 4);
        return (int) crc.getValue();
    }

    /** Writes a trailer at {@code dst[at…]} for a fragment whose header bytes are {@code header}. */
    static void writeTrailer(byte[] header, byte[] dst, int at, long dataLength, byte[] dispersalId,
                             byte[] contentId) {
        putLong(dst, at, dataLength);
        System.arraycopy(dispersalId, 0, dst, at + 8, HASH_BYTES);
        System.arraycopy(contentId, 0, dst, at + 8 + HASH_BYTES, HASH_BYTES);
        putInt(dst, at + TRAILER_BYTES - 4, trailerCrc(header, dst, at));
    }

    static int crc(byte[] src, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(src, offset, length);
        return (int) crc.getValue();
    }

    static void putInt(byte[] dst, int offset, int v) {
        dst[offset] = (byte) (v >>> 24);
        dst[offset + 1] = (byte) (v >>> 16);
        dst[offset + 2] = (byte) (v >>> 8);
        dst[offset + 3] = (byte) v;
    }

    static int getInt(byte[] src, int offset) {
        return (src[offset] & 0xFF) << 24 | (src[offset + 1] & 0xFF) << 16 | (src[offset + 2] & 0xFF) << 8
                | (src[offset + 3] & 0xFF);
    }

    static void putLong(byte[] dst, int offset, long v) {
        putInt(dst, offset, (int) (v >>> 32));
        putInt(dst, offset + 4, (int) v);
    }

    static long getLong(byte[] src, int offset) {
        return (long) getInt(src, offset) << 32 | (getInt(src, offset + 4) & 0xFFFF_FFFFL);
    }

    /** The number of records for data of {@code dataLength} bytes: full stripes plus one short (maybe empty) one. */
    static long recordCount(long dataLength, int stripeDataBytes) {
        return dataLength / stripeDataBytes + 1;
    }

    static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            sb.append(Character.forDigit((b >>> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return sb.toString();
    }
}
