package io.github.volpex.checkpoint.interval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

class VaidyaModelTest {

    private static final double HOUR = 3600.0;

    private static final MathContext MC = new MathContext(70);

    /** {@code e^x} in 70 digits: the Taylor series of {@code x/2^s}, squared {@code s} times. */
    private static BigDecimal exp(BigDecimal x) {
        int s = Math.max(0, (int) Math.ceil(Math.log(Math.abs(x.doubleValue()) + 1e-300) / Math.log(2)) + 1);
        BigDecimal y = x.divide(BigDecimal.valueOf(2).pow(s), MC);
        BigDecimal term = BigDecimal.ONE;
        BigDecimal sum = BigDecimal.ONE;
        for (int k = 1; term.abs().compareTo(sum.abs().movePointLeft(72)) > 0; k++) {
            term = term.multiply(y, MC).divide(BigDecimal.valueOf(k), MC);
            sum = sum.add(term, MC);
        }
        for (int i = 0; i < s; i++) {
            sum = sum.multiply(sum, MC);
        }
        return sum;
    }

    /**
     * {@code r(T) = e^{λ(L − C + R)}(e^{λ(T + C)} − 1)/(λT) − 1} as printed, in 70 digits, with no care for
     * cancellation: the digits absorb it.
     */
    private static Function<BigDecimal, BigDecimal> referenceRatio(VaidyaModel m) {
        BigDecimal l = new BigDecimal(m.failureRatePerSecond());
        BigDecimal c = new BigDecimal(m.overheadSeconds());
        BigDecimal factor = exp(l.multiply(new BigDecimal(m.latencySeconds()).subtract(c)
                .add(new BigDecimal(m.recoverySeconds()))));
        // Every step rounds to 70 digits: an exact subtraction from e^x with x in the millions would expand it to
        // millions of digits (minutes of work), where 70 digits already absorb the cancellation.
        return t -> factor.multiply(exp(l.multiply(t.add(c))).subtract(BigDecimal.ONE, MC), MC)
                .divide(l.multiply(t), MC).subtract(BigDecimal.ONE, MC);
    }

    private static double referenceRatio(VaidyaModel m, double t) {
        return referenceRatio(m).apply(new BigDecimal(t)).doubleValue();
    }

    /**
     * The minimiser of {@code r(T)} over {@code T ≥ L − C}, by golden-section search on the printed formula in 70
     * digits: it uses neither the optimality condition nor Lambert W, only that {@code r} falls and then rises.
     */
    private static double bruteForceOptimum(VaidyaModel m) {
        double lambda = m.failureRatePerSecond();
        Function<BigDecimal, BigDecimal> r = referenceRatio(m);
        double lower = Math.max(m.minimumIntervalSeconds(), 1e-6 * Math.sqrt(m.overheadSeconds() / lambda));
        // T* < √(2C/λ) (Young) and T* < 1/λ: a bracket a few times wider than the optimum keeps the search short.
        double young = Math.sqrt(2.0 * m.overheadSeconds() / lambda);
        BigDecimal lo = new BigDecimal(lower);
        BigDecimal hi = new BigDecimal(Math.max(Math.min(2.0 / lambda, 2.0 * young), 2.0 * lower));
        BigDecimal ratio = new BigDecimal("0.61803398874989484820458683436563811772030917980576286213544862");
        BigDecimal x1 = hi.subtract(ratio.multiply(hi.subtract(lo), MC));
        BigDecimal x2 = lo.add(ratio.multiply(hi.subtract(lo), MC));
        BigDecimal f1 = r.apply(x1);
        BigDecimal f2 = r.apply(x2);
        for (int i = 0; i < 100; i++) { // 0.618^100 < 1e-20 of the bracket
            if (f1.compareTo(f2) <= 0) {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi.subtract(ratio.multiply(hi.subtract(lo), MC));
                f1 = r.apply(x1);
            } else {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo.add(ratio.multiply(hi.subtract(lo), MC));
                f2 = r.apply(x2);
            }
        }
        return lo.add(hi).doubleValue() / 2.0;
    }

