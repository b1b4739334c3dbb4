package io.github.volpex.benchmarks.checkpoint;

import io.github.volpex.checkpoint.math.LambertW;
import java.util.concurrent.TimeUnit;
import org.mariuszgromada.math.mxparser.mathcollection.SpecialFunctions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Lambert W, ns per call: ours beside its previous version ({@link LambertWPrevious}) and mXparser's
 * {@code SpecialFunctions.lambertW} on the same 1024 random arguments of each distribution. A plain {@link Math#exp}
 * loop over the same arguments is the baseline for scale.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LambertWBenchmark {

    private static final int COUNT = 1024;

    /** The argument distribution. */
    @Param
    public LambertWArguments distribution;

    private double[] arguments;

    /** Draws the arguments. */
    @Setup
    public void setUp() {
        arguments = distribution.draw(COUNT, 42);
    }

    /**
     * Ours: {@code LambertW.w0} or {@code LambertW.wm1}.
     *
     * @return the sum of the results
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public double volpex() {
        double sum = 0;
        if (distribution.lowerBranch()) {
            for (double z : arguments) {
                sum += LambertW.wm1(z);
            }
        } else {
            for (double z : arguments) {
                sum += LambertW.w0(z);
            }
        }
        return sum;
    }

    /**
     * The previous version: {@code LambertWPrevious.w0} or {@code LambertWPrevious.wm1}.
     *
     * @return the sum of the results
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public double previous() {
        double sum = 0;
        if (distribution.lowerBranch()) {
            for (double z : arguments) {
                sum += LambertWPrevious.wm1(z);
            }
        } else {
            for (double z : arguments) {
                sum += LambertWPrevious.w0(z);
            }
        }
        return sum;
    }

    /**
     * mXparser: {@code SpecialFunctions.lambertW(z, 0)} or {@code (z, -1)}.
     *
     * @return the sum of the results
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public double mxparser() {
        double branch = distribution.lowerBranch() ? -1 : 0;
        double sum = 0;
        for (double z : arguments) {
            sum += SpecialFunctions.lambertW(z, branch);
        }
        return sum;
    }

    /**
     * Baseline: one {@link Math#exp} per argument.
     *
     * @return the sum of the results
     */
    @Benchmark
    @OperationsPerInvocation(COUNT)
    public double mathExp() {
        double sum = 0;
        for (double z : arguments) {
            sum += Math.exp(z);
        }
        return sum;
    }
}
