package io.github.volpex.benchmarks.dataspace;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the dataspace contention benchmarks and prints the tables of {@code benchmarks/README.md}: for
 * {@link DataspaceBenchmark} on 2 threads, every benchmark's fork means (median, fastest, slowest, slowest over median)
 * and the ratios to the {@link java.util.concurrent.ConcurrentHashMap} baseline, raw and with the harness overhead
 * ({@link DataspaceBenchmark#harnessOverhead}) taken off both sides; for {@link DataspaceScalingBenchmark}, throughput
 * on 1, 2 and 4 threads. The load average is printed before and after, since the machine may be shared.
 *
 * <p>The contention benchmarks run twice: on the machine as it is, and on a busy machine, with one busy background
 * thread per core (spinning in this launcher's JVM, outside the benchmark's forks, as another program's threads
 * would) for as long as they run. With two benchmark threads and as many busy threads as cores, the scheduler
 * deschedules the benchmark threads at any point, in the middle of a request or while a safepoint waits for them; what
 * the dataspace's pair pays for that beyond the map's pair shows in the second table. (Each benchmark thread is a
 * process of its own, so the process locks are not contended here.)
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar \
 *     io.github.volpex.benchmarks.dataspace.DataspaceContentionReport [forks] [scalingForks] [busyForks]
 * }</pre>
 *
 * <p>{@code forks} (default 10) are the forks of each contention benchmark, {@code scalingForks} (default 3) those of
 * each scaling point, {@code busyForks} (default {@code forks}; 0 skips the busy run) those of each contention
 * benchmark on the busy machine; each fork runs 3 × 1 s of warm-up and 5 × 1 s of measurement.
 */
public final class DataspaceContentionReport {

    private static final String CONTENTION = DataspaceBenchmark.class.getName() + "\\.";
    private static final String SCALING = DataspaceScalingBenchmark.class.getName() + "\\.";
    private static final int[] SCALING_THREADS = {1, 2, 4};

    private DataspaceContentionReport() {
    }

    /**
     * Runs the benchmarks and prints the tables.
     *
     * @param args {@code [forks] [scalingForks]}, positive whole numbers
     * @throws RunnerException if JMH fails
     */
    public static void main(String[] args) throws RunnerException {
        int forks = args.length > 0 ? positive("forks", args[0]) : 10;
        int scalingForks = args.length > 1 ? positive("scalingForks", args[1]) : 3;
        int busyForks = args.length > 2 ? nonNegative("busyForks", args[2]) : forks;
        String loadBefore = load();

        Map<String, ForkScores> contention = contention(forks);
        Map<String, ForkScores> busy = new LinkedHashMap<>();
        String busyLoad = "";
        if (busyForks > 0) {
            int cores = Runtime.getRuntime().availableProcessors();
            try (BusyThreads background = BusyThreads.start(cores)) {
                String before = load();
                busy = contention(busyForks);
                busyLoad = background.count() + " busy threads; load average " + before + " at its start, " + load()
                        + " at its end";
            }
        }
        Map<Integer, Map<String, ForkScores>> scaling = new LinkedHashMap<>();
        for (int threads : SCALING_THREADS) {
            Map<String, ForkScores> byMethod = new LinkedHashMap<>();
            for (RunResult run : new Runner(options(SCALING, threads, scalingForks)).run()) {
                byMethod.put(method(run), ForkScores.of(run));
            }
            scaling.put(threads, byMethod);
        }

        StringBuilder out = new StringBuilder();
        out.append("\nJDK ").append(System.getProperty("java.vm.name")).append(' ')
                .append(System.getProperty("java.vm.version")).append(", CPU ").append(cpu()).append(", ")
                .append(Runtime.getRuntime().availableProcessors()).append(" processors; load average before ")
                .append(loadBefore).append(", after ").append(load()).append('\n');
        contentionTable(out, contention, forks, "");
        if (!busy.isEmpty()) {
            contentionTable(out, busy, busyForks, ", one busy background thread per core (" + busyLoad + ")");
        }
        scalingTable(out, scaling, scalingForks);
        System.out.println(out);
    }

    private static Map<String, ForkScores> contention(int forks) throws RunnerException {
        Map<String, ForkScores> scores = new LinkedHashMap<>();
        for (RunResult run : new Runner(options(CONTENTION, 2, forks)).run()) {
            scores.put(method(run), ForkScores.of(run));
        }
        return scores;
    }

    private static void contentionTable(StringBuilder out, Map<String, ForkScores> scores, int forks, String load) {
        ForkScores overhead = scores.get("harnessOverhead");
        ForkScores baseline = scores.get("baselineConcurrentHashMapPutRemove");
        ForkScores leading = scores.get("leadingPutGet");
        out.append("\n").append(DataspaceBenchmark.class.getSimpleName()).append(", 2 threads").append(load)
                .append(", ").append(forks)
                .append(" forks, ns per pair (a fork's figure is the mean of its 5 iterations)\n\n");
        out.append("| benchmark | median of forks | fastest fork | slowest fork | slowest / median | JMH score ± 99.9% "
                + "| net of harness | net ratio to baseline |\n|---|---|---|---|---|---|---|---|\n");
        for (Map.Entry<String, ForkScores> entry : scores.entrySet()) {
            ForkScores s = entry.getValue();
            double net = s.median() - overhead.median();
            out.append(String.format(Locale.ROOT, "| `%s` | %.1f | %.1f | %.1f | %.2f | %.1f ± %.1f | %.1f | %s |%n",
                    entry.getKey(), s.median(), s.min(), s.max(), s.max() / s.median(), s.score, s.error,
                    net, s == overhead ? "" : String.format(Locale.ROOT, "%.2f",
                            net / (baseline.median() - overhead.median()))));
        }
        ForkScores trailing = scores.get("trailingPutGetFromLog");
        out.append(String.format(Locale.ROOT, "%nLeading / baseline: %.2f raw, %.2f net of the harness "
                        + "(%.1f ns); trailing / leading: %.2f raw, %.2f net.%n",
                leading.median() / baseline.median(),
                (leading.median() - overhead.median()) / (baseline.median() - overhead.median()), overhead.median(),
                trailing.median() / leading.median(),
                (trailing.median() - overhead.median()) / (leading.median() - overhead.median())));
    }

    private static void scalingTable(StringBuilder out, Map<Integer, Map<String, ForkScores>> scaling, int forks) {
        out.append("\n").append(DataspaceScalingBenchmark.class.getSimpleName()).append(", 4 processes × 2 replicas, ")
                .append(forks)
                .append(" forks per point, operations per µs (median of forks, slowest–fastest fork)\n\n");
        out.append("| benchmark |");
        for (int threads : scaling.keySet()) {
            out.append(' ').append(threads).append(threads == 1 ? " thread |" : " threads |");
        }
        out.append(" best / 1 thread |\n|---|");
        out.append("---|".repeat(scaling.size() + 1)).append('\n');
        for (String method : scaling.get(SCALING_THREADS[0]).keySet()) {
            out.append("| `").append(method).append("` |");
            double one = scaling.get(SCALING_THREADS[0]).get(method).median();
            double best = 0;
            for (Map<String, ForkScores> byMethod : scaling.values()) {
                ForkScores s = byMethod.get(method);
                best = Math.max(best, s.median());
                out.append(String.format(Locale.ROOT, " %.2f (%.2f–%.2f) |", s.median(), s.min(), s.max()));
            }
            out.append(String.format(Locale.ROOT, " %.2f |%n", best / one));
        }
    }

    private static Options options(String include, int threads, int forks) {
        return new OptionsBuilder()
                .include(include)
                .threads(threads)
                .forks(forks)
                .warmupIterations(3)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(5)
                .measurementTime(TimeValue.seconds(1))
                .build();
    }

    private static String method(RunResult run) {
        String name = run.getParams().getBenchmark();
        return name.substring(name.lastIndexOf('.') + 1);
    }

    private static int positive(String name, String value) {
        int parsed;
        try {
            parsed = Integer.parseInt(value);
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException(name + " must be a whole number: " + value, ex);
        }
        if (parsed < 1) {
            throw new IllegalArgumentException(name + " must be >= 1: " + parsed);
        }
        return parsed;
    }

    private static int nonNegative(String name, String value) {
        return value.equals("0") ? 0 : positive(name, value);
    }

    private static String load() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? "unknown" : String.format(Locale.ROOT, "%.2f", load);
    }

    private static String cpu() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | SecurityException ex) {
            // Not Linux, or not readable: the architecture is all we can name.
        }
        return System.getProperty("os.arch");
    }

    /**
     * Background threads that keep every core busy: each spins on arithmetic until closed, never blocking, as a
     * compute-bound program sharing the machine would. Daemon threads, so that they never keep the launcher alive.
     */
    private static final class BusyThreads implements AutoCloseable {
        private final List<Thread> threads = new ArrayList<>();
        private final LongAdder spins = new LongAdder();
        private final long startNanos = System.nanoTime();
        private volatile boolean stop;

        static BusyThreads start(int count) {
            BusyThreads busy = new BusyThreads();
            for (int i = 0; i < count; i++) {
                Thread thread = new Thread(busy::spin, "busy-background-" + i);
                thread.setDaemon(true);
                busy.threads.add(thread);
                thread.start();
            }
            return busy;
        }

        int count() {
            return threads.size();
        }

        private void spin() {
            long x = Thread.currentThread().getId();
            long rounds = 0;
            while (!stop) {
                for (int i = 0; i < 1 << 16; i++) {
                    x ^= x << 13;
                    x ^= x >>> 7;
                    x ^= x << 17;
                }
                rounds++;
            }
            // Published, so that the loop's work cannot be removed as dead code.
            spins.add(rounds + (x == 42 ? 1 : 0));
        }

        @Override
        public void close() {
            stop = true;
            for (Thread thread : threads) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            System.out.printf(Locale.ROOT, "busy background threads: %d, %.0f s, %d spin rounds%n", threads.size(),
                    seconds, spins.sum());
        }
    }

    /** The per-fork means of one benchmark, sorted, and JMH's score and error over every iteration of every fork. */
    private static final class ForkScores {
        final double[] sorted;
        final double score;
        final double error;

        private ForkScores(double[] sorted, double score, double error) {
            this.sorted = sorted;
            this.score = score;
            this.error = error;
        }

        static ForkScores of(RunResult run) {
            Collection<BenchmarkResult> forks = run.getBenchmarkResults();
            List<Double> means = new ArrayList<>();
            for (BenchmarkResult fork : forks) {
                means.add(fork.getPrimaryResult().getScore());
            }
            double[] sorted = means.stream().mapToDouble(Double::doubleValue).toArray();
            Arrays.sort(sorted);
            Result<?> all = run.getPrimaryResult();
            return new ForkScores(sorted, all.getScore(), all.getScoreError());
        }

        double median() {
            int n = sorted.length;
            return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        }

        /** The lowest fork figure: the fastest fork for times, the slowest for throughputs. */
        double min() {
            return sorted[0];
        }

        /** The highest fork figure: the slowest fork for times, the fastest for throughputs. */
        double max() {
            return sorted[sorted.length - 1];
        }
    }
}
