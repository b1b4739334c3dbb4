package io.github.volpex.examples.replication;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceStatistics;
import io.github.volpex.dataspace.Operation;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/**
 * Runs one parallel program with 1, 2, … replicas per process and prints execution time against replication: the shape
 * of Kanna et al. Fig. 8. Every run's result is checked. An unmeasured run with one replica warms the JVM up first.
 */
public final class ReplicationSweep {

    private ReplicationSweep() {
    }

    /**
     * Runs the sweep.
     *
     * @param program     the program of every process
     * @param processes   the number of logical processes
     * @param maxReplicas the largest replication degree; runs 1 to {@code maxReplicas}
     * @param check       tells whether a run's results (by process) are correct
     * @param out         where the table goes
     * @param <R>         what one process computes
     * @return true if every run was correct
     * @throws InterruptedException if interrupted
     */
    public static <R> boolean run(ReplicatedJob.Program<R> program, int processes, int maxReplicas,
                                  Predicate<List<R>> check, PrintStream out) throws InterruptedException {
        try (Dataspace warmUp = Dataspace.inProcess(processes)) {
            // One unmeasured run first, so the first measured run does not pay for class loading and compilation.
            ReplicatedJob.of(program, 1, Duration.ofMinutes(10)).run(warmUp);
        }
        out.printf("%-9s %10s %9s %10s %11s %10s %11s  %s%n", "replicas", "time (ms)", "vs r=1", "requests",
                "duplicates", "from log", "gets+reads", "result");
        double baseline = 0;
        boolean allCorrect = true;
        for (int replicas = 1; replicas <= maxReplicas; replicas++) {
            try (Dataspace dataspace = Dataspace.inProcess(processes)) {
                long start = System.nanoTime();
                List<R> results = ReplicatedJob.of(program, replicas, Duration.ofMinutes(10)).run(dataspace);
                double millis = (System.nanoTime() - start) / 1e6;
                if (replicas == 1) {
                    baseline = millis;
                }
                boolean correct = check.test(results);
                allCorrect &= correct;
                DataspaceStatistics statistics = dataspace.statistics();
                out.printf("%-9d %10.1f %8.2fx %10d %11d %10d %11d  %s%n", replicas, millis, millis / baseline,
                        statistics.totalRequests(), statistics.duplicatesIgnored(), statistics.servedFromLog(),
                        statistics.requests(Operation.GET) + statistics.requests(Operation.READ),
                        correct ? "correct" : "WRONG");
            }
        }
        return allCorrect;
    }
}
