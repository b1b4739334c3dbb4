package io.github.volpex.erasure;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Multiplies a fixed GF(2^8) coefficient matrix by cells of bytes: {@code out[r] = Σ_j c[r][j] · in[j]}, byte by
 * byte, for whole cells at a time.
 *
 * <p><b>How it is fast without vector intrinsics.</b> Multiplication by a constant is linear over GF(2), so with the
 * bits {@code c_b} of a coefficient, {@code c · x = Σ_b c_b · (2^b · x)}, and an output row is evaluated by Horner's
 * rule over bit positions: {@code acc = 2·acc ⊕ (⊕ of the inputs whose coefficient has bit b)} for b = 7 … 0. Doubling
 * eight bytes packed in a {@code long} is five SWAR operations ({@code ((x & 0x7F..) << 1) ⊕ 0x1D · (x >>> 7 &
 * 0x01..)},
 * the product formed with a shift and a subtraction), and every pass is a plain loop over {@code long[]} blocks that
 * C2 turns into SIMD instructions by itself. Each block of every input cell is read from memory once (into an
 * L1-sized {@code long[]}), and each output block is written once. The per-row instruction sequence (which inputs
 * are XORed at which bit level) is compiled once, when the kernel is built. A row whose coefficients are all 0 or 1
 * is pure XOR (a matrix of 0s and 1s only goes to {@link XorKernel} instead, which needs no blocks). Bytes past the
 * last whole {@code long} of a cell go through the 64 KiB product table.
 *
 * <p>Immutable and thread-safe; the scratch blocks come from a {@link Workspace} the caller owns.
 */
final class MatrixKernel implements Kernel {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;
    private static final long ONES = 0x0101010101010101L;
    private static final long POLY = 0x1D1D1D1D1D1D1D1DL;

    private final int inputs;
    private final int outputs;
    /** {@code coefficients[r][j]}, for the scalar tail. */
    private final byte[][] coefficients;
    /**
     * Per output row: {@code [levels, (count, index…) × levels]}, levels from the highest used bit down to bit 0; the
     * first level initialises the accumulator, every later one doubles it first. {@code levels == 0}: the row is zero.
     */
    private final int[][] programs;

    MatrixKernel(byte[][] coefficients) {
        this.outputs = coefficients.length;
        this.inputs = outputs == 0 ? 0 : coefficients[0].length;
        this.coefficients = new byte[outputs][];
        this.programs = new int[outputs][];
        for (int r = 0; r < outputs; r++) {
            this.coefficients[r] = coefficients[r].clone();
            this.programs[r] = compile(this.coefficients[r]);
        }
    }

    private static int[] compile(byte[] row) {
        int top = -1;
        for (byte c : row) {
            top = Math.max(top, 31 - Integer.numberOfLeadingZeros(c & 0xFF));
        }
        int size = 1;
        for (int b = top; b >= 0; b--) {
            size++;
            for (byte c : row) {
                size += (c >>> b) & 1;
            }
        }
        int[] program = new int[size];
        int pc = 0;
        program[pc++] = top + 1;
        for (int b = top; b >= 0; b--) {
            int countAt = pc++;
            for (int j = 0; j < row.length; j++) {
                if (((row[j] >>> b) & 1) != 0) {
                    program[pc++] = j;
                    program[countAt]++;
                }
            }
        }
        return program;
    }

    int inputs() {
        return inputs;
    }

    @Override
    public int outputs() {
        return outputs;
    }

    @Override
    public void apply(Workspace ws, byte[][] inArrays, int[] inOffsets, int[] inAvailable,
               byte[][] outArrays, int[] outOffsets, int[] outRoom, int length) {
        apply(ws, inArrays, inOffsets, inAvailable, outArrays, outOffsets, outRoom, length, 0);
    }

