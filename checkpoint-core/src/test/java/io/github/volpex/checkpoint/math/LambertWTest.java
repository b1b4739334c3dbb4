package io.github.volpex.checkpoint.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** The special values and edge cases of {@link LambertW}, one test each. */
class LambertWTest {

    private static final double NEAREST_MINUS_INV_E = -0.36787944117144233;

    /** Asserts the same double, bit for bit (so −0.0 differs from 0.0 and NaN equals NaN). */
    private static void assertSameDouble(double expected, double actual) {
        assertEquals(Double.doubleToLongBits(expected), Double.doubleToLongBits(actual),
                () -> "expected " + expected + " but was " + actual);
    }

    /** Asserts that {@code actual} is the correctly rounded value of {@code function} at {@code argument}. */
    private static void assertCorrectlyRounded(LambertWFunction function, double argument, double actual) {
        BigDecimal exact = LambertWReference.exact(function, argument);
        assertSameDouble(exact.doubleValue(), actual);
    }

    @Test
    void nan_gives_nan_on_every_entry_point() {
        assertSameDouble(Double.NaN, LambertW.w0(Double.NaN));
        assertSameDouble(Double.NaN, LambertW.wm1(Double.NaN));
        assertSameDouble(Double.NaN, LambertW.onePlusW0(Double.NaN));
        assertSameDouble(Double.NaN, LambertW.onePlusWm1(Double.NaN));
    }

    @Test
    void arguments_below_the_domain_give_nan() {
        double belowNearest = Math.nextDown(NEAREST_MINUS_INV_E);
        assertSameDouble(Double.NaN, LambertW.w0(belowNearest));
        assertSameDouble(Double.NaN, LambertW.wm1(belowNearest));
        assertSameDouble(Double.NaN, LambertW.w0(-0.5));
        assertSameDouble(Double.NaN, LambertW.wm1(-1.0));
        assertSameDouble(Double.NaN, LambertW.w0(Double.NEGATIVE_INFINITY));
        assertSameDouble(Double.NaN, LambertW.wm1(Double.NEGATIVE_INFINITY));
        assertSameDouble(Double.NaN, LambertW.onePlusW0(-Double.MIN_VALUE));
        assertSameDouble(Double.NaN, LambertW.onePlusWm1(-1e-300));
        assertSameDouble(Double.NaN, LambertW.onePlusW0(Double.NEGATIVE_INFINITY));
    }

    @Test
    void the_lower_branch_is_nan_above_zero_and_the_offset_above_one_over_e() {
        assertSameDouble(Double.NaN, LambertW.wm1(Double.MIN_VALUE));
        assertSameDouble(Double.NaN, LambertW.wm1(1.0));
        assertSameDouble(Double.NaN, LambertW.wm1(Double.POSITIVE_INFINITY));
        // 0.36787944117144233 is the double nearest 1/e and lies above it: z = d − 1/e > 0.
        assertSameDouble(Double.NaN, LambertW.onePlusWm1(0.36787944117144233));
        assertSameDouble(Double.NaN, LambertW.onePlusWm1(1.0));
        assertSameDouble(Double.NaN, LambertW.onePlusWm1(Double.POSITIVE_INFINITY));
        // The double just below 1/e gives z = −5.6e−17 and a finite W−1.
        assertCorrectlyRounded(LambertWFunction.ONE_PLUS_WM1, 0.3678794411714423,
                LambertW.onePlusWm1(0.3678794411714423));
    }

    @Test
    void w0_keeps_the_sign_of_zero() {
        assertSameDouble(0.0, LambertW.w0(0.0));
        assertSameDouble(-0.0, LambertW.w0(-0.0));
    }

    @Test
    void w0_of_positive_infinity_is_positive_infinity() {
        assertSameDouble(Double.POSITIVE_INFINITY, LambertW.w0(Double.POSITIVE_INFINITY));
        assertSameDouble(Double.POSITIVE_INFINITY, LambertW.onePlusW0(Double.POSITIVE_INFINITY));
    }

    @Test
    void w0_of_max_value() {
        assertSameDouble(703.2270331047702, LambertW.w0(Double.MAX_VALUE));
        assertSameDouble(704.2270331047702, LambertW.onePlusW0(Double.MAX_VALUE));
    }

    @Test
    void w0_of_one_is_the_omega_constant() {
        assertSameDouble(0.5671432904097838, LambertW.w0(1.0));
    }

    @Test
    void w0_of_e_is_one() {
        assertSameDouble(1.0, LambertW.w0(Math.E));
    }

    @Test
    void the_double_nearest_minus_one_over_e_gives_minus_one_on_both_branches() {
        assertSameDouble(-1.0, LambertW.w0(NEAREST_MINUS_INV_E));
        assertSameDouble(-1.0, LambertW.wm1(NEAREST_MINUS_INV_E));
    }

    @Test
    void the_first_double_above_minus_one_over_e_is_correctly_rounded() {
        double z = Math.nextUp(NEAREST_MINUS_INV_E);
        assertCorrectlyRounded(LambertWFunction.W0, z, LambertW.w0(z));
        assertCorrectlyRounded(LambertWFunction.WM1, z, LambertW.wm1(z));
        assertSameDouble(-0.9999999846957459, LambertW.w0(z));
        assertSameDouble(-1.0000000153042543, LambertW.wm1(z));
    }

