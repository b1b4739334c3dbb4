package io.github.volpex.checkpoint.interval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.univariate.BrentOptimizer;
import org.apache.commons.math3.optim.univariate.SearchInterval;
import org.apache.commons.math3.optim.univariate.UnivariateObjectiveFunction;
import org.apache.commons.math3.optim.univariate.UnivariatePointValuePair;
import org.junit.jupiter.api.Test;

class NiHarwoodModelTest {

    /** Eq. 9–10 exactly as printed, for comparison with the library's cancellation-free form. */
    private static double utilizationAsPrinted(NiHarwoodModel model, double rate) {
        double a = model.jobFailureRatePerSecond();
        double cycles = 1.0 / (Math.exp(a / rate) - 1.0);
        double wasted = 1.0 / a - cycles / rate;
        double cost = model.checkpointOverheadSeconds() + (wasted + model.downloadSeconds()) / cycles;
        return rate * cost < 1.0 ? 1.0 - rate * cost : 0.0;
    }

    @Test
    void matches_high_precision_reference_values() {
        // λ*, 1/λ* and U* from the closed form at 40 digits (mpmath).
        NiHarwoodModel hourly = NiHarwoodModel.of(8, 1.0 / 3600, 60.0, 120.0);
        assertEquals(0.0055472448349652273192, hourly.optimalRatePerSecond(), 1e-15 * 0.0055);
        assertEquals(180.26967075562087746, hourly.optimalIntervalSeconds(), 1e-13 * 180);
        assertEquals(0.10922263940910594557, hourly.optimalUtilization(), 1e-13);
        NiHarwoodModel quiet = NiHarwoodModel.of(1, 1e-6, 10.0, 10.0);
        assertEquals(4465.4606273699176313, quiet.optimalIntervalSeconds(), 1e-13 * 4465);
        assertEquals(0.99551450959181789978, quiet.optimalUtilization(), 1e-14);
    }

    @Test
    void utilization_at_the_optimum_is_the_closed_form() {
        NiHarwoodModel model = NiHarwoodModel.of(8, 1.0 / 3600, 60.0, 120.0);
        double rate = model.optimalRatePerSecond();
        assertEquals(model.optimalUtilization(), model.utilization(rate), 1e-14);
        assertEquals(utilizationAsPrinted(model, rate), model.utilization(rate), 1e-12);
    }

    @Test
    void too_many_peers_make_no_progress() {
        NiHarwoodModel crowded = NiHarwoodModel.of(64, 1.0 / 600, 30.0, 90.0);
        assertEquals(0.0, crowded.optimalUtilization());
        assertFalse(crowded.feasible());
        int most = NiHarwoodModel.maxFeasiblePeers(1.0 / 600, 30.0, 90.0);
        assertTrue(most >= 1 && most < 64, () -> "most = " + most);
        assertTrue(NiHarwoodModel.of(most, 1.0 / 600, 30.0, 90.0).feasible());
        assertFalse(NiHarwoodModel.of(most + 1, 1.0 / 600, 30.0, 90.0).feasible());
    }

    @Test
    void feasibility_edge_cases() {
        // One peer already infeasible: a checkpoint costs far more than the mean time between failures.
        assertEquals(0, NiHarwoodModel.maxFeasiblePeers(1.0, 100.0, 100.0));
        // Peers that never fail: every k is feasible.
        assertEquals(Integer.MAX_VALUE, NiHarwoodModel.maxFeasiblePeers(0.0, 10.0, 10.0));
        NiHarwoodModel never = NiHarwoodModel.of(16, 0.0, 10.0, 10.0);
        assertEquals(0.0, never.optimalRatePerSecond());
        assertEquals(Double.POSITIVE_INFINITY, never.optimalIntervalSeconds());
        assertEquals(1.0, never.optimalUtilization());
        assertEquals(1.0 - 0.01 * 10.0, never.utilization(0.01), 1e-15);
        // −0.0 is the same rate and time as 0.0.
        assertEquals(NiHarwoodModel.of(16, 0.0, 10.0, 0.0), NiHarwoodModel.of(16, -0.0, 10.0, -0.0));
        assertEquals(new NiHarwoodEstimate(0.0, 10.0, 0.0), new NiHarwoodEstimate(-0.0, 10.0, -0.0));
        assertEquals(Double.POSITIVE_INFINITY, 1.0 / NiHarwoodModel.of(16, -0.0, 10.0, 0.0).jobFailureRatePerSecond());
    }

