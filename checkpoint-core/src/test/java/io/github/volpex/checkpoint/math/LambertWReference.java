package io.github.volpex.checkpoint.math;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apfloat.Apcomplex;
import org.apfloat.ApcomplexMath;
import org.apfloat.Apfloat;
import org.apfloat.ApfloatMath;

/**
 * High-precision values of the Lambert W function with apfloat, independent of {@link LambertW}'s algorithm.
 *
 * <p>The unknown is {@code x = 1 + W}, the solution of {@code R(x) = (x − 1)e^x − e·z = 0} on the requested
 * branch ({@code x ≥ 0} for W₀, {@code x ≤ 0} for W₋₁), with {@code z} taken exactly from the double argument (or
 * {@code z = d − 1/e} from the exact offset {@code d}, then {@code e·z = e·d − 1} is formed exactly at the working
 * precision). Newton's method runs at a precision that covers the cancellation near the branch point. Each branch
 * has exactly one root, and every value is verified before it is returned: the Newton bound {@code |R(x)/R'(x)|}
 * on the distance to the root must be below {@code 10⁻³⁰ |x|} (and {@code 10⁻³⁰ |W|} for the plain entry points),
 * and the root must lie on the requested branch. A value that passes is right whatever seeded the iteration, so
 * the seed may be the double under test (fast: two or three Newton steps), falling back to apfloat's own {@code w}
 * when that double is not finite.
 */
final class LambertWReference {

    /** Significant digits the returned references carry. */
    static final int DIGITS = 40;
    private static final int BASE_PRECISION = 70;
    private static final Map<Integer, Apfloat> E_BY_PRECISION = new ConcurrentHashMap<>();

    private LambertWReference() {
    }

    /** The exact value of {@code function} at {@code argument}, rounded to {@link #DIGITS} significant digits. */
    static BigDecimal exact(LambertWFunction function, double argument) {
        BigDecimal arg = new BigDecimal(argument);
        boolean lower = function.lowerBranch();
        if (function.takesOffset()) {
            if (argument < 1e-40) {
                return seriesNearBranch(arg, lower, 120);
            }
            int lost = argument < 1.0 ? (int) Math.ceil(-Math.log10(argument)) : 0;
            return solve(arg, true, lower, BASE_PRECISION + lost, false);
        }
        if (!lower && Math.abs(argument) < 1e-40) {
            // W0(z) = z − z² + 3z³/2 − ...: three terms leave a relative error below 1e−120.
            Apfloat z = new Apfloat(arg, 200);
            Apfloat w = z.subtract(z.multiply(z)).add(new Apfloat(3, 200).multiply(z).multiply(z).multiply(z)
                    .divide(new Apfloat(2, 200)));
            return round(w);
        }
        // For plain arguments d = z + 1/e ≥ 1e−17, so 20 extra digits cover the cancellation.
        return solve(arg, false, lower, BASE_PRECISION + 20, true);
    }

    private static BigDecimal solve(BigDecimal argument, boolean offset, boolean lower, int precision, boolean plain) {
        Apfloat e = e(precision);
        Apfloat one = new Apfloat(1, precision);
        Apfloat arg = new Apfloat(argument, precision);
        // ez = e·z, from z itself or from the offset: e·z = e·d − 1.
        Apfloat ez = offset ? e.multiply(arg).subtract(one) : e.multiply(arg);
        Apfloat d = offset ? arg : ez.add(one).divide(e);
        Apfloat x;
        double guess = seed(argument.doubleValue(), offset, lower);
        if (Double.isFinite(guess) && guess != 0.0) {
            x = new Apfloat(new BigDecimal(guess), precision);
        } else if (d.signum() > 0 && d.compareTo(new Apfloat("1e-3", precision)) < 0) {
            x = series(d, e, lower, precision);
        } else {
            Apfloat z = ez.divide(e);
            Apfloat seedZ = z.precision(30);
            Apcomplex seed = lower ? ApcomplexMath.w(seedZ, -1) : ApfloatMath.w(seedZ);
            x = seed.real().precision(precision).add(one);
        }
        Apfloat threshold = new Apfloat("1e-" + (precision - 8), precision);
        for (int i = 0; ; i++) {
            Apfloat ex = ApfloatMath.exp(x);
            Apfloat r = x.subtract(one).multiply(ex).subtract(ez);
            Apfloat step = r.divide(x.multiply(ex));
            x = x.subtract(step);
            if (ApfloatMath.abs(step).compareTo(threshold.multiply(ApfloatMath.abs(x))) <= 0) {
                break;
            }
            if (i > 60) {
                throw new AssertionError("Newton did not converge at " + argument);
            }
        }
        verify(x, ez, lower, precision, plain, argument);
        return round(plain ? x.subtract(one) : x);
    }

