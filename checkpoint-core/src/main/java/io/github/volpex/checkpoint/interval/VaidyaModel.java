package io.github.volpex.checkpoint.interval;

import io.github.volpex.checkpoint.internal.Checks;
import io.github.volpex.checkpoint.math.LambertW;

/**
 * Vaidya's model of equidistant checkpoints whose <i>overhead</i> {@code C} (the time the job is held) and
 * <i>latency</i> {@code L ≥ C} (the time until the checkpoint is durable) differ, under failures that arrive as a
 * Poisson process with rate {@code λ} (N. H. Vaidya, "Impact of checkpoint latency on overhead ratio of a
 * checkpointing scheme", IEEE Trans. Computers 46(8), 1997): the overhead ratio at any interval, the optimal interval
 * and the ratio there.
 *
 * <p>The interval {@code T} is the useful work between two checkpoints; the job's period is {@code T + C}, and the
 * {@code L − C} seconds of the latency that overlap computation count as useful work. A failure rolls the job back to
 * the last durable checkpoint, takes {@code R} seconds to recover, and loses besides the work since that checkpoint
 * became durable the {@code L − C} seconds done while it was persisting. The expected time to complete one interval
 * and the overhead ratio are (package documentation, eqs. V1–V2)
 * <pre>
 *   Γ(T) = e^{λ(L − C + R)} · (e^{λ(T + C)} − 1) / λ,      r(T) = Γ(T)/T − 1.
 * </pre>
 * The latency and the recovery time multiply {@code Γ} by a factor that does not depend on {@code T}, so the
 * minimiser is that of the blocking case (eq. V3), the exact optimum of Daly's model with {@code M = 1/λ}
 * ({@link ClassicalIntervals#exactIntervalSeconds}):
 * {@code T* = (1 + W₀(−e^{−(1 + λC)}))/λ}. The model needs each checkpoint durable before the next one starts,
 * {@code T + C ≥ L}; the library's optimum is therefore {@code max(T*, L − C)}, since {@code r} falls and then rises
 * in {@code T}. Where the bound does not bind, the ratio at the optimum is {@code r* = e^{λ(T* + L + R)} − 1}
 * (eq. V4). With {@code L = C} and {@code R = 0} the model is the blocking one of Young and Daly.
 *
 * <p>All results are evaluated without cancellation: {@code r(T)} as
 * {@code [(e^a − 1)(e^b − 1) + (e^b − 1 − b) + λC] / (λT)} with {@code a = λ(L − C + R)}, {@code b = λ(T + C)}, a sum
 * of non-negative terms; {@code λT*} through {@link LambertW#onePlusW0(double)} from the offset
 * {@code (1 − e^{−λC})/e}.
 *
 * <p>Immutable and thread-safe. Times are seconds, rates per second.
 *
 * @param failureRatePerSecond the failure rate {@code λ} of the job, per second; {@code ≥ 0} and finite
 *                             ({@code 0}: the job never fails and never needs to checkpoint)
 * @param overheadSeconds      the overhead {@code C}, the time one checkpoint holds the job, in seconds; {@code > 0}
 *                             and finite
 * @param latencySeconds       the latency {@code L}, from the start of a checkpoint until it is durable, in seconds;
 *                             finite and {@code ≥ overheadSeconds}
 * @param recoverySeconds      the recovery time {@code R} after a failure, in seconds; {@code ≥ 0} and finite
 * @since 0.1
 */
