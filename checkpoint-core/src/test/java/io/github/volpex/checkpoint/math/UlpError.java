package io.github.volpex.checkpoint.math;

import java.math.BigDecimal;
import java.math.MathContext;

/** Errors of double results against exact references, in units in the last place of the exact value. */
final class UlpError {

    private UlpError() {
    }

    /**
     * {@code |computed − exact| / ulp(exact)}, where {@code ulp(exact)} is the spacing of doubles at the exact value
     * (not at its rounding, which may sit on the next power of two). NaN or infinite results give +∞.
     */
    static double of(double computed, BigDecimal exact) {
        if (!Double.isFinite(computed)) {
            return Double.POSITIVE_INFINITY;
        }
        double nearest = exact.doubleValue();
        double ulp = Math.ulp(nearest);
        double magnitude = Math.abs(nearest);
        if (magnitude > Double.MIN_NORMAL && magnitude == Math.scalb(1.0, Math.getExponent(magnitude))
                && exact.abs().compareTo(new BigDecimal(magnitude)) < 0) {
            ulp /= 2;
        }
        BigDecimal difference = new BigDecimal(computed).subtract(exact).abs();
        return difference.divide(new BigDecimal(ulp), MathContext.DECIMAL64).doubleValue();
    }

    /** Whether {@code computed} is the double nearest to {@code exact}. */
    static boolean correctlyRounded(double computed, BigDecimal exact) {
        return Double.compare(computed, exact.doubleValue()) == 0
                || (computed == 0.0 && exact.signum() == 0);
    }
}
