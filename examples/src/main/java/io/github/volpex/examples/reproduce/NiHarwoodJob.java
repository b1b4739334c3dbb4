package io.github.volpex.examples.reproduce;

import io.github.volpex.checkpoint.interval.AdaptiveCheckpointScheduler;
import io.github.volpex.checkpoint.interval.NiHarwoodEstimateSource;
import io.github.volpex.checkpoint.interval.NiHarwoodModel;
import io.github.volpex.estimators.Aggregate;
import io.github.volpex.estimators.DownloadTimeEstimator;
import io.github.volpex.estimators.FailureRateEstimator;
import io.github.volpex.estimators.PeerEstimate;
import io.github.volpex.estimators.PiggybackAggregator;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * One message-passing job of {@code k} peers with coordinated checkpoints (Ni and Harwood §4): it computes, pauses
 * {@code V} seconds per checkpoint, and on any peer's failure rolls back to the last checkpoint, replaces the peer,
 * and spends {@code T_d} seconds downloading the image before it computes again.
 *
 * <p>The adaptive policy is the library's: every job peer estimates {@code μ} with
 * {@link FailureRateEstimator#lastFailures(int)} from the lifetimes of the peers it watches (its neighbours and their
 * neighbours), {@code T_d} with {@link DownloadTimeEstimator}, piggybacks its estimates into a
 * {@link PiggybackAggregator} (mean), and an {@link AdaptiveCheckpointScheduler} decides when to checkpoint, on the
 * simulation's virtual clock.
 */
final class NiHarwoodJob {

    /** When to checkpoint. */
    record Policy(String name, double fixedSeconds, boolean adaptive) {
        static Policy fixed(double seconds) {
            return new Policy(Math.round(seconds / 60) + " min", seconds, false);
        }

        static Policy adaptivePolicy() {
            return new Policy("adaptive", Double.NaN, true);
        }

        /** Ni and Harwood's optimum computed from the true μ, V and T_d (no estimation): a reference. */
        static Policy trueModel() {
            return new Policy("model, true μ", Double.NaN, false);
        }

        boolean isFixed() {
            return !Double.isNaN(fixedSeconds);
        }
    }

    /** The job's environment and size. */
    record Setting(int peers, double workSeconds, double overheadSeconds, double downloadSeconds,
                   PeerLifetimes lifetimes, int neighbours, int lastFailures, double warmUpSeconds,
                   double capSeconds) {
    }

    /** How one job ended. */
    record Outcome(double runtimeSeconds, boolean finished, int checkpoints, int failures, long events) {
    }

    private enum Phase { COMPUTE, CHECKPOINT, RESTART, DONE }

    private final Setting setting;
    private final Policy policy;
    private final Simulation sim;
    private final SplittableRandom[] peerRandom;
    private final double[] peerBirth;
    private Phase phase = Phase.COMPUTE;
    private double saved;
    private double progress;
    private double phaseStart;
    private Simulation.Event phaseEnd;
    private int checkpoints;
    private int failures;
    private boolean firstImage = true;
    private double runtime = Double.NaN;
    // adaptive machinery (null for the other policies)
    private FailureRateEstimator[] estimators;
    private DownloadTimeEstimator[] downloads;
    private PiggybackAggregator aggregator;
    private AdaptiveCheckpointScheduler scheduler;

    private NiHarwoodJob(Setting setting, Policy policy, Setup setup, long... cell) {
        this.setting = setting;
        this.policy = policy;
        this.sim = new Simulation(policy.adaptive() ? -setting.warmUpSeconds() : 0);
        int k = setting.peers();
        peerRandom = new SplittableRandom[k];
        peerBirth = new double[k];
        for (int i = 0; i < k; i++) {
            peerRandom[i] = setup.random("ni-harwood/peer", append(cell, i));
        }
        if (policy.adaptive()) {
            estimators = new FailureRateEstimator[k];
            downloads = new DownloadTimeEstimator[k];
            aggregator = PiggybackAggregator.builder(sim.instantSource()).aggregate(Aggregate.mean())
                    .maxAge(Duration.ofHours(6)).build();
            for (int i = 0; i < k; i++) {
                estimators[i] = FailureRateEstimator.lastFailures(setting.lastFailures());
                downloads[i] = DownloadTimeEstimator.startingAt(setting.overheadSeconds());
                for (int j = 0; j < setting.neighbours(); j++) {
                    watchNeighbour(i, setup.random("ni-harwood/neighbour", append(append(cell, i), j)),
                            sim.now());
                }
            }
        }
    }

    private static long[] append(long[] labels, long label) {
        long[] out = java.util.Arrays.copyOf(labels, labels.length + 1);
        out[labels.length] = label;
        return out;
    }

    /** Runs one job; {@code cell} labels its random streams (same labels, same peer failures, whatever the policy). */
    static Outcome run(Setting setting, Policy policy, Setup setup, long... cell) {
        return new NiHarwoodJob(setting, policy, setup, cell).execute();
    }