    private static void assertRelative(double expected, double actual, double tolerance, Object context) {
        assertTrue(actual == expected || Math.abs(actual - expected) <= tolerance * Math.abs(expected),
                () -> "expected " + expected + " but was " + actual + " (relative tolerance " + tolerance + ") for "
                        + context);
    }

    /**
     * Models over the scales users reach: λ from 10⁻¹² to 1 per second, C from 10⁻⁴ to 10⁴ s, L − C from 10⁻⁴ to
     * 10⁵ s and R from 10⁻³ to 10⁴ s, each log-uniform.
     */
    @Provide
    Arbitrary<VaidyaModel> models() {
        return Combinators.combine(Arbitraries.doubles().between(-12, 0), Arbitraries.doubles().between(-4, 4),
                Arbitraries.doubles().between(-4, 5), Arbitraries.doubles().between(-3, 4))
                .as((rate, overhead, extra, recovery) -> {
                    double c = Math.pow(10, overhead);
                    return VaidyaModel.of(Math.pow(10, rate), c, c + Math.pow(10, extra), Math.pow(10, recovery));
                });
    }

    // --- reference values --------------------------------------------------------------------------------------

    @Test
    void matches_a_high_precision_minimisation_on_typical_parameters() {
        VaidyaModel[] models = {
            VaidyaModel.of(1.0 / 86_400, 2.0, 60.0, 30.0), // a day's MTBF, background persist of a minute
            VaidyaModel.of(1.0 / HOUR, 0.1, 1.8, 5.0), // the asynchronous commit of a 256 MiB state
            VaidyaModel.of(1.0 / HOUR, 1.7, 1.7, 5.0), // the same state committed synchronously
            VaidyaModel.of(1e-3, 10.0, 600.0, 0.0), // the latency bound binds: T* ≈ 134 s < L − C = 590 s
            VaidyaModel.of(0.5, 3.0, 3.0, 1.0), // failures more frequent than checkpoints
        };
        for (VaidyaModel m : models) {
            double reference = bruteForceOptimum(m);
            assertRelative(reference, m.optimalIntervalSeconds(), 1e-12, m);
            double ratio = referenceRatio(m, m.optimalIntervalSeconds());
            assertRelative(ratio, m.optimalOverheadRatio(), 1e-13, m);
        }
        assertEquals(590.0, VaidyaModel.of(1e-3, 10.0, 600.0, 0.0).optimalIntervalSeconds());
    }

    @Property(tries = 20)
    void the_optimum_equals_a_high_precision_minimisation(
            @ForAll("models") VaidyaModel m) {
        assertRelative(bruteForceOptimum(m), m.optimalIntervalSeconds(), 1e-12, m);
    }

    @Property(tries = 80)
    void the_overhead_ratio_equals_the_printed_formula_in_high_precision(
            @ForAll("models") VaidyaModel m,
            @ForAll @DoubleRange(min = 0, max = 4) double log10IntervalOverMinimum) {
        double t = m.minimumIntervalSeconds() * Math.pow(10, log10IntervalOverMinimum);
        double expected = referenceRatio(m, t);
        double actual = m.overheadRatio(t);
        if (Double.isInfinite(actual)) {
            assertTrue(expected > 1e300, () -> m + " at " + t + ": " + expected);
        } else {
            assertRelative(expected, actual, conditioned(m, t), m + " at T = " + t);
        }
        double optimum = m.optimalIntervalSeconds();
        double atOptimum = referenceRatio(m, optimum);
        assertRelative(atOptimum, m.optimalOverheadRatio(), conditioned(m, optimum), m + " at its optimum");
    }

