package io.github.volpex.erasure;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A coefficient matrix of 0s and 1s applied to cells of bytes: output {@code r} is the XOR of the inputs whose
 * coefficient is 1. No field multiplication and no product table: the XOR layout's parity, every one of its decoding
 * and repair matrices, and any other 0/1 matrix run here.
 *
 * <p>The cells are read and written in place, eight bytes at a time through a {@code long} view of the byte arrays
 * (C2 compiles each access to one unaligned load or store; plain byte loops over several arrays at different offsets
 * are not vectorized and run several times slower). Positions go by chunks small enough for L1, and within a chunk
 * the inputs are folded into the output four at a time, so the output chunk stays in L1 while every input byte is
 * read once. An output with a single input is a copy.
 *
 * <p>Immutable and thread-safe; it needs no scratch space.
 */
final class XorKernel implements Kernel {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Positions per pass over the inputs: the output chunk stays in L1 while each group is folded into it. */
    static final int CHUNK_BYTES = 4096;

    private final int inputs;
    /** Per output row, the inputs with coefficient 1, ascending. */
    private final int[][] sources;

    XorKernel(byte[][] coefficients) {
        if (!accepts(coefficients)) {
            throw new IllegalArgumentException("coefficients must all be 0 or 1");
        }
        this.inputs = coefficients.length == 0 ? 0 : coefficients[0].length;
        this.sources = new int[coefficients.length][];
        for (int r = 0; r < coefficients.length; r++) {
            byte[] row = coefficients[r];
            int count = 0;
            for (byte c : row) {
                count += c;
            }
            int[] src = new int[count];
            for (int j = 0, t = 0; j < row.length; j++) {
                if (row[j] != 0) {
                    src[t++] = j;
                }
            }
            sources[r] = src;
        }
    }

