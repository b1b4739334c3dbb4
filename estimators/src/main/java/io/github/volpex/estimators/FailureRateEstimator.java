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
 * <p>Four windows, for rates that hold still or drift:
 * <ul>
 *   <li>{@link #cumulative()}: everything ever recorded;</li>
 *   <li>{@link #lastFailures(int)}: the last {@code K} failures and the censored time recorded since the oldest of
 *       them (the paper's {@code K});</li>
 *   <li>{@link #timeWindow(Duration, LongSupplier)}: the exposure that lies within the last {@code window} and the
 *       failures that happened in it;</li>
 *   <li>{@link #discounted(Duration, LongSupplier)}: every failure and every second of exposure weighted by
 *       {@code 2^{−age/halfLife}}.</li>
 * </ul>
 *
 * <p>Implementations are thread-safe: every method is atomic. After warm-up, recording and {@link #estimate()} do
 * not allocate (the returned record is scalar-replaced when the caller does not keep it) except that a time window
 * grows its buffer when it holds more sessions than ever before. No method blocks beyond a short lock.
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
     * Returns an estimator over everything ever recorded: the plain censored MLE.
     *
     * @return a new, empty estimator
     */
    static FailureRateEstimator cumulative() {
        return new CumulativeRateEstimator();
    }

    /**
     * Returns an estimator over the last {@code k} failures (Ni and Harwood's {@code μ = K / Σ t_i}), counting also
     * the censored time recorded since the oldest of those failures was recorded.
     *
     * @param k the number of failures kept, {@code ≥ 1}
     * @return a new, empty estimator
     * @throws IllegalArgumentException if {@code k < 1}
     */
    static FailureRateEstimator lastFailures(int k) {
        return new LastFailuresRateEstimator(k);
    }

    /**
     * Returns an estimator over a sliding time window. A session recorded at time {@code e} (read from
     * {@code nanoTime} when it is recorded) with lifetime {@code L} spans {@code [e − L, e]}; at time {@code now} the
     * estimate counts the part of each span that lies in {@code [now − window, now]} as exposure, and its failure if
     * {@code e} lies in the window.
     *
     * @param window   the window length, {@code > 0}
     * @param nanoTime the time source, in nanoseconds, non-decreasing (for example {@code System::nanoTime})
     * @return a new, empty estimator
     * @throws IllegalArgumentException if {@code window} is not positive
     * @throws NullPointerException     if an argument is null
     */
    static FailureRateEstimator timeWindow(Duration window, LongSupplier nanoTime) {
        return new TimeWindowRateEstimator(window, nanoTime);
    }

    /**
     * Returns an exponentially discounted estimator: a failure recorded {@code a} seconds ago weighs
     * {@code 2^{−a/h}}, and so does each second of exposure lying {@code a} seconds in the past (a session
     * {@code [e − L, e]} recorded at {@code e} contributes {@code h/ln 2 · (1 − 2^{−L/h})} of exposure, decayed from
     * {@code e}). The estimate is the weighted MLE {@code Σ w_i d_i / Σ ∫ w}.
     *
     * @param halfLife the half-life {@code h} of the weights, {@code > 0}
     * @param nanoTime the time source, in nanoseconds, non-decreasing (for example {@code System::nanoTime})
     * @return a new, empty estimator
     * @throws IllegalArgumentException if {@code halfLife} is not positive
     * @throws NullPointerException     if an argument is null
     */
    static FailureRateEstimator discounted(Duration halfLife, LongSupplier nanoTime) {
        return new DiscountedRateEstimator(halfLife, nanoTime);
    }
}
