package io.github.volpex.benchmarks.s3;

import io.github.volpex.checkpoint.repository.s3.S3Repository;
import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.erasure.IdaCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The rows of {@link S3CheckpointBenchmark} measured in interleaved rounds inside one process, by the wall clock and
 * by the process's CPU time (every thread: the store's, the SDK's and the nine servers', and the collector's): on a
 * machine shared with other work the CPU time an operation costs is steadier than its wall time, and on two cores it
 * bounds the wall time from below (CPU time / 2). Each round runs a plain put, a store commit, a plain get and a
 * store recovery once each, so that a disturbance lands on all four alike; the ratios are taken within each round,
 * and the report prints their median and range.
 *
 * <pre>{@code
 * java -Xmx6g -cp benchmarks/target/benchmarks.jar io.github.volpex.benchmarks.s3.S3CpuTimeReport \
 *     [checkpointMiB [rounds [megabytesPerSecond [overlapParts [partMiB [compare]]]]]]
 * }</pre>
 *
 * <p>{@code compare} adds a fifth row to every round: the same commit by a second store whose repositories are
 * wrapped so that they are never promised a fragment's length ({@link ForwardingRepository#withoutLengthPromises}),
 * which makes them upload fragments longer than a part as multipart uploads, as before
 * {@code FragmentRepository.create(String, long)}: both ways measured in the same rounds, under the same load.
 */
public final class S3CpuTimeReport {

    private static final String[] ROWS = {"plainPut", "storeCommit", "plainGet", "storeRecover"};
    /** With {@code compare}: the commit again through repositories that are promised no length, after the rest. */
    private static final String PARTS_ROW = "storeCommit, no length promised";

    private S3CpuTimeReport() {
    }

    /**
     * Runs the rounds and prints the table.
     *
     * @param args the checkpoint's size in MiB (256), the rounds (10, after 2 warm-up rounds), the rate of each
     *             connection in MB/s (0: no relay, no limit), whether parts are uploaded while the next is filled
     *             (true), the repositories' part size in MiB (8), and {@code compare} for the fifth row
     * @throws Exception if a server does not start or a transfer fails
     */
    public static void main(String[] args) throws Exception {
        int mib = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int rate = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        boolean overlap = args.length <= 3 || Boolean.parseBoolean(args[3]);
        int partMiB = args.length > 4 ? Integer.parseInt(args[4]) : S3Repository.DEFAULT_PART_BYTES >> 20;
        boolean compare = args.length > 5 && "compare".equals(args[5]);
        String[] rows = compare ? new String[] {ROWS[0], ROWS[1], ROWS[2], ROWS[3], PARTS_ROW} : ROWS;
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        byte[] checkpoint = new byte[mib << 20];
        new SplittableRandom(1).nextBytes(checkpoint);
        ExecutorService io = Executors.newFixedThreadPool(9);
        double[][] wall = new double[rounds][rows.length];
        double[][] cpu = new double[rounds][rows.length];
        try (S3Endpoints endpoints = S3Endpoints.start(9, rate == 0 ? -1 : rate * 1_000_000L, overlap ? io : null,
                partMiB << 20)) {
            CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), endpoints.repositories())
                    .executor(io).build();
            CheckpointStore parts = CheckpointStore.perennial(IdaCodec.systematic(6, 3), endpoints.repositories()
                    .stream().map(ForwardingRepository::withoutLengthPromises).toList()).executor(io).build();
            S3Client plain = endpoints.plainClient(0);
            FragmentIndex committed = store.commit("recover-me", checkpoint);
            plain.putObject(b -> b.bucket(S3Endpoints.BUCKET).key("get-me"), RequestBody.fromBytes(checkpoint));
            for (int round = -2; round < rounds; round++) {
                for (int row = 0; row < rows.length; row++) {
                    System.gc();
                    long cpu0 = os.getProcessCpuTime();
                    long wall0 = System.nanoTime();
                    if (row == ROWS.length) {
                        parts.commit("job-parts", checkpoint);
                    } else {
                        run(row, store, plain, checkpoint, committed);
                    }
                    long wallNanos = System.nanoTime() - wall0;
                    long cpuNanos = os.getProcessCpuTime() - cpu0;
                    if (round >= 0) {
                        wall[round][row] = wallNanos / 1e6;
                        cpu[round][row] = cpuNanos / 1e6;
                    }
                }
                if (round >= 0) {
                    System.out.printf("round %d: wall %s ms, cpu %s ms, load %.1f%n", round,
                            Arrays.toString(round(wall[round])), Arrays.toString(round(cpu[round])),
                            os.getSystemLoadAverage());
                }
            }
            store.close();
            parts.close();
        } finally {
            io.shutdownNow();
        }
        System.out.printf("%n%d MiB, %s, overlapParts=%s, parts of %d MiB, %d rounds, Java %s, %d processors%n", mib,
                rate == 0 ? "no limit" : rate + " MB/s per connection", overlap, partMiB, rounds,
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
        System.out.println("| row | wall ms, median (min–max) | CPU ms, median (min–max) | wall / plain, median "
                + "(min–max) | CPU / plain, median (min–max) |");
        System.out.println("|---|---|---|---|---|");
        for (int row = 0; row < rows.length; row++) {
            int base = row == 2 || row == 3 ? 2 : 0;
            System.out.printf("| %s | %s | %s | %s | %s |%n", rows[row], summary(column(wall, row), "%.0f"),
                    summary(column(cpu, row), "%.0f"), summary(ratio(wall, row, base), "%.2f"),
                    summary(ratio(cpu, row, base), "%.2f"));
        }
    }

    private static void run(int row, CheckpointStore store, S3Client plain, byte[] checkpoint,
                            FragmentIndex committed) throws IOException {
        switch (row) {
            case 0 -> plain.putObject(b -> b.bucket(S3Endpoints.BUCKET).key("plain"),
                    RequestBody.fromBytes(checkpoint));
            case 1 -> store.commit("job", checkpoint);
            case 2 -> {
                try (InputStream in = plain.getObject(b -> b.bucket(S3Endpoints.BUCKET).key("get-me"))) {
                    in.transferTo(OutputStream.nullOutputStream());
                }
            }
            default -> store.recoverTo(committed, OutputStream.nullOutputStream());
        }
    }

    static long[] round(double[] values) {
        return Arrays.stream(values).mapToLong(Math::round).toArray();
    }

    static double[] column(double[][] table, int row) {
        return Arrays.stream(table).mapToDouble(r -> r[row]).toArray();
    }

    static double[] ratio(double[][] table, int row, int base) {
        return Arrays.stream(table).mapToDouble(r -> r[row] / r[base]).toArray();
    }

    static String summary(double[] values, String format) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return String.format(format + " (" + format + "–" + format + ")", median, sorted[0], sorted[n - 1]);
    }
}