    /**
     * The relative tolerance of {@code r(T)}: a few ulps, plus the rounding of the exponents {@code λ(L − C + R)} and
     * {@code λ(T + C)} (each a rounded product and sum), which {@code e^x} turns into a relative error of the same
     * absolute size. The exponents reach 709 before {@code r} overflows, so this is at most about 3·10⁻¹³.
     */
    private static double conditioned(VaidyaModel m, double t) {
        double lambda = m.failureRatePerSecond();
        double exponents = lambda * (m.latencySeconds() + m.recoverySeconds() + t);
        return 1e-14 + 4.0 * Math.ulp(1.0) * exponents;
    }

    @Test
    void the_series_of_expm1_minus_x_joins_the_direct_form() {
        for (double x : new double[] {1e-20, 1e-8, 0.01, 0.5, 0.999, 1.0, 1.0000001, 2.0, 30.0}) {
            BigDecimal exact = exp(new BigDecimal(x)).subtract(BigDecimal.ONE).subtract(new BigDecimal(x));
            assertRelative(exact.doubleValue(), VaidyaModel.expm1MinusX(x), 4e-16, x);
        }
        assertEquals(0.0, VaidyaModel.expm1MinusX(0.0));
        // The oracle's own exponential, at e and e^100 (digits from the literature, 60 of them).
        assertEquals(new BigDecimal("2.71828182845904523536028747135266249775724709369995957496697"),
                exp(BigDecimal.ONE).round(new MathContext(60)));
        assertEquals(new BigDecimal("2.68811714181613544841262555158001358736111187737419224151916E+43"),
                exp(BigDecimal.valueOf(100)).round(new MathContext(60)));
        assertEquals(0.0, VaidyaModel.expm1MinusX(1e-300)); // x²/2 underflows
    }

    // --- the blocking case -------------------------------------------------------------------------------------

    @Property(tries = 300)
    void with_latency_equal_to_overhead_it_is_the_blocking_model_of_young_and_daly(
            @ForAll @DoubleRange(min = -12, max = 0) double log10Rate,
            @ForAll @DoubleRange(min = -4, max = 4) double log10Overhead) {
        double lambda = Math.pow(10, log10Rate);
        double c = Math.pow(10, log10Overhead);
        VaidyaModel m = VaidyaModel.of(lambda, c, c, 0.0);
        double mtbf = 1.0 / lambda;
        double optimum = m.optimalIntervalSeconds();
        // The exact optimum of Daly's model: the same minimiser, by a different route (C/M and 1/λ rounded).
        assertRelative(ClassicalIntervals.exactIntervalSeconds(c, mtbf), optimum, 1e-13, m);
        if (lambda * c < 1.0) {
            // Young's first order brackets it, and Daly's higher-order estimate is within λC of it (or within a few
            // rounding errors, when λC is below the resolution of a double).
            double young = ClassicalIntervals.youngIntervalSeconds(c, mtbf);
            assertTrue(young - c < optimum && optimum < young, () -> m + ": " + optimum + " vs Young " + young);
            assertRelative(optimum, ClassicalIntervals.dalyIntervalSeconds(c, mtbf),
                    Math.max(lambda * c, 4 * Math.ulp(1.0)), m);
        }
        // The blocking ratio (e^{λ(T+C)} − 1)/(λT) − 1, where the direct form loses nothing much.
        double t = optimum * 2.0;
        double direct = Math.expm1(lambda * (t + c)) / (lambda * t) - 1.0;
        if (direct > 1e-3 && direct < Double.POSITIVE_INFINITY) {
            assertRelative(direct, m.overheadRatio(t), 1e-11, m);
        }
    }

