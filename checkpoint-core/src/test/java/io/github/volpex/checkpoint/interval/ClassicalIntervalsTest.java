package io.github.volpex.checkpoint.interval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Scale;
import org.junit.jupiter.api.Test;

class ClassicalIntervalsTest {

    private static final double MINUTE = 60.0;

    @Test
    void young_matches_dalys_reference_scale() {
        // Daly (2006), C = 5 min, M = 24 h: √(2·300·86400) = 7200 s.
        assertEquals(7200.0, ClassicalIntervals.youngIntervalSeconds(300.0, 86_400.0), 1e-9);
    }

    @Test
    void exact_and_daly_match_dalys_published_values() {
        // Daly (2006), C = 5 min: M = 1440 min → τ* = 116.69 min; M = 360 → 56.71; M = 15 → 9.167 (Daly 9.141).
        double c = 5 * MINUTE;
        assertEquals(116.69, ClassicalIntervals.exactIntervalSeconds(c, 1440 * MINUTE) / MINUTE, 0.005);
        assertEquals(116.69, ClassicalIntervals.dalyIntervalSeconds(c, 1440 * MINUTE) / MINUTE, 0.005);
        assertEquals(56.71, ClassicalIntervals.exactIntervalSeconds(c, 360 * MINUTE) / MINUTE, 0.005);
        assertEquals(56.71, ClassicalIntervals.dalyIntervalSeconds(c, 360 * MINUTE) / MINUTE, 0.005);
        assertEquals(9.167, ClassicalIntervals.exactIntervalSeconds(c, 15 * MINUTE) / MINUTE, 0.0005);
        assertEquals(9.141, ClassicalIntervals.dalyIntervalSeconds(c, 15 * MINUTE) / MINUTE, 0.0005);
        // The same at 12 digits (mpmath): 116.690073327, 56.7140019988, 9.16650282094 and Daly's 9.1409199864.
        assertEquals(116.690073327, ClassicalIntervals.exactIntervalSeconds(c, 1440 * MINUTE) / MINUTE, 1e-9);
        assertEquals(56.7140019988, ClassicalIntervals.exactIntervalSeconds(c, 360 * MINUTE) / MINUTE, 1e-9);
        assertEquals(9.16650282094, ClassicalIntervals.exactIntervalSeconds(c, 15 * MINUTE) / MINUTE, 1e-10);
        assertEquals(9.1409199864, ClassicalIntervals.dalyIntervalSeconds(c, 15 * MINUTE) / MINUTE, 1e-10);
    }

    @Test
    void daly_checkpoints_every_mtbf_when_checkpoints_cost_two_mtbfs() {
        assertEquals(100.0, ClassicalIntervals.dalyIntervalSeconds(200.0, 100.0));
        assertEquals(100.0, ClassicalIntervals.dalyIntervalSeconds(1e6, 100.0));
    }

    @Test
    void the_exact_optimum_stays_accurate_when_c_over_m_is_tiny() {
        // τ* = √(2CM) − 2C/3 + O(C√(C/M)) near the branch point; C/M = 1e−30 and one that underflows.
        double expected = Math.sqrt(2e-30) - 2e-30 / 3;
        assertEquals(expected, ClassicalIntervals.exactIntervalSeconds(1e-30, 1.0), Math.ulp(expected));
        assertEquals(Math.sqrt(2e-40) - 2e-40 / 3, ClassicalIntervals.exactIntervalSeconds(1e-40, 1.0),
                Math.ulp(1.4e-20));
        assertEquals(Math.sqrt(2.0), ClassicalIntervals.exactIntervalSeconds(1e-300, 1e300), 1e-15);
    }

    @Test
    void rejects_non_positive_and_non_finite_inputs() {
        assertEquals("checkpointSeconds must be finite and > 0: 0.0",
                assertThrows(IllegalArgumentException.class,
                        () -> ClassicalIntervals.youngIntervalSeconds(0.0, 1.0)).getMessage());
        assertEquals("mtbfSeconds must be finite and > 0: NaN",
                assertThrows(IllegalArgumentException.class,
                        () -> ClassicalIntervals.dalyIntervalSeconds(1.0, Double.NaN)).getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> ClassicalIntervals.exactIntervalSeconds(1.0, Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> ClassicalIntervals.exactIntervalSeconds(-1.0, 1.0));
    }

    @Property
    void quadrupling_the_mtbf_doubles_youngs_interval(
            @ForAll @DoubleRange(min = 1e-3, max = 1e4) @Scale(6) double cost,
            @ForAll @DoubleRange(min = 1.0, max = 1e8) double mtbf) {
        double ratio = ClassicalIntervals.youngIntervalSeconds(cost, 4 * mtbf)
                / ClassicalIntervals.youngIntervalSeconds(cost, mtbf);
        assertEquals(2.0, ratio, 1e-12);
    }

    @Property(tries = 2000)
    void the_exact_optimum_lies_between_young_minus_c_and_young(
            @ForAll @DoubleRange(min = -12, max = 0.3) double log10Ratio,
            @ForAll @DoubleRange(min = 0, max = 8) double log10Mtbf) {
        double mtbf = Math.pow(10, log10Mtbf);
        double cost = mtbf * Math.pow(10, log10Ratio);
        double young = ClassicalIntervals.youngIntervalSeconds(cost, mtbf);
        double exact = ClassicalIntervals.exactIntervalSeconds(cost, mtbf);
        assertTrue(young - cost < exact && exact < young,
                () -> "C = " + cost + ", M = " + mtbf + ": " + (young - cost) + " < " + exact + " < " + young);
    }

    @Property(tries = 1000)
    void the_exact_optimum_minimises_dalys_expected_runtime(
            @ForAll @DoubleRange(min = -6, max = 0.3) double log10Ratio) {
        // Daly's model per unit of work: (e^{(τ + C)/M} − 1)/τ, with M = 1.
        double cost = Math.pow(10, log10Ratio);
        double tau = ClassicalIntervals.exactIntervalSeconds(cost, 1.0);
        double best = Math.expm1(tau + cost) / tau;
        for (double factor : new double[] {0.99, 0.999, 1.001, 1.01}) {
            assertTrue(Math.expm1(tau * factor + cost) / (tau * factor) > best, () -> "factor " + factor);
        }
    }
}
