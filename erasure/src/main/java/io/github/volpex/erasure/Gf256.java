package io.github.volpex.erasure;

/**
 * Arithmetic in GF(2^8) with the reduction polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D), the field of ISA-L, Hadoop
 * and most Reed–Solomon codes. The element 2 generates the multiplicative group.
 *
 * <p>Addition is XOR. Multiplication uses a 64 KiB product table; logarithms serve inversion and powers.
 * Stateless and thread-safe.
 */
final class Gf256 {

    /** The reduction polynomial, with its x^8 term. */
    static final int POLYNOMIAL = 0x11D;

    /** {@code EXP[i] = 2^i} for {@code i} in [0, 510): doubled so that {@code EXP[LOG[a] + LOG[b]]} needs no mod. */
    private static final int[] EXP = new int[510];
    /** {@code LOG[a]} for nonzero {@code a}; {@code LOG[0]} is unused. */
    private static final int[] LOG = new int[256];
    /** {@code PRODUCT[(a << 8) | b] = a · b}. */
    private static final byte[] PRODUCT = new byte[1 << 16];

    static {
        int x = 1;
        for (int i = 0; i < 255; i++) {
            EXP[i] = x;
            EXP[i + 255] = x;
            LOG[x] = i;
            x <<= 1;
            if ((x & 0x100) != 0) {
                x ^= POLYNOMIAL;
            }
        }
        for (int a = 1; a < 256; a++) {
            for (int b = 1; b < 256; b++) {
                PRODUCT[(a << 8) | b] = (byte) EXP[LOG[a] + LOG[b]];
            }
        }
    }

    private Gf256() {
    }

    /**
     * Multiplies two field elements.
     *
     * @param a an element in [0, 255]
     * @param b an element in [0, 255]
     * @return {@code a · b}
     */
    static int mul(int a, int b) {
        return PRODUCT[(a << 8) | b] & 0xFF;
    }

    /**
     * Returns the 256-entry row of the product table for the constant {@code c}: entry {@code x} is {@code c · x}.
     *
     * @param c an element in [0, 255]
     * @return the offset of the row in {@link #productTable()}
     */
    static int rowOffset(int c) {
        return c << 8;
    }

    /**
     * Returns the shared product table; callers must not modify it.
     *
     * @return the table, indexed {@code (a << 8) | b}
     */
    static byte[] productTable() {
        return PRODUCT;
    }

    /**
     * Returns the multiplicative inverse.
     *
     * @param a a nonzero element
     * @return {@code 1 / a}
     * @throws ArithmeticException if {@code a} is zero
     */
    static int inv(int a) {
        if (a == 0) {
            throw new ArithmeticException("0 has no inverse in GF(2^8)");
        }
        return EXP[255 - LOG[a]];
    }

    /**
     * Raises an element to a power.
     *
     * @param a an element in [0, 255]
     * @param e the exponent, {@code ≥ 0}; {@code 0^0 = 1}
     * @return {@code a^e}
     */
    static int pow(int a, int e) {
        if (e == 0) {
            return 1;
        }
        if (a == 0) {
            return 0;
        }
        return EXP[(int) ((long) LOG[a] * e % 255)];
    }

    /**
     * Multiplies two matrices over the field.
     *
     * @param a an {@code r × s} matrix
     * @param b an {@code s × t} matrix
     * @return the {@code r × t} product
     */
    static byte[][] multiply(byte[][] a, byte[][] b) {
        int rows = a.length;
        int inner = b.length;
        int cols = inner == 0 ? 0 : b[0].length;
        byte[][] product = new byte[rows][cols];
        for (int i = 0; i < rows; i++) {
            for (int t = 0; t < inner; t++) {
                int c = a[i][t] & 0xFF;
                if (c == 0) {
                    continue;
                }
                int row = c << 8;
                for (int j = 0; j < cols; j++) {
                    product[i][j] ^= PRODUCT[row | (b[t][j] & 0xFF)];
                }
            }
        }
        return product;
    }

    /**
     * Inverts a square matrix by Gauss–Jordan elimination.
     *
     * @param matrix an {@code m × m} matrix; not modified
     * @return its inverse
     * @throws IllegalArgumentException if the matrix is not square or is singular
     */
    static byte[][] invert(byte[][] matrix) {
        int m = matrix.length;
        byte[][] work = new byte[m][];
        byte[][] inverse = new byte[m][m];
        for (int i = 0; i < m; i++) {
            if (matrix[i].length != m) {
                throw new IllegalArgumentException(
                        "matrix must be square: row " + i + " has " + matrix[i].length + " columns, expected " + m);
            }
            work[i] = matrix[i].clone();
            inverse[i][i] = 1;
        }
        for (int col = 0; col < m; col++) {
            int pivot = col;
            while (pivot < m && work[pivot][col] == 0) {
                pivot++;
            }
            if (pivot == m) {
                throw new IllegalArgumentException(
                        "matrix is singular: column " + col + " has no nonzero pivot at or below row " + col);
            }
            swap(work, col, pivot);
            swap(inverse, col, pivot);
            int scale = inv(work[col][col] & 0xFF);
            scaleRow(work[col], scale);
            scaleRow(inverse[col], scale);
            for (int row = 0; row < m; row++) {
                int factor = work[row][col] & 0xFF;
                if (row != col && factor != 0) {
                    addScaledRow(work[row], work[col], factor);
                    addScaledRow(inverse[row], inverse[col], factor);
                }
            }
        }
        return inverse;
    }

    private static void swap(byte[][] rows, int i, int j) {
        byte[] t = rows[i];
        rows[i] = rows[j];
        rows[j] = t;
    }

    private static void scaleRow(byte[] row, int factor) {
        int base = factor << 8;
        for (int j = 0; j < row.length; j++) {
            row[j] = PRODUCT[base | (row[j] & 0xFF)];
        }
    }

    private static void addScaledRow(byte[] target, byte[] source, int factor) {
        int base = factor << 8;
        for (int j = 0; j < target.length; j++) {
            target[j] ^= PRODUCT[base | (source[j] & 0xFF)];
        }
    }
}
