package io.github.volpex.erasure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class Gf256Test {

    @Test
    void every_product_matches_shift_and_add_multiplication() {
        for (int a = 0; a < 256; a++) {
            for (int b = 0; b < 256; b++) {
                assertEquals(TestData.slowMul(a, b), Gf256.mul(a, b), a + " * " + b);
            }
        }
    }

    @Test
    void every_nonzero_element_has_an_inverse_and_zero_has_none() {
        for (int a = 1; a < 256; a++) {
            assertEquals(1, Gf256.mul(a, Gf256.inv(a)), "a = " + a);
        }
        assertEquals("0 has no inverse in GF(2^8)", assertThrows(ArithmeticException.class, () -> Gf256.inv(0))
                .getMessage());
    }

    @Test
    void two_generates_the_multiplicative_group() {
        boolean[] seen = new boolean[256];
        for (int e = 0; e < 255; e++) {
            int x = Gf256.pow(2, e);
            assertEquals(false, seen[x], "2^" + e + " repeats");
            seen[x] = true;
        }
        assertEquals(1, Gf256.pow(2, 255));
        assertEquals(1, Gf256.pow(0, 0));
        assertEquals(0, Gf256.pow(0, 3));
    }

    @Test
    void swar_doubling_matches_bytewise_doubling() {
        for (int x = 0; x < 256; x++) {
            long packed = 0;
            for (int lane = 0; lane < 8; lane++) {
                packed |= (long) ((x + 37 * lane) & 0xFF) << (8 * lane);
            }
            long doubled = MatrixKernel.times2(packed);
            for (int lane = 0; lane < 8; lane++) {
                int v = (x + 37 * lane) & 0xFF;
                assertEquals(TestData.slowMul(v, 2), (int) (doubled >>> (8 * lane)) & 0xFF);
            }
        }
    }

    @Property
    void multiplication_distributes_over_addition(@ForAll @IntRange(max = 255) int a,
                                                  @ForAll @IntRange(max = 255) int b,
                                                  @ForAll @IntRange(max = 255) int c) {
        assertEquals(Gf256.mul(a, b ^ c), Gf256.mul(a, b) ^ Gf256.mul(a, c));
        assertEquals(Gf256.mul(Gf256.mul(a, b), c), Gf256.mul(a, Gf256.mul(b, c)));
    }

    @Property
    void a_vandermonde_matrix_times_its_inverse_is_the_identity(@ForAll @IntRange(min = 1, max = 30) int m,
                                                                 @ForAll @IntRange(max = 200) int shift) {
        byte[][] v = new byte[m][m];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                v[i][j] = (byte) Gf256.pow(i + 1 + shift % (255 - m), j);
            }
        }
        byte[][] product = Gf256.multiply(v, Gf256.invert(v));
        for (int i = 0; i < m; i++) {
            byte[] unit = new byte[m];
            unit[i] = 1;
            assertArrayEquals(unit, product[i], "row " + i);
        }
    }

    @Test
    void a_singular_matrix_is_reported_with_its_column() {
        byte[][] singular = {{1, 2, 3}, {2, 4, 6}, {0, 0, 1}};
        // row 1 = 2 · row 0 in GF(2^8) as well (2·1 = 2, 2·2 = 4, 2·3 = 6).
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Gf256.invert(singular));
        assertEquals("matrix is singular: column 1 has no nonzero pivot at or below row 1", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Gf256.invert(new byte[][] {{1, 2}, {3}}));
    }
}
