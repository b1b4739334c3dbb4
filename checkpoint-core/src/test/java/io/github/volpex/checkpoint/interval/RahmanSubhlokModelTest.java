package io.github.volpex.checkpoint.interval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.estimators.SurvivalFunction;
import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.apache.commons.math3.special.Gamma;
import org.junit.jupiter.api.Test;

class RahmanSubhlokModelTest {

    /** The poster's search: every whole second from 1 until 1/P alone exceeds the best cost seen. */
    private static long bruteForce(RahmanSubhlokModel model) {
        long best = 1;
        double bestCost = model.expectedCost(1);
        for (long t = 2; 1.0 / model.jobSurvival(t) <= bestCost; t++) {
            double cost = model.expectedCost(t);
            if (cost < bestCost) {
                bestCost = cost;
                best = t;
            }
        }
        return best;
    }

    @Property(tries = 60)
    void the_search_equals_brute_force_on_weibull_instances(
            @ForAll @IntRange(min = 1, max = 64) int processes,
            @ForAll @IntRange(min = 1, max = 4) int replicas,
            @ForAll @DoubleRange(min = 0.4, max = 3.0) double shape,
            @ForAll @DoubleRange(min = 2, max = 4.5) double log10Scale,
            @ForAll @DoubleRange(min = 0, max = 2.5) double log10Checkpoint) {
        RahmanSubhlokModel model = RahmanSubhlokModel.of(SurvivalFunction.weibull(shape, Math.pow(10, log10Scale)),
                processes, replicas, Math.pow(10, log10Checkpoint));
        assertEquals(bruteForce(model), model.optimalIntervalSeconds(), model::toString);
    }

    @Property(tries = 60)
    void the_search_equals_brute_force_on_random_step_functions(
            @ForAll @IntRange(min = 1, max = 32) int processes,
            @ForAll @IntRange(min = 1, max = 3) int replicas,
            @ForAll @DoubleRange(min = 0, max = 2.5) double log10Checkpoint,
            @ForAll long seed) {
        // A Kaplan–Meier-like curve: 2–40 random drops at random times up to 20 000 s, ending at 0.
        SplittableRandom random = new SplittableRandom(seed);
        int drops = 2 + random.nextInt(39);
        double[] times = random.doubles(drops, 1, 20_000).sorted().toArray();
        double[] levels = new double[drops + 1];
        levels[0] = 1.0;
        for (int i = 1; i < drops; i++) {
            levels[i] = levels[i - 1] * random.nextDouble(0.3, 1.0);
        }
        levels[drops] = 0.0;
        RahmanSubhlokModel model = RahmanSubhlokModel.of(TestSurvival.steps(times, levels), processes, replicas,
                Math.pow(10, log10Checkpoint));
        assertEquals(bruteForce(model), model.optimalIntervalSeconds(),
                () -> model + " times " + Arrays.toString(times));
    }

    @Test
    void the_search_needs_few_evaluations_where_brute_force_needs_millions() {
        // Reliable replicas: the optimum is near 10⁶ s, which the poster's scan reaches one second at a time.
        RahmanSubhlokModel model = RahmanSubhlokModel.of(SurvivalFunction.weibull(0.7, 3e8), 32, 3, 300);
        long optimum = model.optimalIntervalSeconds();
        assertTrue(optimum > 100_000, () -> "optimum " + optimum);
        // Near the optimum E is flat: the bound 1/P(a) + T_s/b cannot discard the ~√T* seconds around it, so the
        // search evaluates a few thousand points where the scan would evaluate a million.
        int evaluations = model.searchEvaluations();
        assertTrue(evaluations < optimum / 100, () -> evaluations + " evaluations");
        // The neighbours are no better (a local check; the global one is the brute-force property above).
        assertTrue(model.expectedCost(optimum) <= model.expectedCost(optimum - 1));
        assertTrue(model.expectedCost(optimum) <= model.expectedCost(optimum + 1));
    }

    @Test
    void a_host_that_never_fails_is_never_worth_checkpointing() {
        RahmanSubhlokModel model = RahmanSubhlokModel.of(SurvivalFunction.exponential(0.0), 4, 2, 10);
        // E(T) = 1 + 10/T decreases until it rounds to 1 near the end of the range.
        assertTrue(model.optimalIntervalSeconds() > 1e15, () -> "optimum " + model.optimalIntervalSeconds());
        assertEquals(Double.POSITIVE_INFINITY, model.meanTimeToInterruptionSeconds());
    }

    @Test
    void when_no_interval_can_succeed_the_shortest_is_optimal() {
        // S(1 s) = e^−1000 = 0 in double, and 400 processes with S(1 s) = 0.1 give P(1 s) = 10^−400 = 0: E(T) = +∞
        // for every T, all tie, and the smallest whole second is the answer, never 0.
        assertEquals(1, RahmanSubhlokModel.of(SurvivalFunction.exponential(1000), 4, 2, 10).optimalIntervalSeconds());
        assertEquals(1, RahmanSubhlokModel.of(SurvivalFunction.exponential(-Math.log(0.1)), 400, 1, 10)
                .optimalIntervalSeconds());
    }

    @Test
    void job_survival_and_cost_follow_the_formula() {
        SurvivalFunction replica = SurvivalFunction.exponential(1e-3);
        RahmanSubhlokModel model = RahmanSubhlokModel.of(replica, 16, 2, 60);
        double s = Math.exp(-1e-3 * 500);
        double p = Math.pow(1 - Math.pow(1 - s, 2), 16);
        assertEquals(p, model.jobSurvival(500), 1e-14);
        assertEquals(1 / p + 60.0 / 500, model.expectedCost(500), 1e-12);
        assertEquals(1.0, model.jobSurvival(0));
        assertEquals(0.0, model.jobSurvival(Double.POSITIVE_INFINITY));
    }

