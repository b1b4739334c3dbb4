package io.github.volpex.checkpoint.store;

/**
 * Content-defined chunks, FastCDC's cut rule (Xia et al., USENIX ATC '16, Algorithm 1 with normalised chunking level
 * 1): the gear hash {@code h = (h << 1) + GEAR[b]} depends on the last 64 bytes only, so after an insertion or a
 * deletion the cut points return to those of the original bytes once a cut falls past the change. No cut before
 * {@code average / 4} bytes (cut-point skipping); up to the average a cut needs {@code log2(average) + 1} zero bits,
 * after it {@code log2(average) - 1}, which narrows the size distribution around the average; a cut is forced at
 * {@code 4 × average}. The zero bits are the hash's highest ones, where all 64 bytes of the window have mixed in.
 */
final class GearChunker implements Chunker {

    /**
     * The gear table, a constant of the format: SplitMix64 (Steele, Lea and Flood, OOPSLA 2014) of 1..256. Changing
     * it would cut stored states differently and lose their deduplication, never their data.
     */
    private static final long[] GEAR = new long[256];

    static {
        long state = 0;
        for (int i = 0; i < GEAR.length; i++) {
            state += 0x9E3779B97F4A7C15L;
            long z = state;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            GEAR[i] = z ^ (z >>> 31);
        }
    }

    private final int minBytes;
    private final int averageBytes;
    private final int maxBytes;
    private final long hardMask;
    private final long easyMask;

    GearChunker(int averageBytes) {
        if (averageBytes < 16 || Integer.bitCount(averageBytes) != 1) {
            throw new IllegalArgumentException("averageBytes must be a power of two >= 16: " + averageBytes);
        }
        int bits = Integer.numberOfTrailingZeros(averageBytes);
        this.averageBytes = averageBytes;
        this.minBytes = averageBytes / 4;
        this.maxBytes = averageBytes * 4;
        this.hardMask = -1L << (64 - (bits + 1));
        this.easyMask = -1L << (64 - (bits - 1));
    }

    @Override
    public int end(byte[] data, int from, int to) {
        long length = (long) to - from;
        if (length <= minBytes) {
            return to;
        }
        int normal = (int) Math.min(to, (long) from + averageBytes);
        int last = (int) Math.min(to, (long) from + maxBytes);
        long hash = 0;
        int i = from + minBytes;
        for (; i < normal; i++) {
            hash = (hash << 1) + GEAR[data[i] & 0xFF];
            if ((hash & hardMask) == 0) {
                return i + 1;
            }
        }
        for (; i < last; i++) {
            hash = (hash << 1) + GEAR[data[i] & 0xFF];
            if ((hash & easyMask) == 0) {
                return i + 1;
            }
        }
        return last;
    }
}
