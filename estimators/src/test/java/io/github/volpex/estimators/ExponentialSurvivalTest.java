package io.github.volpex.estimators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

/** The exponential survival function: closed forms and the memoryless override (its laws: SurvivalFunctionsTest). */
class ExponentialSurvivalTest {

    @Test
    void exponential_survival_matches_closed_form() {
        SurvivalFunction s = SurvivalFunction.exponential(1.0 / 3600.0);
        assertEquals(1.0, s.survival(0.0));
        assertEquals(Math.exp(-1.0), s.survival(3600.0), 1e-15);
        assertEquals(0.0, s.survival(Double.POSITIVE_INFINITY));
    }

    @Test
    void exponential_conditional_failure_is_memoryless_and_accurate_for_tiny_horizons() {
        SurvivalFunction s = SurvivalFunction.exponential(1e-3);
        // 1 − e^{−1e−12} = 1e−12 − 5e−25 + …: the naive 1 − ratio would return 0 or a multiple of 2^−53.
        assertEquals(1e-12 - 5e-25, s.conditionalFailure(5000.0, 1e-9), 1e-27);
        assertEquals(-Math.expm1(-0.5), s.conditionalFailure(0.0, 500.0), 0.0);
        assertEquals(-Math.expm1(-0.5), s.conditionalFailure(1e6, 500.0), 0.0);
    }

    @Test
    void zero_rate_never_fails() {
        SurvivalFunction s = SurvivalFunction.exponential(0.0);
        assertEquals(1.0, s.survival(Double.POSITIVE_INFINITY));
        assertEquals(0.0, s.conditionalFailure(10.0, 10.0));
    }

    @Test
    void bad_arguments_are_rejected_with_name_and_value() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SurvivalFunction.exponential(-1.0));
        assertEquals("ratePerSecond must be finite and >= 0: -1.0", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SurvivalFunction.exponential(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> SurvivalFunction.exponential(Double.POSITIVE_INFINITY));
        SurvivalFunction s = SurvivalFunction.exponential(1.0);
        e = assertThrows(IllegalArgumentException.class, () -> s.survival(-0.5));
        assertEquals("timeSeconds must be >= 0: -0.5", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.survival(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> s.conditionalFailure(1.0, -1.0));
    }

    @Property
    void default_conditional_failure_agrees_with_the_exponential_override(
            @ForAll @DoubleRange(min = -9, max = -1) double log10Rate,
            @ForAll @DoubleRange(min = 0.0, max = 3e3) double t,
            @ForAll @DoubleRange(min = 0.0, max = 3e3) double horizon) {
        double rate = Math.pow(10, log10Rate);
        SurvivalFunction exponential = SurvivalFunction.exponential(rate);
        SurvivalFunction viaDefault = exponential::survival;
        double expected = exponential.conditionalFailure(t, horizon);
        double actual = viaDefault.conditionalFailure(t, horizon);
        assertTrue(actual >= 0.0 && actual <= 1.0);
        // The ratio S(t+Δ)/S(t) inherits the rounding of μ(t+Δ) as a relative error: allow a few ulps of it.
        assertEquals(expected, actual, 1e-15 * (2 + rate * (t + horizon)));
    }
}
