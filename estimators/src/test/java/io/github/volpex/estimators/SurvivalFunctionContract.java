package io.github.volpex.estimators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;

/**
 * The laws every {@link SurvivalFunction} obeys, run against each implementation: {@code S(0) = 1}, non-increasing,
 * within {@code [0, 1]}, and a conditional failure probability that is a probability and agrees with
 * {@code 1 − S(t + Δ)/S(t)}. Times are drawn on a log scale from a millisecond to ten years.
 */
abstract class SurvivalFunctionContract {

    /** A function of this kind with parameters drawn from {@code random}. */
    abstract SurvivalFunction create(SplittableRandom random);

    private static double time(double log10Seconds) {
        return Math.pow(10, log10Seconds);
    }

    @Property(tries = 200)
    void starts_at_one_and_stays_in_the_unit_interval(@ForAll long seed,
                                                     @ForAll @DoubleRange(min = -3, max = 8.5) double log10t) {
        SurvivalFunction s = create(new SplittableRandom(seed));
        assertEquals(1.0, s.survival(0.0));
        double value = s.survival(time(log10t));
        assertTrue(value >= 0.0 && value <= 1.0, () -> s + ": S = " + value);
    }

    @Property(tries = 200)
    void is_non_increasing(@ForAll long seed, @ForAll @DoubleRange(min = -3, max = 8.5) double a,
                           @ForAll @DoubleRange(min = -3, max = 8.5) double b) {
        SurvivalFunction s = create(new SplittableRandom(seed));
        double early = s.survival(time(Math.min(a, b)));
        double late = s.survival(time(Math.max(a, b)));
        assertTrue(late <= early, () -> s + ": " + late + " > " + early);
    }

    @Property(tries = 200)
    void conditional_failure_is_a_probability_that_agrees_with_the_ratio(
            @ForAll long seed, @ForAll @DoubleRange(min = -3, max = 8) double log10t,
            @ForAll @DoubleRange(min = -3, max = 8) double log10horizon) {
        SurvivalFunction s = create(new SplittableRandom(seed));
        double t = time(log10t);
        double horizon = time(log10horizon);
        double p = s.conditionalFailure(t, horizon);
        assertTrue(p >= 0.0 && p <= 1.0, () -> s + ": p = " + p);
        double alive = s.survival(t);
        if (alive > 1e-100) {
            double ratio = 1.0 - s.survival(t + horizon) / alive;
            assertEquals(ratio, p, 1e-9, s::toString);
            assertEquals(0.0, s.conditionalFailure(t, 0.0), 1e-15, s::toString);
        }
    }

    @Example
    void rejects_negative_and_nan_times() {
        SurvivalFunction s = create(new SplittableRandom(1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.survival(-1.0));
        assertEquals("timeSeconds must be >= 0: -1.0", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.survival(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> s.conditionalFailure(Double.NaN, 1.0));
        assertThrows(IllegalArgumentException.class, () -> s.conditionalFailure(1.0, -1.0));
        assertThrows(IllegalArgumentException.class, () -> s.conditionalFailure(Double.POSITIVE_INFINITY, 1.0));
    }
}
