package io.github.volpex.checkpoint.interval;

import io.github.volpex.checkpoint.internal.Checks;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

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
 * only differences between its readings are used, and only the time it moves forward counts: a reading below the one
 * before it counts as no time passed, so a clock that steps back (a wall clock that NTP corrects) neither makes the
 * time since the last checkpoint negative nor postpones the next checkpoint by the step; a step forward counts as
 * time passed, which it cannot be told from. The time of creation counts as the last checkpoint.
 *
 * <p><b>Background commits.</b> With an asynchronous commit (for example
 * {@link io.github.volpex.checkpoint.store.CheckpointStore#commitAsync CheckpointStore.commitAsync}) a checkpoint
 * holds the job for its <i>blocking overhead</i> {@code C} and becomes durable only after its <i>latency</i>
 * {@code L ≥ C}. {@link #checkpoint(Supplier)} runs such a commit and measures both; {@link #recordBlocking} and
 * {@link #recordLatency} take measurements made elsewhere. The scheduler then
 * <ul>
 *   <li>never makes a checkpoint due sooner than {@code L − C} after the previous one returned, so that each
 *   checkpoint is durable before the next starts (Vaidya's model needs it, and a store that persists one commit per
 *   job at a time would otherwise supersede or queue checkpoints); beyond that bound the latency does not move the
 *   optimal interval (Vaidya 1997; see {@link VaidyaModel});</li>
 *   <li>offers {@link #latencyModel()}: {@link VaidyaModel} with the job's failure rate {@code kμ}, the measured
 *   {@code C} and {@code L}, and {@code T_d} as the recovery time, for the overhead ratio the job pays.</li>
 * </ul>
 * The Ni–Harwood overhead {@code V} still comes from the estimate source: for asynchronous commits, let it be the
 * time a checkpoint holds the job (the measured {@link #blockingSeconds()} is one such measurement), not the time
 * until it is durable.
 *
 * <p>Thread-safe if the estimate source and the clock are; queries never block unless they do (the clock is read
 * under a private lock, one reading at a time, so that steps back are counted once). Whatever the source throws
 * reaches the caller of the query. Measurements may be recorded from any thread, for example the one that
 * completes a commit's stage.
 *
 * @since 0.1
 */
public final class AdaptiveCheckpointScheduler {

    private static final double NANOS_PER_SECOND = 1e9;

    private final int peers;
    private final NiHarwoodEstimateSource estimates;
    private final LongSupplier nanoTime;
    /** Guards the clock's readings: a private lock, so that no caller locking the scheduler stalls its queries. */
    private final Object clockLock = new Object();
    /** The clock's latest reading, and the sum of its steps back so far; guarded by {@link #clockLock}. */
    private long latestReading;
    private long stepsBackNanos;
    /** When the last checkpoint completed, in forward time ({@code now()}). */
    private volatile long lastCheckpointNanos;
    /** The latest blocking overhead {@code C}, in seconds; NaN until one is recorded. */
    private volatile double blockingSeconds = Double.NaN;
    /** The latest latency {@code L}, in seconds; NaN until one is recorded. */
    private volatile double latencySeconds = Double.NaN;

    private AdaptiveCheckpointScheduler(int peers, NiHarwoodEstimateSource estimates, LongSupplier nanoTime) {
        this.peers = peers;
        this.estimates = estimates;
        this.nanoTime = nanoTime;
        this.latestReading = nanoTime.getAsLong();
        this.lastCheckpointNanos = latestReading;
    }

    /** Reads the clock and returns the time it has moved forward, from the origin of its first reading on. */
    private long now() {
        synchronized (clockLock) {
            long reading = nanoTime.getAsLong();
            if (reading - latestReading < 0) {
                stepsBackNanos += latestReading - reading;
            }
            latestReading = reading;
            return reading + stepsBackNanos;
        }
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
     * Returns the optimal interval {@code 1/λ*} under the latest estimates, and never less than the latest latency
     * minus the latest blocking overhead once both have been recorded.
     *
     * @return the interval, in seconds ({@code +∞} when {@code μ = 0}); {@code +∞} while no estimates are known
     * @throws IllegalArgumentException if {@code V·k·μ} overflows under the latest estimates
     */
    public double intervalSeconds() {
        double optimal = currentModel().map(NiHarwoodModel::optimalIntervalSeconds).orElse(Double.POSITIVE_INFINITY);
        double persisting = latencySeconds - blockingSeconds; // NaN until both are known: then no bound
        return persisting > optimal ? persisting : optimal;
    }

    /**
     * Returns Vaidya's model of the job's checkpoints under the latest estimates and measurements: failure rate
     * {@code kμ}, overhead {@code C} = the latest {@linkplain #blockingSeconds() blocking overhead}, latency
     * {@code L} = the latest {@linkplain #latencySeconds() latency} (or {@code C} if that is smaller, as when the two
     * come from different commits), and recovery time {@code R = T_d}.
     *
     * @return the model; empty while no estimates are known, no blocking overhead or latency has been recorded, or
     *     the latest blocking overhead is 0 (the model needs {@code C > 0})
     * @throws IllegalArgumentException if {@code k·μ} overflows under the latest estimates
     * @since 0.1
     */
    public Optional<VaidyaModel> latencyModel() {
        double c = blockingSeconds;
        double l = latencySeconds;
        if (!(c > 0.0) || Double.isNaN(l)) {
            return Optional.empty();
        }
        return estimates.latest().map(e -> VaidyaModel.of(peers * e.failureRatePerSecond(), c, Math.max(l, c),
                e.downloadSeconds()));
    }

    /**
     * Returns the latest recorded blocking overhead: how long a checkpoint held the job.
     *
     * @return the overhead, in seconds; empty until one is recorded
     * @since 0.1
     */
    public OptionalDouble blockingSeconds() {
        double c = blockingSeconds;
        return Double.isNaN(c) ? OptionalDouble.empty() : OptionalDouble.of(c);
    }

    /**
     * Returns the latest recorded latency: how long after its start a checkpoint was durable.
     *
     * @return the latency, in seconds; empty until one is recorded
     * @since 0.1
     */
    public OptionalDouble latencySeconds() {
        double l = latencySeconds;
        return Double.isNaN(l) ? OptionalDouble.empty() : OptionalDouble.of(l);
    }

    /**
     * Records how long a checkpoint held the job (its blocking overhead {@code C}), replacing the previous
     * measurement. Does not restart the interval (see {@link #checkpointCompleted()}).
     *
     * @param blockingSeconds the time the job was held, in seconds; {@code ≥ 0} and finite
     * @throws IllegalArgumentException if {@code blockingSeconds} is negative, NaN or infinite
     * @since 0.1
     */
    public void recordBlocking(double blockingSeconds) {
        this.blockingSeconds = Checks.nonNegativeFinite("blockingSeconds", blockingSeconds) + 0.0;
    }

    /**
     * Records how long after its start a checkpoint became durable (its latency {@code L}, which includes the
     * blocking overhead), replacing the previous measurement.
     *
     * @param latencySeconds the time from the start of the checkpoint until it was durable, in seconds; {@code ≥ 0}
     *                       and finite
     * @throws IllegalArgumentException if {@code latencySeconds} is negative, NaN or infinite
     * @since 0.1
     */
    public void recordLatency(double latencySeconds) {
        this.latencySeconds = Checks.nonNegativeFinite("latencySeconds", latencySeconds) + 0.0;
    }

    /**
     * Runs an asynchronous commit and measures it: calls {@code commit} (for example
     * {@code () -> store.commitAsync(job, state)}), and when it returns records the time it took as the
     * {@linkplain #recordBlocking blocking overhead} and restarts the interval (as {@link #checkpointCompleted()});
     * when the returned stage completes normally, records the time from the call until then as the
     * {@linkplain #recordLatency latency}. A stage that completes exceptionally (a failed, superseded or abandoned
     * commit) records no latency. Time the clock steps back counts as none (see the class comment).
     *
     * <p>Blocks for as long as {@code commit} does. The latency is recorded by a dependent action on the commit's
     * stage, on the thread that completes it; it only reads the clock (under the scheduler's private lock, held for
     * that reading only) and writes one field.
     *
     * @param <T>    the stage's result type
     * @param commit starts the commit and returns the stage that completes when the checkpoint is durable
     * @return a stage that completes after the latency is recorded, with the commit's result, or exceptionally with
     *     a {@link java.util.concurrent.CompletionException} whose cause is the commit's failure; if reading the clock
     *     throws there, with that exception
     * @throws NullPointerException if {@code commit} is null or returns null (then the interval restarts and the
     *     blocking overhead is recorded, but no latency will be)
     * @throws RuntimeException     whatever {@code commit} throws, unchanged; then nothing is recorded and the
     *     interval does not restart
     * @since 0.1
     */
    public <T> CompletionStage<T> checkpoint(Supplier<? extends CompletionStage<T>> commit) {
        Objects.requireNonNull(commit, "commit");
        long start = now();
        CompletionStage<T> stage = commit.get();
        long returned = now();
        lastCheckpointNanos = returned;
        blockingSeconds = secondsBetween(start, returned);
        Objects.requireNonNull(stage, "the stage commit returned");
        return stage.whenComplete((result, failure) -> {
            if (failure == null) {
                latencySeconds = secondsBetween(start, now());
            }
        });
    }

    private static double secondsBetween(long fromNanos, long toNanos) {
        return Math.max(0L, toNanos - fromNanos) / NANOS_PER_SECOND;
    }

    /**
     * Returns the time since the last checkpoint (or since creation).
     *
     * @return the elapsed time, in seconds
     */
    public double secondsSinceCheckpoint() {
        return Math.max(0L, now() - lastCheckpointNanos) / NANOS_PER_SECOND;
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

    /**
     * Records that a checkpoint has just completed — for an asynchronous commit, that the commit call has returned —
     * so the interval restarts now.
     */
    public void checkpointCompleted() {
        lastCheckpointNanos = now();
    }

    @Override
    public String toString() {
        return "AdaptiveCheckpointScheduler[peers=" + peers + ", secondsSinceCheckpoint=" + secondsSinceCheckpoint()
                + ", blockingSeconds=" + blockingSeconds + ", latencySeconds=" + latencySeconds + "]";
    }
}
