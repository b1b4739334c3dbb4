package io.github.volpex.checkpoint.math;

import static io.github.volpex.checkpoint.math.LambertWTables.BRANCH0;
import static io.github.volpex.checkpoint.math.LambertWTables.BRANCHM1;
import static io.github.volpex.checkpoint.math.LambertWTables.EXP2_1024;
import static io.github.volpex.checkpoint.math.LambertWTables.EXP2_128;
import static io.github.volpex.checkpoint.math.LambertWTables.EXP_256;
import static io.github.volpex.checkpoint.math.LambertWTables.EXP_256_FIRST;
import static io.github.volpex.checkpoint.math.LambertWTables.E_HI;
import static io.github.volpex.checkpoint.math.LambertWTables.E_LO;
import static io.github.volpex.checkpoint.math.LambertWTables.INV_E_HI;
import static io.github.volpex.checkpoint.math.LambertWTables.INV_E_LO;
import static io.github.volpex.checkpoint.math.LambertWTables.INV_LN2_1024;
import static io.github.volpex.checkpoint.math.LambertWTables.INV_LN2_128;
import static io.github.volpex.checkpoint.math.LambertWTables.LARGE0;
import static io.github.volpex.checkpoint.math.LambertWTables.LARGEM1;
import static io.github.volpex.checkpoint.math.LambertWTables.LN2;
import static io.github.volpex.checkpoint.math.LambertWTables.LN2_1024_A;
import static io.github.volpex.checkpoint.math.LambertWTables.LN2_1024_B;
import static io.github.volpex.checkpoint.math.LambertWTables.LN2_1024_C;
import static io.github.volpex.checkpoint.math.LambertWTables.LN2_128_HI;
import static io.github.volpex.checkpoint.math.LambertWTables.LN2_128_LO;
import static io.github.volpex.checkpoint.math.LambertWTables.LOG_128;
import static io.github.volpex.checkpoint.math.LambertWTables.MIDDLE0;
import static io.github.volpex.checkpoint.math.LambertWTables.MIDDLEM1;
import static io.github.volpex.checkpoint.math.LambertWTables.SERIES_HI;
import static io.github.volpex.checkpoint.math.LambertWTables.SERIES_LO;
import static io.github.volpex.checkpoint.math.LambertWTables.THIRD_HI;
import static io.github.volpex.checkpoint.math.LambertWTables.THIRD_LO;

/**
 * The real branches of the Lambert W function, the inverse of {@code w ↦ w·e^w}: {@link #w0(double) W₀} on
 * {@code [−1/e, ∞)} with values in {@code [−1, ∞)}, and {@link #wm1(double) W₋₁} on {@code [−1/e, 0)} with values in
 * {@code (−∞, −1]}.
 *
 * <p><b>Accuracy.</b> Every result is the correctly rounded double (round to nearest) of the exact value, including
 * at the branch point {@code −1/e}, where implementations that first form {@code z + 1/e} in one rounded double lose
 * up to 10⁷ ulps. Callers that know the offset {@code d = z + 1/e} exactly use {@link #onePlusW0(double)} and
 * {@link #onePlusWm1(double)}, which return {@code 1 + W(−1/e + d)} correctly rounded, without ever rounding
 * {@code z}.
 *
 * <p><b>Method.</b> A starting value (a series in {@code p = √(2(1 + e·z))} near the branch point, a Taylor series
 * near 0, piecewise polynomials in {@code z + 1/e} in the middle range and in {@code ln|z|} for large {@code |W|})
 * is refined by one Newton step whose residual {@code w·e^w − z} is evaluated in double-double arithmetic from a
 * table of {@code e^x}; a bound on the error of the step then decides whether the rounded result is certain. In the
 * rare case that it is not (the exact value lies within about 10⁻⁴ ulp of a midpoint between two doubles: about one
 * argument in 10⁴), a step twice as precise decides, and beyond that exact decimal arithmetic. The package
 * documentation has the error analysis.
 *
 * <p><b>Special values.</b> NaN gives NaN; arguments below the domain give NaN; the double nearest {@code −1/e}
 * ({@code −0.36787944117144233}, a hair below the exact branch point) gives {@code −1} on both branches;
 * {@code W₀(±0) = ±0}; {@code W₀(+∞) = +∞}; {@code W₋₁(±0) = −∞}; {@code W₋₁} of a positive argument is NaN.
 *
 * <p>All methods are static, non-blocking and thread-safe, and allocate nothing except in the exact last resort
 * (for arguments whose value lies within about 10⁻¹⁰ ulp of a midpoint; none of 1.8·10⁷ random arguments reached
 * it). They rely on {@link Math#fma}, which the JIT compiles to one instruction on every x86-64 processor since
 * 2013 and on all AArch64 processors.
 *
 * @since 0.1
 */
public final class LambertW {

    /** The double nearest −1/e; it lies just below the exact branch point. */
    private static final double BRANCH_POINT_DOUBLE = -0.36787944117144233;
    /** Up to this value of {@code 1 + e·z} ({@code |1 + W| ≲ 1/32}) the residual is taken from a series. */
    private static final double SERIES_MAX_OFFSET = 0x1p-11;
    /** The same bound on a plain argument: {@code (2⁻¹¹ − 1)/e}. */
    private static final double SERIES_MAX_ARGUMENT = (SERIES_MAX_OFFSET - 1.0) * 0.36787944117144233;
    /** Below this offset {@code d}, {@code 1 + W = ±p − p²/3} with {@code p = √(2e·d)} to far less than an ulp. */
    private static final double TINY_OFFSET = 0x1p-120;
    /** {@code |z|} up to which W₀ is the Taylor series at 0. */
    private static final double TAYLOR_MAX = 0x1p-8;
    /** Below this {@code |z|}, W₀(z) rounds to z itself. */
    private static final double IDENTITY_MAX = 0x1p-54;
    /** W₀ above this argument starts from ln z. */
    private static final double W0_MIDDLE_MAX = 3.0;
    /** W₋₁ starts from {@code d = z + 1/e} below this offset, from ln(−z) above it. */
    private static final double WM1_MIDDLE_MAX_OFFSET = 0.25;
    /** Adding and subtracting this rounds a double of magnitude below 2⁵¹ to an integer. */
    private static final double ROUNDER = 0x1.8p52;

