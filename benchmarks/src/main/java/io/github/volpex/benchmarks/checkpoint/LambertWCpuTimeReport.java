package io.github.volpex.benchmarks.checkpoint;

import io.github.volpex.benchmarks.InterleavedRounds;
import io.github.volpex.checkpoint.math.LambertW;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * Lambert W against its previous version ({@link LambertWPrevious}) by the thread's CPU clock, for a machine shared
 * with other work: time the thread spends descheduled is not counted, as it is in a wall-clock measurement such as
 * JMH's. Same 1024 arguments per distribution as {@link LambertWBenchmark}. Each round times a batch of passes of
 * one version and then of the other (the order alternates between rounds), so that a slow stretch of the machine
 * lands on both; the ratio is taken within each round. Prints, per distribution, the median ns per call of each
 * version and the geometric mean of the per-round ratios (new over previous) with its 95% interval (Student's t on
 * the logarithms). Give one distribution per JVM, as JMH's forks do, so that the profile of one does not shape the
 * compiled code of the next:
 *
 * <pre>{@code
 * for d in W0_MIDDLE W0_LARGE W0_BRANCH WM1_MIDDLE WM1_NEAR_ZERO WM1_BRANCH; do
 *   java -cp benchmarks/target/benchmarks.jar io.github.volpex.benchmarks.checkpoint.LambertWCpuTimeReport 30 $d
 * done
 * }</pre>
 */
public final class LambertWCpuTimeReport {

    private static final int COUNT = 1024;
    /** Passes over the 1024 arguments per timed batch: about 20 ms of CPU. */
    private static final int PASSES = 1000;
    /** The most rounds: Student's t is tabled up to 30 degrees of freedom. */
    private static final int MAX_ROUNDS = 31;

    /** Keeps the results alive. */
    static volatile double sink;

    private LambertWCpuTimeReport() {
    }

    /**
     * Runs the report.
     *
     * @param args {@code rounds} (at most 31), then the distributions (all if none)
     */
    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        if (rounds < 2 || rounds > MAX_ROUNDS) {
            throw new IllegalArgumentException("rounds must be in [2, " + MAX_ROUNDS + "]: " + rounds);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.printf(Locale.ROOT, "Java %s, %d rounds of %d passes over %d arguments%n", Runtime.version(),
                rounds, PASSES, COUNT);
        System.out.println("| distribution | previous (ns, CPU) | new (ns, CPU) | new / previous [95% interval] |");
        System.out.println("|---|---|---|---|");
        LambertWArguments[] distributions = args.length > 1
                ? Arrays.stream(args, 1, args.length).map(LambertWArguments::valueOf).toArray(LambertWArguments[]::new)
                : LambertWArguments.values();
        for (LambertWArguments distribution : distributions) {
            double[] z = distribution.draw(COUNT, 42);
            boolean lower = distribution.lowerBranch();
            for (int i = 0; i < 20; i++) {
                sink = previous(z, lower, 50) + current(z, lower, 50);
            }
            double[] previousNs = new double[rounds];
            double[] currentNs = new double[rounds];
            double[] ratio = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                boolean previousFirst = r % 2 == 0;
                long a = threads.getCurrentThreadCpuTime();
                sink = previousFirst ? previous(z, lower, PASSES) : current(z, lower, PASSES);
                long b = threads.getCurrentThreadCpuTime();
                sink = previousFirst ? current(z, lower, PASSES) : previous(z, lower, PASSES);
                long c = threads.getCurrentThreadCpuTime();
                double first = (double) (b - a) / PASSES / COUNT;
                double second = (double) (c - b) / PASSES / COUNT;
                previousNs[r] = previousFirst ? first : second;
                currentNs[r] = previousFirst ? second : first;
                ratio[r] = currentNs[r] / previousNs[r];
            }
            double[] g = InterleavedRounds.geometricMeanInterval(ratio);
            System.out.printf(Locale.ROOT, "| `%s` | %.2f | %.2f | %.3f [%.3f, %.3f] |%n", distribution,
                    InterleavedRounds.median(previousNs), InterleavedRounds.median(currentNs), g[0], g[1], g[2]);
        }
    }

    private static double previous(double[] z, boolean lower, int passes) {
        double sum = 0;
        for (int p = 0; p < passes; p++) {
            if (lower) {
                for (double x : z) {
                    sum += LambertWPrevious.wm1(x);
                }
            } else {
                for (double x : z) {
                    sum += LambertWPrevious.w0(x);
                }
            }
        }
        return sum;
    }

    private static double current(double[] z, boolean lower, int passes) {
        double sum = 0;
        for (int p = 0; p < passes; p++) {
            if (lower) {
                for (double x : z) {
                    sum += LambertW.wm1(x);
                }
            } else {
                for (double x : z) {
                    sum += LambertW.w0(x);
                }
            }
        }
        return sum;
    }
}
