package io.github.volpex.checkpoint.interval;

import io.github.volpex.checkpoint.internal.Checks;
import io.github.volpex.estimators.SurvivalFunction;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * Ren, Eigenmann and Bagchi's one-step look-ahead heuristic (§5, eq. 3): at each step {@code t} of length
 * {@code δt}, checkpoint now if the checkpoint cost is no more than the rollback it saves,
 * {@code C ≤ (t − t₀)·(TR(t) − TR(t + δt)) / TR(t)}, where {@code t₀} is the time of the last checkpoint and
 * {@code TR} the temporal reliability of the host. With an exponential {@code TR = e^{−μt}} the test reduces to
 * {@code t − t₀ ≥ C / (1 − e^{−μδt})}.
 *
 * <p>Times {@code t} and {@code t₀} are read on the clock of the survival function: seconds since the host became
 * available. The paper takes {@code δt} equal to the checkpoint latency.
 *
 * <p><b>Caveat: the interval scales with the mean time to failure itself.</b> With a hazard {@code h} the test fires
 * at {@code t − t₀ ≈ C / (1 − e^{−hδt}) ≈ (C/δt)/h}: with {@code δt} near {@code C}, about the mean time to failure,
 * where the optimum of Young and Daly scales with its square root, {@code √(2C/h)}. On hosts that rarely fail against
 * the job this means checkpointing almost never, which saves overhead; on hosts that fail every few hours it
 * checkpoints far too seldom (reproducing Ren et al.'s evaluation, a look-ahead interval of 2–3 h lost 26–32% of
 * makespan to hourly checkpoints on hosts with a 3-hour mean uptime), and a decreasing hazard (Weibull shape below 1)
 * stretches it further as the host ages. The heuristic pays off with a {@code TR} that drops sharply before
 * predictable failures (the paper's per-host predictor with daily patterns); with a smooth population law prefer
 * {@link NiHarwoodModel} or {@link ClassicalIntervals}.
 *
 * <p>Immutable and thread-safe if the survival function is.
 *
 * @since 0.1
 */
public final class RenLookAhead {

    /** The most steps {@link #nextCheckpointSeconds} examines in one call. */
    public static final long MAX_STEPS = 10_000_000L;

    private final SurvivalFunction reliability;
    private final double checkpointSeconds;
    private final double stepSeconds;

    private RenLookAhead(SurvivalFunction reliability, double checkpointSeconds, double stepSeconds) {
        this.reliability = reliability;
        this.checkpointSeconds = checkpointSeconds;
        this.stepSeconds = stepSeconds;
    }

    /**
     * Returns the heuristic for a host.
     *
     * @param reliability       the temporal reliability {@code TR} of the host
     * @param checkpointSeconds the checkpoint overhead {@code C}, in seconds; {@code > 0}, finite
     * @param stepSeconds       the step {@code δt} between decisions, in seconds; {@code > 0}, finite
     * @return the heuristic
     * @throws NullPointerException     if {@code reliability} is null
     * @throws IllegalArgumentException if {@code checkpointSeconds} or {@code stepSeconds} is not positive and finite
     */
    public static RenLookAhead of(SurvivalFunction reliability, double checkpointSeconds, double stepSeconds) {
        Objects.requireNonNull(reliability, "reliability");
        Checks.positiveFinite("checkpointSeconds", checkpointSeconds);
        Checks.positiveFinite("stepSeconds", stepSeconds);
        return new RenLookAhead(reliability, checkpointSeconds, stepSeconds);
    }

    /**
     * Returns the checkpoint overhead {@code C}.
     *
     * @return {@code C}, in seconds
     */
    public double checkpointSeconds() {
        return checkpointSeconds;
    }

    /**
     * Returns the step {@code δt}.
     *
     * @return {@code δt}, in seconds
     */
    public double stepSeconds() {
        return stepSeconds;
    }

    /**
     * Returns the expected rollback that checkpointing now saves over the next step,
     * {@code (t − t₀)·P(fail in (t, t + δt] | up at t)}; checkpoint when it reaches {@code C}.
     *
     * @param nowSeconds            the current time {@code t}, in seconds on the survival function's clock;
     *                              finite and {@code ≥ lastCheckpointSeconds}
     * @param lastCheckpointSeconds the time {@code t₀} of the last checkpoint (or of the job's start), in seconds;
     *                              finite and {@code ≥ 0}
     * @return the expected saving, in seconds
     * @throws IllegalArgumentException if a time is negative, NaN or infinite, or {@code nowSeconds} precedes
     *     {@code lastCheckpointSeconds}
     */
    public double expectedSavingSeconds(double nowSeconds, double lastCheckpointSeconds) {
        checkTimes(nowSeconds, lastCheckpointSeconds);
        return saving(nowSeconds, lastCheckpointSeconds);
    }

    /**
     * Decides at step {@code t} whether to checkpoint: {@code C ≤ (t − t₀)·(TR(t) − TR(t + δt)) / TR(t)}.
     *
     * @param nowSeconds            the current time {@code t}, in seconds on the survival function's clock;
     *                              finite and {@code ≥ lastCheckpointSeconds}
     * @param lastCheckpointSeconds the time {@code t₀} of the last checkpoint (or of the job's start), in seconds;
     *                              finite and {@code ≥ 0}
     * @return whether to checkpoint now
     * @throws IllegalArgumentException if a time is negative, NaN or infinite, or {@code nowSeconds} precedes
     *     {@code lastCheckpointSeconds}
     */
    public boolean shouldCheckpoint(double nowSeconds, double lastCheckpointSeconds) {
        checkTimes(nowSeconds, lastCheckpointSeconds);
        return checkpointSeconds <= saving(nowSeconds, lastCheckpointSeconds);
    }

    /**
     * Plans the next checkpoint: the first step {@code t = now + j·δt} ({@code j = 0, 1, ...}) no later than
     * {@code horizonSeconds} at which {@link #shouldCheckpoint} holds, assuming the host stays up. Each step costs
     * one or two evaluations of the survival function; the test is not monotone in {@code t} for every survival
     * function, so every step is examined.
     *
     * @param nowSeconds            the current time, in seconds on the survival function's clock; finite and
     *                              {@code ≥ lastCheckpointSeconds}
     * @param lastCheckpointSeconds the time {@code t₀} of the last checkpoint, in seconds; finite and {@code ≥ 0}
     * @param horizonSeconds        the latest time to consider, in seconds; finite and {@code ≥ nowSeconds}
     * @return the time of the next checkpoint, in seconds on the same clock, or empty if the test does not hold at
     *     any step up to the horizon
     * @throws IllegalArgumentException if a time is negative, NaN or infinite, the times are out of order, or the
     *     horizon lies more than {@link #MAX_STEPS} steps ahead
     */
    public OptionalDouble nextCheckpointSeconds(double nowSeconds, double lastCheckpointSeconds,
            double horizonSeconds) {
        checkTimes(nowSeconds, lastCheckpointSeconds);
        Checks.nonNegativeFinite("horizonSeconds", horizonSeconds);
        if (horizonSeconds < nowSeconds) {
            throw new IllegalArgumentException(
                    "horizonSeconds must be >= nowSeconds (" + nowSeconds + "): " + horizonSeconds);
        }
        double steps = Math.floor((horizonSeconds - nowSeconds) / stepSeconds);
        if (steps > MAX_STEPS) {
            throw new IllegalArgumentException("horizonSeconds must be at most " + MAX_STEPS + " steps of "
                    + stepSeconds + " s after nowSeconds (" + nowSeconds + "): " + horizonSeconds);
        }
        for (long j = 0; j <= (long) steps; j++) {
            double t = nowSeconds + j * stepSeconds;
            if (checkpointSeconds <= saving(t, lastCheckpointSeconds)) {
                return OptionalDouble.of(t);
            }
        }
        return OptionalDouble.empty();
    }

    private double saving(double t, double t0) {
        return (t - t0) * reliability.conditionalFailure(t, stepSeconds);
    }

    private static void checkTimes(double nowSeconds, double lastCheckpointSeconds) {
        Checks.nonNegativeFinite("lastCheckpointSeconds", lastCheckpointSeconds);
        Checks.nonNegativeFinite("nowSeconds", nowSeconds);
        if (nowSeconds < lastCheckpointSeconds) {
            throw new IllegalArgumentException("nowSeconds must be >= lastCheckpointSeconds ("
                    + lastCheckpointSeconds + "): " + nowSeconds);
        }
    }

    @Override
    public String toString() {
        return "RenLookAhead[checkpointSeconds=" + checkpointSeconds + ", stepSeconds=" + stepSeconds
                + ", reliability=" + reliability + "]";
    }
}
