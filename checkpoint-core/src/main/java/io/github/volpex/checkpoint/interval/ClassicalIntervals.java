package io.github.volpex.checkpoint.interval;

import io.github.volpex.checkpoint.internal.Checks;
import io.github.volpex.checkpoint.math.LambertW;

/**
 * Checkpoint intervals for a job that fails as a Poisson process with mean time between failures {@code M} and
 * writes each checkpoint in time {@code C}: Young's first-order interval, Daly's higher-order one, and the exact
 * optimum of Daly's model.
 *
 * <p>All three return the compute time {@code τ} between the end of one checkpoint and the start of the next.
 * Daly's model (J. T. Daly, "A higher order estimate of the optimum checkpoint interval for restart dumps", FGCS 22,
 * 2006) charges every segment of {@code τ + C} with the expected rework of an exponential failure; its minimiser is
 * {@code τ* = M(1 + W₀(−e^{−(1 + C/M)}))}, which {@link #exactIntervalSeconds} evaluates through
 * {@link LambertW#onePlusW0(double)} with the offset {@code d = (1 − e^{−C/M})/e}: no cancellation however small
 * {@code C/M} is. Young's {@code √(2CM)} (CACM 17(9), 1974) is its first-order approximation, and
 * {@code √(2CM) − C < τ* < √(2CM)} whenever {@code C < 2M}.
 *
 * <p>All three assume a blocking checkpoint: {@code C} holds the job and the checkpoint is durable when it ends.
 * For a checkpoint persisted in the background, whose overhead and latency differ, use {@link VaidyaModel}; with the
 * latency equal to the overhead its optimum is {@link #exactIntervalSeconds}.
 *
 * <p>For replicated jobs, use the mean time to interruption of the replicated system
 * ({@link RahmanSubhlokModel#meanTimeToInterruptionSeconds()}) as {@code M}.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.1
 */
public final class ClassicalIntervals {

    private static final double INV_E = 0.36787944117144233;

    private ClassicalIntervals() {
    }

    /**
     * Returns Young's first-order optimal checkpoint interval {@code √(2CM)}.
     *
     * @param checkpointSeconds the time to write one checkpoint {@code C}, in seconds; {@code > 0}, finite
     * @param mtbfSeconds       the mean time between failures {@code M}, in seconds; {@code > 0}, finite
     * @return the compute time between checkpoints, in seconds
     * @throws IllegalArgumentException if an argument is not positive and finite
     */
    public static double youngIntervalSeconds(double checkpointSeconds, double mtbfSeconds) {
        Checks.positiveFinite("checkpointSeconds", checkpointSeconds);
        Checks.positiveFinite("mtbfSeconds", mtbfSeconds);
        return Math.sqrt(2.0 * checkpointSeconds) * Math.sqrt(mtbfSeconds);
    }

    /**
     * Returns Daly's higher-order estimate (eq. 37 of Daly 2006):
     * {@code √(2CM)·[1 + √(C/(2M))/3 + (C/(2M))/9] − C} for {@code C < 2M}, and {@code M} otherwise.
     *
     * @param checkpointSeconds the time to write one checkpoint {@code C}, in seconds; {@code > 0}, finite
     * @param mtbfSeconds       the mean time between failures {@code M}, in seconds; {@code > 0}, finite
     * @return the compute time between checkpoints, in seconds
     * @throws IllegalArgumentException if an argument is not positive and finite
     */
    public static double dalyIntervalSeconds(double checkpointSeconds, double mtbfSeconds) {
        Checks.positiveFinite("checkpointSeconds", checkpointSeconds);
        Checks.positiveFinite("mtbfSeconds", mtbfSeconds);
        if (checkpointSeconds >= 2.0 * mtbfSeconds) {
            return mtbfSeconds;
        }
        double ratio = checkpointSeconds / (2.0 * mtbfSeconds);
        double young = Math.sqrt(2.0 * checkpointSeconds) * Math.sqrt(mtbfSeconds);
        return young * (1.0 + Math.sqrt(ratio) / 3.0 + ratio / 9.0) - checkpointSeconds;
    }

    /**
     * Returns the exact minimiser of Daly's model, {@code τ* = M(1 + W₀(−e^{−(1 + C/M)}))}.
     *
     * @param checkpointSeconds the time to write one checkpoint {@code C}, in seconds; {@code > 0}, finite
     * @param mtbfSeconds       the mean time between failures {@code M}, in seconds; {@code > 0}, finite
     * @return the compute time between checkpoints, in seconds
     * @throws IllegalArgumentException if an argument is not positive and finite
     */
    public static double exactIntervalSeconds(double checkpointSeconds, double mtbfSeconds) {
        Checks.positiveFinite("checkpointSeconds", checkpointSeconds);
        Checks.positiveFinite("mtbfSeconds", mtbfSeconds);
        double ratio = checkpointSeconds / mtbfSeconds;
        if (ratio < 0x1p-110) {
            // τ* = √(2CM) − 2C/3 + O(C·√(C/M)): the series of 1 + W₀ at the branch point, exact to an ulp here
            // (and safe when C/M underflows).
            return Math.sqrt(2.0 * checkpointSeconds) * Math.sqrt(mtbfSeconds) - 2.0 * checkpointSeconds / 3.0;
        }
        double d = -Math.expm1(-ratio) * INV_E;
        return mtbfSeconds * LambertW.onePlusW0(d);
    }
}