    @Property(tries = 300)
    void latency_multiplies_the_expected_time_by_a_factor_independent_of_the_interval(
            @ForAll @DoubleRange(min = -9, max = -1) double log10Rate,
            @ForAll @DoubleRange(min = -3, max = 3) double log10Overhead,
            @ForAll @DoubleRange(min = -12, max = 4) double log10ExtraLatency,
            @ForAll @DoubleRange(min = 0, max = 3) double log10IntervalScale) {
        double lambda = Math.pow(10, log10Rate);
        double c = Math.pow(10, log10Overhead);
        double l = c + Math.pow(10, log10ExtraLatency);
        VaidyaModel blocking = VaidyaModel.of(lambda, c, c, 0.0);
        VaidyaModel background = VaidyaModel.of(lambda, c, l, 0.0);
        double t = Math.max(l - c, blocking.optimalIntervalSeconds()) * Math.pow(10, log10IntervalScale);
        Assume.that(lambda * (l + t) < 500); // 1 + r stays finite
        // 1 + r_L(T) = e^{λ(L − C)}·(1 + r_C(T)) for every T: the continuity as L → C, and the reason the optimum
        // does not move with L.
        double factor = (1 + background.overheadRatio(t)) / (1 + blocking.overheadRatio(t));
        assertRelative(Math.exp(lambda * (l - c)), factor, 1e-13, background + " at " + t);
        if (l - c <= blocking.optimalIntervalSeconds()) {
            assertEquals(blocking.optimalIntervalSeconds(), background.optimalIntervalSeconds(), background::toString);
        } else {
            assertEquals(l - c, background.optimalIntervalSeconds(), background::toString);
        }
    }

    // --- laws --------------------------------------------------------------------------------------------------

    @Property(tries = 300)
    void the_optimum_is_no_worse_than_any_interval_on_a_grid(
            @ForAll("models") VaidyaModel m) {
        double optimum = m.optimalIntervalSeconds();
        double best = m.optimalOverheadRatio();
        assertRelative(m.overheadRatio(optimum), best, 1e-12, m);
        double from = Math.max(m.minimumIntervalSeconds(), optimum * 1e-3);
        for (int i = 0; i <= 400; i++) {
            double t = from * Math.pow(1e6, i / 400.0);
            double r = m.overheadRatio(t);
            assertTrue(best <= r * (1 + 1e-12), () -> m + ": r(" + t + ") = " + r + " < r* = " + best);
        }
    }

    @Property(tries = 300)
    void the_overhead_ratio_grows_with_failure_rate_overhead_latency_and_recovery(
            @ForAll("models") VaidyaModel m,
            @ForAll @DoubleRange(min = 0, max = 4) double log10IntervalOverMinimum,
            @ForAll @DoubleRange(min = 0.01, max = 1) double log10Step) {
        // Increasing laws, up to the rounding of exponents as large as 709 (relative 1e-12; see conditioned()).
        double step = Math.pow(10, log10Step);
        double t = m.minimumIntervalSeconds() * Math.pow(10, log10IntervalOverMinimum);
        double r = m.overheadRatio(t);
        double lambda = m.failureRatePerSecond();
        double c = m.overheadSeconds();
        double l = m.latencySeconds();
        double rec = m.recoverySeconds();
        // A larger C at the same L: T ≥ L − C still holds.
        double largerC = Math.min(c * step, l);
        VaidyaModel[] worse = {
            VaidyaModel.of(lambda * step, c, l, rec),
            VaidyaModel.of(lambda, largerC, l, rec),
            VaidyaModel.of(lambda, c, l * step, rec),
            VaidyaModel.of(lambda, c, l, rec * step),
        };
        for (VaidyaModel w : worse) {
            if (t >= w.minimumIntervalSeconds()) {
                double rw = w.overheadRatio(t);
                assertTrue(rw >= r * (1 - 1e-12), () -> w + " at " + t + ": " + rw + " < " + r + " of " + m);
            }
        }
        // The optimal ratio grows the same way (for C, with the latency beyond the overhead held).
        VaidyaModel[] worseOptimum = {
            VaidyaModel.of(lambda * step, c, l, rec),
            VaidyaModel.of(lambda, c * step, c * step + (l - c), rec),
            VaidyaModel.of(lambda, c, l * step, rec),
            VaidyaModel.of(lambda, c, l, rec * step),
        };
        double best = m.optimalOverheadRatio();
        for (VaidyaModel w : worseOptimum) {
            double bw = w.optimalOverheadRatio();
            assertTrue(bw >= best * (1 - 1e-12), () -> w + ": r* " + bw + " < " + best + " of " + m);
        }
    }

