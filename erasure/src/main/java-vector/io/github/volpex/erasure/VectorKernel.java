package io.github.volpex.erasure;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The multiplying kernel on the Vector API ({@code jdk.incubator.vector}), used in place of {@link MatrixKernel} when
 * the JVM runs with that module ({@code --add-modules jdk.incubator.vector}); see {@link Kernel#of}. It computes the
 * same bytes.
 *
 * <p><b>Method.</b> The split-table multiplication of ISA-L and of Plank, Greenan and Miller ("Screaming fast Galois
 * field arithmetic using Intel SIMD instructions", FAST 2013): {@code c·x = L_c[x & 15] ⊕ H_c[x >>> 4]}, where
 * {@code L_c} and {@code H_c} hold {@code c} times the 16 low and the 16 high nibble values, so one product of a whole
 * vector of bytes is two table look-ups ({@code selectFrom}, a byte permutation each) and an exclusive or.
 *
 * <p><b>Order of work.</b> The positions are taken in blocks of {@value #BLOCK} bytes of every cell, so that what one
 * block reads and writes stays in the core's caches while it is worked on. Within a block the matrix is taken in
 * tiles of up to {@value #TILE} outputs by {@value #TILE} inputs: a tile's 18 tables are loaded into registers once
 * and stay there for the whole block, each input vector is loaded and its nibbles split once per tile, and the outputs
 * are stored once per tile (the first tile of a row of tiles stores, the next ones add to what it stored, reading it
 * back from the L1 cache). The copies of a systematic encoding's data cells are stored from the registers of the first
 * row of tiles. A tile with fewer than three outputs or inputs (at the edge of a matrix whose dimensions are not
 * multiples of three) repeats its last output with the same tables, storing the same bytes twice, and its last input
 * with zero tables: wasted products, but one loop body with no branch around a product (with such branches C2 on
 * JDK 17 compiled a (6, 3) encoding to code 1.7 times as slow). Positions where some input has ended (the zero
 * padding of the last stripe) or some output has less room, and the bytes after the last whole vector, go to the
 * scalar kernel. Holding the tables in registers, with {@code selectFrom} in place of a shuffle made once per input
 * and {@code rearrange}, measured 1.2 to 1.7 times as fast as loading the tables for every product, for a (6, 3)
 * encoding on JDK 17 and 25 (benchmarks/README.md).
 *
 * <p>An output must not share bytes with an input: the outputs of one block are written before the next tile's
 * inputs are read. No caller passes such cells.
 *
 * <p>This class is compiled apart from the rest of the module, against {@code jdk.incubator.vector}, and loaded only
 * when that module is in the boot layer. Immutable and thread-safe.
 */
final class VectorKernel implements Kernel {

    private static final VectorSpecies<Byte> SPECIES = ByteVector.SPECIES_PREFERRED;
    private static final int LANES = SPECIES.length();
    /** Outputs and inputs per tile: 3 × 3 coefficients, whose 18 tables fit the 32 vector registers of AVX-512. */
    private static final int TILE = 3;
    /** Bytes of every cell per block. */
    private static final int BLOCK = 8192;

    private final int inputs;
    private final int outputs;
    private final int inputTiles;
    /**
     * Per tile (row of tiles {@code g}, column {@code h}), per output {@code i} and input {@code j} of the tile:
     * {@code L} then {@code H}, each repeated to fill one vector, at {@link #tableAt}.
     */
    private final byte[] tables;
    private final MatrixKernel scalar;

    VectorKernel(byte[][] coefficients) {
        this.scalar = new MatrixKernel(coefficients);
        this.outputs = coefficients.length;
        this.inputs = outputs == 0 ? 0 : coefficients[0].length;
        this.inputTiles = Fragment.ceilDiv(inputs, TILE);
        int outputTiles = Fragment.ceilDiv(outputs, TILE);
        this.tables = new byte[outputTiles * inputTiles * TILE * TILE * 2 * LANES];
        // A tile with fewer than three outputs repeats its last one (the same tables, so the same bytes stored
        // twice); one with fewer than three inputs repeats its last one with zero tables (adding nothing).
        for (int slot = 0; slot < outputTiles * TILE; slot++) {
            int r = Math.min(slot, outputs - 1);
            for (int j = 0; j < inputs; j++) {
                int c = coefficients[r][j] & 0xFF;
                int at = tableAt(slot / TILE, j / TILE, slot % TILE, j % TILE);
                for (int i = 0; i < LANES; i++) {
                    tables[at + i] = (byte) Gf256.mul(c, i & 15);
                    tables[at + LANES + i] = (byte) Gf256.mul(c, (i & 15) << 4);
                }
            }
        }
    }

    /** Where the tables of output {@code i} and input {@code j} of tile {@code (g, h)} start. */
    private int tableAt(int g, int h, int i, int j) {
        return (((g * inputTiles + h) * TILE + i) * TILE + j) * 2 * LANES;
    }

    /**
     * Whether the Vector API kernel is worth using on this JVM: vectors of at least 32 bytes. With 16-byte vectors it
     * measured no faster than {@link MatrixKernel} (with 64-byte vectors, AVX-512, about twice as fast).
     */
    static boolean supported() {
        return LANES >= 32;
    }

    @Override
    public int outputs() {
        return outputs;
    }

    @Override
    public void apply(Workspace ws, byte[][] inArrays, int[] inOffsets, int[] inAvailable,
                      byte[][] outArrays, int[] outOffsets, int[] outRoom, int length) {
        applyAndCopy(ws, inArrays, inOffsets, inAvailable, outArrays, outOffsets, outRoom, length, 0, null, 0);
    }

    @Override
    public void applyAndCopy(Workspace ws, byte[][] inArrays, int[] inOffsets, int[] inAvailable,
                             byte[][] outArrays, int[] outOffsets, int[] outRoom, int length,
                             int copies, byte[][] copyArrays, int copyOffset) {
        if (outputs == 0) {
            Kernel.copyInputs(inArrays, inOffsets, inAvailable, copies, copyArrays, copyOffset, 0, length);
            return;
        }
        int bulk = length;
        for (int j = 0; j < inputs; j++) {
            bulk = Math.min(bulk, inAvailable[j]);
        }
        for (int r = 0; r < outputs; r++) {
            bulk = Math.min(bulk, outRoom[r]);
        }
        // With no inputs no tile runs: the scalar kernel writes the (zero) outputs.
        bulk = inputs == 0 ? 0 : Math.max(0, bulk) / LANES * LANES;
        for (int from = 0; from < bulk; from += BLOCK) {
            int to = Math.min(bulk, from + BLOCK);
            for (int r = 0; r < outputs; r += TILE) {
                for (int j = 0; j < inputs; j += TILE) {
                    // The first row of tiles also stores the copies.
                    tile(inArrays, inOffsets, outArrays, outOffsets, r, j, from, to, r == 0 ? copies : 0,
                            copyArrays, copyOffset);
                }
            }
        }
        if (bulk < length) {
            Kernel.copyInputs(inArrays, inOffsets, inAvailable, copies, copyArrays, copyOffset, bulk, length);
            scalar.apply(ws, inArrays, inOffsets, inAvailable, outArrays, outOffsets, outRoom, length, bulk);
        }
    }

    /**
     * The tile of outputs {@code r …} and inputs {@code j …} (up to {@value #TILE} of each) at positions
     * {@code [from, to)}, a whole number of vectors: its products are stored to the outputs when {@code j} is 0 and
     * added to them otherwise. An input of the tile below {@code copies} is also stored to its copy.
     */
    private void tile(byte[][] inArrays, int[] inOffsets, byte[][] outArrays, int[] outOffsets, int r, int j,
                      int from, int to, int copies, byte[][] copyArrays, int copyOffset) {
        int outs = Math.min(TILE, outputs - r);
        int ins = Math.min(TILE, inputs - j);
        boolean first = j == 0;
        // A tile with fewer than three outputs or inputs repeats its last one (see the constructor).
        int j1 = j + Math.min(1, ins - 1);
        int j2 = j + ins - 1;
        int r1 = r + Math.min(1, outs - 1);
        int r2 = r + outs - 1;
        byte[] in0 = inArrays[j];
        byte[] in1 = inArrays[j1];
        byte[] in2 = inArrays[j2];
        int inAt0 = inOffsets[j];
        int inAt1 = inOffsets[j1];
        int inAt2 = inOffsets[j2];
        byte[] copy0 = j < copies ? copyArrays[j] : null;
        byte[] copy1 = ins > 1 && j1 < copies ? copyArrays[j1] : null;
        byte[] copy2 = ins > 2 && j2 < copies ? copyArrays[j2] : null;
        byte[] out0 = outArrays[r];
        byte[] out1 = outArrays[r1];
        byte[] out2 = outArrays[r2];
        int outAt0 = outOffsets[r];
        int outAt1 = outOffsets[r1];
        int outAt2 = outOffsets[r2];
        byte[] t = tables;
        int at = tableAt(r / TILE, j / TILE, 0, 0);
        int v = LANES;
        ByteVector l00 = ByteVector.fromArray(SPECIES, t, at);
        ByteVector h00 = ByteVector.fromArray(SPECIES, t, at + v);
        ByteVector l01 = ByteVector.fromArray(SPECIES, t, at + 2 * v);
        ByteVector h01 = ByteVector.fromArray(SPECIES, t, at + 3 * v);
        ByteVector l02 = ByteVector.fromArray(SPECIES, t, at + 4 * v);
        ByteVector h02 = ByteVector.fromArray(SPECIES, t, at + 5 * v);
        ByteVector l10 = ByteVector.fromArray(SPECIES, t, at + 6 * v);
        ByteVector h10 = ByteVector.fromArray(SPECIES, t, at + 7 * v);
        ByteVector l11 = ByteVector.fromArray(SPECIES, t, at + 8 * v);
        ByteVector h11 = ByteVector.fromArray(SPECIES, t, at + 9 * v);
        ByteVector l12 = ByteVector.fromArray(SPECIES, t, at + 10 * v);
        ByteVector h12 = ByteVector.fromArray(SPECIES, t, at + 11 * v);
        ByteVector l20 = ByteVector.fromArray(SPECIES, t, at + 12 * v);
        ByteVector h20 = ByteVector.fromArray(SPECIES, t, at + 13 * v);
        ByteVector l21 = ByteVector.fromArray(SPECIES, t, at + 14 * v);
        ByteVector h21 = ByteVector.fromArray(SPECIES, t, at + 15 * v);
        ByteVector l22 = ByteVector.fromArray(SPECIES, t, at + 16 * v);
        ByteVector h22 = ByteVector.fromArray(SPECIES, t, at + 17 * v);
        for (int p = from; p < to; p += LANES) {
            ByteVector x0 = ByteVector.fromArray(SPECIES, in0, inAt0 + p);
            ByteVector x1 = ByteVector.fromArray(SPECIES, in1, inAt1 + p);
            ByteVector x2 = ByteVector.fromArray(SPECIES, in2, inAt2 + p);
            if (copy0 != null) {
                x0.intoArray(copy0, copyOffset + p);
            }
            if (copy1 != null) {
                x1.intoArray(copy1, copyOffset + p);
            }
            if (copy2 != null) {
                x2.intoArray(copy2, copyOffset + p);
            }
            ByteVector lo0 = x0.and((byte) 0x0F);
            ByteVector hi0 = highNibbles(x0);
            ByteVector lo1 = x1.and((byte) 0x0F);
            ByteVector hi1 = highNibbles(x1);
            ByteVector lo2 = x2.and((byte) 0x0F);
            ByteVector hi2 = highNibbles(x2);
            ByteVector a0 = lo0.selectFrom(l00).lanewise(VectorOperators.XOR, hi0.selectFrom(h00))
                    .lanewise(VectorOperators.XOR, lo1.selectFrom(l01))
                    .lanewise(VectorOperators.XOR, hi1.selectFrom(h01))
                    .lanewise(VectorOperators.XOR, lo2.selectFrom(l02))
                    .lanewise(VectorOperators.XOR, hi2.selectFrom(h02));
            ByteVector a1 = lo0.selectFrom(l10).lanewise(VectorOperators.XOR, hi0.selectFrom(h10))
                    .lanewise(VectorOperators.XOR, lo1.selectFrom(l11))
                    .lanewise(VectorOperators.XOR, hi1.selectFrom(h11))
                    .lanewise(VectorOperators.XOR, lo2.selectFrom(l12))
                    .lanewise(VectorOperators.XOR, hi2.selectFrom(h12));
            ByteVector a2 = lo0.selectFrom(l20).lanewise(VectorOperators.XOR, hi0.selectFrom(h20))
                    .lanewise(VectorOperators.XOR, lo1.selectFrom(l21))
                    .lanewise(VectorOperators.XOR, hi1.selectFrom(h21))
                    .lanewise(VectorOperators.XOR, lo2.selectFrom(l22))
                    .lanewise(VectorOperators.XOR, hi2.selectFrom(h22));
            if (!first) {
                a0 = a0.lanewise(VectorOperators.XOR, ByteVector.fromArray(SPECIES, out0, outAt0 + p));
                a1 = a1.lanewise(VectorOperators.XOR, ByteVector.fromArray(SPECIES, out1, outAt1 + p));
                a2 = a2.lanewise(VectorOperators.XOR, ByteVector.fromArray(SPECIES, out2, outAt2 + p));
            }
            a0.intoArray(out0, outAt0 + p);
            a1.intoArray(out1, outAt1 + p);
            a2.intoArray(out2, outAt2 + p);
        }
    }

    private static ByteVector highNibbles(ByteVector x) {
        return x.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 4).reinterpretAsBytes().and((byte) 0x0F);
    }
}
