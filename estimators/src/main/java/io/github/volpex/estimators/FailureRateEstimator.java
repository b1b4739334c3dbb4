package io.github.volpex.estimators;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * An online estimator of a peer failure rate {@code μ} from observed lifetimes (Ni and Harwood, §3.1.1, eq. 1).
 *
 * <p>Feed it lifetimes as they are observed: {@link #recordFailure} for a session that ended in a failure,
 * {@link #recordCensored} for a session whose observation ended without one (the observer stopped watching, the
 * trace ended, the peer left gracefully). Each session is recorded once, when its observation ends. Read the current
 * {@link RateEstimate} with {@link #estimate()}; it is {@linkplain RateEstimate#isEmpty() empty} until a failure is
 * seen.
 *
 * <p>Four windows, for rates that hold still or drift. Each selects or weighs whole observations by when they were
 * recorded, never slices of their lifetimes: sessions are recorded when they end, so the sessions still running are
 * missing from the most recent stretch of time, and an estimator that clipped exposure to a time window (or weighed
 * it by the age of each second) would count too little recent exposure and overstate the rate by up to a factor
 * {@code 1/(1 − L/2W)}. Over whole observations the windowed MLE is unbiased for a stationary rate.
 * <ul>
 *   <li>{@link #cumulative()}: everything ever recorded;</li>
 *   <li>{@link #lastFailures(int)}: the observations recorded since the {@code (K+1)}-th most recent failure, that
 *       is the last {@code K} failures (the paper's {@code K}) and the censored lifetimes recorded among them;</li>
 *   <li>{@link #timeWindow(Duration, LongSupplier)}: the observations recorded within the last {@code window};</li>
 *   <li>{@link #discounted(Duration, LongSupplier)}: every observation weighted by {@code 2^{−age/halfLife}},
 *       its failure and its lifetime alike.</li>
 * </ul>
 *
 * <p>Implementations are thread-safe: every method is atomic. After warm-up, recording and
 * {@link #ratePerSecondOr(double)} do not allocate, except that a time window grows its buffer when it holds more
 * observations than ever before; {@link #estimate()} allocates one small record (which the JIT often removes). Every
 * method takes constant (amortized) time and blocks only on a short lock.
 *
 * @since 0.1
 */
public interface FailureRateEstimator {

    /**
     * Records a session that ended in a failure after {@code lifetimeSeconds}.
     *
     * @param lifetimeSeconds the time from the session's start to its failure, in seconds; finite and {@code > 0}
     * @throws IllegalArgumentException if {@code lifetimeSeconds} is zero, negative, NaN or infinite
     */
    void recordFailure(double lifetimeSeconds);

    /**
     * Records a session observed for {@code lifetimeSeconds} without failing (right-censored): it adds exposure
     * but no failure.
     *
     * @param lifetimeSeconds the observed time, in seconds; finite and {@code ≥ 0}
     * @throws IllegalArgumentException if {@code lifetimeSeconds} is negative, NaN or infinite
     */
    void recordCensored(double lifetimeSeconds);

    /**
     * Returns the current estimate: the failures and exposure inside the window.
     *
     * @return the estimate; {@linkplain RateEstimate#isEmpty() empty} before the window holds a failure
     */
    RateEstimate estimate();

    /**
     * Returns the current maximum-likelihood rate, or {@code fallbackPerSecond} if the window holds no failure: the
     * same value as {@code estimate().ratePerSecondOr(fallbackPerSecond)}, read without creating an estimate, for
     * hot paths.
     *
     * @param fallbackPerSecond the value returned while the estimate is empty
     * @return the rate per second, or the fallback
     */
    double ratePerSecondOr(double fallbackPerSecond);

    /**
     * Returns an estimator over everything ever recorded: the plain censored MLE.
     *
     * @return a new, empty estimator
     */
    static FailureRateEstimator cumulative() {
        return new CumulativeRateEstimator();
    }

    /**
     * Returns an estimator over the last {@code k} failures (Ni and Harwood's {@code μ = K / Σ t_i}), counting also
     * the censored lifetimes recorded since the failure before them. With no censoring this is exactly eq. 1; until
     * {@code k} failures have been seen it holds all of them.
     *
     * @param k the number of failures kept, {@code ≥ 1}
     * @return a new, empty estimator
     * @throws IllegalArgumentException if {@code k < 1}
     */
    static FailureRateEstimator lastFailures(int k) {
        return new LastFailuresRateEstimator(k);
    }

    /**
     * Returns an estimator over a sliding time window: the observations recorded (at times read from
     * {@code nanoTime}) within the last {@code window}, each with its whole lifetime. A window longer than about 292
     * years (the range of a {@code long} of nanoseconds) never forgets.
     *
     * @param window   the window length, {@code > 0}
     * @param nanoTime the time source, in nanoseconds, non-decreasing (for example {@code System::nanoTime}); a step
     *                 back is treated as standing still
     * @return a new, empty estimator
     * @throws IllegalArgumentException if {@code window} is not positive
     * @throws NullPointerException     if an argument is null
     */
    static FailureRateEstimator timeWindow(Duration window, LongSupplier nanoTime) {
        return new TimeWindowRateEstimator(window, nanoTime);
    }

    /**
     * Returns an exponentially discounted estimator: an observation recorded {@code a} seconds ago weighs
     * {@code 2^{−a/h}}, both its failure (if any) and its lifetime. The estimate is the weighted MLE
     * {@code Σ w_i d_i / Σ w_i t_i}; its effective sample is about the observations of the last {@code h/ln 2}
     * seconds.
     *
     * @param halfLife the half-life {@code h} of the weights, {@code > 0}
     * @param nanoTime the time source, in nanoseconds, non-decreasing (for example {@code System::nanoTime}); a step
     *                 back is treated as standing still
     * @return a new, empty estimator
     * @throws IllegalArgumentException if {@code halfLife} is not positive
     * @throws NullPointerException     if an argument is null
     */
    static FailureRateEstimator discounted(Duration halfLife, LongSupplier nanoTime) {
        return new DiscountedRateEstimator(halfLife, nanoTime);
    }
}
