package io.github.volpex.erasure;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The multiplying kernel on the Vector API ({@code jdk.incubator.vector}), used in place of {@link MatrixKernel} when
 * the JVM runs with that module ({@code --add-modules jdk.incubator.vector}); see {@link Kernel#of}. It computes the
 * same bytes.
 *
 * <p><b>Method.</b> The split-table multiplication of ISA-L and of Plank, Greenan and Miller ("Screaming fast Galois
 * field arithmetic using Intel SIMD instructions", FAST 2013): {@code c·x = L_c[x & 15] ⊕ H_c[x >>> 4]}, where
 * {@code L_c} and {@code H_c} hold {@code c} times the 16 low and the 16 high nibble values, so one product of a whole
 * vector of bytes is two table look-ups (a byte shuffle each) and an exclusive or. Each vector of every input is
 * loaded once and its nibbles split once (into two shuffles, shared by every output); up to four outputs accumulate
 * in registers and are stored once, and the copies of a systematic encoding's data cells are stored from the same
 * registers. Positions where some input has ended (the zero padding of the last stripe) or some output has less
 * room, and the bytes after the last whole vector, go to the scalar kernel.
 *
 * <p>This class is compiled apart from the rest of the module, against {@code jdk.incubator.vector}, and loaded only
 * when that module is in the boot layer. Immutable and thread-safe.
 */
final class VectorKernel implements Kernel {

    private static final VectorSpecies<Byte> SPECIES = ByteVector.SPECIES_PREFERRED;
    private static final int LANES = SPECIES.length();

    private final int inputs;
    private final int outputs;
    /** Per output {@code r} and input {@code j}: {@code L} then {@code H}, each repeated to fill one vector. */
    private final byte[] tables;
    private final MatrixKernel scalar;

    VectorKernel(byte[][] coefficients) {
        this.scalar = new MatrixKernel(coefficients);
        this.outputs = coefficients.length;
        this.inputs = outputs == 0 ? 0 : coefficients[0].length;
        this.tables = new byte[outputs * inputs * 2 * LANES];
        for (int r = 0; r < outputs; r++) {
            for (int j = 0; j < inputs; j++) {
                int c = coefficients[r][j] & 0xFF;
                int at = (r * inputs + j) * 2 * LANES;
                for (int i = 0; i < LANES; i++) {
                    tables[at + i] = (byte) Gf256.mul(c, i & 15);
                    tables[at + LANES + i] = (byte) Gf256.mul(c, (i & 15) << 4);
                }
            }
        }
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
        bulk = Math.max(0, bulk) / LANES * LANES;
        for (int r = 0; r < outputs; r += 4) {
            // The first pass over the inputs also stores the copies.
            group(inArrays, inOffsets, outArrays, outOffsets, r, Math.min(4, outputs - r), bulk,
                    r == 0 ? copies : 0, copyArrays, copyOffset);
        }
        if (bulk < length) {
            Kernel.copyInputs(inArrays, inOffsets, inAvailable, copies, copyArrays, copyOffset, bulk, length);
            scalar.apply(ws, inArrays, inOffsets, inAvailable, outArrays, outOffsets, outRoom, length, bulk);
        }
    }

    /** Outputs {@code first … first + count − 1} ({@code count ≤ 4}) at positions {@code [0, bulk)}. */
    private void group(byte[][] inArrays, int[] inOffsets, byte[][] outArrays, int[] outOffsets, int first, int count,
                       int bulk, int copies, byte[][] copyArrays, int copyOffset) {
        byte[] t = tables;
        int stride = inputs * 2 * LANES;
        int base = first * stride;
        for (int p = 0; p < bulk; p += LANES) {
            ByteVector a0 = ByteVector.zero(SPECIES);
            ByteVector a1 = a0;
            ByteVector a2 = a0;
            ByteVector a3 = a0;
            for (int j = 0; j < inputs; j++) {
                ByteVector x = ByteVector.fromArray(SPECIES, inArrays[j], inOffsets[j] + p);
                if (j < copies) {
                    x.intoArray(copyArrays[j], copyOffset + p);
                }
                VectorShuffle<Byte> low = lowNibbles(x);
                VectorShuffle<Byte> high = highNibbles(x);
                int at = base + j * 2 * LANES;
                a0 = a0.lanewise(VectorOperators.XOR, product(t, at, low, high));
                if (count > 1) {
                    a1 = a1.lanewise(VectorOperators.XOR, product(t, at + stride, low, high));
                    if (count > 2) {
                        a2 = a2.lanewise(VectorOperators.XOR, product(t, at + 2 * stride, low, high));
                        if (count > 3) {
                            a3 = a3.lanewise(VectorOperators.XOR, product(t, at + 3 * stride, low, high));
                        }
                    }
                }
            }
            a0.intoArray(outArrays[first], outOffsets[first] + p);
            if (count > 1) {
                a1.intoArray(outArrays[first + 1], outOffsets[first + 1] + p);
                if (count > 2) {
                    a2.intoArray(outArrays[first + 2], outOffsets[first + 2] + p);
                    if (count > 3) {
                        a3.intoArray(outArrays[first + 3], outOffsets[first + 3] + p);
                    }
                }
            }
        }
    }

    private static VectorShuffle<Byte> lowNibbles(ByteVector x) {
        return x.and((byte) 0x0F).toShuffle();
    }

    private static VectorShuffle<Byte> highNibbles(ByteVector x) {
        return x.reinterpretAsLongs().lanewise(VectorOperators.LSHR, 4).reinterpretAsBytes().and((byte) 0x0F)
                .toShuffle();
    }

    /** {@code c·x} for the coefficient whose tables start at {@code t[at]}, from the nibbles of {@code x}. */
    private static ByteVector product(byte[] t, int at, VectorShuffle<Byte> low, VectorShuffle<Byte> high) {
        ByteVector lowTable = ByteVector.fromArray(SPECIES, t, at);
        ByteVector highTable = ByteVector.fromArray(SPECIES, t, at + LANES);
        return lowTable.rearrange(low).lanewise(VectorOperators.XOR, highTable.rearrange(high));
    }
}
