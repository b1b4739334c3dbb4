package io.github.volpex.erasure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The XOR kernel computes exactly what the multiplying kernel computes for the same 0/1 matrix, byte for byte, also
 * where inputs end early (zero padding), outputs have less room than the cell, the cell is not a whole number of
 * {@code long}s or spans several chunks, and every input lies in one shared array (as when encoding).
 */
class KernelTest {

    @Test
    void a_matrix_of_zeros_and_ones_gets_the_xor_kernel_and_any_other_the_multiplying_one() {
        assertTrue(Kernel.of(new byte[][] {{1, 0, 1}, {0, 0, 0}}) instanceof XorKernel);
        assertTrue(Kernel.of(new byte[0][]) instanceof XorKernel);
        assertEquals(VectorKernelTest.multiplyingKernel(),
                Kernel.of(new byte[][] {{1, 0, 1}, {0, 2, 0}}).getClass().getSimpleName());
        assertEquals(VectorKernelTest.multiplyingKernel(), Kernel.of(new byte[][] {{(byte) 0xFF}}).getClass()
                .getSimpleName());
        assertEquals("coefficients must all be 0 or 1", assertThrows(IllegalArgumentException.class,
                () -> new XorKernel(new byte[][] {{1, 3}})).getMessage());
    }

    @Property(tries = 400)
    void xor_and_matrix_kernels_agree_on_every_zero_one_matrix(
            @ForAll @IntRange(min = 1, max = 12) int inputs, @ForAll @IntRange(min = 0, max = 5) int outputs,
            @ForAll @IntRange(min = 0, max = 3 * XorKernel.CHUNK_BYTES + 13) int length, @ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        boolean dense = random.nextBoolean();
        byte[][] matrix = new byte[outputs][inputs];
        for (byte[] row : matrix) {
            for (int j = 0; j < inputs; j++) {
                row[j] = (byte) (dense || random.nextBoolean() ? 1 : 0);
            }
        }
        KernelCase cells = new KernelCase(seed, random, inputs, outputs, length);
        byte[][] inArrays = cells.inArrays;
        int[] inOffsets = cells.inOffsets;
        int[] inAvailable = cells.inAvailable;
        int[] outOffsets = cells.outOffsets;
        int[] outRoom = cells.outRoom;
        byte[][] viaXor = cells.outArrays();
        byte[][] viaMatrix = cells.outArrays();
        Workspace ws = new Workspace(inputs, Math.max(1, outputs), Workspace.blockBytesFor(inputs));
        new XorKernel(matrix).apply(ws, inArrays, inOffsets, inAvailable, viaXor, outOffsets, outRoom, length);
        new MatrixKernel(matrix).apply(ws, inArrays, inOffsets, inAvailable, viaMatrix, outOffsets, outRoom, length);
        for (int r = 0; r < outputs; r++) {
            assertArrayEquals(viaMatrix[r], viaXor[r], "output " + r);
        }
        for (int r = 0; r < outputs && inputs > 0; r++) {
            // An independent check of one written byte: the XOR of the row's inputs, zero past their end.
            int p = outRoom[r] == 0 ? -1 : random.nextInt(outRoom[r]);
            if (p >= 0) {
                int x = 0;
                for (int j = 0; j < inputs; j++) {
                    if (matrix[r][j] == 1 && p < inAvailable[j]) {
                        x ^= inArrays[j][inOffsets[j] + p];
                    }
                }
                assertEquals((byte) x, viaXor[r][outOffsets[r] + p], "output " + r + ", byte " + p);
            }
        }
    }
}
