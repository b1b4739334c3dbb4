package io.github.volpex.estimators;

import java.util.function.DoubleUnaryOperator;

/** One-dimensional root finding for the fits' likelihood equations. */
final class Roots {

    private Roots() {
    }

    /**
     * Returns a root of {@code f} in {@code [lo, hi]}, where {@code f(lo)} and {@code f(hi)} differ in sign (or one
     * is zero): Newton's method from {@code start}, falling back to bisection whenever a step leaves the bracket,
     * which shrinks at every evaluation. Stops when the step or the bracket is within a few ulps.
     */
    static double newtonInBracket(DoubleUnaryOperator f, DoubleUnaryOperator derivative, double lo, double hi,
                                  double start) {
        double fLo = f.applyAsDouble(lo);
        if (fLo == 0.0) {
            return lo;
        }
        boolean increasing = fLo < 0.0;
        double x = start > lo && start < hi ? start : 0.5 * (lo + hi);
        for (int i = 0; i < 1000; i++) {
            double fx = f.applyAsDouble(x);
            if (fx == 0.0) {
                return x;
            }
            if ((fx < 0.0) == increasing) {
                lo = x;
            } else {
                hi = x;
            }
            double next = x - fx / derivative.applyAsDouble(x);
            if (!(next > lo && next < hi)) {
                next = 0.5 * (lo + hi);
            }
            if (Math.abs(next - x) <= 2e-16 * Math.abs(next) || hi - lo <= 4e-16 * Math.abs(hi)) {
                return next;
            }
            x = next;
        }
        return x;
    }
}
