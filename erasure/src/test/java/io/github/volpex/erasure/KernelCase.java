package io.github.volpex.erasure;

import java.util.SplittableRandom;

/**
 * Random cells for comparing kernels: inputs in separate arrays or all in one shared array (as when encoding), at
 * random offsets, some ending early (zero padding); outputs at random offsets, some with less room than the cell, in
 * arrays pre-filled with noise so that a byte written out of bounds shows.
 */
final class KernelCase {

    final byte[][] inArrays;
    final int[] inOffsets;
    final int[] inAvailable;
    final int[] outOffsets;
    final int[] outRoom;
    private final long seed;
    private final int length;

    KernelCase(long seed, SplittableRandom random, int inputs, int outputs, int length) {
        this.seed = seed;
        this.length = length;
        boolean shared = random.nextBoolean();
        byte[] pool = TestData.bytes(seed, inputs * (length + 8));
        inArrays = new byte[inputs][];
        inOffsets = new int[inputs];
        inAvailable = new int[inputs];
        for (int j = 0; j < inputs; j++) {
            inArrays[j] = shared ? pool : TestData.bytes(seed + j, length + 8);
            inOffsets[j] = shared ? j * (length + 8) + random.nextInt(8) : random.nextInt(8);
            inAvailable[j] = random.nextInt(4) == 0 ? random.nextInt(length + 1) : length;
        }
        outOffsets = new int[outputs];
        outRoom = new int[outputs];
        for (int r = 0; r < outputs; r++) {
            outOffsets[r] = random.nextInt(8);
            outRoom[r] = random.nextInt(4) == 0 ? random.nextInt(length + 1) : length;
        }
    }

    /** Fresh output arrays, the same noise on every call. */
    byte[][] outArrays() {
        byte[][] out = new byte[outRoom.length][];
        for (int r = 0; r < out.length; r++) {
            out[r] = TestData.bytes(~seed + r, length + 16);
        }
        return out;
    }
}
