package io.github.volpex.checkpoint.math;

import static org.junit.jupiter.api.Assertions.assertEquals;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The three levels of {@link LambertW} against each other: whatever the fast steps and the precise steps certify
 * must be the double that the exact last resort ({@link LambertWExact}, Newton's method in {@code BigDecimal})
 * finds, and the exact last resort itself must agree with the independent apfloat references of
 * {@link LambertWReference}. The reference grid rarely reaches the precise steps and never the exact one, so these
 * properties are what check their bounds and their arithmetic.
 */
class LambertWLevelsTest {

    private static final double NEAREST_MINUS_INV_E = -0.36787944117144233;
    private static final double INV_E_HI = 0.36787944117144233;

    /** Log-uniform magnitudes over many binades: {@code 10^u}, {@code u} uniform in {@code [lo, hi]}. */
    private static Arbitrary<Double> powersOfTen(double lo, double hi) {
        return Arbitraries.doubles().between(lo, hi).ofScale(15).map(u -> Math.pow(10.0, u));
    }

    /** Arguments just above −1/e: log-uniform offsets, and the first doubles above the branch point. */
    private static Arbitrary<Double> nearBranchPoint() {
        return Arbitraries.oneOf(
                powersOfTen(-17, -0.5).map(d -> d - INV_E_HI).filter(z -> z > NEAREST_MINUS_INV_E),
                Arbitraries.integers().between(1, 100_000)
                        .map(n -> Double.longBitsToDouble(Double.doubleToRawLongBits(NEAREST_MINUS_INV_E) - n)));
    }

    @Provide
    Arbitrary<Double> principalArguments() {
        return Arbitraries.oneOf(
                Arbitraries.doubles().between(-0.3678794411714, 3.0).ofScale(17),
                nearBranchPoint(),
                powersOfTen(-320, 308),
                powersOfTen(-320, -0.5).map(z -> -z).filter(z -> z > NEAREST_MINUS_INV_E));
    }

    @Provide
    Arbitrary<Double> lowerArguments() {
        return Arbitraries.oneOf(
                Arbitraries.doubles().between(-0.3678794411714, -1e-3).ofScale(17),
                nearBranchPoint(),
                powersOfTen(-320, -0.5).map(z -> -z).filter(z -> z > NEAREST_MINUS_INV_E));
    }

    @Provide
    Arbitrary<Double> principalOffsets() {
        return Arbitraries.oneOf(powersOfTen(-320, 308), Arbitraries.doubles().between(0x1p-13, 4.0).ofScale(17));
    }

    @Provide
    Arbitrary<Double> lowerOffsets() {
        return Arbitraries.oneOf(
                powersOfTen(-320, -0.4343).filter(d -> d < INV_E_HI),
                Arbitraries.doubles().between(0x1p-13, 0.3678794411714).ofScale(17));
    }

    /** The level {@code level} either declines (NaN) or gives the exact last resort's double. */
    private static void assertAgreesIfCertified(String level, double certified, double exact, String call) {
        if (certified == certified) {
            assertEquals(exact, certified, () -> level + " steps certify " + call + " = " + certified
                    + ", the exact value rounds to " + exact);
        }
    }

    /** The fast and precise steps, where they certify a result, and the public result all equal the exact one. */
    private static void assertLevelsAgree(String call, double fast, double precise, double result, double exact) {
        assertAgreesIfCertified("fast", fast, exact, call);
        assertAgreesIfCertified("precise", precise, exact, call);
        assertEquals(exact, result, call);
    }

    @Property(tries = 3000)
    void w0_levels_agree(@ForAll("principalArguments") double z) {
        double exact = LambertWExact.w0(z, LambertW.w0(z));
        assertLevelsAgree("w0(" + z + ")", LambertW.fastW0(z), LambertW.preciseW0(z), LambertW.w0(z), exact);
    }

    @Property(tries = 3000)
    void wm1_levels_agree(@ForAll("lowerArguments") double z) {
        double exact = LambertWExact.wm1(z, LambertW.wm1(z));
        assertLevelsAgree("wm1(" + z + ")", LambertW.fastWm1(z), LambertW.preciseWm1(z), LambertW.wm1(z), exact);
    }

    @Property(tries = 2000)
    void onePlusW0_levels_agree(@ForAll("principalOffsets") double d) {
        double exact = LambertWExact.onePlus(d, false, LambertW.onePlusW0(d));
        assertLevelsAgree("onePlusW0(" + d + ")", LambertW.fastOffset(d, false), LambertW.preciseOffset(d, false),
                LambertW.onePlusW0(d), exact);
    }

    @Property(tries = 2000)
    void onePlusWm1_levels_agree(@ForAll("lowerOffsets") double d) {
        double exact = LambertWExact.onePlus(d, true, LambertW.onePlusWm1(d));
        assertLevelsAgree("onePlusWm1(" + d + ")", LambertW.fastOffset(d, true), LambertW.preciseOffset(d, true),
                LambertW.onePlusWm1(d), exact);
    }

    /** The exact last resort is right: it gives the correctly rounded double of the apfloat reference. */
    private static void assertExactIsCorrectlyRounded(LambertWFunction function, double argument, double exact) {
        double reference = LambertWReference.exact(function, argument).doubleValue();
        assertEquals(reference, exact, () -> "exact " + function + "(" + argument + ") = " + exact
                + ", the apfloat reference rounds to " + reference);
    }

    @Property(tries = 300)
    void the_exact_last_resort_matches_the_reference_on_the_principal_branch(
            @ForAll("principalArguments") double z, @ForAll("principalOffsets") double d) {
        // A guess a little off, so that the last resort does its own work.
        double w = LambertW.w0(z);
        assertExactIsCorrectlyRounded(LambertWFunction.W0, z, LambertWExact.w0(z, w + 1e-9 * Math.abs(w)));
        double x = LambertW.onePlusW0(d);
        assertExactIsCorrectlyRounded(LambertWFunction.ONE_PLUS_W0, d,
                LambertWExact.onePlus(d, false, x - 1e-9 * x));
    }

    @Property(tries = 300)
    void the_exact_last_resort_matches_the_reference_on_the_lower_branch(
            @ForAll("lowerArguments") double z, @ForAll("lowerOffsets") double d) {
        double w = LambertW.wm1(z);
        assertExactIsCorrectlyRounded(LambertWFunction.WM1, z, LambertWExact.wm1(z, w - 1e-9 * Math.abs(w)));
        double x = LambertW.onePlusWm1(d);
        assertExactIsCorrectlyRounded(LambertWFunction.ONE_PLUS_WM1, d,
                LambertWExact.onePlus(d, true, x + 1e-9 * x));
    }

    @Test
    void the_fall_backs_give_the_public_results_at_the_edges_of_every_range() {
        double[] principal = {Math.nextUp(NEAREST_MINUS_INV_E), -0.3678794411, -0.36787 , -0.25, -0x1p-8,
            -Math.nextDown(0x1p-8), -0x1p-54, Double.MIN_VALUE, 0x1p-54, 0x1p-8, Math.nextUp(0x1p-8), 1.0, 3.0,
            Math.nextUp(3.0), 1e10, 1e300, Double.MAX_VALUE};
        for (double z : principal) {
            assertEquals(LambertW.w0(z), LambertW.slowW0(z), "w0(" + z + ")");
            assertEquals(LambertW.w0(z), LambertWExact.w0(z, LambertW.w0(z)), "w0(" + z + ")");
        }
        double[] lower = {Math.nextUp(NEAREST_MINUS_INV_E), -0.3678794411, -0.36787, -0.25, -0.118, -0.1, -1e-3,
            -1e-100, -Double.MIN_NORMAL, -Double.MIN_VALUE};
        for (double z : lower) {
            assertEquals(LambertW.wm1(z), LambertW.slowWm1(z), "wm1(" + z + ")");
            assertEquals(LambertW.wm1(z), LambertWExact.wm1(z, LambertW.wm1(z)), "wm1(" + z + ")");
        }
        double[] offsets = {Double.MIN_VALUE, 1e-300, 0x1p-120, Math.nextUp(0x1p-120), 1e-20, 0x1p-13, 0.1, 0.25,
            0.3678794411714};
        for (double d : offsets) {
            assertEquals(LambertW.onePlusW0(d), LambertW.slowOffset(d, false), "onePlusW0(" + d + ")");
            assertEquals(LambertW.onePlusWm1(d), LambertW.slowOffset(d, true), "onePlusWm1(" + d + ")");
        }
    }
}
