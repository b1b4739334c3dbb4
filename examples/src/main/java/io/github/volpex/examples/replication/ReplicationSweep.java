package io.github.volpex.examples.replication;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.DataspaceStatistics;
import io.github.volpex.dataspace.Operation;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * Runs one parallel program with 1, 2, … replicas per process and prints execution time against replication: the shape
 * of Kanna et al. Fig. 8. Every run's result is checked. An unmeasured run with one replica warms the JVM up first.
 */
public final class ReplicationSweep {

    /**
     * Replicas of a process run unsynchronised, so one may trail another by a whole phase of the program (every sieving
     * prime, say). The read log must reach that far back or the trailing replica is refused with a
     * {@code ReadLogEvictedException}; these runs are short, so a log of 2^16 requests per process covers them.
     */
    static final DataspaceOptions OPTIONS = DataspaceOptions.builder().readLogCapacity(1 << 16).build();

    private ReplicationSweep() {
    }

    /**
     * Runs the sweep.
     *
     * @param program     the program of every process
     * @param processes   the number of logical processes
     * @param maxReplicas the largest replication degree; runs 1 to {@code maxReplicas}
     * @param repeats     runs per replication degree; the median time is reported
     * @param check       tells whether a run's results (by process) are correct
     * @param out         where the table goes
     * @param <R>         what one process computes
     * @return true if every run was correct
     * @throws InterruptedException if interrupted
     */
    public static <R> boolean run(ReplicatedJob.Program<R> program, int processes, int maxReplicas,
                                  int repeats, Predicate<List<R>> check, PrintStream out) throws InterruptedException {
        try (Dataspace warmUp = Dataspace.inProcess(processes, OPTIONS)) {
            // One unmeasured run first, so the first measured run does not pay for class loading and compilation.
            ReplicatedJob.of(program, 1, Duration.ofMinutes(10)).run(warmUp);
        }
        out.printf("%-9s %10s %9s %10s %11s %10s %11s  %s%n", "replicas", "time (ms)", "vs r=1", "requests",
                "duplicates", "from log", "gets+reads", "result");
        double baseline = 0;
        boolean allCorrect = true;
        for (int replicas = 1; replicas <= maxReplicas; replicas++) {
            double[] millis = new double[repeats];
            boolean correct = true;
            DataspaceStatistics statistics = null;
            for (int repeat = 0; repeat < repeats; repeat++) {
                try (Dataspace dataspace = Dataspace.inProcess(processes, OPTIONS)) {
                    long start = System.nanoTime();
                    List<R> results = ReplicatedJob.of(program, replicas, Duration.ofMinutes(10)).run(dataspace);
                    millis[repeat] = (System.nanoTime() - start) / 1e6;
                    correct &= check.test(results);
                    statistics = dataspace.statistics();
                }
            }
            Arrays.sort(millis);
            double median = millis[repeats / 2];
            if (replicas == 1) {
                baseline = median;
            }
            allCorrect &= correct;
            out.printf("%-9d %10.1f %8.2fx %10d %11d %10d %11d  %s%n", replicas, median, median / baseline,
                    statistics.totalRequests(), statistics.duplicatesIgnored(), statistics.servedFromLog(),
                    statistics.requests(Operation.GET) + statistics.requests(Operation.READ),
                    correct ? "correct" : "WRONG");
        }
        out.printf("%nTimes are medians of %d runs. The replicas share this machine's %d cores, so unlike the paper's "
                + "replicas on separate nodes,%nthey also compete for processors: expect time to grow faster than "
                + "the paper's once replicas outnumber cores.%n", repeats, Runtime.getRuntime().availableProcessors());
        return allCorrect;
    }
}
