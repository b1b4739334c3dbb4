package io.github.volpex.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Measures benchmarks in interleaved rounds: each round runs every listed benchmark once, in a fresh fork, one after
 * the other, so that a disturbance on a shared machine (another build starting, a noisy neighbour) lands on every
 * benchmark of a round alike instead of on all the forks of one of them. Each ratio is then computed within a round,
 * and the rounds give its spread: the geometric mean of the per-round ratios and the 95% interval of that mean
 * (Student's t on the logarithms), beside the smallest and largest round.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar io.github.volpex.benchmarks.InterleavedRounds
 * -rounds 10 -p mk=6:3 -p size=16777216 -wi 2 -i 3
 * ErasureBenchmark.decodeKLostVolpex,ErasureBenchmark.decodeKLostBackblaze
 * ErasureBenchmark.encodeVolpex,ErasureBenchmark.encodeBackblaze}: each argument is a group of benchmarks separated by
 * commas, whose first is the reference the others' ratios are taken against (their score over the reference's: with
 * times, a ratio above 1 means the reference is faster). Every benchmark of every group runs once per round.
 */
public final class InterleavedRounds {

    /** Student's t, two-sided 95%, for 1 to 30 degrees of freedom. */
    private static final double[] T_975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
        2.056, 2.052, 2.048, 2.045, 2.042};

    private InterleavedRounds() {
    }

    /**
     * Runs the rounds and prints one line per round and a summary.
     *
     * @param args the options and benchmarks, as described in the class documentation
     * @throws RunnerException if JMH fails
     */
    public static void main(String[] args) throws RunnerException {
        int rounds = 10;
        int warmups = 2;
        int iterations = 3;
        Map<String, String> params = new LinkedHashMap<>();
        List<List<String>> groups = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-rounds" -> rounds = Integer.parseInt(args[++i]);
                case "-wi" -> warmups = Integer.parseInt(args[++i]);
                case "-i" -> iterations = Integer.parseInt(args[++i]);
                case "-p" -> {
                    String[] kv = args[++i].split("=", 2);
                    params.put(kv[0], kv[1]);
                }
                default -> groups.add(List.of(args[i].split(",")));
            }
        }
        List<String> benchmarks = new ArrayList<>();
        groups.forEach(benchmarks::addAll);
        if (benchmarks.isEmpty()) {
            throw new IllegalArgumentException("give at least one group of benchmarks: reference,other,...");
        }
        double[][] scores = new double[rounds][benchmarks.size()];
        String unit = "";
        for (int r = 0; r < rounds; r++) {
            for (int b = 0; b < benchmarks.size(); b++) {
                ChainedOptionsBuilder options = new OptionsBuilder().include("\\." + benchmarks.get(b) + "$")
                        .forks(1).warmupIterations(warmups).warmupTime(TimeValue.seconds(1))
                        .measurementIterations(iterations).measurementTime(TimeValue.seconds(1));
                params.forEach(options::param);
                RunResult result = runWhenFree(new Runner(options.build()));
                scores[r][b] = result.getPrimaryResult().getScore();
                unit = result.getPrimaryResult().getScoreUnit();
            }
            System.out.printf(Locale.ROOT, "round %d: %s%n", r + 1, Arrays.toString(scores[r]));
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "| benchmark | median %s | over its group's first: geometric mean [95%% "
                + "interval] | smallest–largest round |%n", unit);
        System.out.println("|---|---|---|---|");
        int at = 0;
        for (List<String> group : groups) {
            int reference = at;
            for (int b = at; b < at + group.size(); b++) {
                double[] own = new double[rounds];
                double[] ratio = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    own[r] = scores[r][b];
                    ratio[r] = scores[r][b] / scores[r][reference];
                }
                System.out.printf(Locale.ROOT, "| %s | %.1f | %s | %.2f–%.2f |%n", benchmarks.get(b), median(own),
                        b == reference ? "1" : interval(ratio), Arrays.stream(ratio).min().orElseThrow(),
                        Arrays.stream(ratio).max().orElseThrow());
            }
            at += group.size();
        }
    }

    /**
     * Runs one benchmark; while another JMH process on the machine holds JMH's lock, waits for it instead of failing
     * the round (or measuring beside it).
     */
    private static RunResult runWhenFree(Runner runner) throws RunnerException {
        while (true) {
            try {
                return runner.runSingle();
            } catch (RunnerException e) {
                if (e.getMessage() == null || !e.getMessage().contains("Unable to acquire the JMH lock")) {
                    throw e;
                }
                System.out.println("another JMH process is running: waiting 15 s");
                try {
                    Thread.sleep(15_000);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /**
     * Returns the median of {@code values}.
     *
     * @param values the values, at least one; not changed
     * @return their median (the mean of the middle two for an even count)
     */
    public static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The geometric mean of the ratios and the 95% interval of that mean. */
    static String interval(double[] ratios) {
        double[] g = geometricMeanInterval(ratios);
        return String.format(Locale.ROOT, "%.2f [%.2f, %.2f]", g[0], g[1], g[2]);
    }

    /**
     * Returns the geometric mean of {@code ratios} and the two-sided 95% Student-t interval of that mean (taken on
     * the logarithms); beyond 30 degrees of freedom the normal quantile 1.96 stands for t.
     *
     * @param ratios positive ratios, at least one (with one, the interval is unbounded)
     * @return {@code {mean, low, high}}
     */
    public static double[] geometricMeanInterval(double[] ratios) {
        int n = ratios.length;
        double mean = Arrays.stream(ratios).map(Math::log).sum() / n;
        double squares = Arrays.stream(ratios).map(r -> (Math.log(r) - mean) * (Math.log(r) - mean)).sum();
        double half = n < 2 ? Double.POSITIVE_INFINITY
                : (n - 1 <= T_975.length ? T_975[n - 2] : 1.96) * Math.sqrt(squares / (n - 1) / n);
        return new double[] {Math.exp(mean), Math.exp(mean - half), Math.exp(mean + half)};
    }
}