    /** {@link #apply} for the positions {@code [from, length)} only. */
    void apply(Workspace ws, byte[][] inArrays, int[] inOffsets, int[] inAvailable,
               byte[][] outArrays, int[] outOffsets, int[] outRoom, int length, int from) {
        if (outputs == 0) {
            return;
        }
        long[][] x = ws.blocks;
        long[] acc = ws.accumulator;
        int blockBytes = acc.length << 3;
        for (int p = from; p < length; p += blockBytes) {
            int bytes = Math.min(blockBytes, length - p);
            int words = bytes >>> 3;
            if (words > 0) {
                for (int j = 0; j < inputs; j++) {
                    load(inArrays[j], inOffsets[j] + p, inAvailable[j] - p, x[j], words);
                }
                for (int r = 0; r < outputs; r++) {
                    run(programs[r], x, acc, words);
                    store(acc, outArrays[r], outOffsets[r] + p, outRoom[r] - p, words);
                }
            }
            for (int q = p + (words << 3); q < p + bytes; q++) {
                tail(inArrays, inOffsets, inAvailable, outArrays, outOffsets, outRoom, q);
            }
        }
    }

    private void tail(byte[][] inArrays, int[] inOffsets, int[] inAvailable,
                      byte[][] outArrays, int[] outOffsets, int[] outRoom, int q) {
        byte[] table = Gf256.productTable();
        for (int r = 0; r < outputs; r++) {
            if (q >= outRoom[r]) {
                continue;
            }
            byte[] c = coefficients[r];
            int v = 0;
            for (int j = 0; j < inputs; j++) {
                if (q < inAvailable[j]) {
                    v ^= table[((c[j] & 0xFF) << 8) | (inArrays[j][inOffsets[j] + q] & 0xFF)];
                }
            }
            outArrays[r][outOffsets[r] + q] = (byte) v;
        }
    }

    private static void load(byte[] src, int offset, int available, long[] dst, int words) {
        if (available >= words << 3) {
            for (int i = 0; i < words; i++) {
                dst[i] = (long) LONGS.get(src, offset + (i << 3));
            }
            return;
        }
        for (int i = 0; i < words; i++) {
            long v = 0;
            for (int b = 0; b < 8; b++) {
                int at = (i << 3) + b;
                if (at < available) {
                    v |= (src[offset + at] & 0xFFL) << (b << 3);
                }
            }
            dst[i] = v;
        }
    }

    private static void store(long[] src, byte[] dst, int offset, int room, int words) {
        if (room >= words << 3) {
            for (int i = 0; i < words; i++) {
                LONGS.set(dst, offset + (i << 3), src[i]);
            }
            return;
        }
        for (int i = 0; i < words; i++) {
            long v = src[i];
            for (int b = 0; b < 8; b++) {
                int at = (i << 3) + b;
                if (at < room) {
                    dst[offset + at] = (byte) (v >>> (b << 3));
                }
            }
        }
    }

    private static void run(int[] program, long[][] x, long[] acc, int words) {
        int levels = program[0];
        if (levels == 0) {
            Arrays.fill(acc, 0, words, 0L);
            return;
        }
        int pc = 1;
        for (int level = 0; level < levels; level++) {
            int count = program[pc++];
            int first = Math.min(count, 4);
            if (level == 0) {
                set(acc, x, program, pc, first, words);
            } else {
                doubleXor(acc, x, program, pc, first, words);
            }
            for (int done = first; done < count; done += 4) {
                xor(acc, x, program, pc + done, Math.min(4, count - done), words);
            }
            pc += count;
        }
    }

    private static void set(long[] acc, long[][] x, int[] program, int pc, int count, int words) {
        switch (count) {
            case 1 -> System.arraycopy(x[program[pc]], 0, acc, 0, words);
            case 2 -> set2(acc, x[program[pc]], x[program[pc + 1]], words);
            case 3 -> set3(acc, x[program[pc]], x[program[pc + 1]], x[program[pc + 2]], words);
            default -> set4(acc, x[program[pc]], x[program[pc + 1]], x[program[pc + 2]], x[program[pc + 3]], words);
        }
    }

    private static void doubleXor(long[] acc, long[][] x, int[] program, int pc, int count, int words) {
        switch (count) {
            case 0 -> double0(acc, words);
            case 1 -> double1(acc, x[program[pc]], words);
            case 2 -> double2(acc, x[program[pc]], x[program[pc + 1]], words);
            case 3 -> double3(acc, x[program[pc]], x[program[pc + 1]], x[program[pc + 2]], words);
            default -> double4(acc, x[program[pc]], x[program[pc + 1]], x[program[pc + 2]], x[program[pc + 3]], words);
        }
    }

