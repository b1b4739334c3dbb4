package io.github.volpex.examples.reproduce;

import io.github.volpex.checkpoint.interval.RenLookAhead;
import io.github.volpex.checkpoint.placement.Objective;
import io.github.volpex.checkpoint.placement.RepositorySelector;
import io.github.volpex.checkpoint.placement.SelectionProblem;
import io.github.volpex.checkpoint.placement.SelectionResult;
import io.github.volpex.checkpoint.placement.StorageHost;
import io.github.volpex.estimators.SurvivalFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import java.util.SplittableRandom;

/**
 * One guest job of Ren et al.'s evaluation (§7), walked over host availability: it runs on a computation host,
 * checkpoints (pausing {@code C = 0.43·n + 5.63} s for n MB), ships {@code m + k} IDA fragments of {@code n/m} bytes
 * in parallel to storage hosts chosen by a selection strategy, and commits the checkpoint once every fragment is
 * stored (the previous one stays valid until then). When its host fails, the scheduler moves it to the up
 * computation host most likely to survive the remaining work; it fetches the fastest {@code m} fragments still
 * reachable and decodes ({@code 0.06·n − 0.29} s), or, if fewer than {@code m} holders are up, starts over.
 */
final class RenJob {

    static final int M = 6;
    static final int K = 3;
    static final double MB = 1e6;

    /** Where checkpoints go. */
    enum Storage {
        RANDOM, OPTIMISTIC, PESSIMISTIC,
        /** Repositories that never fail, at the nominal bandwidth (the paper's setting for the interval study). */
        ALWAYS_UP
    }

    /**
     * The temporal reliability a selector is told for a storage host: its TR at time {@code t} (seconds of the world's
     * clock) when it has been up for {@code ageSeconds}.
     */
    interface StoragePredictor {
        SurvivalFunction tr(int storageIndex, double t, double ageSeconds);
    }

    /**
     * The world a job runs in: availability, which hosts compute and which store, bandwidths, the TR law, and what
     * the selectors are told about each storage host.
     */
    record World(Availability availability, int computeHosts, double[] storageBandwidth, SurvivalFunction law,
                 double nominalBandwidth, StoragePredictor storagePredictor) {

        /** A world whose storage hosts are predicted by the TR law, conditioned on their uptime. */
        World(Availability availability, int computeHosts, double[] storageBandwidth, SurvivalFunction law,
              double nominalBandwidth) {
            this(availability, computeHosts, storageBandwidth, law, nominalBandwidth,
                    (i, t, age) -> conditional(law, age));
        }

        int storageHosts() {
            return storageBandwidth.length;
        }

        int storageHost(int i) {
            return computeHosts + i;
        }
    }

    /** The job: submission time, failure-free work and checkpoint size. */
    record Spec(double submitSeconds, double workSeconds, double checkpointBytes) {
        double overheadSeconds() {
            return 0.43 * checkpointBytes / MB + 5.63;
        }

        double decodeSeconds() {
            return Math.max(0, 0.06 * checkpointBytes / MB - 0.29);
        }
    }

    /** When to checkpoint: every {@code periodSeconds} of work, or by the one-step look-ahead (period NaN). */
    record Interval(double periodSeconds) {
        static Interval periodic(double seconds) {
            return new Interval(seconds);
        }

        static Interval lookAhead() {
            return new Interval(Double.NaN);
        }

        boolean isLookAhead() {
            return Double.isNaN(periodSeconds);
        }
    }

    /** How the job ended. */
    record Outcome(double makespanSeconds, boolean finished, int checkpoints, int failures, int restartsFromScratch) {
    }

    private final World world;
    private final Spec spec;
    private final Storage storage;
    private final Interval interval;
    private final SplittableRandom random;
    private final RepositorySelector selector;

    private RenJob(World world, Spec spec, Storage storage, Interval interval, SplittableRandom random) {
        this.world = world;
        this.spec = spec;
        this.storage = storage;
        this.interval = interval;
        this.random = random;
        this.selector = storage == Storage.RANDOM ? RepositorySelector.uniformRandom(random)
                : RepositorySelector.greedy();
    }