    @Test
    void wm1_of_zero_is_minus_infinity_for_both_signs() {
        assertSameDouble(Double.NEGATIVE_INFINITY, LambertW.wm1(0.0));
        assertSameDouble(Double.NEGATIVE_INFINITY, LambertW.wm1(-0.0));
    }

    @Test
    void subnormal_arguments_on_the_principal_branch() {
        assertSameDouble(Double.MIN_VALUE, LambertW.w0(Double.MIN_VALUE));
        assertSameDouble(-Double.MIN_VALUE, LambertW.w0(-Double.MIN_VALUE));
        double largestSubnormal = Math.nextDown(Double.MIN_NORMAL);
        assertSameDouble(largestSubnormal, LambertW.w0(largestSubnormal));
        assertSameDouble(-largestSubnormal, LambertW.w0(-largestSubnormal));
        assertSameDouble(1e-310, LambertW.w0(1e-310));
    }

    @Test
    void subnormal_arguments_on_the_lower_branch() {
        for (double z : new double[] {-Double.MIN_VALUE, -1e-320, -1e-310, -Math.nextDown(Double.MIN_NORMAL)}) {
            assertCorrectlyRounded(LambertWFunction.WM1, z, LambertW.wm1(z));
        }
        assertSameDouble(-751.0615595398791, LambertW.wm1(-Double.MIN_VALUE));
    }

    @Test
    void subnormal_offsets_are_correctly_rounded_and_symmetric() {
        for (double d : new double[] {Double.MIN_VALUE, 1e-320, Math.nextDown(Double.MIN_NORMAL), 1e-200}) {
            assertCorrectlyRounded(LambertWFunction.ONE_PLUS_W0, d, LambertW.onePlusW0(d));
            assertCorrectlyRounded(LambertWFunction.ONE_PLUS_WM1, d, LambertW.onePlusWm1(d));
            assertSameDouble(-LambertW.onePlusW0(d), LambertW.onePlusWm1(d));
        }
    }

    @Test
    void a_zero_offset_is_the_branch_point() {
        assertSameDouble(0.0, LambertW.onePlusW0(0.0));
        assertSameDouble(0.0, LambertW.onePlusW0(-0.0));
        assertSameDouble(0.0, LambertW.onePlusWm1(0.0));
        assertSameDouble(0.0, LambertW.onePlusWm1(-0.0));
    }

    @Test
    void the_offset_entry_points_keep_the_digits_plain_arithmetic_loses() {
        // d = 1e−16: forming z = d − 1/e in a double and adding 1 to w0(z) keeps almost nothing of 1 + W.
        double d = 1e-16;
        double viaZ = 1.0 + LambertW.w0(d - 0.36787944117144233);
        double direct = LambertW.onePlusW0(d);
        assertCorrectlyRounded(LambertWFunction.ONE_PLUS_W0, d, direct);
        assertTrue(Math.abs(viaZ - direct) > 1e6 * Math.ulp(direct),
                () -> "plain " + viaZ + " vs offset " + direct);
    }

    /** Asserts correct rounding at {@code x} and at its two neighbouring doubles. */
    private static void assertCorrectlyRoundedAround(LambertWFunction function, double x) {
        for (double neighbour : new double[] {Math.nextDown(x), x, Math.nextUp(x)}) {
            assertCorrectlyRounded(function, neighbour, function.apply(neighbour));
        }
    }

    @Test
    void switches_between_starting_approximations_are_correctly_rounded() {
        double invE = 0.36787944117144233;
        // The Taylor series, the branch-point series and the switch to large arguments.
        for (double z : new double[] {0x1p-8, -0x1p-8, 3.0, (0x1p-11 - 1) * invE}) {
            assertCorrectlyRoundedAround(LambertWFunction.W0, z);
        }
        assertCorrectlyRoundedAround(LambertWFunction.WM1, (0x1p-11 - 1) * invE);
        // The middle table: pieces change at d = z + 1/e = 2^k and 1.5·2^k.
        for (int k = -12; k <= 1; k++) {
            for (double d : new double[] {Math.scalb(1.0, k), 1.5 * Math.scalb(1.0, k)}) {
                if (d - invE <= 3.0) {
                    assertCorrectlyRoundedAround(LambertWFunction.W0, d - invE);
                    assertCorrectlyRoundedAround(LambertWFunction.ONE_PLUS_W0, d);
                }
                if (d <= 0.25) {
                    assertCorrectlyRoundedAround(LambertWFunction.WM1, d - invE);
                    assertCorrectlyRoundedAround(LambertWFunction.ONE_PLUS_WM1, d);
                }
            }
        }
        // The large-argument tables: rows change where |ln|z|| = 2^k.
        for (int k = 0; k <= 9; k++) {
            double l = Math.scalb(1.0, k);
            if (l < 709) {
                assertCorrectlyRoundedAround(LambertWFunction.W0, Math.exp(l));
            }
            if (k >= 2) {
                assertCorrectlyRoundedAround(LambertWFunction.WM1, -Math.exp(-l));
            }
        }
        // The tiny-offset series and the offset tables' ends.
        for (double d : new double[] {0x1p-120, 0x1p-11 / Math.E, 3.0 + invE, 1e20}) {
            assertCorrectlyRoundedAround(LambertWFunction.ONE_PLUS_W0, d);
            if (d < 0.36) {
                assertCorrectlyRoundedAround(LambertWFunction.ONE_PLUS_WM1, d);
            }
        }
    }
}
