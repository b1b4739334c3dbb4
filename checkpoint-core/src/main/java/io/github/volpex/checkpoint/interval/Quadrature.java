package io.github.volpex.checkpoint.interval;

import java.util.function.DoubleUnaryOperator;

/** Adaptive Gauss–Kronrod (7/15) quadrature of non-negative, non-increasing functions on {@code [0, ∞)}. */
final class Quadrature {

    /** Nodes of the 15-point Kronrod rule on [−1, 1] (non-negative half; the rule is symmetric). */
    private static final double[] KRONROD_NODES = {
        0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
        0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
        0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
        0.207784955007898467600689403773245, 0.0,
    };
    private static final double[] KRONROD_WEIGHTS = {
        0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
        0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
        0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
        0.204432940075298892414161999234649, 0.209482141084727828012999174891714,
    };
    /** Weights of the embedded 7-point Gauss rule, at the odd-indexed Kronrod nodes 1, 3, 5, 7. */
    private static final double[] GAUSS_WEIGHTS = {
        0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
        0.381830050505118944950369775488975, 0.417959183673469387755102040816327,
    };

    private static final double RELATIVE_TOLERANCE = 1e-11;
    private static final int MAX_DEPTH = 40;
    private static final int FIRST_PANEL_EXPONENT = -30;
    /** Beyond 2¹⁰⁰ s (4·10³⁰ s) a tail that has not vanished is taken as divergent. */
    private static final int LAST_PANEL_EXPONENT = 100;

    private Quadrature() {
    }

    /**
     * {@code ∫₀^∞ f(t) dt} for a non-negative, non-increasing {@code f}; {@code +∞} if {@code t·f(t)} has not
     * become negligible by {@code t = 2¹⁰⁰}.
     */
    static double integrateOnHalfLine(DoubleUnaryOperator f) {
        double lower = Math.scalb(1.0, FIRST_PANEL_EXPONENT);
        double total = adaptive(f, 0.0, lower, f.applyAsDouble(0.0) * lower);
        for (int k = FIRST_PANEL_EXPONENT; k <= LAST_PANEL_EXPONENT; k++) {
            double a = Math.scalb(1.0, k);
            double b = 2.0 * a;
            double fb = f.applyAsDouble(b);
            // A crude scale for the tolerance: the panel cannot exceed f(a)·(b − a).
            total += adaptive(f, a, b, total + f.applyAsDouble(a) * (b - a));
            // The next panel is at most f(b)·b. Stop once that is negligible: for f decaying like t^−β the whole
            // tail is about f(b)·b/(β − 1), so this bounds it for any β ≥ 2.
            if (fb * b <= 1e-3 * RELATIVE_TOLERANCE * total || fb == 0.0) {
                return total;
            }
        }
        return Double.POSITIVE_INFINITY;
    }

    /** Adaptive bisection until the Gauss and Kronrod estimates agree to {@code RELATIVE_TOLERANCE · scale}. */
    private static double adaptive(DoubleUnaryOperator f, double a, double b, double scale) {
        return adaptive(f, a, b, Math.max(scale, Double.MIN_NORMAL) * RELATIVE_TOLERANCE, 0);
    }

    private static double adaptive(DoubleUnaryOperator f, double a, double b, double tolerance, int depth) {
        double centre = 0.5 * (a + b);
        double half = 0.5 * (b - a);
        double fc = f.applyAsDouble(centre);
        double kronrod = KRONROD_WEIGHTS[7] * fc;
        double gauss = GAUSS_WEIGHTS[3] * fc;
        for (int i = 0; i < 7; i++) {
            double dx = half * KRONROD_NODES[i];
            double pair = f.applyAsDouble(centre - dx) + f.applyAsDouble(centre + dx);
            kronrod += KRONROD_WEIGHTS[i] * pair;
            if ((i & 1) == 1) {
                gauss += GAUSS_WEIGHTS[i / 2] * pair;
            }
        }
        kronrod *= half;
        gauss *= half;
        if (Math.abs(kronrod - gauss) <= tolerance || depth >= MAX_DEPTH) {
            return kronrod;
        }
        return adaptive(f, a, centre, 0.5 * tolerance, depth + 1)
                + adaptive(f, centre, b, 0.5 * tolerance, depth + 1);
    }
}
