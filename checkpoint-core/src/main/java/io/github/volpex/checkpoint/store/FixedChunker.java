package io.github.volpex.checkpoint.store;

/** Fixed-size blocks: every block has {@code blockBytes} bytes but the last (FTI's differential checkpoints). */
final class FixedChunker implements Chunker {

    private final int blockBytes;

    FixedChunker(int blockBytes) {
        if (blockBytes < 1) {
            throw new IllegalArgumentException("blockBytes must be >= 1: " + blockBytes);
        }
        this.blockBytes = blockBytes;
    }

    @Override
    public int end(byte[] data, int from, int to) {
        return (int) Math.min(to, (long) from + blockBytes);
    }
}
