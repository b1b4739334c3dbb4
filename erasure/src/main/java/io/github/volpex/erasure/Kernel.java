package io.github.volpex.erasure;

/**
 * A fixed GF(2^8) coefficient matrix applied to cells of bytes: {@code out[r] = Σ_j c[r][j] · in[j]}, byte by byte,
 * for whole cells at a time. Every encoder, decoding plan and repair of a codec is one kernel.
 *
 * <p>Implementations are immutable and thread-safe; scratch space comes from a {@link Workspace} the caller owns.
 */
interface Kernel {

    /**
     * The kernel for a matrix: {@link XorKernel} when every coefficient is 0 or 1 (no multiplication at all), else
     * the Vector API kernel when the JVM runs with {@code jdk.incubator.vector} ({@link VectorKernels}), else
     * {@link MatrixKernel}. All three compute the same bytes.
     *
     * @param coefficients {@code outputs × inputs}, every row of the same length; copied
     */
    static Kernel of(byte[][] coefficients) {
        if (XorKernel.accepts(coefficients)) {
            return new XorKernel(coefficients);
        }
        return VectorKernels.available() ? VectorKernels.create(coefficients) : new MatrixKernel(coefficients);
    }

    /** The number of output cells. */
    int outputs();

    /**
     * Computes {@code length} bytes of every output cell.
     *
     * <p>Input {@code j} is {@code inArrays[j]} from {@code inOffsets[j]}; only its first {@code inAvailable[j]} bytes
     * exist (the rest of the cell reads as zero, which pads the last stripe). Output {@code r} goes to
     * {@code outArrays[r]} from {@code outOffsets[r]}, of which only the first {@code outRoom[r]} bytes are written.
     * No output may share bytes with an input.
     */
    void apply(Workspace ws, byte[][] inArrays, int[] inOffsets, int[] inAvailable,
               byte[][] outArrays, int[] outOffsets, int[] outRoom, int length);

    /**
     * {@link #apply}, and also copies the first {@code length} bytes of inputs {@code 0 … copies − 1} (zeros past
     * their available bytes) to {@code copyArrays[j]} from {@code copyOffset}: the data cells of a systematic
     * encoding. A kernel that holds each input in registers anyway stores the copies from there, before it has read
     * every input: no copy may share bytes with an input or an output.
     */
    default void applyAndCopy(Workspace ws, byte[][] inArrays, int[] inOffsets, int[] inAvailable,
                              byte[][] outArrays, int[] outOffsets, int[] outRoom, int length,
                              int copies, byte[][] copyArrays, int copyOffset) {
        copyInputs(inArrays, inOffsets, inAvailable, copies, copyArrays, copyOffset, 0, length);
        apply(ws, inArrays, inOffsets, inAvailable, outArrays, outOffsets, outRoom, length);
    }

    /** The copies of {@link #applyAndCopy} for the positions {@code [from, length)}. */
    static void copyInputs(byte[][] inArrays, int[] inOffsets, int[] inAvailable, int copies,
                           byte[][] copyArrays, int copyOffset, int from, int length) {
        for (int j = 0; j < copies; j++) {
            int available = Math.max(0, Math.min(inAvailable[j], length) - from);
            if (available > 0) {
                System.arraycopy(inArrays[j], inOffsets[j] + from, copyArrays[j], copyOffset + from, available);
            }
            java.util.Arrays.fill(copyArrays[j], copyOffset + from + available, copyOffset + length, (byte) 0);
        }
    }
}
