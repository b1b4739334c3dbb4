package io.github.volpex.examples.tour;

import io.github.volpex.examples.cli.OptionChecks;
import io.github.volpex.examples.cli.Subcommand;
import io.github.volpex.examples.remd.RemdProcess;
import io.github.volpex.examples.remd.RemdSetup;
import io.github.volpex.examples.cli.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tour}: replicated replica-exchange Monte Carlo that survives failures and restarts, bit for bit. */
@Command(name = "tour", defaultValueProvider = TourCommand.Defaults.class, description = "Replicated "
        + "replica-exchange Monte Carlo on volatile machines: 8 processes at 270..340 K, each run as replicas on "
        + "simulated hosts that fail; checkpoints scheduled by the Ni-Harwood calculator from estimated failure rates, "
        + "dispersed by IDA (6,3) onto storage hosts chosen by Ren's greedy selector, repaired as storage hosts "
        + "depart, recovered when a process loses every replica. Verifies the result against a failure-free run, bit "
        + "for bit.")
public final class TourCommand implements Subcommand {

    /** The storage pool: 20 hosts living about 4 h. */
    static final class Defaults extends TourOptions.Defaults {
        Defaults() {
            super(20, 4.0);
        }
    }

    @Spec
    private CommandSpec spec;

    @Mixin
    private TourOptions options;

    private Path store;

    @Option(names = "--store", paramLabel = "DIR", description = "keep the storage hosts' repositories on disk instead "
            + "of in memory, in a new directory run-N under this one for each run, so that runs never share "
            + "checkpoints")
    void store(Path value) {
        store = OptionChecks.directory(spec, "--store", value);
    }

    /** Prints what a run is made of, ending with a blank line. */
    public static void printHeader(Tour.Config config, String commits, String repositories, PrintStream out) {
        RemdSetup setup = config.setup();
        out.printf("Replica-exchange Monte Carlo: %d processes at %.0f..%.0f K, %d beads, %d steps of %d sweeps, "
                        + "%d replicas each.%n", setup.processes(), setup.lowestKelvin(), setup.highestKelvin(),
                setup.beads(), setup.steps(), setup.sweeps(), config.replicas());
        out.printf("Compute hosts live %s; %d storage hosts live %s (each scaled by a factor in [1/4, 4]).%n",
                config.computeHosts(), config.storageHosts(), config.storageLaw());
        out.printf("Checkpoints: IDA (6,3), %s, V = %.0f s, T_d = %.0f s, repositories %s.%n%n", commits,
                config.checkpointSeconds(), config.downloadSeconds(), repositories);
    }

    @Override
    public int run(PrintStream out) throws InterruptedException, IOException {
        Optional<Path> directory = Optional.ofNullable(store).map(dir -> newRunDirectory(
                OptionChecks.prepareDirectory("--store", dir)));
        Tour.Config config = options.config(8, directory);
        printHeader(config, Tour.COMMITS, directory.map(path -> "in " + path).orElse("in memory"), out);
        Tour tour = Tour.of(config, out);
        Tour.Result result = tour.run(Duration.ofMinutes(10));
        out.println();
        printHistory(result.reference().get(0), config.setup(), out);
        printSummary(result, config, List.of(), out);
        return result.verified() ? 0 : 1;
    }

    /**
     * Creates the next free {@code run-N} directory under {@code store}: each run keeps its repositories apart, so a
     * run never recovers another's checkpoints (job ids repeat from run to run, request numbers do not carry over).
     */
    static Path newRunDirectory(Path store) {
        for (int n = 1; ; n++) {
            Path run = store.resolve("run-" + n);
            try {
                return Files.createDirectory(run);
            } catch (FileAlreadyExistsException e) {
                // Taken by an earlier (or a concurrent) run: try the next number.
            } catch (IOException e) {
                throw new UsageException("--store cannot be used: " + run + " cannot be created (" + e + ")");
            }
        }
    }

    /** Prints the temperature held by every process after the first steps, in the layout of Kanna et al. Fig. 9. */
    public static void printHistory(RemdProcess.Outcome first, RemdSetup setup, PrintStream out) {
        out.println("Temperatures (K) held by each process after each step (first 5 steps; * marks a swap):");
        StringBuilder header = new StringBuilder("  step");
        for (int p = 0; p < setup.processes(); p++) {
            header.append(String.format("%7s", "P" + (p + 1)));
        }
        out.println(header);
        List<Integer> previous = new ArrayList<>();
        for (int p = 0; p < setup.processes(); p++) {
            previous.add(p);
        }
        List<List<Integer>> history = first.history();
        for (int s = 0; s < Math.min(5, history.size()); s++) {
            StringBuilder row = new StringBuilder(String.format("  %4d", s + 1));
            for (int p = 0; p < setup.processes(); p++) {
                int rung = history.get(s).get(p);
                String mark = rung != previous.get(p) ? "*" : " ";
                row.append(String.format("%6.0f%s", setup.kelvin(rung), mark));
            }
            out.println(row);
            previous = history.get(s);
        }
        out.println();
    }

