package io.github.volpex.checkpoint.interval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Scale;
import org.junit.jupiter.api.Test;

class ClassicalIntervalsTest {

    @Test
    void young_matches_dalys_reference_scale() {
        // Daly (2006), C = 5 min, M = 24 h: √(2·300·86400) = 7200 s.
        assertEquals(7200.0, ClassicalIntervals.youngIntervalSeconds(300.0, 86_400.0), 1e-9);
    }

    @Test
    void rejects_non_positive_and_non_finite_inputs() {
        assertEquals("checkpointCostSeconds must be finite and > 0: 0.0",
                assertThrows(IllegalArgumentException.class,
                        () -> ClassicalIntervals.youngIntervalSeconds(0.0, 1.0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> ClassicalIntervals.youngIntervalSeconds(1.0, Double.NaN));
        assertThrows(IllegalArgumentException.class,
                () -> ClassicalIntervals.youngIntervalSeconds(1.0, Double.POSITIVE_INFINITY));
    }

    @Property
    void quadrupling_the_mtbf_doubles_the_interval(
            @ForAll @DoubleRange(min = 1e-3, max = 1e4) @Scale(6) double cost,
            @ForAll @DoubleRange(min = 1.0, max = 1e8) double mtbf) {
        double ratio = ClassicalIntervals.youngIntervalSeconds(cost, 4 * mtbf)
                / ClassicalIntervals.youngIntervalSeconds(cost, mtbf);
        assertEquals(2.0, ratio, 1e-12);
    }
}
