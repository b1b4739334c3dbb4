package io.github.volpex.checkpoint.store;

import java.util.Locale;

/**
 * How a {@linkplain CheckpointStore.Builder#differential differential} store cuts a state into blocks: fixed-size
 * blocks ({@link #fixed}), for states updated in place such as arrays, or content-defined chunks ({@link
 * #contentDefined}), for serialized states where an insertion shifts every later byte. Each block is named by its
 * SHA-256; a commit stores only the blocks its job's newest committed checkpoint does not already refer to.
 *
 * <p>Content-defined chunking follows FastCDC (Xia et al., USENIX ATC '16): a gear rolling hash over the last 64
 * bytes, no cut before the minimum size, a harder cut condition before the average size and an easier one after it
 * (normalised chunking, level 1), and a cut at the maximum size. The gear table is a constant of the format, so the
 * same bytes are cut the same way by every writer and every release.
 *
 * <p>Immutable and thread-safe; equal when they cut every input alike.
 *
 * @since 0.1
 */
public final class Chunking {

    /** The default size of fixed blocks and average size of content-defined chunks: 16 KiB. */
    public static final int DEFAULT_BLOCK_BYTES = 1 << 14;
    /** The smallest fixed block size, and the smallest average chunk size: 256 bytes. */
    public static final int MIN_BLOCK_BYTES = 1 << 8;
    /** The largest fixed block size, and the largest chunk: 16 MiB. */
    public static final int MAX_BLOCK_BYTES = 1 << 24;

    private final boolean contentDefined;
    private final int blockBytes;

    private Chunking(boolean contentDefined, int blockBytes) {
        this.contentDefined = contentDefined;
        this.blockBytes = blockBytes;
    }

    /**
     * Fixed-size blocks of {@link #DEFAULT_BLOCK_BYTES}: the default of a differential store.
     *
     * @return the chunking
     */
    public static Chunking fixed() {
        return fixed(DEFAULT_BLOCK_BYTES);
    }

    /**
     * Fixed-size blocks: every block has {@code blockBytes} bytes but the last, which has what remains.
     *
     * @param blockBytes the block size, in {@code [MIN_BLOCK_BYTES, MAX_BLOCK_BYTES]}
     * @return the chunking
     * @throws IllegalArgumentException if {@code blockBytes} is out of range
     */
    public static Chunking fixed(int blockBytes) {
        if (blockBytes < MIN_BLOCK_BYTES || blockBytes > MAX_BLOCK_BYTES) {
            throw new IllegalArgumentException("blockBytes must be in [" + MIN_BLOCK_BYTES + ", " + MAX_BLOCK_BYTES
                    + "]: " + blockBytes);
        }
        return new Chunking(false, blockBytes);
    }

    /**
     * Content-defined chunks of {@code averageBytes} on average, at least a quarter of it and at most four times it
     * (the last chunk may be shorter than the minimum).
     *
     * @param averageBytes the average chunk size: a power of two in {@code [MIN_BLOCK_BYTES, MAX_BLOCK_BYTES / 4]}
     * @return the chunking
     * @throws IllegalArgumentException if {@code averageBytes} is not a power of two or out of range
     */
    public static Chunking contentDefined(int averageBytes) {
        if (averageBytes < MIN_BLOCK_BYTES || averageBytes > MAX_BLOCK_BYTES / 4
                || Integer.bitCount(averageBytes) != 1) {
            throw new IllegalArgumentException("averageBytes must be a power of two in [" + MIN_BLOCK_BYTES + ", "
                    + MAX_BLOCK_BYTES / 4 + "]: " + averageBytes);
        }
        return new Chunking(true, averageBytes);
    }

    /**
     * Returns whether chunk boundaries depend on the content.
     *
     * @return {@code true} for {@link #contentDefined}, {@code false} for {@link #fixed}
     */
    public boolean isContentDefined() {
        return contentDefined;
    }

    /**
     * Returns the size of fixed blocks, or the average size of content-defined chunks.
     *
     * @return the size, in bytes
     */
    public int blockBytes() {
        return blockBytes;
    }

    /**
     * Returns the smallest block this chunking cuts, the last block of a state aside.
     *
     * @return the size, in bytes: the block size, or a quarter of the average
     */
    public int minBytes() {
        return contentDefined ? blockBytes / 4 : blockBytes;
    }

    /**
     * Returns the largest block this chunking cuts.
     *
     * @return the size, in bytes: the block size, or four times the average
     */
    public int maxBytes() {
        return contentDefined ? blockBytes * 4 : blockBytes;
    }

    /** The chunker that cuts this way. */
    Chunker chunker() {
        return contentDefined ? new GearChunker(blockBytes) : new FixedChunker(blockBytes);
    }

    /** The code the block manifest records: 0 fixed, 1 content-defined. */
    int code() {
        return contentDefined ? 1 : 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Chunking other && contentDefined == other.contentDefined
                && blockBytes == other.blockBytes;
    }

    @Override
    public int hashCode() {
        return Boolean.hashCode(contentDefined) * 31 + blockBytes;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, contentDefined ? "Chunking[content-defined, %d bytes on average]"
                : "Chunking[fixed, %d bytes]", blockBytes);
    }
}
