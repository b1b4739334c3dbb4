package io.github.volpex.checkpoint.math;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The last resort of {@link LambertW}: the correctly rounded value by Newton's method in decimal arithmetic of
 * growing precision, for arguments whose exact value lies so close to a midpoint between two doubles that the
 * double-double steps cannot decide how it rounds.
 *
 * <p>At a working precision of {@code P} digits the root is enclosed in an interval (the Newton step's size twice,
 * plus the arithmetic's error) and both ends are rounded to doubles ({@link BigDecimal#doubleValue()} rounds to
 * nearest and is monotone); when they agree, that double is the answer, otherwise the precision doubles. This ends:
 * W of a nonzero double is never a midpoint between doubles, since {@code w·e^w} is transcendental for every
 * rational {@code w ≠ 0} (Lindemann–Weierstrass), and so is {@code (m − 1)e^{m−1} + e^{−1}} for the offset entry
 * points.
 *
 * <p>Two formulations keep the digits that matter: near the branch point ({@code |1 + W| < 1/2}) the unknown is
 * {@code x = 1 + W} and the equation {@code Σ_{n≥2} (n − 1)xⁿ/n! = e·d} has no cancellation; elsewhere the unknown is
 * {@code w} and the equation {@code w·e^w = z}, with {@code z = d − 1/e} carried to as many extra digits as the
 * subtraction cancels. Allocates; stateless and thread-safe.
 */
final class LambertWExact {

    private static final BigDecimal TWO = BigDecimal.valueOf(2);
    private static final BigDecimal HALF = new BigDecimal("0.5");
    private static final BigDecimal SMALL = new BigDecimal("0.00390625");
    /** The first working precision, in significant decimal digits. */
    private static final int FIRST_DIGITS = 40;
    /** Beyond this precision something is wrong: W of a double is never a midpoint. */
    private static final int MAX_DIGITS = 1 << 16;

    private LambertWExact() {
    }

    /** W₀(z), correctly rounded; {@code guess} is a double near it. */
    static double w0(double z, double guess) {
        return solve(z, false, false, guess + 1.0);
    }

    /** W₋₁(z), correctly rounded; {@code guess} is a double near it. */
    static double wm1(double z, double guess) {
        return solve(z, false, true, guess + 1.0);
    }

    /** {@code 1 + W(−1/e + d)}, correctly rounded; {@code guess} is a double near it. */
    static double onePlus(double d, boolean lower, double guess) {
        return solve(d, true, lower, guess);
    }

    /**
     * The correctly rounded value of {@code W(argument)} (plain) or {@code 1 + W(−1/e + argument)} (offset) on the
     * requested branch, from a guess of {@code 1 + W}.
     */
    private static double solve(double argument, boolean offset, boolean lower, double guessOnePlusW) {
        BigDecimal arg = new BigDecimal(argument);
        for (int digits = FIRST_DIGITS; digits <= MAX_DIGITS; digits *= 2) {
            double result = Math.abs(guessOnePlusW) < 0.5
                    ? nearBranch(arg, offset, lower, guessOnePlusW, digits)
                    : away(arg, offset, lower, guessOnePlusW - 1.0, digits);
            if (result == result) {
                return result;
            }
        }
        throw new ArithmeticException("Lambert W did not resolve at " + argument + " within " + MAX_DIGITS
                + " digits");
    }

    /** {@code x = 1 + W} from {@code Σ_{n≥2} (n − 1)xⁿ/n! = T}, {@code T = e·d} or {@code 1 + e·z}. */
    private static double nearBranch(BigDecimal arg, boolean offset, boolean lower, double guess, int digits) {
        // 1 + e·z cancels to about x²/2: carry that many more digits.
        int lost = offset ? 0 : digitsBelowOne(guess * guess / 2);
        MathContext mc = new MathContext(digits + lost + 10, RoundingMode.HALF_EVEN);
        BigDecimal e = exp(BigDecimal.ONE, mc);
        BigDecimal target = offset ? e.multiply(arg, mc) : BigDecimal.ONE.add(e.multiply(arg, mc), mc);
        BigDecimal x = new BigDecimal(guess);
        BigDecimal step = BigDecimal.ZERO;
        BigDecimal derivative = BigDecimal.ONE;
        BigDecimal tolerance = BigDecimal.ONE.scaleByPowerOfTen(-(digits + 8));
        for (int i = 0; i < 200; i++) {
            derivative = x.multiply(exp(x, mc), mc);
            step = series(x, mc).subtract(target, mc).divide(derivative, mc);
            BigDecimal next = x.subtract(step, mc);
            if (next.signum() == 0 || (next.signum() < 0) != lower) {
                // The step would leave the branch: stay on it, closer to the branch point.
                next = x.multiply(HALF);
            }
            x = next;
            if (step.abs().compareTo(tolerance.multiply(x.abs())) <= 0) {
                break;
            }
        }
        // The root lies within twice the last step of x (Newton–Kantorovich, as |G''/G'| ≤ 2/|x| here) plus the
        // effect of the residual's rounding: the lost digits are carried, so it stays below 10⁻⁽ᵈⁱᵍⁱᵗˢ⁺⁶⁾ of T.
        derivative = x.multiply(exp(x, mc), mc);
        step = series(x, mc).subtract(target, mc).divide(derivative, mc);
        BigDecimal arithmetic = target.abs().scaleByPowerOfTen(-(digits + 5)).divide(derivative.abs(), mc);
        BigDecimal radius = step.abs().multiply(TWO).add(arithmetic).multiply(new BigDecimal("1.01"), mc);
        BigDecimal value = offset ? x : x.subtract(BigDecimal.ONE);
        return enclose(value, radius, x.signum() != 0 && (x.signum() < 0) == lower);
    }