public record VaidyaModel(double failureRatePerSecond, double overheadSeconds, double latencySeconds,
        double recoverySeconds) {

    private static final double INV_E = 0.36787944117144233;
    /** Below this {@code λC}, {@code λT* = √(2λC) − 2λC/3} to far below an ulp (the branch-point series). */
    private static final double TINY_RATIO = 0x1p-110;

    /**
     * Validates the parameters.
     *
     * @param failureRatePerSecond the failure rate {@code λ}, per second; {@code ≥ 0} and finite
     * @param overheadSeconds      the overhead {@code C}, in seconds; {@code > 0} and finite
     * @param latencySeconds       the latency {@code L}, in seconds; finite and {@code ≥ overheadSeconds}
     * @param recoverySeconds      the recovery time {@code R}, in seconds; {@code ≥ 0} and finite
     * @throws IllegalArgumentException if {@code failureRatePerSecond} or {@code recoverySeconds} is negative, NaN
     *     or infinite, {@code overheadSeconds} is not positive and finite, or {@code latencySeconds} is NaN,
     *     infinite or less than {@code overheadSeconds}; the message names the parameter, its value and the bound
     */
    public VaidyaModel {
        Checks.nonNegativeFinite("failureRatePerSecond", failureRatePerSecond);
        Checks.positiveFinite("overheadSeconds", overheadSeconds);
        if (!(latencySeconds >= overheadSeconds) || latencySeconds == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("latencySeconds must be finite and >= overheadSeconds ("
                    + overheadSeconds + "): " + latencySeconds);
        }
        Checks.nonNegativeFinite("recoverySeconds", recoverySeconds);
        // −0.0 and 0.0 are the same rate and time: keep one of them, so that equal models are equal.
        failureRatePerSecond += 0.0;
        recoverySeconds += 0.0;
    }

    /**
     * Returns the model for the given parameters (the canonical constructor, named).
     *
     * @param failureRatePerSecond the failure rate {@code λ}, per second; {@code ≥ 0} and finite
     * @param overheadSeconds      the overhead {@code C}, in seconds; {@code > 0} and finite
     * @param latencySeconds       the latency {@code L}, in seconds; finite and {@code ≥ overheadSeconds}
     * @param recoverySeconds      the recovery time {@code R}, in seconds; {@code ≥ 0} and finite
     * @return the model
     * @throws IllegalArgumentException as the canonical constructor
     */
    public static VaidyaModel of(double failureRatePerSecond, double overheadSeconds, double latencySeconds,
            double recoverySeconds) {
        return new VaidyaModel(failureRatePerSecond, overheadSeconds, latencySeconds, recoverySeconds);
    }

    /**
     * Returns the shortest interval the model allows, {@code L − C}: a checkpoint must be durable before the next
     * one starts.
     *
     * @return {@code latencySeconds − overheadSeconds}, in seconds; {@code 0} for a blocking checkpoint
     */
    public double minimumIntervalSeconds() {
        return latencySeconds - overheadSeconds;
    }

    /**
     * Returns the overhead ratio {@code r(T) = Γ(T)/T − 1}: the expected time the job spends, per second of useful
     * work, on checkpoints, lost work and recovery.
     *
     * @param intervalSeconds the useful work {@code T} between checkpoints, in seconds; {@code > 0}, finite and
     *                        {@code ≥ minimumIntervalSeconds()}
     * @return the overhead ratio, {@code > 0}; {@code +∞} when it exceeds the largest double; {@code C/T} when
     *     {@code λ = 0}
     * @throws IllegalArgumentException if {@code intervalSeconds} is not positive and finite or is less than
     *     {@link #minimumIntervalSeconds()}
     */
    public double overheadRatio(double intervalSeconds) {
        Checks.positiveFinite("intervalSeconds", intervalSeconds);
        double minimum = minimumIntervalSeconds();
        if (intervalSeconds < minimum) {
            throw new IllegalArgumentException("intervalSeconds must be >= latencySeconds - overheadSeconds ("
                    + minimum + "): " + intervalSeconds);
        }
        double lambda = failureRatePerSecond;
        if (lambda == 0.0) {
            return overheadSeconds / intervalSeconds;
        }
        double expm1a = Math.expm1(lambda * (minimum + recoverySeconds));
        double b = lambda * (intervalSeconds + overheadSeconds);
        double expm1b = Math.expm1(b);
        double lambdaT = lambda * intervalSeconds;
        // r = [(e^a − 1)(e^b − 1) + (e^b − 1 − b) + λC] / (λT); every term is ≥ 0.
        if (lambdaT >= Double.MIN_NORMAL) {
            // Divided term by term, so that no product overflows before r itself does.
            double first = expm1a == 0.0 ? 0.0 : expm1a * (expm1b / lambdaT);
            return first + expm1MinusX(b) / lambdaT + overheadSeconds / intervalSeconds;
        }
        // λT underflows (λ subnormal): then e^a − 1 and e^b − 1 are tiny and nothing overflows.
        double excess = expm1a * expm1b + expm1MinusX(b);
        return (excess / lambda + overheadSeconds) / intervalSeconds;
    }

    /**
     * Returns the interval that minimises the overhead ratio: {@code max(T*, L − C)} with
     * {@code T* = (1 + W₀(−e^{−(1 + λC)}))/λ}, which does not depend on the latency or the recovery time.
     *
     * @return the useful work between checkpoints, in seconds; {@code +∞} when {@code λ = 0}
     */
    public double optimalIntervalSeconds() {
        if (failureRatePerSecond == 0.0) {
            return Double.POSITIVE_INFINITY;
        }
        return Math.max(unconstrainedOptimumSeconds(), minimumIntervalSeconds());
    }

    /**
     * Returns the overhead ratio at {@link #optimalIntervalSeconds()}: {@code e^{λ(T* + L + R)} − 1} when the
     * optimum is {@code T*}, {@code r(L − C)} when the latency bound binds.
     *
     * @return the least overhead ratio, {@code ≥ 0}; {@code 0} when {@code λ = 0}; {@code +∞} when it exceeds the
     *     largest double
     */
    public double optimalOverheadRatio() {
        double lambda = failureRatePerSecond;
        if (lambda == 0.0) {
            return 0.0;
        }
        double optimum = unconstrainedOptimumSeconds();
        double minimum = minimumIntervalSeconds();
        if (optimum < minimum) {
            return overheadRatio(minimum);
        }
        // λT* from the offset directly: T* itself may overflow where λT* does not.
        double ratio = lambda * overheadSeconds;
        double scaledOptimum = ratio < TINY_RATIO
                ? Math.sqrt(2.0 * overheadSeconds) * Math.sqrt(lambda) - 2.0 * ratio / 3.0
                : LambertW.onePlusW0(-Math.expm1(-ratio) * INV_E);
        return Math.expm1(scaledOptimum + lambda * (latencySeconds + recoverySeconds));
    }

    /** {@code T* = (1 + W₀(−e^{−(1 + λC)}))/λ} for {@code λ > 0}, without forming {@code 1/λ}, which may overflow. */
    private double unconstrainedOptimumSeconds() {
        double lambda = failureRatePerSecond;
        double ratio = lambda * overheadSeconds;
        if (ratio < TINY_RATIO) {
            // The branch-point series √(2C/λ) − 2C/3, safe when λC underflows.
            return Math.sqrt(2.0 * overheadSeconds) / Math.sqrt(lambda) - 2.0 * overheadSeconds / 3.0;
        }
        return LambertW.onePlusW0(-Math.expm1(-ratio) * INV_E) / lambda;
    }

    /** {@code e^x − 1 − x} for {@code x ≥ 0}, by its series where the subtraction would cancel. */
    static double expm1MinusX(double x) {
        if (x > 1.0) {
            return Math.expm1(x) - x;
        }
        // Σ_{k ≥ 2} x^k/k!: every term is positive and at most half the previous one.
        double term = 0.5 * x * x;
        double sum = term;
        for (int k = 3; term > 0x1p-56 * sum; k++) {
            term *= x / k;
            sum += term;
        }
        return sum;
    }
}