    /** Whether every coefficient is 0 or 1. */
    static boolean accepts(byte[][] coefficients) {
        for (byte[] row : coefficients) {
            for (byte c : row) {
                if ((c & 0xFE) != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    int inputs() {
        return inputs;
    }

    @Override
    public int outputs() {
        return sources.length;
    }

    @Override
    public void apply(Workspace ws, byte[][] inArrays, int[] inOffsets, int[] inAvailable,
                      byte[][] outArrays, int[] outOffsets, int[] outRoom, int length) {
        for (int p = 0; p < length; p += CHUNK_BYTES) {
            int chunk = Math.min(CHUNK_BYTES, length - p);
            for (int r = 0; r < sources.length; r++) {
                int room = Math.min(chunk, outRoom[r] - p);
                if (room > 0) {
                    row(sources[r], inArrays, inOffsets, inAvailable, p, outArrays[r], outOffsets[r] + p, room);
                }
            }
        }
    }

    /** Writes {@code out[at … at+length)} = XOR of the inputs {@code src} at positions {@code [p, p+length)}. */
    private static void row(int[] src, byte[][] in, int[] inOffsets, int[] inAvailable, int p,
                            byte[] out, int at, int length) {
        if (src.length == 0) {
            Arrays.fill(out, at, at + length, (byte) 0);
            return;
        }
        for (int g = 0; g < src.length; g += 4) {
            int count = Math.min(4, src.length - g);
            // [0, full): every input of the group has bytes there; past an input's available bytes it reads as zero.
            int full = length;
            for (int t = 0; t < count; t++) {
                full = Math.min(full, present(inAvailable[src[g + t]], p, length));
            }
            if (full > 0) {
                fold(g == 0, count, src, g, in, inOffsets, p, out, at, full);
            }
            if (g == 0 && full < length) {
                Arrays.fill(out, at + full, at + length, (byte) 0);
            }
            for (int t = 0; t < count; t++) {
                int j = src[g + t];
                int have = present(inAvailable[j], p, length);
                if (have > full) {
                    xor1(out, at + full, in[j], inOffsets[j] + p + full, have - full);
                }
            }
        }
    }

    /** How many of the positions {@code [p, p+length)} an input with {@code available} bytes has. */
    private static int present(int available, int p, int length) {
        return Math.max(0, Math.min(length, available - p));
    }

    private static void fold(boolean set, int count, int[] src, int g, byte[][] in, int[] inOffsets, int p,
                             byte[] out, int at, int length) {
        int j0 = src[g];
        switch (count) {
            case 1 -> {
                if (set) {
                    System.arraycopy(in[j0], inOffsets[j0] + p, out, at, length);
                } else {
                    xor1(out, at, in[j0], inOffsets[j0] + p, length);
                }
            }
            case 2 -> {
                int j1 = src[g + 1];
                if (set) {
                    set2(out, at, in[j0], inOffsets[j0] + p, in[j1], inOffsets[j1] + p, length);
                } else {
                    xor2(out, at, in[j0], inOffsets[j0] + p, in[j1], inOffsets[j1] + p, length);
                }
            }
            case 3 -> {
                int j1 = src[g + 1];
                int j2 = src[g + 2];
                if (set) {
                    set3(out, at, in[j0], inOffsets[j0] + p, in[j1], inOffsets[j1] + p, in[j2], inOffsets[j2] + p,
                            length);
                } else {
                    xor3(out, at, in[j0], inOffsets[j0] + p, in[j1], inOffsets[j1] + p, in[j2], inOffsets[j2] + p,
                            length);
                }
            }
            default -> {
                int j1 = src[g + 1];
                int j2 = src[g + 2];
                int j3 = src[g + 3];
                if (set) {
                    set4(out, at, in[j0], inOffsets[j0] + p, in[j1], inOffsets[j1] + p, in[j2], inOffsets[j2] + p,
                            in[j3], inOffsets[j3] + p, length);
                } else {
                    xor4(out, at, in[j0], inOffsets[j0] + p, in[j1], inOffsets[j1] + p, in[j2], inOffsets[j2] + p,
                            in[j3], inOffsets[j3] + p, length);
                }
            }
        }
    }

    // Each loop: whole longs through the byte-array view, then the last < 8 bytes one by one.

    private static long at(byte[] b, int i) {
        return (long) LONGS.get(b, i);
    }

    private static void xor1(byte[] o, int oo, byte[] a, int ao, int n) {
        int i = 0;
        for (; i <= n - 8; i += 8) {
            LONGS.set(o, oo + i, at(o, oo + i) ^ at(a, ao + i));
        }
        for (; i < n; i++) {
            o[oo + i] ^= a[ao + i];
        }
    }

    private static void set2(byte[] o, int oo, byte[] a, int ao, byte[] b, int bo, int n) {
        int i = 0;
        for (; i <= n - 8; i += 8) {
            LONGS.set(o, oo + i, at(a, ao + i) ^ at(b, bo + i));
        }
        for (; i < n; i++) {
            o[oo + i] = (byte) (a[ao + i] ^ b[bo + i]);
        }
    }

    private static void xor2(byte[] o, int oo, byte[] a, int ao, byte[] b, int bo, int n) {
        int i = 0;
        for (; i <= n - 8; i += 8) {
            LONGS.set(o, oo + i, at(o, oo + i) ^ at(a, ao + i) ^ at(b, bo + i));
        }
        for (; i < n; i++) {
            o[oo + i] ^= (byte) (a[ao + i] ^ b[bo + i]);
        }
    }

    private static void set3(byte[] o, int oo, byte[] a, int ao, byte[] b, int bo, byte[] c, int co, int n) {
        int i = 0;
        for (; i <= n - 8; i += 8) {
            LONGS.set(o, oo + i, at(a, ao + i) ^ at(b, bo + i) ^ at(c, co + i));
        }
        for (; i < n; i++) {
            o[oo + i] = (byte) (a[ao + i] ^ b[bo + i] ^ c[co + i]);
        }
    }

    private static void xor3(byte[] o, int oo, byte[] a, int ao, byte[] b, int bo, byte[] c, int co, int n) {
        int i = 0;
        for (; i <= n - 8; i += 8) {
            LONGS.set(o, oo + i, at(o, oo + i) ^ at(a, ao + i) ^ at(b, bo + i) ^ at(c, co + i));
        }
        for (; i < n; i++) {
            o[oo + i] ^= (byte) (a[ao + i] ^ b[bo + i] ^ c[co + i]);
        }
    }

    private static void set4(byte[] o, int oo, byte[] a, int ao, byte[] b, int bo, byte[] c, int co,
                             byte[] d, int dof, int n) {
        int i = 0;
        for (; i <= n - 8; i += 8) {
            LONGS.set(o, oo + i, at(a, ao + i) ^ at(b, bo + i) ^ at(c, co + i) ^ at(d, dof + i));
        }
        for (; i < n; i++) {
            o[oo + i] = (byte) (a[ao + i] ^ b[bo + i] ^ c[co + i] ^ d[dof + i]);
        }
    }

    private static void xor4(byte[] o, int oo, byte[] a, int ao, byte[] b, int bo, byte[] c, int co,
                             byte[] d, int dof, int n) {
        int i = 0;
        for (; i <= n - 8; i += 8) {
            LONGS.set(o, oo + i, at(o, oo + i) ^ at(a, ao + i) ^ at(b, bo + i) ^ at(c, co + i) ^ at(d, dof + i));
        }
        for (; i < n; i++) {
            o[oo + i] ^= (byte) (a[ao + i] ^ b[bo + i] ^ c[co + i] ^ d[dof + i]);
        }
    }
}
