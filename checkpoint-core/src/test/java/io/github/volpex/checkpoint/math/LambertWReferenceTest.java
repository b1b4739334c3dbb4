package io.github.volpex.checkpoint.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.apfloat.Apcomplex;
import org.apfloat.ApcomplexMath;
import org.apfloat.Apfloat;
import org.apfloat.ApfloatMath;
import org.junit.jupiter.api.Test;

/**
 * The test oracle itself: {@link LambertWReference} near the branch point, against apfloat's own Lambert W evaluated
 * at {@code z = d − 1/e} with enough digits to absorb the cancellation, an algorithm that shares nothing with the
 * reference's Newton iteration.
 */
class LambertWReferenceTest {

    /** Relative agreement required between the reference and the independent oracle. */
    private static final BigDecimal TOLERANCE = new BigDecimal("1e-36");

    /** {@code 1 + W(d − 1/e)} on the requested branch from apfloat's {@code w}, with guard digits for the offset. */
    private static BigDecimal independent(double offset, boolean lower) {
        int lost = (int) Math.ceil(-Math.log10(offset));
        int precision = 60 + 2 * Math.max(lost, 0);
        Apfloat e = ApfloatMath.exp(new Apfloat(1, precision));
        Apfloat z = new Apfloat(new BigDecimal(offset), precision).subtract(new Apfloat(1, precision).divide(e));
        Apcomplex w = lower ? ApcomplexMath.w(z, -1) : ApfloatMath.w(z);
        assertEquals(0, w.imag().signum(), () -> "apfloat's W is complex at d = " + offset);
        return new BigDecimal(w.real().add(new Apfloat(1, precision)).toString(true));
    }

    private static void assertAgrees(LambertWFunction function, double offset) {
        BigDecimal reference = LambertWReference.exact(function, offset);
        BigDecimal oracle = independent(offset, function.lowerBranch());
        BigDecimal relative = reference.subtract(oracle).abs().divide(oracle.abs(), MathContext.DECIMAL64);
        assertTrue(relative.compareTo(TOLERANCE) <= 0,
                () -> function + "(" + offset + "): reference " + reference + ", apfloat w " + oracle);
        assertEquals(function.lowerBranch() ? -1 : 1, reference.signum(), () -> function + "(" + offset + ")");
    }

    @Test
    void the_offset_that_once_put_the_reference_on_the_wrong_branch() {
        // The exact decimal value of the double, parsed (exactly) from two lines.
        double offset = Double.parseDouble("1.0471929109616303476918958928408644320014090818519327246256905819804672"
                + "9494780889442776916457844560426337920944206416606903076171875E-34");
        assertAgrees(LambertWFunction.ONE_PLUS_W0, offset);
        assertAgrees(LambertWFunction.ONE_PLUS_WM1, offset);
        // And the implementation under test is correctly rounded there.
        assertEquals(LambertWReference.exact(LambertWFunction.ONE_PLUS_W0, offset).doubleValue(),
                LambertW.onePlusW0(offset));
        assertEquals(LambertWReference.exact(LambertWFunction.ONE_PLUS_WM1, offset).doubleValue(),
                LambertW.onePlusWm1(offset));
    }

    @Property(tries = 60)
    void agrees_with_apfloat_for_offsets_near_the_branch_point(
            @ForAll @DoubleRange(min = -60, max = -1) double log10Offset) {
        double offset = Math.pow(10, log10Offset);
        assertAgrees(LambertWFunction.ONE_PLUS_W0, offset);
        assertAgrees(LambertWFunction.ONE_PLUS_WM1, offset);
    }

    @Property(tries = 30)
    void agrees_with_apfloat_down_to_subnormal_offsets(@ForAll @DoubleRange(min = -323, max = -60) double log10Offset) {
        double offset = Math.max(Double.MIN_VALUE, Math.pow(10, log10Offset));
        assertAgrees(LambertWFunction.ONE_PLUS_W0, offset);
        assertAgrees(LambertWFunction.ONE_PLUS_WM1, offset);
    }
}
