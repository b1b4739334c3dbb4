package io.github.volpex.benchmarks.placement;

import io.github.volpex.checkpoint.placement.Objective;
import io.github.volpex.checkpoint.placement.RepositorySelector;
import io.github.volpex.checkpoint.placement.SelectionProblem;
import io.github.volpex.checkpoint.placement.SelectionResult;
import io.github.volpex.checkpoint.placement.StorageHost;
import io.github.volpex.estimators.SurvivalFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Ren's greedy repository selection on {@code V} hosts, against two baselines measured in the same run: one pass
 * over the hosts that evaluates each once (the least any selector that reads every host's reliability must do) and
 * the uniform random selector (the paper's baseline).
 *
 * <p>The problem is built once per trial: building it validates the hosts (distinct ids, capacity), which a caller
 * does once and then reuses with {@link SelectionProblem#withObjective}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class GreedySelectionBenchmark {

    /** The number of candidate hosts. */
    @Param({"1000", "100000", "1000000"})
    public int hosts;

    /** {@code m + k}: 9 is (6, 3), 24 is (16, 8). */
    @Param({"9", "24"})
    public int selected;

    private SelectionProblem problem;
    private List<StorageHost> list;
    private RepositorySelector random;

    /** Builds hosts with bandwidths of 10^5..10^8 B/s and exponential reliabilities with MTTF of 10^3..10^6 s. */
    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom rng = new SplittableRandom(20_070_625L);
        list = new ArrayList<>(hosts);
        for (int i = 0; i < hosts; i++) {
            double bandwidth = Math.exp(Math.log(1e5) + rng.nextDouble() * Math.log(1e3));
            double mttf = Math.exp(Math.log(1e3) + rng.nextDouble() * Math.log(1e3));
            list.add(StorageHost.of("host-" + i, bandwidth, SurvivalFunction.exponential(1.0 / mttf)));
        }
        int m = selected == 9 ? 6 : 16;
        problem = SelectionProblem.of(200_000_000L, m, selected - m, list, Objective.optimistic(36_000, 3_600, 1e5));
        random = RepositorySelector.uniformRandom(new SplittableRandom(1));
    }

    /**
     * The greedy selector.
     *
     * @return the selection
     */
    @Benchmark
    public SelectionResult greedy() {
        return RepositorySelector.greedy().select(problem);
    }

    /**
     * Baseline: uniform random selection (one pass to find the eligible hosts, then {@code m + k} draws).
     *
     * @return the selection
     */
    @Benchmark
    public SelectionResult uniformRandom() {
        return random.select(problem);
    }

    /**
     * Baseline: one pass that reads every host's network cost and failure probability over the horizon.
     *
     * @return a sum that keeps the pass alive
     */
    @Benchmark
    public double singlePass() {
        double fragment = problem.fragmentBytes();
        double horizon = problem.objective().horizonSeconds();
        double sum = 0.0;
        for (StorageHost host : list) {
            sum += fragment / host.bandwidthBytesPerSecond() + host.reliability().conditionalFailure(0.0, horizon);
        }
        return sum;
    }
}
