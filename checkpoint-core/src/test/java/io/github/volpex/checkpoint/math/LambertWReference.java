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
 * <p>The unknown is {@code x = 1 + W}, the root on the requested branch ({@code x ≥ 0} for W₀, {@code x ≤ 0} for
 * W₋₁) of one of two residuals, both with derivative {@code x·e^x}:
 * <ul>
 *   <li>for the plain entry points, {@code R(x) = (x − 1)e^x − e·z} with {@code z} taken exactly from the double
 *       argument; near the branch point the subtraction cancels at most about 17 digits (the first double above
 *       {@code −1/e} is {@code 10⁻¹⁷} away from it), which 20 guard digits cover;</li>
 *   <li>for the offset entry points, {@code F(x) − e·d} with {@code F(x) = 1 + (x − 1)e^x} and the exact offset
 *       {@code d}. Near the branch point {@code F} is summed from its Taylor series
 *       {@code F(x) = Σ_{n≥2} (n − 1)xⁿ/n!}, whose terms all have the sign of {@code xⁿ}: nothing cancels, so the
 *       residual has full relative precision for every offset down to the smallest subnormal. (Forming
 *       {@code (x − 1)e^x − (e·d − 1)} instead loses as many digits as {@code d} has leading zeros, and at offsets
 *       near {@code 10⁻³⁴} that left Newton's method too few digits to stay on its branch.)</li>
 * </ul>
 * Newton's method never leaves the branch: a step that would cross {@code x = 0} halves {@code x} instead. Every
 * value is verified before it is returned: the Newton bound {@code |residual/derivative|} on the distance to the root
 * must be below {@code 10⁻³⁰ |x|} (and {@code 10⁻³⁰ |W|} for the plain entry points), and the root must lie on the
 * requested branch. A value that passes is right whatever seeded the iteration, so the seed may be the double under
 * test (fast: two or three Newton steps), falling back to the branch-point series or apfloat's own {@code w} when
 * that double is not usable.
 */
final class LambertWReference {

    /** Significant digits the returned references carry. */
    static final int DIGITS = 40;
    private static final int BASE_PRECISION = 70;
    /** Below this |x| the residual of the offset entry points is summed from its series. */
    private static final double SERIES_RADIUS = 0.5;
    private static final Map<Integer, Apfloat> E_BY_PRECISION = new ConcurrentHashMap<>();

    private LambertWReference() {
    }

    /** The exact value of {@code function} at {@code argument}, rounded to {@link #DIGITS} significant digits. */
    static BigDecimal exact(LambertWFunction function, double argument) {
        BigDecimal arg = new BigDecimal(argument);
        boolean lower = function.lowerBranch();
        if (function.takesOffset()) {
            return solve(arg, true, lower, BASE_PRECISION, false);
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
        // The plain residual's constant is e·z; the offset residual's is e·d, formed without a subtraction.
        Apfloat constant = e.multiply(arg);
        Apfloat d = offset ? arg : constant.add(one).divide(e);
        Apfloat x;
        double guess = seed(argument.doubleValue(), offset, lower);
        if (Double.isFinite(guess) && guess != 0.0 && (guess < 0) == lower) {
            x = new Apfloat(new BigDecimal(guess), precision);
        } else if (d.signum() > 0 && d.compareTo(new Apfloat("1e-3", precision)) < 0) {
            x = series(d, e, lower, precision);
        } else {
            Apfloat z = offset ? constant.subtract(one).divide(e) : arg;
            Apfloat seedZ = z.precision(30);
            Apcomplex seed = lower ? ApcomplexMath.w(seedZ, -1) : ApfloatMath.w(seedZ);
            x = seed.real().precision(precision).add(one);
        }
        Apfloat threshold = new Apfloat("1e-" + (precision - 8), precision);
        for (int i = 0; ; i++) {
            Apfloat step = newtonStep(x, constant, offset, precision);
            Apfloat next = x.subtract(step);
            if (next.signum() == 0 || (next.signum() < 0) != lower) {
                // The step would leave the branch: stay on it, closer to the branch point.
                next = x.divide(new Apfloat(2, precision));
            }
            x = next;
            if (ApfloatMath.abs(step).compareTo(threshold.multiply(ApfloatMath.abs(x))) <= 0) {
                break;
            }
            if (i > 200) {
                throw new AssertionError("Newton did not converge at " + argument);
            }
        }
        verify(x, constant, offset, lower, precision, plain, argument);
        return round(plain ? x.subtract(one) : x);
    }

    /** {@code residual(x) / (x·e^x)}: the Newton step, and a bound on the distance to the root once it is small. */
    private static Apfloat newtonStep(Apfloat x, Apfloat constant, boolean offset, int precision) {
        Apfloat ex = ApfloatMath.exp(x);
        Apfloat residual;
        if (!offset) {
            residual = x.subtract(new Apfloat(1, precision)).multiply(ex).subtract(constant);
        } else if (ApfloatMath.abs(x).compareTo(new Apfloat(SERIES_RADIUS, precision)) < 0) {
            residual = branchSeries(x, precision).subtract(constant);
        } else {
            residual = x.subtract(new Apfloat(1, precision)).multiply(ex).add(new Apfloat(1, precision))
                    .subtract(constant);
        }
        return residual.divide(x.multiply(ex));
    }

    /**
     * {@code 1 + (x − 1)e^x = Σ_{n≥2} (n − 1)xⁿ/n!} for {@code |x| < 1/2}, summed until a term falls below the
     * working precision of the sum (the tail is then smaller than that term, since the ratio of successive terms is
     * below {@code |x| ≤ 1/2}).
     */
    private static Apfloat branchSeries(Apfloat x, int precision) {
        Apfloat power = x.multiply(x).precision(precision);
        Apfloat factorial = new Apfloat(2, precision);
        Apfloat sum = power.divide(factorial);
        Apfloat tolerance = new Apfloat("1e-" + (precision + 5), precision);
        for (int n = 3; ; n++) {
            power = power.multiply(x);
            factorial = factorial.multiply(new Apfloat(n, precision));
            Apfloat term = power.multiply(new Apfloat(n - 1, precision)).divide(factorial);
            sum = sum.add(term);
            if (ApfloatMath.abs(term).compareTo(tolerance.multiply(ApfloatMath.abs(sum))) <= 0) {
                return sum;
            }
        }
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

    private static void verify(Apfloat x, Apfloat constant, boolean offset, boolean lower, int precision,
            boolean plain, BigDecimal arg) {
        if (x.signum() == 0 || (x.signum() < 0) != lower) {
            throw new AssertionError("root on the wrong branch at " + arg + ": 1 + W = " + x);
        }
        Apfloat bound = ApfloatMath.abs(newtonStep(x, constant, offset, precision));
        Apfloat scale = ApfloatMath.abs(plain ? x.subtract(new Apfloat(1, precision)) : x);
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

    private static Apfloat e(int precision) {
        return E_BY_PRECISION.computeIfAbsent(precision, p -> ApfloatMath.exp(new Apfloat(1, p)));
    }

    private static BigDecimal round(Apfloat value) {
        return new BigDecimal(value.toString(true)).round(new MathContext(DIGITS, RoundingMode.HALF_EVEN));
    }
}