    static Outcome run(World world, Spec spec, Storage storage, Interval interval, SplittableRandom random) {
        return new RenJob(world, spec, storage, interval, random).execute();
    }

    /** The TR of a host that has been up for {@code ageSeconds}, on a clock starting now. */
    static SurvivalFunction conditional(SurvivalFunction law, double ageSeconds) {
        double base = law.survival(ageSeconds);
        if (!(base > 0)) {
            return t -> 0.0;
        }
        return t -> Math.min(1.0, law.survival(ageSeconds + t) / base);
    }

    /**
     * Mean residual life of a host up for {@code ageSeconds}: ∫ TR(t) dt, by the trapezoid rule on a geometric grid.
     */
    static double meanResidualSeconds(SurvivalFunction law, double ageSeconds) {
        SurvivalFunction tr = conditional(law, ageSeconds);
        double sum = 0;
        double prevT = 0;
        double prevS = 1;
        for (double t = 60; t < 1e9; t *= 1.06) {
            double s = tr.survival(t);
            sum += (t - prevT) * (s + prevS) / 2;
            prevT = t;
            prevS = s;
            if (s < 1e-9) {
                break;
            }
        }
        return sum;
    }

    private Outcome execute() {
        Availability av = world.availability();
        double cap = spec.submitSeconds() + 20 * spec.workSeconds();
        double t = spec.submitSeconds();
        double work = 0;
        double savedWork = 0;
        int[] savedHolders = null;
        int checkpoints = 0;
        int failures = 0;
        int scratch = 0;
        // place the job
        int host = pickComputeHost(t, spec.workSeconds());
        while (host < 0) {
            t = nextComputeUp(t);
            if (t >= cap) {
                return new Outcome(cap - spec.submitSeconds(), false, 0, 0, 0);
            }
            host = pickComputeHost(t, spec.workSeconds());
        }
        double hostStart = t;
        double lastCheckpoint = t;
        double workSinceCheckpoint = 0;
        RenLookAhead lookAhead = lookAheadFor(host, t);
        while (t < cap) {
            double hostEnd = av.upUntil(host, t);
            double finish = t + (spec.workSeconds() - work);
            double next;
            if (interval.isLookAhead()) {
                OptionalDouble due = lookAhead.nextCheckpointSeconds(t - hostStart, lastCheckpoint - hostStart,
                        Math.max(t - hostStart, finish - hostStart));
                next = due.isPresent() ? hostStart + due.getAsDouble() : Double.POSITIVE_INFINITY;
            } else {
                next = t + (interval.periodSeconds() - workSinceCheckpoint);
            }
            next = Math.max(next, t);
            boolean finishesFirst = finish <= next;
            if (finishesFirst && finish <= hostEnd) {
                return new Outcome(finish - spec.submitSeconds(), true, checkpoints, failures, scratch);
            }
            if (finishesFirst || hostEnd < next + spec.overheadSeconds()) {
                // the computation host fails before the next checkpoint completes: roll back and move
                failures++;
                double f = hostEnd;
                work = savedWork;
                workSinceCheckpoint = 0;
                while (true) {
                    int fresh = pickComputeHost(f, spec.workSeconds() - work);
                    if (fresh < 0) {
                        f = nextComputeUp(f);
                        if (f >= cap) {
                            return new Outcome(cap - spec.submitSeconds(), false, checkpoints, failures, scratch);
                        }
                        continue;
                    }
                    double recovery = 0;
                    if (savedHolders != null) {
                        recovery = fetchSeconds(savedHolders, f);
                        if (Double.isNaN(recovery)) { // fewer than m fragments reachable: start over
                            savedHolders = null;
                            savedWork = 0;
                            work = 0;
                            scratch++;
                            recovery = 0;
                        } else {
                            recovery += spec.decodeSeconds();
                        }
                    }
                    if (av.upUntil(fresh, f) < f + recovery) {
                        failures++;
                        f = av.upUntil(fresh, f);
                        continue;
                    }
                    host = fresh;
                    t = f + recovery;
                    break;
                }
                hostStart = t;
                lastCheckpoint = t;
                lookAhead = lookAheadFor(host, t);
                continue;
            }
            // checkpoint at `next`
            work += next - t;
            t = next + spec.overheadSeconds();
            checkpoints++;
            workSinceCheckpoint = 0;
            lastCheckpoint = t;
            int[] holders = select(t, work, host);
            if (holders != null) {
                double latency = 0;
                boolean stored = true;
                double fragment = spec.checkpointBytes() / M;
                for (int i : holders) {
                    double transfer = fragment / bandwidth(i);
                    latency = Math.max(latency, transfer);
                    if (storage != Storage.ALWAYS_UP && av.upUntil(world.storageHost(i), t) < t + transfer) {
                        stored = false;
                    }
                }
                if (stored && av.upUntil(host, t) >= t + latency) {
                    savedWork = work;
                    savedHolders = holders;
                }
            }
        }
        return new Outcome(cap - spec.submitSeconds(), false, checkpoints, failures, scratch);
    }