    @Property(tries = 300)
    void the_optimal_interval_shrinks_with_failure_rate_and_grows_with_overhead_and_latency(
            @ForAll("models") VaidyaModel m,
            @ForAll @DoubleRange(min = 0.01, max = 1) double log10Step) {
        double step = Math.pow(10, log10Step);
        double lambda = m.failureRatePerSecond();
        double c = m.overheadSeconds();
        double l = m.latencySeconds();
        double rec = m.recoverySeconds();
        double t = m.optimalIntervalSeconds();
        double moreFailures = VaidyaModel.of(lambda * step, c, l, rec).optimalIntervalSeconds();
        assertTrue(moreFailures <= t * (1 + 1e-14), () -> m + ": " + moreFailures + " > " + t);
        // With L − C held: (C' + (L − C)) − C' gives back L − C to within an ulp or two of L'.
        double latency = c * step + (l - c);
        double moreOverhead = VaidyaModel.of(lambda, c * step, latency, rec).optimalIntervalSeconds();
        assertTrue(moreOverhead >= t * (1 - 1e-14) - 2 * Math.ulp(latency),
                () -> m + ": " + moreOverhead + " < " + t);
        double moreLatency = VaidyaModel.of(lambda, c, l * step, rec).optimalIntervalSeconds();
        assertTrue(moreLatency >= t, () -> m + ": " + moreLatency + " < " + t);
        // Vaidya's result: the recovery time never moves the optimum.
        assertEquals(t, VaidyaModel.of(lambda, c, l, rec * step).optimalIntervalSeconds(), m::toString);
    }

    // --- what a background persist buys ------------------------------------------------------------------------

    @Test
    void a_short_hold_with_a_long_persist_beats_a_blocking_commit_of_the_same_persist() {
        // A 256 MiB state: 1.7 s committed synchronously, or 0.1 s of snapshot and the same 1.7 s in background.
        VaidyaModel blocking = VaidyaModel.of(1.0 / HOUR, 1.7, 1.7, 5.0);
        VaidyaModel background = VaidyaModel.of(1.0 / HOUR, 0.1, 1.8, 5.0);
        assertTrue(background.optimalOverheadRatio() < blocking.optimalOverheadRatio() / 3,
                () -> background.optimalOverheadRatio() + " vs " + blocking.optimalOverheadRatio());
        assertTrue(background.optimalIntervalSeconds() < blocking.optimalIntervalSeconds());
    }

    @Test
    void a_second_of_overhead_is_worth_one_over_e_to_the_period_minus_one_seconds_of_latency() {
        // ∂r/∂C = (∂r/∂L)/(e^{λ(T + C)} − 1): trading δ of overhead for δ/(e^{λ(T+C)} − 1) of latency leaves r
        // unchanged to first order (here the exchange rate is about 19).
        double lambda = 1e-4;
        double c = 10.0;
        double l = 100.0;
        double t = 500.0;
        double rate = 1.0 / Math.expm1(lambda * (t + c));
        assertTrue(rate > 18 && rate < 20, () -> "rate " + rate);
        double delta = 1e-3;
        double r = VaidyaModel.of(lambda, c, l, 0.0).overheadRatio(t);
        double lessOverhead = VaidyaModel.of(lambda, c - delta, l, 0.0).overheadRatio(t) - r;
        double moreLatency = VaidyaModel.of(lambda, c, l + delta * rate, 0.0).overheadRatio(t) - r;
        assertTrue(lessOverhead < 0 && moreLatency > 0);
        assertEquals(0.0, (lessOverhead + moreLatency) / lessOverhead, 1e-3);
    }

