package io.github.volpex.estimators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The four windows: the shared contract, then what sets each apart. */
class FailureRateEstimatorsTest {

    @Nested
    class Cumulative extends FailureRateEstimatorContract {
        @Override
        FailureRateEstimator create() {
            return FailureRateEstimator.cumulative();
        }
    }

    @Nested
    class LastFailures extends FailureRateEstimatorContract {
        @Override
        FailureRateEstimator create() {
            return FailureRateEstimator.lastFailures(1000);
        }

        @Test
        void keeps_the_last_k_failures_and_the_censored_time_since_the_oldest() {
            FailureRateEstimator estimator = FailureRateEstimator.lastFailures(2);
            estimator.recordFailure(100);
            estimator.recordCensored(1000);
            estimator.recordFailure(200);
            estimator.recordCensored(50);
            assertEquals(new RateEstimate(2, 1350), estimator.estimate());
            // The third failure evicts the first, and with it nothing else (the 1000 s came after it).
            estimator.recordFailure(300);
            assertEquals(new RateEstimate(2, 1550), estimator.estimate());
            // The fourth evicts the second failure and the 1000 s recorded before it.
            estimator.recordFailure(400);
            assertEquals(new RateEstimate(2, 750), estimator.estimate());
        }

        @Test
        void a_huge_lifetime_leaving_the_window_takes_no_precision_with_it() {
            FailureRateEstimator estimator = FailureRateEstimator.lastFailures(2);
            estimator.recordFailure(1e20);
            estimator.recordFailure(1);
            estimator.recordFailure(1);
            assertEquals(new RateEstimate(2, 2), estimator.estimate());
            assertEquals(1.0, estimator.ratePerSecondOr(-1));
        }

