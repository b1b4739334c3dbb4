package io.github.volpex.erasure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The optional Vector API kernel: chosen exactly when the JVM runs with {@code jdk.incubator.vector}, and then byte
 * for byte the multiplying kernel's output on every matrix, also where inputs end early (zero padding), outputs have
 * less room than the cell, cells are not a whole number of vectors, inputs share one array, more than four outputs
 * need several passes, cells span several of the kernel's blocks, and the inputs are also copied out (the data cells
 * of a systematic encoding). The build runs this module's whole test suite twice: once as is, where
 * {@link #expected()} is false, and once with the module added, where it is true and every codec test goes through
 * this kernel.
 */
class VectorKernelTest {

    /** Set by the build's second test run, which adds the incubator module. */
    static final String EXPECT_PROPERTY = "volpex.erasure.expectVectorKernel";

    private static boolean expected() {
        return Boolean.getBoolean(EXPECT_PROPERTY);
    }

    /** The simple name of the kernel class that matrices with multiplications get in this test run. */
    static String multiplyingKernel() {
        return VectorKernels.available() ? "VectorKernel" : "MatrixKernel";
    }

    @Test
    void the_vector_kernel_serves_exactly_when_the_incubator_module_is_there() {
        boolean present = ModuleLayer.boot().findModule(VectorKernels.MODULE).isPresent();
        assertEquals(expected(), present, "the test run's module set and " + EXPECT_PROPERTY + " disagree");
        assertEquals(present, VectorKernels.available());
        Kernel kernel = Kernel.of(new byte[][] {{1, 2, 3}, {4, 5, 6}});
        assertEquals(present ? "VectorKernel" : "MatrixKernel", kernel.getClass().getSimpleName());
        assertEquals("XorKernel", Kernel.of(new byte[][] {{1, 0, 1}}).getClass().getSimpleName());
        assertEquals(present ? "VectorKernel" : "MatrixKernel",
                IdaCodec.systematic(6, 3).encoder().getClass().getSimpleName());
    }

    @Property(tries = 300)
    void vector_and_matrix_kernels_agree_on_every_matrix(
            @ForAll @IntRange(min = 1, max = 12) int inputs, @ForAll @IntRange(min = 0, max = 9) int outputs,
            @ForAll @IntRange(min = 0, max = 1200) int length, @ForAll long seed) {
        agree(inputs, outputs, length, seed, false);
    }

    /** Cells of several of the vector kernel's blocks (8 KiB of every cell) and a tail, on fewer matrices. */
    @Property(tries = 40)
    void vector_and_matrix_kernels_agree_over_several_blocks(
            @ForAll @IntRange(min = 1, max = 12) int inputs, @ForAll @IntRange(min = 1, max = 9) int outputs,
            @ForAll @IntRange(min = 8000, max = 25000) int length, @ForAll boolean whole, @ForAll long seed) {
        agree(inputs, outputs, length, seed, whole);
    }

    /**
     * Every shape whose edge tiles repeat an input or an output (counts not multiples of the tile's three), at lengths
     * around one vector and one block, every input and output whole, so that the vector path runs on each.
     */
    @Test
    void vector_and_matrix_kernels_agree_on_every_edge_tile_shape() {
        int[] lengths = {63, 64, 65, 8191, 8192, 8193, 16453};
        long seed = 0x5eed;
        for (int inputs : new int[] {1, 2, 4, 5, 7, 10}) {
            for (int outputs : new int[] {1, 2, 4, 5}) {
                for (int length : lengths) {
                    agree(inputs, outputs, length, seed++, true);
                }
            }
        }
    }

    /** Compares the two kernels on one random case; {@code whole}: every input and output has the whole length. */
    private static void agree(int inputs, int outputs, int length, long seed, boolean whole) {
        if (!VectorKernels.available()) {
            // The build's run with the module added checks this; without it there is no vector kernel to compare.
            return;
        }
        SplittableRandom random = new SplittableRandom(seed);
        byte[][] matrix = new byte[outputs][inputs];
        for (byte[] row : matrix) {
            for (int j = 0; j < inputs; j++) {
                // Some zero and one coefficients among the others, as in real decoding matrices.
                int kind = random.nextInt(4);
                row[j] = (byte) (kind == 0 ? 0 : kind == 1 ? 1 : random.nextInt(256));
            }
        }
        KernelCase cells = new KernelCase(seed, random, inputs, outputs, length);
        if (whole) {
            Arrays.fill(cells.inAvailable, length);
            Arrays.fill(cells.outRoom, length);
        }
        byte[][] viaVector = cells.outArrays();
        byte[][] viaMatrix = cells.outArrays();
        // Copies of the inputs, as a systematic encoding stores its data cells, for some of them.
        int copies = random.nextInt(inputs + 1);
        int copyOffset = random.nextInt(8);
        byte[][] copiesViaVector = new byte[inputs][];
        byte[][] copiesViaMatrix = new byte[inputs][];
        for (int j = 0; j < inputs; j++) {
            copiesViaVector[j] = TestData.bytes(seed ^ j, length + 16);
            copiesViaMatrix[j] = copiesViaVector[j].clone();
        }
        Workspace ws = new Workspace(inputs, Math.max(1, outputs), Workspace.blockBytesFor(inputs));
        VectorKernels.create(matrix).applyAndCopy(ws, cells.inArrays, cells.inOffsets, cells.inAvailable, viaVector,
                cells.outOffsets, cells.outRoom, length, copies, copiesViaVector, copyOffset);
        new MatrixKernel(matrix).applyAndCopy(ws, cells.inArrays, cells.inOffsets, cells.inAvailable, viaMatrix,
                cells.outOffsets, cells.outRoom, length, copies, copiesViaMatrix, copyOffset);
        for (int r = 0; r < outputs; r++) {
            assertArrayEquals(viaMatrix[r], viaVector[r], "output " + r);
        }
        for (int j = 0; j < inputs; j++) {
            assertArrayEquals(copiesViaMatrix[j], copiesViaVector[j], "copy of input " + j);
            if (j < copies && length > 0) {
                int p = random.nextInt(length);
                byte expected = p < cells.inAvailable[j] ? cells.inArrays[j][cells.inOffsets[j] + p] : 0;
                assertEquals(expected, copiesViaVector[j][copyOffset + p], "copy of input " + j + ", byte " + p);
            }
        }
        for (int r = 0; r < outputs; r++) {
            // An independent check of one written byte, from the field's multiplication.
            if (cells.outRoom[r] > 0) {
                int p = random.nextInt(cells.outRoom[r]);
                int x = 0;
                for (int j = 0; j < inputs; j++) {
                    if (p < cells.inAvailable[j]) {
                        x ^= Gf256.mul(matrix[r][j] & 0xFF, cells.inArrays[j][cells.inOffsets[j] + p] & 0xFF);
                    }
                }
                assertEquals((byte) x, viaVector[r][cells.outOffsets[r] + p], "output " + r + ", byte " + p);
            }
        }
    }
}