    // Bounds of the fast Newton steps (see the package documentation for their derivation).
    /** The fast steps certify a result only if the correction is at most this fraction of the start. */
    private static final double START_ERROR = 0x1p-36;
    /** Largest distance, in units of 2⁻⁸, between the start and the table point of its exponential. */
    private static final double MAX_REDUCED = 0x1p-8;
    /** Middle range: error of the residual per unit of {@code |z|}. */
    private static final double MIDDLE_RESIDUAL = 0x1.04p-67;
    /** Middle range: the Newton and derivative terms per unit of {@code |w|}, given the start's bound. */
    private static final double MIDDLE_STEP = 0x1.14p-68;
    /** Large range: error of the residual per unit of {@code |z|}. */
    private static final double LARGE_RESIDUAL = 0x1.48p-67;
    /** Large range: relative error of the correction from the approximate derivative and the final roundings. */
    private static final double LARGE_SLOPE = 0x1.8p-37;
    /** Large range: the Newton term per unit of the squared correction. */
    private static final double LARGE_NEWTON = 0.75;
    /** Branch point series: error of the residual per unit of {@code x⁴}. */
    private static final double SERIES_RESIDUAL = 0x1.4p-53;
    /** Branch point series: relative error of {@code e·d}, and the absolute error of {@code 1 + e·z}. */
    private static final double OFFSET_ERROR = 0x1p-104;
    /** Branch point series: the Newton and derivative terms per unit of {@code |x|}, given the start's bound. */
    private static final double SERIES_STEP = 0x1.48p-73;
    /** The Taylor series at 0: error per unit of {@code |z|³}. */
    private static final double TAYLOR_ERROR = 0x1.cp-50;

    // Bounds of the precise steps.
    /** Precise steps: error of the residual per unit of {@code |z|}. */
    private static final double PRECISE_RESIDUAL = 0x1.04p-86;
    /** Precise steps: relative error of the correction from the approximate derivative and the roundings. */
    private static final double PRECISE_SLOPE = 0x1p-48;
    /** Precise steps: the Newton term per unit of the squared correction over {@code |1 + w| ≥ 2⁻⁶}. */
    private static final double PRECISE_NEWTON = 34.0;
    /** Precise series step: relative error of the residual. */
    private static final double PRECISE_SERIES_RESIDUAL = 0x1p-90;
    /** A precise step certifies a result only if the correction is at most this fraction of its start. */
    private static final double PRECISE_START_ERROR = 0x1p-40;

    private LambertW() {
    }

    /**
     * Returns the principal branch {@code W₀(z)}: the solution {@code w ≥ −1} of {@code w·e^w = z}.
     *
     * @param z the argument; the domain is {@code [−1/e, +∞]}
     * @return {@code W₀(z)} in {@code [−1, +∞]}, correctly rounded; NaN if {@code z} is NaN or below the domain (the
     *     double nearest {@code −1/e} gives {@code −1}); {@code ±0} for {@code ±0}; {@code +∞} for {@code +∞}
     */
    public static double w0(double z) {
        if (!(z > BRANCH_POINT_DOUBLE)) {
            return z == BRANCH_POINT_DOUBLE ? -1.0 : Double.NaN;
        }
        double y = fastW0(z);
        return y == y ? y : slowW0(z);
    }

    /**
     * Returns the lower branch {@code W₋₁(z)}: the solution {@code w ≤ −1} of {@code w·e^w = z}.
     *
     * @param z the argument; the domain is {@code [−1/e, 0]}
     * @return {@code W₋₁(z)} in {@code [−∞, −1]}, correctly rounded; NaN if {@code z} is NaN, below the domain or
     *     positive (the double nearest {@code −1/e} gives {@code −1}); {@code −∞} for {@code ±0}
     */
    public static double wm1(double z) {
        if (!(z > BRANCH_POINT_DOUBLE)) {
            return z == BRANCH_POINT_DOUBLE ? -1.0 : Double.NaN;
        }
        if (z >= 0.0) {
            return z == 0.0 ? Double.NEGATIVE_INFINITY : Double.NaN;
        }
        double y = fastWm1(z);
        return y == y ? y : slowWm1(z);
    }

    /**
     * Returns {@code 1 + W₀(−1/e + d)} from the offset {@code d} of the argument above the branch point.
     *
     * <p>Near the branch point {@code 1 + W₀} is about {@code √(2e·d)}: a caller that can form {@code d} without
     * cancellation (as {@code d = Vkμ / (e·(T_d·kμ + 1))} in the Ni–Harwood model) keeps full relative accuracy
     * here, where {@code w0(d − 1/e) + 1} would keep none.
     *
     * @param d the offset {@code z + 1/e}; the domain is {@code [0, +∞]}
     * @return {@code 1 + W₀(−1/e + d)} in {@code [0, +∞]}, correctly rounded; NaN if {@code d} is NaN or negative;
     *     {@code 0} for {@code ±0}; {@code +∞} for {@code +∞}
     */
    public static double onePlusW0(double d) {
        if (!(d > 0.0)) {
            return d == 0.0 ? 0.0 : Double.NaN;
        }
        if (d == Double.POSITIVE_INFINITY) {
            return d;
        }
        double y = fastOffset(d, false);
        return y == y ? y : slowOffset(d, false);
    }

