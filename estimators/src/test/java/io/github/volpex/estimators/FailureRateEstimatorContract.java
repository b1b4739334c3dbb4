package io.github.volpex.estimators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link FailureRateEstimator} keeps, run against each implementation. The estimator under test
 * reads {@link #clock}, which only the test advances.
 */
abstract class FailureRateEstimatorContract {

    final FakeClock clock = new FakeClock();

    /** A new estimator whose window holds at least 1,000 failures and 10⁹ s of history. */
    abstract FailureRateEstimator create();

    @Test
    void starts_empty_with_zero_exposure() {
        RateEstimate estimate = create().estimate();
        assertTrue(estimate.isEmpty());
        assertEquals(0.0, estimate.exposureSeconds());
    }

    @Test
    void censored_time_alone_leaves_the_estimate_empty_but_bounded() {
        FailureRateEstimator estimator = create();
        estimator.recordCensored(3600);
        RateEstimate estimate = estimator.estimate();
        assertTrue(estimate.isEmpty());
        assertTrue(estimate.exposureSeconds() > 0);
        assertTrue(Double.isFinite(estimate.upperBoundPerSecond(0.95)));
    }

    @Test
    void one_failure_gives_a_finite_positive_rate() {
        FailureRateEstimator estimator = create();
        estimator.recordFailure(100);
        RateEstimate estimate = estimator.estimate();
        assertEquals(1.0, estimate.failures(), 1e-9);
        assertTrue(estimate.ratePerSecond() > 0 && Double.isFinite(estimate.ratePerSecond()));
    }

    @Test
    void without_elapsed_time_the_estimate_is_the_censored_mle() {
        FailureRateEstimator estimator = create();
        estimator.recordFailure(100);
        estimator.recordCensored(300);
        estimator.recordFailure(200);
        RateEstimate estimate = estimator.estimate();
        assertEquals(2.0, estimate.failures(), 1e-12);
        assertEquals(600.0, estimate.exposureSeconds(), 1e-9);
        assertEquals(2.0 / 600.0, estimate.ratePerSecond(), 1e-12);
    }

    @Test
    void converges_on_a_stationary_rate() {
        FailureRateEstimator estimator = create();
        SplittableRandom random = new SplittableRandom(99);
        double rate = 1.0 / 3600;
        for (int i = 0; i < 1000; i++) {
            double life = -Math.log(1.0 - random.nextDouble()) / rate;
            estimator.recordFailure(life);
        }
        assertEquals(1.0, estimator.estimate().ratePerSecond() / rate, 0.15);
    }

    @Test
    void the_allocation_free_read_agrees_with_the_estimate() {
        FailureRateEstimator estimator = create();
        assertEquals(-1.0, estimator.ratePerSecondOr(-1.0));
        estimator.recordCensored(70);
        assertEquals(-1.0, estimator.ratePerSecondOr(-1.0));
        estimator.recordFailure(30);
        clock.advanceSeconds(5);
        estimator.recordFailure(100);
        clock.advanceSeconds(5);
        assertEquals(estimator.estimate().ratePerSecond(), estimator.ratePerSecondOr(-1.0), 1e-18);
    }

    @Test
    void rejects_bad_lifetimes_and_keeps_its_state() {
        FailureRateEstimator estimator = create();
        estimator.recordFailure(50);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> estimator.recordFailure(-1));
        assertEquals("lifetimeSeconds must be finite and > 0: -1.0", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> estimator.recordFailure(0));
        assertThrows(IllegalArgumentException.class, () -> estimator.recordFailure(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> estimator.recordFailure(Double.POSITIVE_INFINITY));
        e = assertThrows(IllegalArgumentException.class, () -> estimator.recordCensored(Double.NaN));
        assertEquals("lifetimeSeconds must be finite and >= 0: NaN", e.getMessage());
        assertEquals(new RateEstimate(1, 50), estimator.estimate());
    }

    @Test
    void concurrent_recording_loses_nothing() throws Exception {
        FailureRateEstimator estimator = create();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            Future<?>[] futures = new Future<?>[4];
            for (int t = 0; t < 4; t++) {
                futures[t] = pool.submit(() -> {
                    for (int i = 0; i < 250; i++) {
                        estimator.recordFailure(1.0);
                        estimator.estimate();
                    }
                });
            }
            for (Future<?> f : futures) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        RateEstimate estimate = estimator.estimate();
        assertEquals(1000.0, estimate.failures(), 1e-9);
        assertEquals(1000.0, estimate.exposureSeconds(), 1e-9);
    }
}