    @Test
    void mean_time_to_interruption_of_exponential_replicas() {
        double rate = 1.0 / 3600;
        // n processes, one replica each: the minimum of n exponentials, mean 1/(nμ).
        assertEquals(3600.0 / 32, RahmanSubhlokModel.of(SurvivalFunction.exponential(rate), 32, 1, 1)
                .meanTimeToInterruptionSeconds(), 1e-8 * 3600 / 32);
        // One process, r replicas: the maximum of r exponentials, mean H_r/μ.
        assertEquals(3600.0 * (1 + 0.5 + 1.0 / 3), RahmanSubhlokModel.of(SurvivalFunction.exponential(rate), 1, 3, 1)
                .meanTimeToInterruptionSeconds(), 1e-8 * 3600);
        // Two processes, two replicas: ∫ (1 − (1 − e^{−μt})²)² dt = (4/2 − 4/3·2 ... ) = 11/12 /μ... by expansion:
        // (2e^{−μt} − e^{−2μt})² = 4e^{−2μt} − 4e^{−3μt} + e^{−4μt} → (2 − 4/3 + 1/4)/μ = 11/12 /μ.
        assertEquals(3600.0 * 11 / 12, RahmanSubhlokModel.of(SurvivalFunction.exponential(rate), 2, 2, 1)
                .meanTimeToInterruptionSeconds(), 1e-8 * 3600);
    }

    @Property(tries = 50)
    void mean_time_to_interruption_of_one_weibull_replica_is_its_mean(
            @ForAll @DoubleRange(min = 0.5, max = 4) double shape,
            @ForAll @DoubleRange(min = -2, max = 8) double log10Scale) {
        double scale = Math.pow(10, log10Scale);
        double mean = scale * Math.exp(Gamma.logGamma(1 + 1 / shape));
        double mtti = RahmanSubhlokModel.of(SurvivalFunction.weibull(shape, scale), 1, 1, 1)
                .meanTimeToInterruptionSeconds();
        assertEquals(mean, mtti, 1e-8 * mean);
    }

    @Test
    void mean_time_to_interruption_of_a_step_function_is_the_area_under_it() {
        // S = 1 on [0, 100), 0.5 on [100, 300), 0 beyond: area 100 + 100 = 200 s.
        double mtti = RahmanSubhlokModel.of(TestSurvival.steps(new double[] {100, 300}, new double[] {1, 0.5, 0}),
                1, 1, 1).meanTimeToInterruptionSeconds();
        assertEquals(200.0, mtti, 1e-6);
    }

    @Test
    void rejects_bad_parameters_with_clear_messages() {
        SurvivalFunction replica = SurvivalFunction.exponential(1e-3);
        assertThrows(NullPointerException.class, () -> RahmanSubhlokModel.of(null, 1, 1, 1));
        assertEquals("processes must be >= 1: 0",
                assertThrows(IllegalArgumentException.class, () -> RahmanSubhlokModel.of(replica, 0, 1, 1))
                        .getMessage());
        assertEquals("replicas must be >= 1: -2",
                assertThrows(IllegalArgumentException.class, () -> RahmanSubhlokModel.of(replica, 1, -2, 1))
                        .getMessage());
        assertEquals("checkpointSeconds must be finite and > 0: 0.0",
                assertThrows(IllegalArgumentException.class, () -> RahmanSubhlokModel.of(replica, 1, 1, 0))
                        .getMessage());
        RahmanSubhlokModel model = RahmanSubhlokModel.of(replica, 1, 1, 1);
        assertEquals("intervalSeconds must be finite and > 0: 0.0",
                assertThrows(IllegalArgumentException.class, () -> model.expectedCost(0)).getMessage());
        assertEquals("seconds must be >= 0: NaN",
                assertThrows(IllegalArgumentException.class, () -> model.jobSurvival(Double.NaN)).getMessage());
    }

    /**
     * The caveat of the class description: the model assumes fresh replicas in every interval. Under a decreasing
     * hazard replicas that survived are more reliable, and the interval for them is longer; for memoryless replicas
     * their age changes nothing.
     */
    @Test
    void surviving_replicas_of_a_decreasing_hazard_warrant_a_longer_interval() {
        SurvivalFunction fresh = SurvivalFunction.weibull(0.7, 8532);
        double age = 3600;
        SurvivalFunction survivor = t -> fresh.survival(age + t) / fresh.survival(age);
        long freshInterval = RahmanSubhlokModel.of(fresh, 16, 2, 10).optimalIntervalSeconds();
        long survivorInterval = RahmanSubhlokModel.of(survivor, 16, 2, 10).optimalIntervalSeconds();
        assertTrue(survivorInterval > 1.3 * freshInterval, freshInterval + " s fresh, " + survivorInterval
                + " s for replicas up for an hour");
        SurvivalFunction memoryless = SurvivalFunction.exponential(1 / 10_800.0);
        SurvivalFunction memorylessSurvivor = t -> memoryless.survival(age + t) / memoryless.survival(age);
        long a = RahmanSubhlokModel.of(memoryless, 16, 2, 10).optimalIntervalSeconds();
        long b = RahmanSubhlokModel.of(memorylessSurvivor, 16, 2, 10).optimalIntervalSeconds();
        assertTrue(Math.abs(a - b) <= 1, a + " s against " + b + " s");
    }
}