    /** The share of attempted neighbour swaps that the Metropolis criterion accepted. */
    static double swapAcceptance(Tour.Result result, RemdSetup setup) {
        List<List<Integer>> history = result.reference().get(0).history();
        int attempts = 0;
        int accepted = 0;
        List<Integer> before = new ArrayList<>();
        for (int p = 0; p < setup.processes(); p++) {
            before.add(p);
        }
        for (int s = 0; s < history.size(); s++) {
            attempts += (setup.processes() - (s + 1) % 2) / 2;
            for (int p = 0; p < setup.processes(); p++) {
                if (!history.get(s).get(p).equals(before.get(p))) {
                    accepted++;
                }
            }
            before = history.get(s);
        }
        // Every accepted swap moves two processes.
        return attempts == 0 ? 0 : accepted / 2.0 / attempts;
    }

    /**
     * Prints what the checkpoints cost beside what full synchronous commits would have: the commits' outcomes, the
     * real time the commit calls held the job and the bytes the durable commits wrote, each measured, then the same
     * for full synchronous commits of every checkpoint taken, with how those were obtained.
     */
    static void printCommitCosts(CommitCosts costs, PrintStream out) {
        out.printf("  checkpoints committed             %d of %d taken, %s (%d superseded, %d failed, %d "
                + "abandoned%s)%n", costs.durable(), costs.taken(), costs.kind(), costs.superseded(), costs.failed(),
                costs.abandoned(), costs.undecided() > 0 ? ", " + costs.undecided() + " died with their writer" : "");
        out.printf("  job held by commit calls          %.3f s measured; full synchronous commits: %.3f s, %s%n",
                costs.blockingSeconds(), costs.fullSeconds(), costs.fullSecondsBasis());
        out.printf("  bytes written by commits          %,d measured; full commits: %,d, %s%n", costs.bytesWritten(),
                costs.fullBytes(), costs.fullBytesBasis());
    }

    /**
     * Prints the summary of a run and its verdict; {@code rows} (label, value) come before the wall time.
     */
    public static void printSummary(Tour.Result result, Tour.Config config, List<String[]> rows, PrintStream out) {
        RemdSetup setup = config.setup();
        double stepSeconds = config.stepSeconds();
        double computeMeanSeconds = config.computeHosts().meanSeconds();
        List<Double> intervals = new ArrayList<>(result.intervalsSeconds());
        Collections.sort(intervals);
        out.println("Summary");
        out.printf("  replicas killed mid-step          %d%n", result.replicaFailures());
        int beforeFirst = result.restartsFromScratch() - result.lostCheckpoints();
        out.printf("  processes restarted               %d (%d from a checkpoint, %d before their first checkpoint, "
                        + "%d whose checkpoint was lost)%n", result.restarts(),
                result.restarts() - result.restartsFromScratch(), beforeFirst, result.lostCheckpoints());
        out.printf("  estimated compute-host MTBF       %s (censoring-aware MLE over every replica's uptime; the "
                        + "injected law's mean is %.2f h)%n", result.estimatedRate() > 0
                        ? String.format("%.2f h", 1 / result.estimatedRate() / 3600) : "no failure observed",
                computeMeanSeconds / 3600);
        out.printf("  temperature swaps accepted        %.0f%% of attempts%n", 100 * swapAcceptance(result, setup));
        printCommitCosts(result.commits(), out);
        if (!intervals.isEmpty()) {
            out.printf("  checkpoint intervals (virtual)    min %.0f s, median %.0f s, max %.0f s; Ni-Harwood "
                            + "interval at the end %.0f s%n", intervals.get(0), intervals.get(intervals.size() / 2),
                    intervals.get(intervals.size() - 1), result.lastIntervalSeconds());
        }
        out.printf("  bytes stored on storage hosts     %,d (commits and repairs)%n", result.bytesStored());
        out.printf("  storage-host departures           %d (%d stored objects lost)%n", result.storageDepartures(),
                result.objectsLost());
        out.printf("  fragments repaired                %d%n", result.fragmentsRepaired());
        out.printf("  requests served from read log     %,d (%,d duplicate puts ignored)%n", result.servedFromLog(),
                result.duplicatePuts());
        out.printf("  virtual time of the slowest       %.2f h (failure-free: %.2f h of sampling)%n",
                result.virtualSeconds() / 3600, setup.steps() * stepSeconds / 3600);
        for (String[] row : rows) {
            out.printf("  %-34s%s%n", row[0], row[1]);
        }
        out.printf("  wall time                         %.1f s%n", result.wallSeconds());
        out.println();
        RemdProcess.Outcome firstFailing = null;
        for (int p = 0; p < result.outcomes().size(); p++) {
            if (!result.outcomes().get(p).equals(result.reference().get(p))) {
                firstFailing = result.outcomes().get(p);
                break;
            }
        }
        out.printf("  final energies (kcal/mol):%n   ");
        for (RemdProcess.Outcome outcome : result.outcomes()) {
            out.printf(" %.6f", outcome.energy());
        }
        out.println();
        if (firstFailing == null) {
            out.println("verdict: PASS (temperature-swap history and final energies equal the failure-free run's, "
                    + "bit for bit)");
        } else {
            out.println("verdict: FAIL (process " + firstFailing.process() + " differs from the failure-free run)");
        }
    }
}
