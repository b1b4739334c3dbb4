package io.github.volpex.checkpoint.interval;

import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Answers "checkpoint now?" for a job of {@code k} peers as the estimates of {@code μ}, {@code V} and {@code T_d}
 * change (Ni and Harwood, §3): every query reads the latest estimates, recomputes the optimal interval
 * {@code 1/λ*} of {@link NiHarwoodModel}, and compares it with the time since the last checkpoint.
 *
 * <pre>{@code
 * AdaptiveCheckpointScheduler scheduler = AdaptiveCheckpointScheduler.create(peers, estimates, System::nanoTime);
 * ...
 * if (scheduler.checkpointDue()) {
 *     writeCheckpoint();
 *     scheduler.checkpointCompleted();
 * }
 * }</pre>
 *
 * <p>The clock is injected as a source of nanoseconds ({@link System#nanoTime()} in production, a fake in tests);
 * only differences between its readings are used. The time of creation counts as the last checkpoint.
 *
 * <p>Thread-safe if the estimate source and the clock are; queries never block unless they do. Whatever the source
 * throws reaches the caller of the query.
 *
 * @since 0.1
 */
public final class AdaptiveCheckpointScheduler {

    private static final double NANOS_PER_SECOND = 1e9;

    private final int peers;
    private final NiHarwoodEstimateSource estimates;
    private final LongSupplier nanoTime;
    private volatile long lastCheckpointNanos;

    private AdaptiveCheckpointScheduler(int peers, NiHarwoodEstimateSource estimates, LongSupplier nanoTime) {
        this.peers = peers;
        this.estimates = estimates;
        this.nanoTime = nanoTime;
        this.lastCheckpointNanos = nanoTime.getAsLong();
    }

    /**
     * Returns a scheduler whose last checkpoint is now.
     *
     * @param peers     the number of peers {@code k} in the job; {@code ≥ 1}
     * @param estimates where the current estimates of {@code μ}, {@code V} and {@code T_d} come from
     * @param nanoTime  the clock, in nanoseconds with an arbitrary origin (for example {@code System::nanoTime})
     * @return the scheduler
     * @throws NullPointerException     if {@code estimates} or {@code nanoTime} is null
     * @throws IllegalArgumentException if {@code peers < 1}
     */
    public static AdaptiveCheckpointScheduler create(int peers, NiHarwoodEstimateSource estimates,
            LongSupplier nanoTime) {
        Checks.atLeastOne("peers", peers);
        Objects.requireNonNull(estimates, "estimates");
        Objects.requireNonNull(nanoTime, "nanoTime");
        return new AdaptiveCheckpointScheduler(peers, estimates, nanoTime);
    }

    /**
     * Returns the number of peers {@code k}.
     *
     * @return {@code k}
     */
    public int peers() {
        return peers;
    }

    /**
     * Returns the model under the latest estimates.
     *
     * @return the model, or empty while no estimates are known
     * @throws IllegalArgumentException if {@code V·k·μ} overflows
     */
    public Optional<NiHarwoodModel> currentModel() {
        return estimates.latest().map(estimate -> estimate.model(peers));
    }

    /**
     * Returns the optimal interval {@code 1/λ*} under the latest estimates.
     *
     * @return the interval, in seconds ({@code +∞} when {@code μ = 0}); {@code +∞} while no estimates are known
     * @throws IllegalArgumentException if {@code V·k·μ} overflows under the latest estimates
     */
    public double intervalSeconds() {
        return currentModel().map(NiHarwoodModel::optimalIntervalSeconds).orElse(Double.POSITIVE_INFINITY);
    }

    /**
     * Returns the time since the last checkpoint (or since creation).
     *
     * @return the elapsed time, in seconds
     */
    public double secondsSinceCheckpoint() {
        return (nanoTime.getAsLong() - lastCheckpointNanos) / NANOS_PER_SECOND;
    }

    /**
     * Returns how long until the next checkpoint is due under the latest estimates.
     *
     * @return the remaining time, in seconds; {@code ≤ 0} when a checkpoint is due, {@code +∞} when none will be
     *     due under these estimates
     * @throws IllegalArgumentException if {@code V·k·μ} overflows under the latest estimates
     */
    public double secondsUntilDue() {
        return intervalSeconds() - secondsSinceCheckpoint();
    }

    /**
     * Returns whether a checkpoint is due: whether the time since the last checkpoint has reached the optimal
     * interval under the latest estimates.
     *
     * @return whether to checkpoint now
     * @throws IllegalArgumentException if {@code V·k·μ} overflows under the latest estimates
     */
    public boolean checkpointDue() {
        return secondsUntilDue() <= 0.0;
    }

    /** Records that a checkpoint has just completed: the interval restarts now. */
    public void checkpointCompleted() {
        lastCheckpointNanos = nanoTime.getAsLong();
    }

    @Override
    public String toString() {
        return "AdaptiveCheckpointScheduler[peers=" + peers + ", secondsSinceCheckpoint=" + secondsSinceCheckpoint()
                + "]";
    }
}