        @Test
        void k_must_be_positive() {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> FailureRateEstimator.lastFailures(0));
            assertEquals("k must be >= 1: 0", e.getMessage());
        }
    }

    @Nested
    class TimeWindow extends FailureRateEstimatorContract {
        @Override
        FailureRateEstimator create() {
            return FailureRateEstimator.timeWindow(Duration.ofSeconds(1_000_000_000), clock);
        }

        @Test
        void counts_the_observations_recorded_inside_the_window() {
            FailureRateEstimator estimator = FailureRateEstimator.timeWindow(Duration.ofHours(1), clock);
            estimator.recordFailure(1800);           // recorded at 0
            clock.advanceSeconds(1200);
            estimator.recordCensored(600);           // recorded at 1200
            clock.advanceSeconds(2400);              // now 3600: window [0, 3600] still holds both
            assertEquals(new RateEstimate(1, 2400), estimator.estimate());
            clock.advanceSeconds(1);                 // now 3601: the failure has left
            assertEquals(new RateEstimate(0, 600), estimator.estimate());
            clock.advanceSeconds(1200);              // now 4801: the censored one has left too
            assertEquals(new RateEstimate(0, 0), estimator.estimate());
        }

        @Test
        void steady_state_estimate_is_unbiased_although_running_sessions_are_unrecorded() {
            // Ten sessions always running, each failing after exactly L = 2000 s, recorded when they end: the
            // window holds W/L·10 failures and as many whole lifetimes, so the estimate is exactly 1/L.
            FailureRateEstimator estimator = FailureRateEstimator.timeWindow(Duration.ofHours(2), clock);
            for (int i = 0; i < 1000; i++) {
                clock.advanceSeconds(200);
                estimator.recordFailure(2000);
            }
            assertEquals(1.0 / 2000, estimator.estimate().ratePerSecond(), 1e-15);
        }

        @Test
        void running_sums_stay_exact_over_many_evictions() {
            FailureRateEstimator estimator = FailureRateEstimator.timeWindow(Duration.ofSeconds(10), clock);
            for (int i = 0; i < 100_000; i++) {
                clock.advanceSeconds(1);
                estimator.recordFailure(0.1 + (i % 7) * 1e-3);
            }
            double expected = 0;
            for (int i = 100_000 - 11; i < 100_000; i++) {
                expected += 0.1 + (i % 7) * 1e-3;
            }
            RateEstimate estimate = estimator.estimate();
            assertEquals(11, estimate.failures());
            assertEquals(expected, estimate.exposureSeconds(), 1e-12);
        }

        @Test
        void a_huge_lifetime_leaving_the_window_takes_no_precision_with_it() {
            FailureRateEstimator estimator = FailureRateEstimator.timeWindow(Duration.ofSeconds(10), clock);
            estimator.recordCensored(1e20);
            clock.advanceSeconds(5);
            estimator.recordFailure(1);
            clock.advanceSeconds(7);
            assertEquals(new RateEstimate(1, 1), estimator.estimate());
            assertEquals(1.0, estimator.ratePerSecondOr(-1));
        }

        @Test
        void a_clock_stepping_back_is_treated_as_standing_still() {
            FakeClock backwards = new FakeClock();
            backwards.advanceSeconds(100);
            FailureRateEstimator estimator = FailureRateEstimator.timeWindow(Duration.ofSeconds(10), backwards);
            estimator.recordFailure(5);
            backwards.advanceSeconds(-50);
            assertEquals(new RateEstimate(1, 5), estimator.estimate());
        }

        @Test
        void window_must_be_positive() {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> FailureRateEstimator.timeWindow(Duration.ZERO, clock));
            assertEquals("window must be > 0: PT0S", e.getMessage());
            assertThrows(NullPointerException.class, () -> FailureRateEstimator.timeWindow(Duration.ofSeconds(1),
                    null));
        }
    }

    @Nested
    class Discounted extends FailureRateEstimatorContract {
        @Override
        FailureRateEstimator create() {
            return FailureRateEstimator.discounted(Duration.ofSeconds(1_000_000_000), clock);
        }

        @Test
        void failures_and_exposure_halve_every_half_life() {
            FailureRateEstimator estimator = FailureRateEstimator.discounted(Duration.ofHours(1), clock);
            estimator.recordFailure(60);
            RateEstimate fresh = estimator.estimate();
            assertEquals(new RateEstimate(1, 60), fresh);
            clock.advance(Duration.ofHours(1));
            RateEstimate later = estimator.estimate();
            assertEquals(0.5, later.failures(), 1e-15);
            assertEquals(30, later.exposureSeconds(), 1e-12);
            // The rate itself does not decay: only new evidence moves it.
            assertEquals(fresh.ratePerSecond(), later.ratePerSecond(), 1e-15);
            clock.advance(Duration.ofHours(1));
            estimator.recordCensored(45);
            assertEquals(new RateEstimate(0.25, 15 + 45), estimator.estimate());
        }

        @Test
        void follows_a_doubling_rate() {
            // The Overnet trace's rate doubles within 20 hours (Ni and Harwood, §4.2); a 2 h half-life follows it.
            FailureRateEstimator estimator = FailureRateEstimator.discounted(Duration.ofHours(2), clock);
            double mtbf = 4000;
            for (int i = 0; i < 200; i++) {
                clock.advanceSeconds(mtbf / 10);
                estimator.recordFailure(mtbf);
            }
            mtbf = 2000;
            for (int i = 0; i < 200; i++) {
                clock.advanceSeconds(mtbf / 10);
                estimator.recordFailure(mtbf);
            }
            // 40,000 s (5.6 half-lives) after the change, the old regime weighs 2^{-5.6} = 2%: the estimate is
            // within 2% of the new rate 1/2000, having started from 1/4000.
            assertEquals(1.0 / 2000, estimator.estimate().ratePerSecond(), 0.02 / 2000);
        }
    }

    /** Without elapsed time every window agrees with the cumulative MLE on what it holds. */
    @Property(tries = 200)
    void windows_agree_with_the_mle_when_everything_is_inside(
            @ForAll @Size(min = 1, max = 30) java.util.List<@DoubleRange(min = 0.01, max = 1e6) Double> lifetimes,
            @ForAll @IntRange(min = 0, max = 3) int censoredEvery) {
        FakeClock clock = new FakeClock();
        FailureRateEstimator[] estimators = {
            FailureRateEstimator.cumulative(),
            FailureRateEstimator.lastFailures(lifetimes.size()),
            FailureRateEstimator.timeWindow(Duration.ofDays(365), clock),
            FailureRateEstimator.discounted(Duration.ofDays(365), clock)};
        double failures = 0;
        double exposure = 0;
        for (int i = 0; i < lifetimes.size(); i++) {
            boolean censored = censoredEvery > 0 && i % (censoredEvery + 1) == censoredEvery;
            for (FailureRateEstimator e : estimators) {
                if (censored) {
                    e.recordCensored(lifetimes.get(i));
                } else {
                    e.recordFailure(lifetimes.get(i));
                }
            }
            failures += censored ? 0 : 1;
            exposure += lifetimes.get(i);
        }
        for (FailureRateEstimator e : estimators) {
            RateEstimate estimate = e.estimate();
            assertEquals(failures, estimate.failures(), 1e-9, e::toString);
            assertEquals(exposure, estimate.exposureSeconds(), 1e-12 * exposure, e::toString);
            assertTrue(estimate.isEmpty() == (failures == 0));
        }
    }
}