    @Test
    void utilization_is_zero_at_the_extremes() {
        NiHarwoodModel model = NiHarwoodModel.of(4, 1e-4, 30.0, 60.0);
        assertEquals(0.0, model.utilization(0.0));
        assertEquals(0.0, model.utilization(Double.POSITIVE_INFINITY));
        assertEquals(0.0, model.utilization(1.0 / 30.0));
    }

    @Test
    void extreme_but_valid_inputs_give_finite_consistent_answers() {
        // k·μ·V underflows to a subnormal: 1 + W = √(2e·d) is used directly.
        NiHarwoodModel tiny = NiHarwoodModel.of(1, 1e-300, 1e-20, 0.0);
        assertEquals(Math.sqrt(2 * 1e-20 / 1e-300), tiny.optimalIntervalSeconds(), 1e-12 * 1.4142e140);
        assertEquals(1.0 / tiny.optimalIntervalSeconds(), tiny.optimalRatePerSecond(), 1e-12 * 7.07e-141);
        // k·μ·V close to the largest double: 1 + W ≈ ln(Vkμ/e) − ln ln(...) ≈ 703.
        NiHarwoodModel huge = NiHarwoodModel.of(1, 1e200, 1e108, 0.0);
        double x = huge.optimalIntervalSeconds() * 1e200;
        assertTrue(Double.isFinite(x) && x > 690 && x < 710, () -> "1 + W = " + x);
    }

    @Test
    void a_download_time_whose_product_with_k_mu_overflows_keeps_the_interval_finite() {
        // T_d·kμ = 10^310 overflows, yet d = Vkμ/(e(T_d kμ + 1)) = V/(e·T_d) = 10^−300/e is an ordinary double:
        // 1 + W₀ = p − p²/3 with p = √(2V/T_d), and the interval is (1 + W₀)/(kμ).
        NiHarwoodModel slowRestarts = NiHarwoodModel.of(1, 1e10, 1.0, 1e300);
        double p = Math.sqrt(2.0 / 1e300);
        assertEquals(p / 1e10, slowRestarts.optimalIntervalSeconds(), 1e-14 * p / 1e10);
        assertEquals(1e10 / p, slowRestarts.optimalRatePerSecond(), 1e-14 * 1e10 / p);
        // The same offset with moderate numbers: the answers scale exactly.
        NiHarwoodModel moderate = NiHarwoodModel.of(1, 1e-100, 1.0, 1e300);
        double q = Math.sqrt(2.0 / 1e300);
        assertEquals(q / 1e-100, moderate.optimalIntervalSeconds(), 1e-14 * q / 1e-100);
    }

