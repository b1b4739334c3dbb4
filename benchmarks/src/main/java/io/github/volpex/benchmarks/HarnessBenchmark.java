package io.github.volpex.benchmarks;

import io.github.volpex.checkpoint.interval.ClassicalIntervals;
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
 * Proves the harness: Young's interval against a bare {@link Math#sqrt} of the same product as the baseline.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HarnessBenchmark {

    /** Varied per invocation through state so the JIT cannot fold the call. */
    double cost = 300.0;
    double mtbf = 86_400.0;

    /**
     * Baseline: the square root alone.
     *
     * @return the square root
     */
    @Benchmark
    public double baselineSqrt() {
        return Math.sqrt(2.0 * cost * mtbf);
    }

    /**
     * Young's interval, with its argument checks.
     *
     * @return the interval in seconds
     */
    @Benchmark
    public double youngInterval() {
        return ClassicalIntervals.youngIntervalSeconds(cost, mtbf);
    }
}
