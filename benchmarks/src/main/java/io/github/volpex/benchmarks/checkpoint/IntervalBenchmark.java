package io.github.volpex.benchmarks.checkpoint;

import io.github.volpex.checkpoint.interval.ClassicalIntervals;
import io.github.volpex.checkpoint.interval.NiHarwoodModel;
import io.github.volpex.checkpoint.interval.RahmanSubhlokModel;
import io.github.volpex.estimators.SurvivalFunction;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The interval calculators, ns per operation: Ni–Harwood's λ* (beside Young's √(2V/(kμ)) as the baseline) and the
 * Rahman–Subhlok search for n = 32 processes with r = 3 Weibull replicas (beside the poster's scan of every whole
 * second as the baseline).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class IntervalBenchmark {

    /** Varied through state so the JIT cannot fold the calls. */
    public int peers = 16;
    /** One failure per peer every 10 hours. */
    public double failureRatePerSecond = 1.0 / 36_000;
    /** Checkpoint overhead, seconds. */
    public double overheadSeconds = 60;
    /** Download time, seconds. */
    public double downloadSeconds = 120;

    /** Weibull replicas, shape 0.7 and scale 20 000 s, as volunteer hosts' availability is often fitted. */
    private final RahmanSubhlokModel replicated =
            RahmanSubhlokModel.of(SurvivalFunction.weibull(0.7, 20_000), 32, 3, 60);

    /**
     * Ni–Harwood's optimal rate, including the model's argument checks.
     *
     * @return λ*
     */
    @Benchmark
    public double niHarwoodOptimalRate() {
        return NiHarwoodModel.of(peers, failureRatePerSecond, overheadSeconds, downloadSeconds)
                .optimalRatePerSecond();
    }

    /**
     * Baseline: Young's interval for the same job.
     *
     * @return √(2V/(kμ))
     */
    @Benchmark
    public double youngInterval() {
        return ClassicalIntervals.youngIntervalSeconds(overheadSeconds, 1.0 / (peers * failureRatePerSecond));
    }

    /**
     * The Rahman–Subhlok optimal interval by branch and bound.
     *
     * @return the optimal interval, whole seconds
     */
    @Benchmark
    public long rahmanSubhlokSearch() {
        return replicated.optimalIntervalSeconds();
    }

    /**
     * Baseline: the poster's scan of T = 1, 2, ... until 1/P(T) alone exceeds the best cost seen.
     *
     * @return the optimal interval, whole seconds
     */
    @Benchmark
    public long rahmanSubhlokScan() {
        long best = 1;
        double bestCost = replicated.expectedCost(1);
        for (long t = 2; 1.0 / replicated.jobSurvival(t) <= bestCost; t++) {
            double cost = replicated.expectedCost(t);
            if (cost < bestCost) {
                bestCost = cost;
                best = t;
            }
        }
        return best;
    }
}
