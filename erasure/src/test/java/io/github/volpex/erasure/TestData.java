package io.github.volpex.erasure;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Deterministic test inputs. */
final class TestData {

    private TestData() {
    }

    /** The codec of a layout; the XOR layout has k = 1 whatever {@code k} says. */
    static IdaCodec codec(Layout layout, int m, int k) {
        return switch (layout) {
            case SYSTEMATIC -> IdaCodec.systematic(m, k);
            case RABIN -> IdaCodec.rabin(m, k);
            default -> IdaCodec.xor(m);
        };
    }

    /** Each fragment in its stored form ({@link Fragment#toByteArray()}), in order. */
    static List<byte[]> stored(List<Fragment> fragments) {
        List<byte[]> out = new ArrayList<>();
        for (Fragment f : fragments) {
            out.add(f.toByteArray());
        }
        return out;
    }

    /** A stream over each stored fragment, in order, for the streaming decoder. */
    static List<InputStream> streams(List<byte[]> stored) {
        List<InputStream> out = new ArrayList<>();
        for (byte[] b : stored) {
            out.add(new ByteArrayInputStream(b));
        }
        return out;
    }

    static byte[] bytes(long seed, int length) {
        byte[] b = new byte[length];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    /** Every subset of {@code size} elements of {@code [0, n)}, as index arrays in ascending order. */
    static List<int[]> subsets(int n, int size) {
        List<int[]> out = new ArrayList<>();
        collect(n, size, 0, new int[size], 0, out);
        return out;
    }

    private static void collect(int n, int size, int from, int[] pick, int filled, List<int[]> out) {
        if (filled == size) {
            out.add(pick.clone());
            return;
        }
        for (int i = from; i <= n - (size - filled); i++) {
            pick[filled] = i;
            collect(n, size, i + 1, pick, filled + 1, out);
        }
    }

    static List<Fragment> pick(List<Fragment> all, int[] indexes) {
        List<Fragment> out = new ArrayList<>();
        for (int i : indexes) {
            out.add(all.get(i));
        }
        return out;
    }

    static int[] complement(int n, int[] indexes) {
        boolean[] in = new boolean[n];
        for (int i : indexes) {
            in[i] = true;
        }
        int[] out = new int[n - indexes.length];
        for (int i = 0, t = 0; i < n; i++) {
            if (!in[i]) {
                out[t++] = i;
            }
        }
        return out;
    }

    /** Multiplication by shift-and-add, independent of the tables under test. */
    static int slowMul(int a, int b) {
        int r = 0;
        while (b != 0) {
            if ((b & 1) != 0) {
                r ^= a;
            }
            a <<= 1;
            if ((a & 0x100) != 0) {
                a ^= 0x11D;
            }
            b >>>= 1;
        }
        return r;
    }
}