    /**
     * Returns {@code 1 + W₋₁(−1/e + d)} from the offset {@code d} of the argument above the branch point.
     *
     * <p>The counterpart of {@link #onePlusW0(double)} on the lower branch, where {@code 1 + W₋₁} is about
     * {@code −√(2e·d)} near the branch point.
     *
     * @param d the offset {@code z + 1/e}; the domain is {@code [0, 1/e)}
     * @return {@code 1 + W₋₁(−1/e + d)} in {@code (−∞, 0]}, correctly rounded; NaN if {@code d} is NaN, negative or
     *     at least {@code 1/e} (then {@code z ≥ 0}); {@code 0} for {@code ±0}
     */
    public static double onePlusWm1(double d) {
        if (!(d > 0.0)) {
            return d == 0.0 ? 0.0 : Double.NaN;
        }
        if (d >= INV_E_HI) {
            // INV_E_HI exceeds 1/e, so d − 1/e > 0 here.
            return Double.NaN;
        }
        double y = fastOffset(d, true);
        return y == y ? y : slowOffset(d, true);
    }

    // ---------------------------------------------------------------------------------------------------------
    // The three levels: fast (certified or NaN), precise (certified or NaN), exact.

    /** W₀ for {@code z > −1/e} (double), by the fast steps: the correctly rounded value, or NaN if not certain. */
    static double fastW0(double z) {
        if (Math.abs(z) <= TAYLOR_MAX) {
            return taylor(z);
        }
        if (z > W0_MIDDLE_MAX) {
            return z == Double.POSITIVE_INFINITY ? z : large(z, 0.0, false, false, false);
        }
        if (z <= SERIES_MAX_ARGUMENT) {
            return seriesPlain(z, false, false);
        }
        return middle(z + INV_E_HI, z, 0.0, false, false, false);
    }

    /** W₋₁ for {@code −1/e < z < 0} (doubles), by the fast steps, or NaN. */
    static double fastWm1(double z) {
        if (z <= SERIES_MAX_ARGUMENT) {
            return seriesPlain(z, true, false);
        }
        double d = z + INV_E_HI;
        return d < WM1_MIDDLE_MAX_OFFSET ? middle(d, z, 0.0, true, false, false) : large(z, 0.0, true, false, false);
    }

    /** {@code 1 + W(−1/e + d)} for a finite offset {@code 0 < d} ({@code d < 1/e} on the lower branch), or NaN. */
    static double fastOffset(double d, boolean lower) {
        return offset(d, lower, false);
    }

    /** W₀ when the fast steps declined: the precise steps, then exact arithmetic. */
    static double slowW0(double z) {
        double y = preciseW0(z);
        return y == y ? y : LambertWExact.w0(z, startW0(z));
    }

    /** W₋₁ when the fast steps declined. */
    static double slowWm1(double z) {
        double y = preciseWm1(z);
        return y == y ? y : LambertWExact.wm1(z, startWm1(z));
    }

    /** {@code 1 + W(−1/e + d)} when the fast steps declined. */
    static double slowOffset(double d, boolean lower) {
        double y = preciseOffset(d, lower);
        return y == y ? y : LambertWExact.onePlus(d, lower, startOffset(d, lower));
    }

    /** W₀ by the precise steps, or NaN if they cannot certify it. */
    static double preciseW0(double z) {
        if (Math.abs(z) <= TAYLOR_MAX) {
            return Math.abs(z) < IDENTITY_MAX ? z : precise(nearZero(z), z, 0.0, false, false);
        }
        if (z > W0_MIDDLE_MAX) {
            return large(z, 0.0, false, false, true);
        }
        if (z <= SERIES_MAX_ARGUMENT) {
            return seriesPlain(z, false, true);
        }
        return middle(z + INV_E_HI, z, 0.0, false, false, true);
    }

    /** W₋₁ by the precise steps, or NaN. */
    static double preciseWm1(double z) {
        if (z <= SERIES_MAX_ARGUMENT) {
            return seriesPlain(z, true, true);
        }
        double d = z + INV_E_HI;
        return d < WM1_MIDDLE_MAX_OFFSET ? middle(d, z, 0.0, true, false, true) : large(z, 0.0, true, false, true);
    }

    /** {@code 1 + W(−1/e + d)} by the precise steps, or NaN. */
    static double preciseOffset(double d, boolean lower) {
        return d < TINY_OFFSET ? Double.NaN : offset(d, lower, true);
    }

    /** A start for W₀ accurate to about 10⁻¹¹ (for the exact last resort). */
    private static double startW0(double z) {
        if (Math.abs(z) <= TAYLOR_MAX) {
            return nearZero(z);
        }
        if (z <= SERIES_MAX_ARGUMENT) {
            return startNearBranch(Math.sqrt(2.0 * (1.0 + E_HI * z)), false) - 1.0;
        }
        return z > W0_MIDDLE_MAX ? startLarge(z, false) : startMiddle(z + INV_E_HI, z, false);
    }

    /** A start for W₋₁ (for the exact last resort). */
    private static double startWm1(double z) {
        if (z <= SERIES_MAX_ARGUMENT) {
            return startNearBranch(Math.sqrt(2.0 * (1.0 + E_HI * z)), true) - 1.0;
        }
        double d = z + INV_E_HI;
        return d < WM1_MIDDLE_MAX_OFFSET ? startMiddle(d, z, true) : startLarge(z, true);
    }

