package io.github.volpex.benchmarks.estimators;

import io.github.volpex.estimators.FailureRateEstimator;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One update (a failure with its lifetime) followed by one read of the rate
 * ({@link FailureRateEstimator#ratePerSecondOr(double)}), per operation. The baseline is the
 * running-sum MLE a caller would write inline: two fields, no window, no checks, no lock. Time advances by 60 s per
 * operation on a hand-driven clock, so the one-hour window holds 60 observations in steady state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WindowedEstimatorBenchmark {

    private static final int MASK = 1023;

    private final double[] lifetimes = new double[MASK + 1];
    private int next;
    private long nanos;

    private FailureRateEstimator cumulative;
    private FailureRateEstimator lastFailures;
    private FailureRateEstimator timeWindow;
    private FailureRateEstimator discounted;
    private double baselineFailures;
    private double baselineExposure;

    /** Draws exponential lifetimes (mean one hour) and builds the estimators on the hand-driven clock. */
    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < lifetimes.length; i++) {
            lifetimes[i] = -3600 * Math.log(1 - random.nextDouble());
        }
        cumulative = FailureRateEstimator.cumulative();
        lastFailures = FailureRateEstimator.lastFailures(32);
        timeWindow = FailureRateEstimator.timeWindow(Duration.ofHours(1), () -> nanos);
        discounted = FailureRateEstimator.discounted(Duration.ofHours(1), () -> nanos);
    }

    private double nextLifetime() {
        nanos += 60_000_000_000L;
        return lifetimes[next++ & MASK];
    }

    private static double updateAndRead(FailureRateEstimator estimator, double lifetime) {
        estimator.recordFailure(lifetime);
        return estimator.ratePerSecondOr(0.0);
    }

    /**
     * Baseline: the inline running-sum MLE.
     *
     * @return the rate
     */
    @Benchmark
    public double baselineInlineMle() {
        baselineFailures += 1;
        baselineExposure += nextLifetime();
        return baselineFailures / baselineExposure;
    }

    /**
     * {@link FailureRateEstimator#cumulative()}.
     *
     * @return the rate
     */
    @Benchmark
    public double cumulative() {
        return updateAndRead(cumulative, nextLifetime());
    }

    /**
     * {@link FailureRateEstimator#lastFailures(int)} with K = 32.
     *
     * @return the rate
     */
    @Benchmark
    public double lastFailures() {
        return updateAndRead(lastFailures, nextLifetime());
    }

    /**
     * {@link FailureRateEstimator#timeWindow} over one hour (60 observations).
     *
     * @return the rate
     */
    @Benchmark
    public double timeWindow() {
        return updateAndRead(timeWindow, nextLifetime());
    }

    /**
     * {@link FailureRateEstimator#timeWindow} read through {@link FailureRateEstimator#estimate()}, which creates a
     * record.
     *
     * @return the rate
     */
    @Benchmark
    public double timeWindowViaEstimate() {
        timeWindow.recordFailure(nextLifetime());
        return timeWindow.estimate().ratePerSecondOr(0.0);
    }

    /**
     * {@link FailureRateEstimator#discounted} with a one-hour half-life.
     *
     * @return the rate
     */
    @Benchmark
    public double discounted() {
        return updateAndRead(discounted, nextLifetime());
    }
}