    @Test
    void without_failures_there_is_no_optimal_interval() {
        VaidyaModel m = VaidyaModel.of(0.0, 2.0, 10.0, 1.0);
        assertEquals(Double.POSITIVE_INFINITY, m.optimalIntervalSeconds());
        assertEquals(0.0, m.optimalOverheadRatio());
        assertEquals(0.25, m.overheadRatio(8.0));
        assertEquals(VaidyaModel.of(0.0, 2.0, 10.0, 0.0), VaidyaModel.of(-0.0, 2.0, 10.0, -0.0));
    }

    @Test
    void extreme_rates_neither_overflow_nor_lose_the_optimum() {
        // λ subnormal: 1/λ overflows, the optimum √(2C/λ) does not.
        VaidyaModel tiny = VaidyaModel.of(0x1p-1030, 0x1p-1000, 0x1p-1000, 0.0);
        assertRelative(Math.sqrt(0x1p31), tiny.optimalIntervalSeconds(), 1e-15, tiny);
        assertRelative(Math.sqrt(0x1p-999) * Math.sqrt(0x1p-1030), tiny.optimalOverheadRatio(), 1e-15, tiny);
        // λC huge: T* → 1/λ, r* = e^{λ(T* + L)} − 1 overflows honestly.
        VaidyaModel huge = VaidyaModel.of(1.0, 1e6, 1e6, 0.0);
        assertRelative(1.0, huge.optimalIntervalSeconds(), 1e-15, huge);
        assertEquals(Double.POSITIVE_INFINITY, huge.optimalOverheadRatio());
        assertEquals(Double.POSITIVE_INFINITY, huge.overheadRatio(1.0));
    }

    @Test
    void rejects_bad_parameters_naming_parameter_value_and_bound() {
        assertEquals("failureRatePerSecond must be finite and >= 0: -1.0",
                assertThrows(IllegalArgumentException.class, () -> VaidyaModel.of(-1.0, 1.0, 1.0, 0.0))
                        .getMessage());
        assertEquals("failureRatePerSecond must be finite and >= 0: Infinity",
                assertThrows(IllegalArgumentException.class,
                        () -> VaidyaModel.of(Double.POSITIVE_INFINITY, 1.0, 1.0, 0.0)).getMessage());
        assertEquals("overheadSeconds must be finite and > 0: 0.0",
                assertThrows(IllegalArgumentException.class, () -> VaidyaModel.of(1.0, 0.0, 1.0, 0.0))
                        .getMessage());
        assertEquals("latencySeconds must be finite and >= overheadSeconds (2.0): 1.0",
                assertThrows(IllegalArgumentException.class, () -> VaidyaModel.of(1.0, 2.0, 1.0, 0.0))
                        .getMessage());
        assertEquals("latencySeconds must be finite and >= overheadSeconds (2.0): NaN",
                assertThrows(IllegalArgumentException.class, () -> VaidyaModel.of(1.0, 2.0, Double.NaN, 0.0))
                        .getMessage());
        assertEquals("recoverySeconds must be finite and >= 0: NaN",
                assertThrows(IllegalArgumentException.class, () -> VaidyaModel.of(1.0, 2.0, 3.0, Double.NaN))
                        .getMessage());
        VaidyaModel m = VaidyaModel.of(1.0, 2.0, 10.0, 0.0);
        assertEquals("intervalSeconds must be >= latencySeconds - overheadSeconds (8.0): 7.5",
                assertThrows(IllegalArgumentException.class, () -> m.overheadRatio(7.5)).getMessage());
        assertEquals("intervalSeconds must be finite and > 0: 0.0",
                assertThrows(IllegalArgumentException.class, () -> m.overheadRatio(0.0)).getMessage());
    }
}
