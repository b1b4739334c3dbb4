package io.github.volpex.benchmarks.s3;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.Chunking;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.erasure.IdaCodec;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The rows of {@link S3CommitModesBenchmark} in interleaved rounds inside one process, for a machine shared with other
 * work: each round runs one copy of the state, one asynchronous commit (the caller's time; the persist is waited for
 * afterwards, unmeasured), one full synchronous commit, one differential commit after 10% of the blocks changed, one
 * of an unchanged state, and the recovery of the newest full and differential checkpoints, on nine S3 endpoints
 * (S3Proxy on loopback, in memory, IDA (6, 3), an executor of nine threads that the repositories also upload parts
 * on). Each operation is measured by the wall clock and by the calling thread's CPU time — what the caller itself
 * spends, which a descheduled thread does not inflate — and the report prints the medians and the per-round ratios
 * to the copy (for the asynchronous commit) and to the full counterpart (for the differential rows).
 *
 * <pre>{@code
 * java -Xmx8g -cp benchmarks/target/benchmarks.jar io.github.volpex.benchmarks.s3.S3CommitModesReport \
 *     [stateMiB [rounds]]
 * }</pre>
 */
public final class S3CommitModesReport {

    private static final String[] ROWS = {"copy", "asyncCommit", "fullCommit", "differentialCommit",
        "differentialUnchanged", "fullRecover", "differentialRecover"};
    /** The row each row's ratio is taken against. */
    private static final int[] BASE = {0, 0, 2, 2, 2, 5, 5};
    private static final int BLOCK_BYTES = Chunking.DEFAULT_BLOCK_BYTES;
    /** Where the copies go, so that the compiler cannot leave them out. */
    private static volatile byte[] copied;

    private S3CommitModesReport() {
    }

    /**
     * Runs the rounds and prints the table.
     *
     * @param args the state's size in MiB (64) and the rounds (8, after 2 warm-up rounds)
     * @throws Exception if a server does not start or a commit fails
     */
    public static void main(String[] args) throws Exception {
        int mib = args.length > 0 ? Integer.parseInt(args[0]) : 64;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        SplittableRandom random = new SplittableRandom(1);
        byte[] state = new byte[mib << 20];
        random.nextBytes(state);
        byte[] unchanged = state.clone();
        ExecutorService io = Executors.newFixedThreadPool(9);
        double[][] wall = new double[rounds][ROWS.length];
        double[][] cpu = new double[rounds][ROWS.length];
        try (S3Endpoints endpoints = S3Endpoints.start(9, -1, io)) {
            CheckpointStore full = CheckpointStore.perennial(IdaCodec.systematic(6, 3), endpoints.repositories())
                    .executor(io).build();
            CheckpointStore differential = CheckpointStore.perennial(IdaCodec.systematic(6, 3),
                    endpoints.repositories()).executor(io).differential(Chunking.fixed(BLOCK_BYTES)).build();
            full.commit("full", state);
            differential.commit("unchanged", unchanged);
            differential.commit("differential", state);
            for (int round = 0; round < 10; round++) {
                changeTenPercent(state, random);
                differential.commit("differential", state);
            }
            for (int round = -2; round < rounds; round++) {
                for (int row = 0; row < ROWS.length; row++) {
                    if (row == 3) {
                        changeTenPercent(state, random);
                    }
                    System.gc();
                    CompletionStage<FragmentIndex> persist = null;
                    long cpu0 = threads.getCurrentThreadCpuTime();
                    long wall0 = System.nanoTime();
                    switch (row) {
                        case 0 -> copied = state.clone();
                        case 1 -> persist = full.commitAsync("async", state);
                        case 2 -> full.commit("full", state);
                        case 3 -> differential.commit("differential", state);
                        case 4 -> differential.commit("unchanged", unchanged);
                        case 5 -> full.recover("full").orElseThrow();
                        default -> differential.recover("differential").orElseThrow();
                    }
                    long wallNanos = System.nanoTime() - wall0;
                    long cpuNanos = threads.getCurrentThreadCpuTime() - cpu0;
                    if (persist != null) {
                        persist.toCompletableFuture().join();
                    }
                    if (round >= 0) {
                        wall[round][row] = wallNanos / 1e6;
                        cpu[round][row] = cpuNanos / 1e6;
                    }
                }
                if (round >= 0) {
                    System.out.printf("round %d: wall %s ms, thread cpu %s ms%n", round,
                            Arrays.toString(S3CpuTimeReport.round(wall[round])),
                            Arrays.toString(S3CpuTimeReport.round(cpu[round])));
                }
            }
            full.close();
            differential.close();
            copied = null;
        } finally {
            io.shutdownNow();
        }
        System.out.printf("%n%d MiB state, %d rounds, Java %s, %d processors%n", mib, rounds,
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
        System.out.println("| row | wall ms, median (min–max) | caller's CPU ms, median (min–max) | against | wall "
                + "ratio, median (min–max) | CPU ratio, median (min–max) |");
        System.out.println("|---|---|---|---|---|---|");
        for (int row = 0; row < ROWS.length; row++) {
            System.out.printf("| %s | %s | %s | %s | %s | %s |%n", ROWS[row],
                    S3CpuTimeReport.summary(S3CpuTimeReport.column(wall, row), "%.0f"),
                    S3CpuTimeReport.summary(S3CpuTimeReport.column(cpu, row), "%.0f"), ROWS[BASE[row]],
                    S3CpuTimeReport.summary(S3CpuTimeReport.ratio(wall, row, BASE[row]), "%.2f"),
                    S3CpuTimeReport.summary(S3CpuTimeReport.ratio(cpu, row, BASE[row]), "%.2f"));
        }
    }

    /** Changes one byte in each of 10% of the blocks, chosen at random. */
    private static void changeTenPercent(byte[] state, SplittableRandom random) {
        int blocks = state.length / BLOCK_BYTES;
        random.ints(0, blocks).distinct().limit(blocks / 10).forEach(block ->
                state[block * BLOCK_BYTES + random.nextInt(BLOCK_BYTES)] ^= (byte) (1 + random.nextInt(255)));
    }
}
