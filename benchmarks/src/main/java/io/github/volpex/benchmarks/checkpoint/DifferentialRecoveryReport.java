package io.github.volpex.benchmarks.checkpoint;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.Chunking;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The time of recovering a differential checkpoint against a full one of the same state, measured in pairs: the
 * configuration of {@link DifferentialCommitBenchmark} (64 MiB in 16 KiB blocks, IDA (6, 3) on nine in-memory
 * repositories, an executor of four threads; the differential checkpoint after ten rounds of 10% of the blocks
 * changed, so that it lists older segments), then {@code pairs} pairs of one full and one differential recovery, in
 * alternating order, after {@code warmup} unmeasured pairs. On a machine whose load changes from second to second, a
 * ratio taken within each pair drifts far less than two separately measured means; the report gives the median of
 * the pairs' ratios with a distribution-free 95% confidence interval (order statistics of the binomial), and the
 * same for {@code recoverTo} into a stream that discards what it is given.
 *
 * <pre>{@code
 * java -Xmx4g -cp benchmarks/target/benchmarks.jar io.github.volpex.benchmarks.checkpoint.DifferentialRecoveryReport \
 *     [pairs] [warmup]
 * }</pre>
 */
public final class DifferentialRecoveryReport {

    private static final int STATE_BYTES = 64 << 20;
    private static final int BLOCK_BYTES = Chunking.DEFAULT_BLOCK_BYTES;
    private static final String JOB = "job";

    private DifferentialRecoveryReport() {
    }

    /** One way of recovering, timed. */
    private interface Recovery {
        void run() throws Exception;
    }

    private static long time(Recovery recovery) throws Exception {
        long start = System.nanoTime();
        recovery.run();
        return System.nanoTime() - start;
    }

    /**
     * Prints the ratios.
     *
     * @param args the measured pairs (41 by default) and the warm-up pairs (10 by default)
     * @throws Exception if a recovery fails
     */
    public static void main(String[] args) throws Exception {
        int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 41;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        ExecutorService executor = Executors.newFixedThreadPool(4);
        try {
            byte[] state = new byte[STATE_BYTES];
            SplittableRandom random = new SplittableRandom(1);
            random.nextBytes(state);
            CheckpointStore full = DifferentialCommitBenchmark.store(executor, null);
            CheckpointStore differential = DifferentialCommitBenchmark.store(executor, Chunking.fixed(BLOCK_BYTES));
            differential.commit(JOB, state);
            int blocks = STATE_BYTES / BLOCK_BYTES;
            for (int round = 0; round < 10; round++) {
                random.ints(0, blocks).distinct().limit(blocks / 10).forEach(block -> state[block * BLOCK_BYTES
                        + random.nextInt(BLOCK_BYTES)] ^= (byte) (1 + random.nextInt(255)));
                differential.commit(JOB, state);
            }
            full.commit(JOB, state);
            if (!Arrays.equals(state, differential.recover(JOB).orElseThrow().toByteArray())
                    || !Arrays.equals(state, full.recover(JOB).orElseThrow().toByteArray())) {
                throw new IllegalStateException("a store did not recover the state");
            }
            System.out.printf("differential checkpoint: %d segments listed besides its own%n",
                    differential.checkpoints(JOB).size() - 1);
            report("recover", pairs, warmup, () -> full.recover(JOB).orElseThrow(),
                    () -> differential.recover(JOB).orElseThrow());
            report("recoverTo", pairs, warmup, () -> full.recoverTo(full.latestIndex(JOB).orElseThrow(),
                    OutputStream.nullOutputStream()), () -> differential.recoverTo(
                    differential.latestIndex(JOB).orElseThrow(), OutputStream.nullOutputStream()));
            full.close();
            differential.close();
        } finally {
            executor.shutdownNow();
        }
    }

    private static void report(String what, int pairs, int warmup, Recovery full, Recovery differential)
            throws Exception {
        double[] ratios = new double[pairs];
        double[] fullMs = new double[pairs];
        double[] diffMs = new double[pairs];
        for (int p = -warmup; p < pairs; p++) {
            long f;
            long d;
            if ((p & 1) == 0) {
                f = time(full);
                d = time(differential);
            } else {
                d = time(differential);
                f = time(full);
            }
            if (p >= 0) {
                ratios[p] = (double) d / f;
                fullMs[p] = f / 1e6;
                diffMs[p] = d / 1e6;
            }
        }
        double[] interval = medianInterval(ratios);
        System.out.printf("%s: %d pairs; full median %.1f ms, differential median %.1f ms; differential / full: "
                        + "median %.3f, 95%% interval [%.3f, %.3f]%n", what, pairs, median(fullMs), median(diffMs),
                median(ratios), interval[0], interval[1]);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * A distribution-free 95% confidence interval for the median: the order statistics {@code j} and
     * {@code n + 1 - j} with the largest {@code j} whose binomial (n, 1/2) tail below {@code j} is at most 2.5%.
     */
    private static double[] medianInterval(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double p = Math.pow(0.5, n);
        double tail = 0;
        int j = 0;
        // tail = P(X <= j - 1) for X ~ Binomial(n, 1/2); the interval [x(j), x(n+1-j)] covers the median with
        // probability 1 - 2 tail.
        double term = p;
        while (j < n / 2) {
            if (tail + term > 0.025) {
                break;
            }
            tail += term;
            term = term * (n - j) / (j + 1);
            j++;
        }
        int low = Math.max(0, j - 1);
        return new double[] {sorted[low], sorted[n - 1 - low]};
    }
}
