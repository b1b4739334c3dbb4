package io.github.volpex.checkpoint.interval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.estimators.SurvivalFunction;
import java.util.OptionalDouble;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

class RenLookAheadTest {

    /** With TR = e^{−μt}, eq. 3 reads t − t₀ ≥ C / (1 − e^{−μδt}). */
    private static double exponentialThreshold(double cost, double rate, double step) {
        return cost / -Math.expm1(-rate * step);
    }

    @Property(tries = 1000)
    void with_exponential_reliability_the_threshold_is_c_over_one_minus_exp_minus_mu_dt(
            @ForAll @DoubleRange(min = -7, max = -2) double log10Rate,
            @ForAll @DoubleRange(min = 0, max = 3) double log10Cost,
            @ForAll @DoubleRange(min = 0, max = 3) double log10Step,
            @ForAll @DoubleRange(min = 0, max = 1e6) double lastCheckpoint) {
        double rate = Math.pow(10, log10Rate);
        double cost = Math.pow(10, log10Cost);
        double step = Math.pow(10, log10Step);
        RenLookAhead heuristic = RenLookAhead.of(SurvivalFunction.exponential(rate), cost, step);
        double threshold = exponentialThreshold(cost, rate, step);
        assertFalse(heuristic.shouldCheckpoint(lastCheckpoint + threshold * (1 - 1e-9), lastCheckpoint));
        assertTrue(heuristic.shouldCheckpoint(lastCheckpoint + threshold * (1 + 1e-9), lastCheckpoint));
        // Memoryless: the saving depends on t − t₀ only.
        assertEquals(heuristic.expectedSavingSeconds(lastCheckpoint + 100, lastCheckpoint),
                heuristic.expectedSavingSeconds(100, 0), 1e-9 * cost);
    }

    @Test
    void plans_the_first_step_past_the_exponential_threshold() {
        double rate = 1e-4;
        double cost = 30;
        double step = 30;
        RenLookAhead heuristic = RenLookAhead.of(SurvivalFunction.exponential(rate), cost, step);
        double threshold = exponentialThreshold(cost, rate, step); // about 10 015 s
        OptionalDouble next = heuristic.nextCheckpointSeconds(500.0, 500.0, 1e6);
        double expected = 500.0 + Math.ceil(threshold / step) * step;
        assertEquals(expected, next.orElseThrow(), 1e-9);
        // Asked from a later step, the plan is the same time.
        assertEquals(expected, heuristic.nextCheckpointSeconds(500.0 + 10 * step, 500.0, 1e6).orElseThrow(), 1e-9);
        // A horizon before that time finds nothing.
        assertTrue(heuristic.nextCheckpointSeconds(500.0, 500.0, expected - 1).isEmpty());
        // At the last checkpoint itself the saving is zero.
        assertFalse(heuristic.shouldCheckpoint(500.0, 500.0));
        assertEquals(0.0, heuristic.expectedSavingSeconds(500.0, 500.0));
    }

    @Test
    void checkpoints_sooner_on_an_ageing_host_and_later_on_a_settling_one() {
        // Weibull hosts with the same scale: shape > 1 fails more as it ages, shape < 1 less.
        RenLookAhead ageing = RenLookAhead.of(SurvivalFunction.weibull(2.0, 36_000), 60, 60);
        RenLookAhead settling = RenLookAhead.of(SurvivalFunction.weibull(0.6, 36_000), 60, 60);
        double old = 30_000;
        double ageingNext = ageing.nextCheckpointSeconds(old, old, old + 1e6).orElseThrow();
        double settlingNext = settling.nextCheckpointSeconds(old, old, old + 1e6).orElseThrow();
        assertTrue(ageingNext < settlingNext, () -> ageingNext + " vs " + settlingNext);
    }

    @Test
    void the_plan_examines_every_step_of_a_non_monotone_test() {
        // Reliability that drops sharply in [1000, 1060) and is flat elsewhere: the test holds only around 1000.
        RenLookAhead heuristic = RenLookAhead.of(
                TestSurvival.steps(new double[] {1030, 5000}, new double[] {1.0, 0.5, 0.4}), 100, 60);
        OptionalDouble next = heuristic.nextCheckpointSeconds(0, 0, 4000);
        // At t = 1020 (the first step whose window covers the drop at 1030): (1020 − 0)·0.5 ≥ 100.
        assertEquals(1020.0, next.orElseThrow());
        // From 1080 on, the window sees no drop until 4980.
        assertEquals(4980.0, heuristic.nextCheckpointSeconds(1080, 1080, 10_000).orElseThrow());
    }

    @Test
    void a_host_that_cannot_be_up_checkpoints_once_the_work_exceeds_the_cost() {
        RenLookAhead heuristic = RenLookAhead.of(
                TestSurvival.steps(new double[] {100}, new double[] {1.0, 0.0}), 50, 10);
        assertFalse(heuristic.shouldCheckpoint(140, 100));
        assertTrue(heuristic.shouldCheckpoint(150, 100));
    }

    @Test
    void rejects_bad_arguments_with_clear_messages() {
        SurvivalFunction host = SurvivalFunction.exponential(1e-4);
        assertThrows(NullPointerException.class, () -> RenLookAhead.of(null, 1, 1));
        assertEquals("checkpointSeconds must be finite and > 0: 0.0",
                assertThrows(IllegalArgumentException.class, () -> RenLookAhead.of(host, 0, 1)).getMessage());
        assertEquals("stepSeconds must be finite and > 0: NaN",
                assertThrows(IllegalArgumentException.class, () -> RenLookAhead.of(host, 1, Double.NaN))
                        .getMessage());
        RenLookAhead heuristic = RenLookAhead.of(host, 10, 10);
        assertEquals("nowSeconds must be >= lastCheckpointSeconds (20.0): 10.0",
                assertThrows(IllegalArgumentException.class, () -> heuristic.shouldCheckpoint(10, 20)).getMessage());
        assertEquals("lastCheckpointSeconds must be finite and >= 0: -1.0",
                assertThrows(IllegalArgumentException.class, () -> heuristic.shouldCheckpoint(10, -1)).getMessage());
        assertEquals("horizonSeconds must be >= nowSeconds (10.0): 5.0",
                assertThrows(IllegalArgumentException.class, () -> heuristic.nextCheckpointSeconds(10, 0, 5))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> heuristic.nextCheckpointSeconds(0, 0, 1e12));
    }

    /**
     * The caveat of the class description: with the step equal to the checkpoint cost the interval is about the mean
     * time to failure, so it grows fourfold when the mean does, where Young's √(2C·MTBF) only doubles.
     */
    @Test
    void the_interval_scales_with_the_mean_time_to_failure_not_its_square_root() {
        double cost = 60;
        double[] intervals = new double[2];
        double[] means = {3600, 4 * 3600};
        for (int i = 0; i < 2; i++) {
            RenLookAhead heuristic = RenLookAhead.of(SurvivalFunction.exponential(1 / means[i]), cost, cost);
            intervals[i] = heuristic.nextCheckpointSeconds(0, 0, 1e7).orElseThrow();
            assertEquals(means[i], intervals[i], 0.02 * means[i]);
            assertTrue(intervals[i] > 2 * Math.sqrt(2 * cost * means[i]), "longer than twice Young's");
        }
        assertEquals(4, intervals[1] / intervals[0], 0.05);
    }
}
