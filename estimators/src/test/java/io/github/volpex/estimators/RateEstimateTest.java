package io.github.volpex.estimators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class RateEstimateTest {

    private static double exponential(SplittableRandom random, double rate) {
        return -Math.log(1.0 - random.nextDouble()) / rate;
    }

    @Test
    void failure_truncated_interval_matches_hand_computed_chi_square_bounds() {
        // K = 5 failures in T = 1000 s: χ²(10) quantiles 3.24697278023684 and 20.4831773508074, over 2T.
        RateInterval ci = new RateEstimate(5, 1000).confidenceInterval(0.95);
        assertEquals(0.0016234863901184205381, ci.lowerPerSecond(), 1e-17);
        assertEquals(0.010241588675403698276, ci.upperPerSecond(), 1e-16);
        assertEquals(0.95, ci.level());
        // K = 1: χ²(2) is exponential, so the bounds are −ln(1 − α/2)/T and −ln(α/2)/T exactly.
        RateInterval one = new RateEstimate(1, 250).confidenceInterval(0.9);
        assertEquals(-Math.log1p(-0.05) / 250, one.lowerPerSecond(), 1e-18);
        assertEquals(-Math.log(0.05) / 250, one.upperPerSecond(), 1e-16);
    }

    @Test
    void time_truncated_interval_and_one_sided_bound_use_two_more_degrees_of_freedom() {
        RateEstimate estimate = new RateEstimate(5, 1000);
        RateInterval ci = estimate.timeTruncatedConfidenceInterval(0.95);
        assertEquals(0.0016234863901184205381, ci.lowerPerSecond(), 1e-17);
        assertEquals(0.011668332079322669631, ci.upperPerSecond(), 1e-16);
        assertEquals(0.0092746738933516220875, estimate.upperBoundPerSecond(0.9), 1e-16);
    }

    @Test
    void empty_estimate_is_explicit_and_still_bounded() {
        RateEstimate empty = new RateEstimate(0, 7200);
        assertTrue(empty.isEmpty());
        IllegalStateException e = assertThrows(IllegalStateException.class, empty::ratePerSecond);
        assertEquals("ratePerSecond needs failures > 0: failures=0.0, exposureSeconds=7200.0 (no failure observed yet: "
                + "see upperBoundPerSecond)", e.getMessage());
        assertThrows(IllegalStateException.class, empty::meanTimeToFailureSeconds);
        assertThrows(IllegalStateException.class, () -> empty.confidenceInterval(0.95));
        assertEquals(1e-3, empty.ratePerSecondOr(1e-3));
        // No failure in T: P(no failure) = e^{−μT} ≥ 1 − level ⇔ μ ≤ −ln(1 − level)/T.
        assertEquals(-Math.log(0.05) / 7200, empty.upperBoundPerSecond(0.95), 1e-17);
        RateInterval ci = empty.timeTruncatedConfidenceInterval(0.95);
        assertEquals(0.0, ci.lowerPerSecond());
        assertEquals(-Math.log(0.025) / 7200, ci.upperPerSecond(), 1e-17);
        // Nothing observed at all: the honest bound is infinite, never a division error.
        assertEquals(Double.POSITIVE_INFINITY, new RateEstimate(0, 0).upperBoundPerSecond(0.95));
    }

    @Test
    void negative_zero_is_zero() {
        RateEstimate negativeZero = new RateEstimate(-0.0, -0.0);
        assertEquals(new RateEstimate(0, 0), negativeZero);
        assertEquals(Double.POSITIVE_INFINITY, negativeZero.upperBoundPerSecond(0.95));
        assertEquals(new CheckpointOverhead(0, 0), new CheckpointOverhead(-0.0, -0.0));
        assertEquals(LifetimeSample.ofFailures(0.0), LifetimeSample.ofFailures(-0.0));
        assertEquals(LifetimeSample.ofFailures(0.0), LifetimeSample.builder().addFailure(-0.0).build());
        assertEquals(SurvivalFunction.exponential(0), SurvivalFunction.exponential(-0.0));
    }

    @Test
    void point_estimates() {
        RateEstimate estimate = new RateEstimate(4, 2000);
        assertFalse(estimate.isEmpty());
        assertEquals(0.002, estimate.ratePerSecond());
        assertEquals(0.002, estimate.ratePerSecondOr(99));
        assertEquals(500.0, estimate.meanTimeToFailureSeconds());
        assertEquals(0.0015, estimate.biasCorrectedRatePerSecond());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new RateEstimate(1, 10).biasCorrectedRatePerSecond());
        assertEquals("biasCorrectedRatePerSecond needs failures >= 2: failures=1.0, exposureSeconds=10.0",
                e.getMessage());
        assertEquals(new RateEstimate(2, 3.0), RateEstimate.of(LifetimeSample.builder().addFailure(1)
                .addCensored(0.5).addFailure(1.5).build()));
    }

    @Test
    void bad_values_are_rejected_with_name_value_and_bound() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RateEstimate(-1, 1));
        assertEquals("failures must be finite and >= 0: -1.0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new RateEstimate(1, Double.NaN));
        assertEquals("exposureSeconds must be finite and >= 0: NaN", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new RateEstimate(1, 0));
        assertEquals("exposureSeconds must be > 0 when failures > 0: failures=1.0, exposureSeconds=0.0",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new RateEstimate(1, 1).confidenceInterval(1.0));
        assertEquals("level must be in (0, 1): 1.0", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new RateInterval(2, 1, 0.9));
    }

    /**
     * Coverage: over 4,000 seeded failure-truncated samples with K from 1 to 40, the 95% interval covers the true
     * rate 93–97% of the time (the binomial standard deviation is 0.34 points). The seed makes it deterministic.
     */
    @Test
    void ninety_five_percent_interval_covers_the_true_rate_about_95_percent_of_the_time() {
        SplittableRandom random = new SplittableRandom(20_261_122L);
        int trials = 4_000;
        int covered = 0;
        int coveredTimeTruncated = 0;
        for (int trial = 0; trial < trials; trial++) {
            double rate = Math.pow(10, -6 + 4 * random.nextDouble());
            int k = 1 + trial % 40;
            double total = 0.0;
            for (int i = 0; i < k; i++) {
                total += exponential(random, rate);
            }
            if (new RateEstimate(k, total).confidenceInterval(0.95).contains(rate)) {
                covered++;
            }
            // Time-truncated sampling: watch for a fixed time; the interval for it is conservative.
            double horizon = 10.0 / rate;
            int failures = 0;
            double clock = exponential(random, rate);
            while (clock <= horizon) {
                failures++;
                clock += exponential(random, rate);
            }
            if (new RateEstimate(failures, horizon).timeTruncatedConfidenceInterval(0.95).contains(rate)) {
                coveredTimeTruncated++;
            }
        }
        double coverage = (double) covered / trials;
        assertTrue(coverage >= 0.93 && coverage <= 0.97, () -> "coverage " + coverage);
        double conservative = (double) coveredTimeTruncated / trials;
        assertTrue(conservative >= 0.94 && conservative <= 0.99, () -> "time-truncated coverage " + conservative);
    }

    /** The bias-corrected estimator is unbiased for failure-truncated samples; the MLE overshoots by K/(K−1). */
    @Test
    void bias_corrected_rate_is_unbiased_where_the_mle_is_not() {
        SplittableRandom random = new SplittableRandom(7L);
        int k = 4;
        double rate = 1e-3;
        double mleSum = 0.0;
        double correctedSum = 0.0;
        int trials = 40_000;
        for (int trial = 0; trial < trials; trial++) {
            double total = 0.0;
            for (int i = 0; i < k; i++) {
                total += exponential(random, rate);
            }
            RateEstimate estimate = new RateEstimate(k, total);
            mleSum += estimate.ratePerSecond();
            correctedSum += estimate.biasCorrectedRatePerSecond();
        }
        // Relative standard error of each mean ≈ 1/√(trials (K − 2)) ≈ 0.0035.
        assertEquals(1.0, correctedSum / trials / rate, 0.02);
        assertEquals(4.0 / 3.0, mleSum / trials / rate, 0.02);
    }

    @Property(tries = 30, seed = "424242")
    void mle_of_simulated_exponential_data_converges(@ForAll @DoubleRange(min = -7, max = 0) double log10Rate,
                                                     @ForAll long seed) {
        double rate = Math.pow(10, log10Rate);
        SplittableRandom random = new SplittableRandom(seed);
        double previousError = Double.POSITIVE_INFINITY;
        int n = 0;
        double total = 0.0;
        for (int size : new int[] {100, 10_000, 1_000_000}) {
            while (n < size) {
                total += exponential(random, rate);
                n++;
            }
            double error = Math.abs(new RateEstimate(n, total).ratePerSecond() / rate - 1.0);
            int observed = n;
            // Within six standard errors (1/√n) at every size.
            assertTrue(error < 6.0 / Math.sqrt(n), () -> "n=" + observed + " error=" + error);
            previousError = error;
        }
        assertTrue(previousError < 0.006);
    }

    /**
     * Random censoring at the same rate as failures censors half the sessions. The censoring-aware MLE (failures /
     * all exposure) stays on the true rate; the naive one that drops censored sessions doubles it.
     */
    @Property(tries = 20, seed = "1234")
    void censoring_aware_mle_is_unbiased_where_the_naive_one_is_not(
            @ForAll @DoubleRange(min = -6, max = -1) double log10Rate, @ForAll long seed,
            @ForAll @IntRange(min = 0, max = 1) int censorAtFixedTime) {
        double rate = Math.pow(10, log10Rate);
        SplittableRandom random = new SplittableRandom(seed);
        LifetimeSample.Builder builder = LifetimeSample.builder();
        for (int i = 0; i < 20_000; i++) {
            double life = exponential(random, rate);
            double cut = censorAtFixedTime == 1 ? Math.log(2.0) / rate : exponential(random, rate);
            builder.add(Math.min(life, cut), life <= cut);
        }
        LifetimeSample sample = builder.build();
        double aware = RateEstimate.of(sample).ratePerSecond() / rate;
        double naive = RateEstimate.of(sample.failuresOnly()).ratePerSecond() / rate;
        assertEquals(1.0, aware, 0.05);
        // Fixed cut at the median: E[T | T < c] = 1/μ − c·e^{−μc}/(1 − e^{−μc}) = (1 − ln 2)/μ, so naive ≈ 3.26.
        double expectedNaive = censorAtFixedTime == 1 ? 1.0 / (1.0 - Math.log(2.0)) : 2.0;
        assertEquals(expectedNaive, naive, 0.1 * expectedNaive);
        assertTrue(naive - aware > 0.8, () -> "gap " + (naive - aware));
    }

    /**
     * The mean time to failure has the reciprocal interval of the rate: K = 10 failures in T = 1000 s give
     * {@code 2T/χ²_{0.975}(20)} and {@code 2T/χ²_{0.025}(20)} (scipy: 58.5315483929043, 208.533669190679), and for a
     * time-truncated sample the lower bound takes {@code 2K + 2} degrees of freedom (54.3763262503036).
     */
    @Test
    void mean_time_to_failure_has_its_own_interval() {
        RateEstimate estimate = new RateEstimate(10, 1000);
        MeanTimeInterval mtbf = estimate.confidenceInterval(0.95).meanTimeToFailure();
        assertEquals(58.53154839290434, mtbf.lowerSeconds(), 1e-9);
        assertEquals(208.5336691906785, mtbf.upperSeconds(), 1e-9);
        assertEquals(0.95, mtbf.level());
        assertTrue(mtbf.contains(estimate.meanTimeToFailureSeconds()));
        MeanTimeInterval timeTruncated = estimate.timeTruncatedConfidenceInterval(0.95).meanTimeToFailure();
        assertEquals(54.37632625030356, timeTruncated.lowerSeconds(), 1e-9);
        assertEquals(208.5336691906785, timeTruncated.upperSeconds(), 1e-9);
        // No failure yet: the mean is unbounded above; the lower bound still says something.
        MeanTimeInterval empty = new RateEstimate(0, 1000).timeTruncatedConfidenceInterval(0.9).meanTimeToFailure();
        assertEquals(Double.POSITIVE_INFINITY, empty.upperSeconds());
        assertEquals(333.8082006953342, empty.lowerSeconds(), 1e-9);
        // No exposure at all: nothing is known.
        MeanTimeInterval none = new RateEstimate(0, 0).timeTruncatedConfidenceInterval(0.9).meanTimeToFailure();
        assertEquals(0.0, none.lowerSeconds());
        assertEquals(Double.POSITIVE_INFINITY, none.upperSeconds());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new MeanTimeInterval(5, 4, 0.9));
        assertEquals("upperSeconds must be >= lowerSeconds (5.0): 4.0", e.getMessage());
    }
}