    private Outcome execute() {
        sim.run(0); // warm-up of the estimators (adaptive only)
        if (policy.adaptive()) {
            scheduler = AdaptiveCheckpointScheduler.create(setting.peers(),
                    NiHarwoodEstimateSource.global(aggregator), sim.nanoTime());
        }
        for (int i = 0; i < setting.peers(); i++) {
            peerJoins(i);
        }
        startCompute();
        sim.at(setting.capSeconds(), sim::stop);
        sim.run(Double.POSITIVE_INFINITY);
        boolean finished = phase == Phase.DONE;
        return new Outcome(finished ? runtime : setting.capSeconds(), finished, checkpoints, failures,
                sim.eventsRun());
    }

    // ---- peers -------------------------------------------------------------------------------------------------

    private void peerJoins(int i) {
        peerBirth[i] = sim.now();
        double life = setting.lifetimes().sample(sim.now(), peerRandom[i]);
        sim.after(life, () -> peerFails(i));
    }

    private void peerFails(int i) {
        double lifetime = sim.now() - peerBirth[i];
        failures++;
        if (estimators != null) {
            for (int j = 0; j < estimators.length; j++) {
                if (j != i) {
                    observe(j, lifetime);
                }
            }
        }
        peerJoins(i); // a replacement peer takes the place at once
        rollBack();
    }

    /** A peer outside the job that job peer {@code i} watches; when it leaves, a new one takes its place. */
    private void watchNeighbour(int i, SplittableRandom random, double birth) {
        double life = setting.lifetimes().sample(birth, random);
        sim.at(birth + life, () -> {
            observe(i, life);
            watchNeighbour(i, random, sim.now());
        });
    }

    private void observe(int i, double lifetime) {
        estimators[i].recordFailure(lifetime);
        piggyback(i);
    }

    private void piggyback(int i) {
        double mu = estimators[i].ratePerSecondOr(Double.NaN);
        if (Double.isNaN(mu)) {
            return;
        }
        aggregator.offer(new PeerEstimate("peer-" + i, mu, setting.overheadSeconds(), downloads[i].seconds(),
                sim.instantSource().instant()));
        if (phase == Phase.COMPUTE && scheduler != null) {
            scheduleComputeEnd(); // the estimates changed: so may the interval
        }
    }

    // ---- the job -----------------------------------------------------------------------------------------------

    private void startCompute() {
        phase = Phase.COMPUTE;
        phaseStart = sim.now();
        if (scheduler != null) {
            scheduler.checkpointCompleted(); // the interval restarts with every compute phase
        }
        scheduleComputeEnd();
    }

    private double intervalSeconds() {
        if (policy.isFixed()) {
            return policy.fixedSeconds();
        }
        if (policy.adaptive()) {
            return scheduler.intervalSeconds();
        }
        double mu = setting.lifetimes().rateAt(sim.now());
        return NiHarwoodModel.of(setting.peers(), mu, setting.overheadSeconds(), setting.downloadSeconds())
                .optimalIntervalSeconds();
    }

    private void scheduleComputeEnd() {
        double due = phaseStart + intervalSeconds();
        double completion = phaseStart + (setting.workSeconds() - progress);
        double end = Math.max(sim.now(), Math.min(due, completion));
        if (phaseEnd != null && phaseEnd.isPending() && phaseEnd.timeSeconds() == end) {
            return;
        }
        if (phaseEnd != null) {
            phaseEnd.cancel();
        }
        boolean finishes = completion <= due;
        phaseEnd = sim.at(end, finishes ? this::finish : this::beginCheckpoint);
    }

    private void finish() {
        phase = Phase.DONE;
        runtime = sim.now();
        sim.stop();
    }

    private void beginCheckpoint() {
        progress += sim.now() - phaseStart;
        phase = Phase.CHECKPOINT;
        phaseStart = sim.now();
        phaseEnd = sim.after(setting.overheadSeconds(), this::endCheckpoint);
    }

    private void endCheckpoint() {
        saved = progress;
        checkpoints++;
        if (firstImage && downloads != null) {
            firstImage = false;
            for (int i = 0; i < downloads.length; i++) {
                downloads[i].recordFirstImageDownload(setting.downloadSeconds());
                piggyback(i);
            }
        }
        startCompute();
    }

    private void rollBack() {
        if (phase == Phase.DONE) {
            return;
        }
        if (phaseEnd != null) {
            phaseEnd.cancel();
        }
        progress = saved;
        phase = Phase.RESTART;
        phaseStart = sim.now();
        phaseEnd = sim.after(setting.downloadSeconds(), this::endRestart);
    }

    private void endRestart() {
        if (downloads != null) {
            for (int i = 0; i < downloads.length; i++) {
                downloads[i].recordRestartDownload(setting.downloadSeconds());
            }
        }
        startCompute();
    }
}
