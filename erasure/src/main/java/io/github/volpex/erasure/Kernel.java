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
     * {@link MatrixKernel}.
     *
     * @param coefficients {@code outputs × inputs}, every row of the same length; copied
     */
    static Kernel of(byte[][] coefficients) {
        return XorKernel.accepts(coefficients) ? new XorKernel(coefficients) : new MatrixKernel(coefficients);
    }

    /** The number of output cells. */
    int outputs();

    /**
     * Computes {@code length} bytes of every output cell.
     *
     * <p>Input {@code j} is {@code inArrays[j]} from {@code inOffsets[j]}; only its first {@code inAvailable[j]} bytes
     * exist (the rest of the cell reads as zero, which pads the last stripe). Output {@code r} goes to
     * {@code outArrays[r]} from {@code outOffsets[r]}, of which only the first {@code outRoom[r]} bytes are written.
     */
    void apply(Workspace ws, byte[][] inArrays, int[] inOffsets, int[] inAvailable,
               byte[][] outArrays, int[] outOffsets, int[] outRoom, int length);
}
