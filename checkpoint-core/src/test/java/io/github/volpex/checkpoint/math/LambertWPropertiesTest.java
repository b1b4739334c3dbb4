package io.github.volpex.checkpoint.math;

import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The laws of the Lambert W function, checked on {@link LambertW}. */
class LambertWPropertiesTest {

    private static final double NEAREST_MINUS_INV_E = -0.36787944117144233;
    private static final double INV_E_HI = 0.36787944117144233;
    private static final double INV_E_LO = -1.2428753672788363e-17;
    private static final int RUN = 10_000;

    /** Log-uniform magnitudes over many binades: {@code 10^u}, {@code u} uniform in {@code [lo, hi]}. */
    private static Arbitrary<Double> powersOfTen(double lo, double hi) {
        return Arbitraries.doubles().between(lo, hi).ofScale(12).map(u -> Math.pow(10.0, u));
    }

    @Provide
    Arbitrary<Double> principalArguments() {
        return Arbitraries.oneOf(
                Arbitraries.doubles().between(-0.3678794411714, 3.0).ofScale(16),
                powersOfTen(-17, -1).map(d -> d - INV_E_HI).filter(z -> z > NEAREST_MINUS_INV_E),
                powersOfTen(-300, 300),
                powersOfTen(-300, -2).map(z -> -z));
    }

    @Provide
    Arbitrary<Double> lowerArguments() {
        return Arbitraries.oneOf(
                Arbitraries.doubles().between(-0.3678794411714, -1e-3).ofScale(16),
                powersOfTen(-17, -1).map(d -> d - INV_E_HI).filter(z -> z > NEAREST_MINUS_INV_E),
                powersOfTen(-300, -3).map(z -> -z));
    }

    @Provide
    Arbitrary<Double> negativeArguments() {
        return Arbitraries.oneOf(
                Arbitraries.doubles().between(-0.3678794411714, -1e-6).ofScale(16),
                powersOfTen(-17, -1).map(d -> d - INV_E_HI).filter(z -> z > NEAREST_MINUS_INV_E));
    }

    /**
     * {@code w·e^w = z} up to what the rounding of {@code w} itself explains: an error of one ulp in {@code w} moves
     * {@code w·e^w} by {@code ulp(w)·e^w·|1 + w|}; evaluating {@code w·e^w} in double adds a few ulps of {@code z}.
     */
    private static void assertInverse(double z, double w) {
        double product = w * Math.exp(w);
        double bound = 1.5 * Math.ulp(w) * Math.exp(w) * Math.abs(1.0 + w) + 4.0 * Math.ulp(z);
        assertTrue(Math.abs(product - z) <= bound,
                () -> "W(" + z + ") = " + w + ": w e^w = " + product + ", off by " + Math.abs(product - z)
                        + " > " + bound);
    }

    @Property(tries = 2000)
    void w0_inverts_w_times_exp_w(@ForAll("principalArguments") double z) {
        assertInverse(z, LambertW.w0(z));
    }

    @Property(tries = 2000)
    void wm1_inverts_w_times_exp_w(@ForAll("lowerArguments") double z) {
        assertInverse(z, LambertW.wm1(z));
    }

    @Property(tries = 1000)
    void the_branches_are_ordered(@ForAll("negativeArguments") double z) {
        double upper = LambertW.w0(z);
        double lower = LambertW.wm1(z);
        assertTrue(lower <= -1.0 && -1.0 <= upper, () -> "W-1(" + z + ") = " + lower + ", W0 = " + upper);
    }

    @Property(tries = 2000)
    void w0_is_at_least_minus_one(@ForAll("principalArguments") double z) {
        assertTrue(LambertW.w0(z) >= -1.0);
    }

    /** A run of {@value #RUN} consecutive doubles from {@code start}: W₀ never decreases, W₋₁ never increases. */
    private static void assertMonotoneRun(double start) {
        double z = start;
        double previous0 = LambertW.w0(z);
        double previousM1 = z < 0 ? LambertW.wm1(z) : Double.NaN;
        for (int i = 0; i < RUN; i++) {
            double next = Math.nextUp(z);
            double w0 = LambertW.w0(next);
            assertTrue(w0 >= previous0, "W0 decreases from " + z + " to " + next);
            if (next < 0) {
                double wm1 = LambertW.wm1(next);
                assertTrue(!(wm1 > previousM1), "W-1 increases from " + z + " to " + next);
                previousM1 = wm1;
            }
            previous0 = w0;
            z = next;
        }
    }

    @Property(tries = 20)
    void monotone_on_runs_of_consecutive_doubles_above_the_branch_point(
            @ForAll("branchRunStarts") double start) {
        assertMonotoneRun(start);
    }

    @Provide
    Arbitrary<Double> branchRunStarts() {
        return Arbitraries.oneOf(
                Arbitraries.just(NEAREST_MINUS_INV_E),
                powersOfTen(-16, -4).map(d -> d - INV_E_HI).filter(z -> z > NEAREST_MINUS_INV_E));
    }

    @Property(tries = 20)
    void monotone_on_runs_of_consecutive_doubles_around_zero(@ForAll("zeroRunStarts") double start) {
        assertMonotoneRun(start);
    }

    @Provide
    Arbitrary<Double> zeroRunStarts() {
        return Arbitraries.oneOf(
                // Straddling 0 through the subnormals, and runs in the normal range on both sides.
                Arbitraries.just(-RUN / 2 * Double.MIN_VALUE),
                powersOfTen(-300, -1),
                powersOfTen(-300, -1).map(z -> -z));
    }

    /**
     * The offset entry points agree with the plain ones: for a double {@code z}, {@code d} is {@code z + 1/e} rounded
     * once (with 1/e in double-double), so the two results may differ by the effect of rounding {@code d}
     * ({@code ulp(d)/2 · dW/dz}) plus their own roundings.
     */
    private static void assertOffsetAgrees(double z, boolean lower) {
        double head = z + INV_E_HI;
        double bb = head - z;
        double headError = (z - (head - bb)) + (INV_E_HI - bb);
        double d = head + (headError + INV_E_LO);
        if (lower && d >= INV_E_HI) {
            // z within an ulp of 0⁻: the rounded offset reaches the double nearest 1/e, which lies above 1/e.
            return;
        }
        double w = lower ? LambertW.wm1(z) : LambertW.w0(z);
        double plain = 1.0 + w;
        double offset = lower ? LambertW.onePlusWm1(d) : LambertW.onePlusW0(d);
        double slope = Math.exp(-w) / Math.abs(1.0 + w); // dW/dz
        double bound = 1.5 * (0.5 * Math.ulp(d) * slope + Math.ulp(w) + 2.0 * Math.ulp(offset));
        assertTrue(Math.abs(plain - offset) <= bound,
                () -> "z = " + z + ", d = " + d + ": 1 + W = " + plain + " vs " + offset + " (bound " + bound + ")");
    }

    @Property(tries = 2000)
    void onePlusW0_agrees_with_w0(@ForAll("principalArguments") double z) {
        assertOffsetAgrees(z, false);
    }

    @Property(tries = 2000)
    void onePlusWm1_agrees_with_wm1(@ForAll("lowerArguments") double z) {
        assertOffsetAgrees(z, true);
    }
}