    /** A start for {@code 1 + W(−1/e + d)} (for the exact last resort). */
    private static double startOffset(double d, boolean lower) {
        if (E_HI * d <= SERIES_MAX_OFFSET) {
            return startNearBranch(Math.sqrt(2.0 * E_HI * d), lower);
        }
        double z = d - INV_E_HI;
        if (lower) {
            return 1.0 + (d < WM1_MIDDLE_MAX_OFFSET ? startMiddle(d, z, true) : startLarge(z, true));
        }
        return 1.0 + (z > W0_MIDDLE_MAX ? startLarge(z, false) : startMiddle(d, z, false));
    }

    /** The offset entry points: {@code 1 + W(−1/e + d)}, by the fast or the precise steps; NaN if not certain. */
    private static double offset(double d, boolean lower, boolean precise) {
        if (d < TINY_OFFSET) {
            return nearBranchPoint(d, lower);
        }
        double hi = E_HI * d;
        if (hi <= SERIES_MAX_OFFSET) {
            double lo = Math.fma(E_HI, d, -hi) + E_LO * d;
            double x = startNearBranch(Math.sqrt(2.0 * hi), lower);
            return precise ? preciseSeries(x, hi, lo, 0.0, false) : series(x, hi, lo, 0.0, false);
        }
        // z = d − 1/e as a normalised double-double.
        double zh = d - INV_E_HI;
        double zl = twoSumError(d, -INV_E_HI, zh) - INV_E_LO;
        double z = zh + zl;
        zl = zl - (z - zh);
        if (lower ? d < WM1_MIDDLE_MAX_OFFSET : z <= W0_MIDDLE_MAX) {
            return middle(d, z, zl, lower, true, precise);
        }
        return large(z, zl, lower, true, precise);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Near zero and near the branch point

    /**
     * W₀ for {@code |z| ≤ 2⁻⁸} from its Taylor series, certified (or NaN): Σ (−n)ⁿ⁻¹/n! zⁿ to z¹¹, the leading
     * {@code z − z²} carried in double-double; below 2⁻⁵⁴ the result is z itself.
     */
    private static double taylor(double z) {
        if (Math.abs(z) < IDENTITY_MAX) {
            return z;
        }
        double sq = z * z;
        double cube = z * sq;
        double s = z - sq;
        double tail = ((z - s) - sq - Math.fma(z, z, -sq)) + cube * taylorRest(z);
        double bound = Math.fma(TAYLOR_ERROR, Math.abs(cube), 0x1p-103 * Math.abs(z));
        return certify(s, tail, bound);
    }

    /** W₀ for {@code |z| ≤ 2⁻⁸} from the same series, uncertified (a start for the precise step). */
    private static double nearZero(double z) {
        double sq = z * z;
        double s = z - sq;
        return s + (((z - s) - sq - Math.fma(z, z, -sq)) + z * sq * taylorRest(z));
    }

    /** {@code Σ_{n≥3} (−n)ⁿ⁻¹/n! zⁿ⁻³} to n = 11. */
    private static double taylorRest(double z) {
        return 1.5 + z * (-8.0 / 3 + z * (125.0 / 24 + z * (-54.0 / 5 + z * (16807.0 / 720
                + z * (-16384.0 / 315 + z * (531441.0 / 4480 + z * (-156250.0 / 567
                + z * (2357947691.0 / 3628800))))))));
    }

    /**
     * W of a plain argument {@code z} with {@code 1 + e·z ≤ 2⁻¹¹}: {@code 1 + e·z} is formed as a double-double
     * ({@code 1 + hi} is exact by Sterbenz's lemma), the start is taken from {@code p = √(2(1 + e·z))}, and the
     * series step refines {@code x = 1 + W}; the result {@code x − 1} is rounded once.
     */
    private static double seriesPlain(double z, boolean lower, boolean precise) {
        double hi = E_HI * z;
        double lo = Math.fma(E_HI, z, -hi) + E_LO * z;
        double offset = 1.0 + hi;
        double sum = offset + lo;
        double err = twoSumError(offset, lo, sum);
        double x = startNearBranch(Math.sqrt(2.0 * sum), lower);
        return precise ? preciseSeries(x, sum, err, OFFSET_ERROR, true) : series(x, sum, err, OFFSET_ERROR, true);
    }

    /** {@code 1 + W} for {@code p ≤ 2⁻⁵} on either branch, to about 10⁻¹⁴. */
    private static double startNearBranch(double p, boolean lower) {
        double[] c = lower ? BRANCHM1 : BRANCH0;
        double p2 = p * p;
        return p * ((c[0] + p * c[1]) + p2 * (c[2] + p * c[3]) + (p2 * p2) * (c[4] + p * c[5]));
    }

    /**
     * One Newton step for {@code x = 1 + W} near the branch point, solving {@code G(x) = (x − 1)e^x + 1 = e·d} with
     * {@code G(x) = x²/2 + x³/3 + Σ_{n≥4} (n − 1)xⁿ/n!} so that nothing cancels; {@code e·d = edh + edl} to within
     * {@code 2⁻¹⁰⁴·e·d + edError}. Returns the certified {@code x} (or {@code x − 1} when {@code minusOne}), or NaN.
     */
    private static double series(double x, double edh, double edl, double edError, boolean minusOne) {
        double ex = Math.fma(x, Math.fma(x, Math.fma(x, Math.fma(x, Math.fma(x, 1.0 / 120, 1.0 / 24), 1.0 / 6), 0.5),
                1.0), 1.0);
        double inverse = 1.0 / (x * ex);
        double delta = -seriesResidual(x, edh, edl) * inverse;
        double ax = Math.abs(x);
        if (!(Math.abs(delta) <= START_ERROR * ax & ax <= 0x1.04p-5)) {
            return Double.NaN;
        }
        double sq = x * x;
        double bound = Math.fma(SERIES_RESIDUAL, sq * sq, Math.fma(OFFSET_ERROR, edh, edError)) * Math.abs(inverse)
                + SERIES_STEP * ax;
        if (minusOne) {
            double s = x - 1.0;
            double tail = (x - (s + 1.0)) + delta;
            return certify(s, tail, bound + 0x1p-52 * Math.abs(tail));
        }
        return certify(x, delta, bound);
    }

    /** {@code G(x) − e·d} for {@code |x| ≤ 2⁻⁵}, with {@code x²/2 + x³/3} in double-double. */
    private static double seriesResidual(double x, double edh, double edl) {
        double sq = x * x;
        double sqErr = Math.fma(x, x, -sq);
        double c1 = x * THIRD_HI;
        double c2 = Math.fma(x, THIRD_HI, -c1) + x * THIRD_LO;
        double e1 = sq * c1;
        double e2 = Math.fma(sq, c1, -e1) + sq * c2 + sqErr * c1;
        double rest = Math.fma(x, Math.fma(x, Math.fma(x, Math.fma(x, Math.fma(x, Math.fma(x, Math.fma(x,
                1.0 / 3991680, 1.0 / 403200), 1.0 / 45360), 1.0 / 5760), 1.0 / 840), 1.0 / 144), 1.0 / 30), 1.0 / 8);
        // Both sums of the leading terms are exact (Sterbenz): they cancel to the size of the next term.
        double lead = (0.5 * sq - edh) + e1;
        return lead + (0.5 * sqErr + e2 + (sq * sq) * rest - edl);
    }

    /**
     * Two precise Newton steps for {@code x = 1 + W} near the branch point: {@code G(x)/x²} summed by Horner's rule
     * in double-double to about 2⁻⁹⁰. Returns the certified {@code x} (or {@code x − 1}), or NaN.
     */
    private static double preciseSeries(double x, double edh, double edl, double edError, boolean minusOne) {
        double x1 = x + preciseSeriesCorrection(x, edh, edl);
        double delta = preciseSeriesCorrection(x1, edh, edl);
        if (!(Math.abs(delta) <= PRECISE_START_ERROR * Math.abs(x1) & Math.abs(x1) <= 0x1.04p-5)) {
            return Double.NaN;
        }
        double slope = 1.0 / Math.abs(x1 * Math.exp(x1));
        double bound = 1.01 * (PRECISE_SERIES_RESIDUAL * edh + edError) * slope
                + Math.abs(delta) * (PRECISE_SLOPE + 0.6 * Math.abs(delta / x1));
        if (minusOne) {
            double s = x1 - 1.0;
            double tail = (x1 - (s + 1.0)) + delta;
            return certify(s, tail, bound + 0x1p-52 * Math.abs(tail));
        }
        return certify(x1, delta, bound);
    }

    /** The Newton correction {@code −(G(x) − e·d)/G'(x)} with {@code G} to about 2⁻⁹⁰. */
    private static double preciseSeriesCorrection(double x, double edh, double edl) {
        // Horner's rule: the coefficients of x⁶ to x¹⁰ in double, then those of x⁵ to x⁰ in double-double.
        double hh = 1.0 / 5760 + x * (1.0 / 45360 + x * (1.0 / 403200 + x * (1.0 / 3991680
                + x * (11.0 / 479001600))));
        double hl = 0.0;
        for (int k = SERIES_HI.length - 1; k >= 0; k--) {
            double ph = hh * x;
            double pl = Math.fma(hh, x, -ph) + hl * x;
            double sh = ph + SERIES_HI[k];
            double sl = twoSumError(ph, SERIES_HI[k], sh) + pl + SERIES_LO[k];
            hh = sh + sl;
            hl = sl - (hh - sh);
        }
        double sq = x * x;
        double sqErr = Math.fma(x, x, -sq);
        double gh = sq * hh;
        double gl = Math.fma(sq, hh, -gh) + sq * hl + sqErr * hh;
        double residual = (gh - edh) + (gl - edl);
        return -residual / (x * Math.exp(x));
    }

    /**
     * {@code 1 + W = ±p − p²/3} with {@code p = √(2e·d)}, for {@code d < 2⁻¹²⁰} where the next term is 2⁻¹¹⁵ times
     * smaller; {@code p} is the square root of a double-double, corrected once, and {@code d} is scaled by 2⁶⁰⁰ so
     * that subnormal offsets keep their digits. Certified to 2⁻¹⁰⁰ relative, or NaN.
     */
    private static double nearBranchPoint(double d, boolean lower) {
        double scaled = d * 0x1p600;
        double hi = 2.0 * E_HI * scaled;
        double lo = 2.0 * (Math.fma(E_HI, scaled, -0.5 * hi) + E_LO * scaled);
        double root = Math.sqrt(hi);
        double correction = (Math.fma(-root, root, hi) + lo) / (2.0 * root);
        // p²/3 in the scaled units of root (2³⁰⁰ p): root² · 2⁻³⁰⁰ / 3.
        double square = root * root * 0x1p-300 / 3.0;
        double head = lower ? -root : root;
        double tail = lower ? -(correction + square) : correction - square;
        return certify(head, tail, 0x1p-100 * root) * 0x1p-300;
    }

    // ---------------------------------------------------------------------------------------------------------
    // The middle range

    /**
     * W (or {@code 1 + W}) in the middle range from {@code d = z + 1/e} in {@code [2⁻¹³, 4)} and {@code z = zh + zl}:
     * the exponent and three leading mantissa bits of {@code d} select a piece and its centre, and the piece's
     * polynomial approximates {@code e^−W = W/z}, so {@code W = z·q} keeps its relative accuracy where it vanishes
     * (degree 6 on the principal branch, 7 on the lower one). Its first three terms give the estimate that picks
     * the exponential's table point while the rest is evaluated. Then one fast Newton step (or the precise steps).
     */
    private static double middle(double d, double zh, double zl, boolean lower, boolean onePlus, boolean precise) {
        double w = startMiddle(d, zh, lower);
        return precise ? precise(w, zh, zl, lower, onePlus)
                : middleStep(w, estimateMiddle(d, zh, lower), zh, zl, lower, onePlus);
    }

    /** The start of {@link #middle}: {@code z·q(u)}. */
    private static double startMiddle(double d, double z, boolean lower) {
        long bits = Double.doubleToRawLongBits(d);
        double u = d - Double.longBitsToDouble((bits & 0xFFFE_0000_0000_0000L) | 0x0001_0000_0000_0000L);
        double u2 = u * u;
        double[] t = lower ? MIDDLEM1 : MIDDLE0;
        int at = (lower ? 8 : 7) * ((int) (bits >>> 49) - 8 * (1023 - 13));
        double high = lower ? t[at + 6] + u * t[at + 7] : t[at + 6];
        return z * ((t[at] + u * t[at + 1]) + u2 * (t[at + 2] + u * t[at + 3])
                + (u2 * u2) * ((t[at + 4] + u * t[at + 5]) + u2 * high));
    }

    /** The first three terms of {@link #startMiddle}, which pick the exponential's table point. */
    private static double estimateMiddle(double d, double z, boolean lower) {
        long bits = Double.doubleToRawLongBits(d);
        double u = d - Double.longBitsToDouble((bits & 0xFFFE_0000_0000_0000L) | 0x0001_0000_0000_0000L);
        double[] t = lower ? MIDDLEM1 : MIDDLE0;
        int at = (lower ? 8 : 7) * ((int) (bits >>> 49) - 8 * (1023 - 13));
        return z * Math.fma(u, Math.fma(u, t[at + 2], t[at + 1]), t[at]);
    }

    /**
     * One Newton step in the middle range for {@code f(w) = w·e^w − (zh + zl)}, certified or NaN: {@code e^w} is
     * {@code e^{j/256}·e^r} with the table point {@code j/256} taken from {@code estimate} and {@code r = w − j/256}
     * exact (see {@link #correction}).
     */
    private static double middleStep(double w, double estimate, double zh, double zl, boolean lower,
            boolean onePlus) {
        double big = Math.fma(estimate, 256.0, ROUNDER);
        int j = (int) Double.doubleToRawLongBits(big);
        double jd = big - ROUNDER;
        double r = w - jd * 0x1p-8;
        int at = 2 * (j - EXP_256_FIRST);
        double eh = EXP_256[at];
        double inverse = 1.0 / (eh * (1.0 + w));
        double delta = correction(w, r, 0.0, eh, EXP_256[at + 1], zh, zl, inverse);
        double aw = Math.abs(w);
        boolean side = lower ? w <= -1.0 - 0x1p-6 : w >= -1.0 + 0x1p-6 & (aw >= 0x1p-9 | jd == 0.0);
        if (!(Math.abs(delta) <= START_ERROR * aw & Math.abs(r) <= MAX_REDUCED & side)) {
            return Double.NaN;
        }
        double bound = Math.fma(MIDDLE_RESIDUAL, Math.abs(zh * inverse), MIDDLE_STEP * aw);
        return onePlus ? certifyOnePlus(w, delta, bound) : certify(w, delta, bound);
    }

    /**
     * The Newton correction {@code −f(w)/f'(w)} for {@code f(w) = w·e^w − z}, with everything scaled by
     * {@code 2^−m}: {@code e^w·2^−m = (th + tl)·e^{r + rErr}} ({@code |r| ≤ 2⁻⁸}, {@code th + tl} a double-double
     * table value) and {@code z·2^−m = zs + zsl}. The residual is evaluated in double-double: {@code w·th = p + pe}
     * and {@code p·r = q + qe} split exactly by {@link Math#fma}, {@code p − zs} exact by Sterbenz's lemma near the
     * root, and {@code e^r − 1 − r = r²·P(r)} with P of degree 5. The derivative's reciprocal is
     * {@code e^{−r}·inverse} with {@code inverse = 1/(th·(1 + w))} and {@code e^{−r}} from four terms, so the
     * division starts as soon as the table value is known.
     */
    private static double correction(double w, double r, double rErr, double th, double tl, double zs,
            double zsl, double inverse) {
        double r2 = r * r;
        double expMinusR = 1.0 - r + r2 * Math.fma(r, -1.0 / 6, 0.5);
        double poly = Math.fma(r2, Math.fma(r2, Math.fma(r, 1.0 / 5040, 1.0 / 720), Math.fma(r, 1.0 / 120, 1.0 / 24)),
                Math.fma(r, 1.0 / 6, 0.5));
        double p = w * th;
        double pe = Math.fma(w, th, -p);
        double q = p * r;
        double qe = Math.fma(p, r, -q);
        double small = Math.fma(p * r2, poly, (Math.fma(p, rErr, qe) - zsl) + (pe + w * tl) * (1.0 + r));
        double f = ((p - zs) + q) + small;
        return -f * (inverse * expMinusR);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Large |W|

    /**
     * W (or {@code 1 + W}) for large {@code |W|} (W₀ above {@code z = 3}, W₋₁ above {@code z = −0.118}): with
     * {@code L = ln|z|} in {@code [2ᵏ(1 + i/8), 2ᵏ(1 + (i + 1)/8))}, a degree-7 polynomial of {@code W/L} in
     * {@code |L|} minus the piece's centre; {@code L} comes from a table logarithm accurate to about 10⁻¹⁵. Then one
     * fast Newton step (or the precise steps).
     */
    private static double large(double zh, double zl, boolean lower, boolean onePlus, boolean precise) {
        double l = logAbs(zh, lower);
        double s = Math.abs(l);
        long bits = Double.doubleToRawLongBits(s);
        double u = s - Double.longBitsToDouble((bits & 0xFFFE_0000_0000_0000L) | 0x0001_0000_0000_0000L);
        double[] t = lower ? LARGEM1 : LARGE0;
        int at = 8 * ((int) (bits >>> 49) - 8 * (lower ? 1024 : 1023));
        double w = l * largePolynomial(t, at, u);
        if (precise) {
            return precise(w, zh, zl, lower, onePlus);
        }
        // The first three terms, in units of ln2/128, pick the exponential's table point while the rest is
        // evaluated; L·128/ln2 is formed while the piece's coefficients are loaded.
        double scaled = l * INV_LN2_128;
        double estimate = Math.fma(scaled * u, Math.fma(u, t[at + 2], t[at + 1]), scaled * t[at]);
        return largeStep(w, estimate, zh, zl, lower, onePlus);
    }

    /** The start of {@link #large}: {@code L·h(u)}. */
    private static double startLarge(double z, boolean lower) {
        double l = logAbs(z, lower);
        double s = Math.abs(l);
        long bits = Double.doubleToRawLongBits(s);
        double u = s - Double.longBitsToDouble((bits & 0xFFFE_0000_0000_0000L) | 0x0001_0000_0000_0000L);
        double[] t = lower ? LARGEM1 : LARGE0;
        int at = 8 * ((int) (bits >>> 49) - 8 * (lower ? 1024 : 1023));
        return l * largePolynomial(t, at, u);
    }

    /** The piece's polynomial {@code h(u)} of degree 7, its coefficients at {@code t[at]} to {@code t[at + 7]}. */
    private static double largePolynomial(double[] t, int at, double u) {
        double u2 = u * u;
        return Math.fma(u2 * u2, Math.fma(u2, Math.fma(u, t[at + 7], t[at + 6]), Math.fma(u, t[at + 5], t[at + 4])),
                Math.fma(u2, Math.fma(u, t[at + 3], t[at + 2]), Math.fma(u, t[at + 1], t[at])));
    }

    /**
     * {@code ln z} ({@code ln(−z)} when {@code negative}) to about 10⁻¹⁵ absolute for the start: {@code ln m} of
     * the mantissa from a 128-entry table of {@code ln(1/c)} and four terms of {@code ln(1 + y)},
     * {@code |y| ≤ 2⁻⁸}. Negative arguments are scaled by 2⁶⁴ first, so that subnormals are normal.
     */
    private static double logAbs(double z, boolean negative) {
        double a = negative ? -z * 0x1p64 : z;
        long bits = Double.doubleToRawLongBits(a);
        // The exponent as a double from its bits (2⁵² + e − (2⁵² + bias), exact): an int-to-double conversion writes
        // only the low half of its register and so waits on whatever last wrote the rest, which can chain calls.
        double exponent = Double.longBitsToDouble((bits >>> 52) | 0x4330_0000_0000_0000L)
                - (negative ? 0x1p52 + 1023 + 64 : 0x1p52 + 1023);
        int i = 2 * ((int) (bits >>> 45) & 127);
        double m = Double.longBitsToDouble((bits & 0x000F_FFFF_FFFF_FFFFL) | 0x3FF0_0000_0000_0000L);
        double y = Math.fma(m, LOG_128[i], -1.0);
        double y2 = y * y;
        double log1p = Math.fma(y2, Math.fma(y2, Math.fma(y, 0.2, -0.25), Math.fma(y, 1.0 / 3, -0.5)), y);
        return Math.fma(exponent, LN2, LOG_128[i + 1]) + log1p;
    }

    /**
     * One Newton step for large {@code |w|}, certified or NaN: {@code e^w = 2^m·2^{j/128}·e^r}, {@code k = 128m + j}
     * the integer nearest {@code estimate} (an estimate of {@code w} in units of ln2/128), {@code r = w − k·ln2/128}
     * with its rounding error {@code rErr}; the residual and its argument are scaled by {@code 2^−m} so that nothing
     * overflows or underflows (on the lower branch {@code z} is scaled by 2⁶⁴ first, as {@code 2^−m} alone may exceed
     * the double range).
     */
    private static double largeStep(double w, double estimate, double zh, double zl, boolean lower,
            boolean onePlus) {
        double big = estimate + ROUNDER;
        int k = (int) Double.doubleToRawLongBits(big);
        double kd = big - ROUNDER;
        double rHi = Math.fma(-kd, LN2_128_HI, w);
        double rLo = kd * LN2_128_LO;
        double r = rHi - rLo;
        int at = 2 * (k & 127);
        double th = EXP2_128[at];
        double inverse = 1.0 / (th * (1.0 + w));
        int m = k >> 7;
        // On the lower branch 2^−m may exceed the double range: z is scaled by 2⁶⁴ first.
        double pre = lower ? 0x1p64 : 1.0;
        double scale = Double.longBitsToDouble((long) (1023 - m - (lower ? 64 : 0)) << 52);
        double zs = zh * pre * scale;
        double delta = correction(w, r, (rHi - r) - rLo, th, EXP2_128[at + 1], zs, zl * pre * scale, inverse);
        double ad = Math.abs(delta);
        boolean side = lower ? w <= -3.0 : w >= 1.0;
        if (!(ad <= START_ERROR * Math.abs(w) & Math.abs(r) <= MAX_REDUCED & side)) {
            return Double.NaN;
        }
        double bound = Math.fma(LARGE_RESIDUAL, Math.abs(zs * inverse),
                ad * Math.fma(LARGE_NEWTON, ad, LARGE_SLOPE));
        return onePlus ? certifyOnePlus(w, delta, bound) : certify(w, delta, bound);
    }

    // ---------------------------------------------------------------------------------------------------------
    // The precise step

    /**
     * Two Newton steps from {@code w} with the residual {@code w·e^w − z} evaluated to about 2⁻⁸⁶ of {@code |z|}:
     * the first brings {@code w} within an ulp, the second is certified (its bound is about 2⁻⁸⁶ relative) or
     * NaN is returned. Valid wherever {@code |1 + W| ≥ 2⁻⁶}.
     */
    private static double precise(double w, double zh, double zl, boolean lower, boolean onePlus) {
        double w1 = w + preciseCorrection(w, zh, zl);
        double delta = preciseCorrection(w1, zh, zl);
        double ad = Math.abs(delta);
        boolean side = lower ? w1 <= -1.0 - 0x1p-6 : w1 >= -1.0 + 0x1p-6;
        if (!(ad <= PRECISE_START_ERROR * Math.abs(w1) & side)) {
            return Double.NaN;
        }
        // |z/f'(w1)| = |W e^{W − w1}/(1 + w1)|, within 2⁻²⁹ of |w1/(1 + w1)| here.
        double bound = 1.01 * PRECISE_RESIDUAL * Math.abs(w1 / (1.0 + w1))
                + ad * Math.fma(PRECISE_NEWTON, ad, PRECISE_SLOPE);
        return onePlus ? certifyOnePlus(w1, delta, bound) : certify(w1, delta, bound);
    }

    /**
     * The Newton correction {@code −(w·e^w − z)/(e^w(1 + w))} with the residual to about 2⁻⁸⁶ relative:
     * {@code e^w = 2^m·2^{i/1024}·e^r} with {@code r = w − k·ln2/1024} as an exact double-double (ln2/1024 in three
     * parts), {@code 2^{i/1024}} the product of two double-double table entries, and
     * {@code e^r − 1 = r + r²/2 + …} with {@code r²/2} exact and the rest in double ({@code |r| ≤ 2⁻¹¹·⁵}).
     */
    private static double preciseCorrection(double w, double zh, double zl) {
        double kd = Math.rint(w * INV_LN2_1024);
        int k = (int) kd;
        double rA = Math.fma(-kd, LN2_1024_A, w);
        double rB = kd * LN2_1024_B;
        double rh = rA - rB;
        double rl = twoSumError(rA, -rB, rh) - kd * LN2_1024_C;
        double sq = rh * rh;
        double cubic = rh * sq * (1.0 / 6 + rh * (1.0 / 24 + rh * (1.0 / 120 + rh * (1.0 / 720 + rh * (1.0 / 5040)))));
        double c = 0.5 * Math.fma(rh, rh, -sq) + cubic + rl * (1.0 + rh + 0.5 * sq);
        double sh = rh + 0.5 * sq;
        double sl = twoSumError(rh, 0.5 * sq, sh) + c;
        double uh = 1.0 + sh;
        double ul = twoSumError(1.0, sh, uh) + sl;
        int i = k & 1023;
        double ah = EXP2_128[2 * (i >> 3)];
        double al = EXP2_128[2 * (i >> 3) + 1];
        double bh = EXP2_1024[2 * (i & 7)];
        double bl = EXP2_1024[2 * (i & 7) + 1];
        double th = ah * bh;
        double tl = Math.fma(ah, bh, -th) + ah * bl + al * bh;
        double eh = th * uh;
        double el = Math.fma(th, uh, -eh) + th * ul + tl * uh;
        int m = k >> 10;
        double zsh = timesPowerOfTwo(zh, -m);
        double zsl = timesPowerOfTwo(zl, -m);
        double ph = w * eh;
        double pl = Math.fma(w, eh, -ph) + w * el;
        double f = (ph - zsh) + (pl - zsl);
        return -f / (eh * (1.0 + w));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Rounding tests and exact arithmetic helpers

    /**
     * The double nearest {@code head + tail} if every real number within {@code bound} of it rounds to the same
     * double, else NaN. Rounding to nearest is monotone, so it suffices that both ends round alike;
     * {@code bound} must cover the rounding of {@code tail ± bound} (at most 2⁻⁵³ of it).
     */
    private static double certify(double head, double tail, double bound) {
        double hi = head + (tail + bound);
        double lo = head + (tail - bound);
        return hi == lo ? hi : Double.NaN;
    }

    /** {@code 1 + w + delta}, certified as {@link #certify} with {@code w + delta} known to within {@code bound}. */
    private static double certifyOnePlus(double w, double delta, double bound) {
        double head = 1.0 + w;
        double tail = twoSumError(1.0, w, head) + delta;
        return certify(head, tail, bound + 0x1p-52 * Math.abs(tail));
    }

    /** The rounding error of {@code sum = fl(a + b)} (Knuth's TwoSum). */
    private static double twoSumError(double a, double b, double sum) {
        double bb = sum - a;
        return (a - (sum - bb)) + (b - bb);
    }

    /** {@code x·2^k} for {@code −1022 ≤ k ≤ 2046}, exact unless the result is subnormal. */
    private static double timesPowerOfTwo(double x, int k) {
        if (k > 1000) {
            return x * 0x1p1000 * Double.longBitsToDouble((long) (k - 1000 + 1023) << 52);
        }
        return x * Double.longBitsToDouble((long) (k + 1023) << 52);
    }
}