    /** {@code 1 + W} from the implementation under test, as a seed only. */
    private static double seed(double argument, boolean offset, boolean lower) {
        if (offset) {
            return lower ? LambertW.onePlusWm1(argument) : LambertW.onePlusW0(argument);
        }
        double w = lower ? LambertW.wm1(argument) : LambertW.w0(argument);
        // Near the branch point 1 + w has few correct digits; the series seed is better there.
        return Math.abs(1.0 + w) < 1e-3 ? Double.NaN : 1.0 + w;
    }

    private static void verify(Apfloat x, Apfloat ez, boolean lower, int precision, boolean plain, BigDecimal arg) {
        Apfloat one = new Apfloat(1, precision);
        if (lower ? x.signum() > 0 : x.signum() < 0) {
            throw new AssertionError("root on the wrong branch at " + arg + ": 1 + W = " + x);
        }
        Apfloat ex = ApfloatMath.exp(x);
        Apfloat r = x.subtract(one).multiply(ex).subtract(ez);
        Apfloat bound = ApfloatMath.abs(r.divide(x.multiply(ex)));
        Apfloat scale = ApfloatMath.abs(plain ? x.subtract(one) : x);
        if (bound.compareTo(scale.multiply(new Apfloat("1e-30", precision))) > 0) {
            throw new AssertionError("reference not accurate at " + arg + ": bound " + bound.precision(5));
        }
    }

    /** {@code x = ±(p − p²/3 + 11p³/72 − 43p⁴/540 + 769p⁵/17280)} with {@code p = √(2e·d)}. */
    private static Apfloat series(Apfloat d, Apfloat e, boolean lower, int precision) {
        Apfloat p = ApfloatMath.sqrt(new Apfloat(2, precision).multiply(e).multiply(d));
        if (lower) {
            p = p.negate();
        }
        Apfloat p2 = p.multiply(p);
        Apfloat x = p.subtract(p2.divide(new Apfloat(3, precision)))
                .add(new Apfloat(11, precision).multiply(p2).multiply(p).divide(new Apfloat(72, precision)))
                .subtract(new Apfloat(43, precision).multiply(p2).multiply(p2).divide(new Apfloat(540, precision)))
                .add(new Apfloat(769, precision).multiply(p2).multiply(p2).multiply(p)
                        .divide(new Apfloat(17280, precision)));
        return x;
    }

    /** For {@code d < 10⁻⁴⁰} the five-term series alone is exact to far more than {@link #DIGITS} digits. */
    private static BigDecimal seriesNearBranch(BigDecimal d, boolean lower, int precision) {
        Apfloat e = e(precision);
        return round(series(new Apfloat(d, precision), e, lower, precision));
    }

    private static Apfloat e(int precision) {
        return E_BY_PRECISION.computeIfAbsent(precision, p -> ApfloatMath.exp(new Apfloat(1, p)));
    }

    private static BigDecimal round(Apfloat value) {
        return new BigDecimal(value.toString(true)).round(new MathContext(DIGITS, RoundingMode.HALF_EVEN));
    }
}