    private double bandwidth(int storageIndex) {
        return storage == Storage.ALWAYS_UP ? world.nominalBandwidth() : world.storageBandwidth()[storageIndex];
    }

    private RenLookAhead lookAheadFor(int host, double t) {
        if (!interval.isLookAhead()) {
            return null;
        }
        double age = t - world.availability().upSince(host, t);
        double latency = spec.overheadSeconds() + spec.checkpointBytes() / M / world.nominalBandwidth();
        return RenLookAhead.of(conditional(world.law(), age), spec.overheadSeconds(), latency);
    }

    /** Returns the seconds to fetch the fastest m reachable fragments at {@code t}, or NaN if fewer are up. */
    private double fetchSeconds(int[] holders, double t) {
        double fragment = spec.checkpointBytes() / M;
        List<Double> times = new ArrayList<>();
        for (int i : holders) {
            if (storage == Storage.ALWAYS_UP || world.availability().isUp(world.storageHost(i), t)) {
                times.add(fragment / bandwidth(i));
            }
        }
        if (times.size() < M) {
            return Double.NaN;
        }
        times.sort(null);
        return times.get(M - 1);
    }

    /** The scheduler: the up computation host with the highest TR over the remaining work, or -1. */
    private int pickComputeHost(double t, double remainingSeconds) {
        Availability av = world.availability();
        int best = -1;
        double bestTr = -1;
        for (int h = 0; h < world.computeHosts(); h++) {
            if (av.isUp(h, t)) {
                double tr = conditional(world.law(), t - av.upSince(h, t)).survival(remainingSeconds);
                if (tr > bestTr) {
                    bestTr = tr;
                    best = h;
                }
            }
        }
        return best;
    }

    private double nextComputeUp(double t) {
        double next = Double.POSITIVE_INFINITY;
        for (int h = 0; h < world.computeHosts(); h++) {
            next = Math.min(next, world.availability().nextUp(h, Math.nextUp(t)));
        }
        return next;
    }

    /** Chooses the m + k storage hosts for a checkpoint made at {@code t}, or null if too few are up. */
    private int[] select(double t, double usefulWork, int host) {
        if (storage == Storage.ALWAYS_UP) {
            int[] all = new int[M + K];
            Arrays.setAll(all, i -> i);
            return all;
        }
        Availability av = world.availability();
        List<StorageHost> up = new ArrayList<>();
        for (int i = 0; i < world.storageHosts(); i++) {
            int h = world.storageHost(i);
            if (av.isUp(h, t)) {
                up.add(StorageHost.of(Integer.toString(i), world.storageBandwidth()[i],
                        world.storagePredictor().tr(i, t, t - av.upSince(h, t))));
            }
        }
        if (up.size() < M + K) {
            return null;
        }
        double ci = interval.isLookAhead() ? 3600 : interval.periodSeconds();
        double age = t - av.upSince(host, t);
        Objective objective = storage == Storage.PESSIMISTIC
                ? Objective.pessimistic(ci, usefulWork, world.law(), age)
                : Objective.optimistic(meanResidualSeconds(world.law(), age), ci, usefulWork);
        SelectionResult result = selector.select(SelectionProblem.of((long) spec.checkpointBytes(), M, K, up,
                objective));
        return result.hosts().stream().mapToInt(h -> Integer.parseInt(h.id())).toArray();
    }
}