    @Test
    void rejects_bad_parameters_with_clear_messages() {
        assertEquals("peers must be >= 1: 0",
                assertThrows(IllegalArgumentException.class, () -> NiHarwoodModel.of(0, 1e-4, 1, 1)).getMessage());
        assertEquals("failureRatePerSecond must be finite and >= 0: -1.0",
                assertThrows(IllegalArgumentException.class, () -> NiHarwoodModel.of(1, -1, 1, 1)).getMessage());
        assertEquals("failureRatePerSecond must be finite and >= 0: NaN",
                assertThrows(IllegalArgumentException.class, () -> NiHarwoodModel.of(1, Double.NaN, 1, 1))
                        .getMessage());
        assertEquals("checkpointOverheadSeconds must be finite and > 0: 0.0",
                assertThrows(IllegalArgumentException.class, () -> NiHarwoodModel.of(1, 1e-4, 0, 1)).getMessage());
        assertEquals("downloadSeconds must be finite and >= 0: Infinity",
                assertThrows(IllegalArgumentException.class,
                        () -> NiHarwoodModel.of(1, 1e-4, 1, Double.POSITIVE_INFINITY)).getMessage());
        assertEquals("checkpointOverheadSeconds * peers * failureRatePerSecond must be finite: 1.0E10 * 4 * 1.0E300",
                assertThrows(IllegalArgumentException.class, () -> NiHarwoodModel.of(4, 1e300, 1e10, 1))
                        .getMessage());
        NiHarwoodModel model = NiHarwoodModel.of(1, 1e-4, 1, 1);
        assertEquals("ratePerSecond must be >= 0: -1.0",
                assertThrows(IllegalArgumentException.class, () -> model.utilization(-1)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> model.utilization(Double.NaN));
    }

    @Property(tries = 300)
    void the_closed_form_is_the_numerical_maximiser(
            @ForAll @IntRange(min = 1, max = 256) int peers,
            @ForAll @DoubleRange(min = -7, max = -2) double log10Rate,
            @ForAll @DoubleRange(min = -1, max = 3) double log10Overhead,
            @ForAll @DoubleRange(min = -1, max = 3) double log10Download) {
        NiHarwoodModel model = NiHarwoodModel.of(peers, Math.pow(10, log10Rate), Math.pow(10, log10Overhead),
                Math.pow(10, log10Download));
        double closed = model.optimalRatePerSecond();
        // Brent on ln λ over four decades either side of the closed form.
        UnivariatePointValuePair best = new BrentOptimizer(1e-12, 1e-14).optimize(new MaxEval(10_000),
                GoalType.MAXIMIZE,
                new UnivariateObjectiveFunction(logRate -> model.utilization(Math.exp(logRate))),
                new SearchInterval(Math.log(closed) - 9.2, Math.log(closed) + 9.2));
        double numeric = Math.exp(best.getPoint());
        if (best.getValue() > 1e-6) {
            // U is flat at its maximum: the argmax is known to about the square root of the value's precision.
            assertEquals(closed, numeric, 1e-5 * closed);
        }
        assertTrue(model.utilization(closed) >= best.getValue() - 1e-15,
                () -> "U(closed) = " + model.utilization(closed) + " < U(Brent) = " + best.getValue());
    }

    @Property(tries = 300)
    void small_k_mu_v_tends_to_youngs_interval(
            @ForAll @IntRange(min = 1, max = 64) int peers,
            @ForAll @DoubleRange(min = -9, max = -4) double log10Rate,
            @ForAll @DoubleRange(min = -2, max = 1) double log10Overhead) {
        double rate = Math.pow(10, log10Rate);
        double overhead = Math.pow(10, log10Overhead);
        NiHarwoodModel model = NiHarwoodModel.of(peers, rate, overhead, 0.0);
        double young = Math.sqrt(2 * overhead / (peers * rate));
        double smallness = Math.sqrt(2 * peers * rate * overhead);
        // 1 + W = p − p²/3 + 11p³/72 − ... with p = √(2kμV): the relative gap is p/3 − 11p²/72 + ...
        double gap = Math.abs(model.optimalIntervalSeconds() / young - 1);
        assertTrue(gap <= smallness / 3 * 1.01 + 1e-14, () -> "gap " + gap + " for p = " + smallness);
        assertTrue(gap >= smallness / 3 * (1 - smallness), () -> "gap " + gap + " for p = " + smallness);
    }

    @Property(tries = 500)
    void the_optimal_rate_grows_with_mu_and_k_and_falls_with_v(
            @ForAll @IntRange(min = 1, max = 1000) int peers,
            @ForAll @DoubleRange(min = -8, max = -1) double log10Rate,
            @ForAll @DoubleRange(min = -2, max = 4) double log10Overhead,
            @ForAll @DoubleRange(min = -2, max = 4) double log10Download) {
        double rate = Math.pow(10, log10Rate);
        double overhead = Math.pow(10, log10Overhead);
        double download = Math.pow(10, log10Download);
        double base = NiHarwoodModel.of(peers, rate, overhead, download).optimalRatePerSecond();
        assertTrue(NiHarwoodModel.of(peers, rate * 1.001, overhead, download).optimalRatePerSecond() > base);
        assertTrue(NiHarwoodModel.of(peers + 1, rate, overhead, download).optimalRatePerSecond() > base);
        assertTrue(NiHarwoodModel.of(peers, rate, overhead * 1.001, download).optimalRatePerSecond() < base);
    }

    @Property(tries = 300)
    void the_largest_feasible_k_is_a_boundary(
            @ForAll @DoubleRange(min = -7, max = -1) double log10Rate,
            @ForAll @DoubleRange(min = -1, max = 3) double log10Overhead,
            @ForAll @DoubleRange(min = -1, max = 3) double log10Download) {
        double rate = Math.pow(10, log10Rate);
        double overhead = Math.pow(10, log10Overhead);
        double download = Math.pow(10, log10Download);
        int most = NiHarwoodModel.maxFeasiblePeers(rate, overhead, download);
        if (most > 0) {
            assertTrue(NiHarwoodModel.of(most, rate, overhead, download).feasible());
        }
        if (most < Integer.MAX_VALUE) {
            assertFalse(NiHarwoodModel.of(most + 1, rate, overhead, download).feasible());
        }
    }
}
