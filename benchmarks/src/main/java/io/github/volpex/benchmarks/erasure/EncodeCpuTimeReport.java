package io.github.volpex.benchmarks.erasure;

import io.github.volpex.erasure.IdaCodec;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Encode throughput of {@code IdaCodec.systematic(m, k).encodePayloads} by the thread's CPU clock, for comparison
 * with {@code benchmarks/isal/isal_encode.c} run with {@code cpu} on a machine shared with other work: time the
 * thread spends descheduled is not counted, as it is in a wall-clock measurement such as JMH's. Same data, sizes and
 * work as {@link ErasureBenchmark#encodeVolpex()}; prints the median and the range of the rounds, in data bytes per
 * CPU second. Run it with and without {@code --add-modules jdk.incubator.vector}:
 *
 * <pre>{@code
 * java [--add-modules jdk.incubator.vector] -cp benchmarks/target/benchmarks.jar \
 *     io.github.volpex.benchmarks.erasure.EncodeCpuTimeReport 6 3 16777216 15
 * }</pre>
 */
public final class EncodeCpuTimeReport {

    private EncodeCpuTimeReport() {
    }

    /**
     * Runs the report.
     *
     * @param args {@code m k size rounds}
     */
    public static void main(String[] args) {
        if (args.length != 4) {
            System.err.println("usage: EncodeCpuTimeReport m k size rounds");
            System.exit(2);
        }
        int m = Integer.parseInt(args[0]);
        int k = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        IdaCodec codec = IdaCodec.systematic(m, k);
        byte[] data = new byte[size];
        new SplittableRandom(42).nextBytes(data);
        byte[][] payloads = new byte[m + k][(size + m - 1) / m];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        // About 0.25 GB of data per round, and warm-up rounds first.
        int reps = Math.max(1, (1 << 28) / size);
        double[] rates = new double[rounds];
        for (int round = -8; round < rounds; round++) {
            long start = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < reps; i++) {
                codec.encodePayloads(data, 0, size, payloads);
            }
            long nanos = threads.getCurrentThreadCpuTime() - start;
            if (round >= 0) {
                rates[round] = (double) size * reps / nanos;
            }
        }
        Arrays.sort(rates);
        String kernel = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent() ? "with" : "without";
        System.out.printf("systematic(%d, %d) encode, %s jdk.incubator.vector, Java %s, size=%d: median %.2f GB/s "
                        + "(min %.2f, max %.2f) per CPU second over %d rounds of %d%n", m, k, kernel,
                Runtime.version(), size, rates[rounds / 2], rates[0], rates[rounds - 1], rounds, reps);
    }
}