    /** {@code w} from {@code w·e^w = z}, {@code z} the plain argument or {@code d − 1/e}. */
    private static double away(BigDecimal arg, boolean offset, boolean lower, double guess, int digits) {
        // d − 1/e cancels as many digits as d exceeds |z| by.
        double zApprox = offset ? guess * Math.exp(guess) : arg.doubleValue();
        int lost = offset ? digitsBelowOne(Math.abs(zApprox) / Math.max(arg.doubleValue(), Double.MIN_NORMAL)) : 0;
        MathContext mc = new MathContext(digits + 10, RoundingMode.HALF_EVEN);
        BigDecimal z = arg;
        if (offset) {
            MathContext wide = new MathContext(digits + lost + 12, RoundingMode.HALF_EVEN);
            z = arg.subtract(BigDecimal.ONE.divide(exp(BigDecimal.ONE, wide), wide), wide);
        }
        BigDecimal minusOne = BigDecimal.ONE.negate();
        BigDecimal w = new BigDecimal(guess);
        BigDecimal step = BigDecimal.ZERO;
        BigDecimal derivative = BigDecimal.ONE;
        BigDecimal tolerance = BigDecimal.ONE.scaleByPowerOfTen(-(digits + 8));
        for (int i = 0; i < 200; i++) {
            BigDecimal ew = exp(w, mc);
            derivative = ew.multiply(w.add(BigDecimal.ONE), mc);
            step = w.multiply(ew, mc).subtract(z, mc).divide(derivative, mc);
            BigDecimal next = w.subtract(step, mc);
            if ((next.compareTo(minusOne) < 0) != lower) {
                next = w.add(minusOne).multiply(HALF);
            }
            w = next;
            if (step.abs().compareTo(tolerance.multiply(w.abs())) <= 0) {
                break;
            }
        }
        // Within twice the last step (|f''/f'| = |2 + w|/|1 + w| ≤ 3 here) plus 10⁻⁽ᵈⁱᵍⁱᵗˢ⁾ of |z| over f'.
        BigDecimal ew = exp(w, mc);
        derivative = ew.multiply(w.add(BigDecimal.ONE), mc);
        step = w.multiply(ew, mc).subtract(z, mc).divide(derivative, mc);
        BigDecimal arithmetic = z.abs().scaleByPowerOfTen(-digits).divide(derivative.abs(), mc);
        BigDecimal radius = step.abs().multiply(TWO).add(arithmetic).multiply(new BigDecimal("1.01"), mc);
        BigDecimal value = offset ? w.add(BigDecimal.ONE) : w;
        return enclose(value, radius, (w.compareTo(minusOne) < 0) == lower);
    }

    /** The double both ends of {@code value ± radius} round to, or NaN if they differ (or the branch is wrong). */
    private static double enclose(BigDecimal value, BigDecimal radius, boolean onBranch) {
        if (!onBranch) {
            return Double.NaN;
        }
        double low = value.subtract(radius).doubleValue();
        double high = value.add(radius).doubleValue();
        return low == high ? low : Double.NaN;
    }

    /** {@code Σ_{n≥2} (n − 1)xⁿ/n!} for {@code |x| < 1/2}: its terms shrink by at least half each. */
    private static BigDecimal series(BigDecimal x, MathContext mc) {
        BigDecimal power = x.multiply(x, mc);
        BigDecimal factorial = TWO;
        BigDecimal sum = power.divide(factorial, mc);
        BigDecimal tolerance = sum.abs().scaleByPowerOfTen(-(mc.getPrecision() + 2));
        for (int n = 3; ; n++) {
            power = power.multiply(x, mc);
            factorial = factorial.multiply(BigDecimal.valueOf(n));
            BigDecimal term = power.multiply(BigDecimal.valueOf(n - 1)).divide(factorial, mc);
            sum = sum.add(term, mc);
            if (term.abs().compareTo(tolerance) <= 0) {
                return sum;
            }
        }
    }

    /**
     * {@code e^y} to the precision of {@code mc}: {@code y} is halved {@code s} times (exactly) to below 2⁻⁸, the
     * Taylor series summed with {@code s/3 + 10} extra digits, and the sum squared {@code s} times.
     */
    static BigDecimal exp(BigDecimal y, MathContext mc) {
        int halvings = 0;
        BigDecimal r = y;
        while (r.abs().compareTo(SMALL) > 0) {
            r = r.multiply(HALF);
            halvings++;
        }
        MathContext inner = new MathContext(mc.getPrecision() + halvings / 3 + 10, RoundingMode.HALF_EVEN);
        BigDecimal sum = BigDecimal.ONE;
        BigDecimal term = BigDecimal.ONE;
        BigDecimal tolerance = BigDecimal.ONE.scaleByPowerOfTen(-(inner.getPrecision() + 2));
        for (int n = 1; ; n++) {
            term = term.multiply(r, inner).divide(BigDecimal.valueOf(n), inner);
            sum = sum.add(term, inner);
            if (term.abs().compareTo(tolerance) <= 0) {
                break;
            }
        }
        for (int i = 0; i < halvings; i++) {
            sum = sum.multiply(sum, inner);
        }
        return sum.round(mc);
    }

    /** How many decimal digits below one a positive {@code v} starts ({@code 0} for {@code v ≥ 0.1}). */
    private static int digitsBelowOne(double v) {
        return v >= 0.1 || !(v > 0) ? (v > 0 ? 0 : 340) : (int) Math.ceil(-Math.log10(v)) + 1;
    }
}
