package io.github.volpex.erasure;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Scratch space for one thread's coding call: L1-sized {@code long[]} blocks for the kernel and the cell
 * descriptors passed to it. A codec keeps one spare in a {@link Pool}, so a thread that codes repeatedly allocates
 * nothing per call; concurrent callers that find the pool empty get a fresh workspace.
 */
final class Workspace {

    final long[][] blocks;
    final long[] accumulator;
    final byte[][] inArrays;
    final int[] inOffsets;
    final int[] inAvailable;
    final byte[][] outArrays;
    final int[] outOffsets;
    final int[] outRoom;

    Workspace(int maxInputs, int maxOutputs, int blockBytes) {
        int words = blockBytes >>> 3;
        blocks = new long[maxInputs][words];
        accumulator = new long[words];
        inArrays = new byte[maxInputs][];
        inOffsets = new int[maxInputs];
        inAvailable = new int[maxInputs];
        outArrays = new byte[maxOutputs][];
        outOffsets = new int[maxOutputs];
        outRoom = new int[maxOutputs];
    }

    /** Forgets the arrays of the last call so that a pooled workspace does not keep callers' data reachable. */
    void release() {
        java.util.Arrays.fill(inArrays, null);
        java.util.Arrays.fill(outArrays, null);
    }

    /** Block size for {@code m} inputs: all input blocks plus the accumulator fit in about 16 KiB of L1. */
    static int blockBytesFor(int inputs) {
        int block = Integer.highestOneBit(Math.max(1, 16_384 / (inputs + 1)));
        return Math.max(256, Math.min(4096, block));
    }

    /** A one-slot pool: lock-free, bounded, owned by one codec. */
    static final class Pool {
        private final AtomicReference<Workspace> spare = new AtomicReference<>();
        private final int maxInputs;
        private final int maxOutputs;
        private final int blockBytes;

        Pool(int maxInputs, int maxOutputs) {
            this.maxInputs = maxInputs;
            this.maxOutputs = maxOutputs;
            this.blockBytes = blockBytesFor(maxInputs);
        }

        Workspace take() {
            Workspace ws = spare.getAndSet(null);
            return ws != null ? ws : new Workspace(maxInputs, maxOutputs, blockBytes);
        }

        void give(Workspace ws) {
            ws.release();
            spare.set(ws);
        }
    }
}