    private static void xor(long[] acc, long[][] x, int[] program, int pc, int count, int words) {
        switch (count) {
            case 1 -> xor1(acc, x[program[pc]], words);
            case 2 -> xor2(acc, x[program[pc]], x[program[pc + 1]], words);
            case 3 -> xor3(acc, x[program[pc]], x[program[pc + 1]], x[program[pc + 2]], words);
            default -> xor4(acc, x[program[pc]], x[program[pc + 1]], x[program[pc + 2]], x[program[pc + 3]], words);
        }
    }

    // Each loop below is one pass over L1-resident blocks that C2 vectorizes as it stands.

    private static void set2(long[] acc, long[] a, long[] b, int words) {
        for (int i = 0; i < words; i++) {
            acc[i] = a[i] ^ b[i];
        }
    }

    private static void set3(long[] acc, long[] a, long[] b, long[] c, int words) {
        for (int i = 0; i < words; i++) {
            acc[i] = a[i] ^ b[i] ^ c[i];
        }
    }

    private static void set4(long[] acc, long[] a, long[] b, long[] c, long[] d, int words) {
        for (int i = 0; i < words; i++) {
            acc[i] = a[i] ^ b[i] ^ c[i] ^ d[i];
        }
    }

    private static void xor1(long[] acc, long[] a, int words) {
        for (int i = 0; i < words; i++) {
            acc[i] ^= a[i];
        }
    }

    private static void xor2(long[] acc, long[] a, long[] b, int words) {
        for (int i = 0; i < words; i++) {
            acc[i] ^= a[i] ^ b[i];
        }
    }

    private static void xor3(long[] acc, long[] a, long[] b, long[] c, int words) {
        for (int i = 0; i < words; i++) {
            acc[i] ^= a[i] ^ b[i] ^ c[i];
        }
    }

    private static void xor4(long[] acc, long[] a, long[] b, long[] c, long[] d, int words) {
        for (int i = 0; i < words; i++) {
            acc[i] ^= a[i] ^ b[i] ^ c[i] ^ d[i];
        }
    }

    /** {@code 2·v} in each of the eight bytes of {@code v}. */
    static long times2(long v) {
        long high = (v >>> 7) & ONES;
        return ((v & LOW7) << 1) ^ (((high << 8) - high) & POLY);
    }

    private static void double0(long[] acc, int words) {
        for (int i = 0; i < words; i++) {
            long v = acc[i];
            long high = (v >>> 7) & ONES;
            acc[i] = ((v & LOW7) << 1) ^ (((high << 8) - high) & POLY);
        }
    }

    private static void double1(long[] acc, long[] a, int words) {
        for (int i = 0; i < words; i++) {
            long v = acc[i];
            long high = (v >>> 7) & ONES;
            acc[i] = ((v & LOW7) << 1) ^ (((high << 8) - high) & POLY) ^ a[i];
        }
    }

    private static void double2(long[] acc, long[] a, long[] b, int words) {
        for (int i = 0; i < words; i++) {
            long v = acc[i];
            long high = (v >>> 7) & ONES;
            acc[i] = ((v & LOW7) << 1) ^ (((high << 8) - high) & POLY) ^ a[i] ^ b[i];
        }
    }

    private static void double3(long[] acc, long[] a, long[] b, long[] c, int words) {
        for (int i = 0; i < words; i++) {
            long v = acc[i];
            long high = (v >>> 7) & ONES;
            acc[i] = ((v & LOW7) << 1) ^ (((high << 8) - high) & POLY) ^ a[i] ^ b[i] ^ c[i];
        }
    }

    private static void double4(long[] acc, long[] a, long[] b, long[] c, long[] d, int words) {
        for (int i = 0; i < words; i++) {
            long v = acc[i];
            long high = (v >>> 7) & ONES;
            acc[i] = ((v & LOW7) << 1) ^ (((high << 8) - high) & POLY) ^ a[i] ^ b[i] ^ c[i] ^ d[i];
        }
    }
}
