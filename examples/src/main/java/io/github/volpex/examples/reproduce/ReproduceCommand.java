package io.github.volpex.examples.reproduce;

import io.github.volpex.examples.cli.OptionChecks;
import io.github.volpex.examples.cli.Subcommand;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code reproduce <experiment>|all}: reruns the papers' evaluations in simulation with the library's own
 * calculators, estimators, selectors and codec, prints each table, and writes charts (PNG and SVG) and an
 * {@code index.html} report under {@code --out}.
 *
 * @since 0.1
 */
@Command(name = "reproduce", description = "Reproduce the papers' experiments in simulation: tables on the terminal, "
        + "charts (PNG, SVG) and index.html under --out.")
public final class ReproduceCommand implements Subcommand {

    private static final String DEFAULT_OUT = "reproduction";
    private static final String DEFAULT_TRACES = "../shared/data";

    @Spec
    private CommandSpec spec;

    private String experiment;
    private Path outDirectory = Path.of(DEFAULT_OUT);
    private Path traceDirectory = Path.of(DEFAULT_TRACES);
    private long seed;
    private int threads = Math.max(1, Runtime.getRuntime().availableProcessors());

    @Option(names = "--quick", description = "small parameters: the same experiments in seconds, with wider error "
            + "bars")
    private boolean quick;

    /** Creates the command. */
    public ReproduceCommand() {
    }

    /** Returns every experiment, in the order {@code all} runs them. */
    static List<Experiment> experiments() {
        return List.of(new NiHarwoodExperiment(), new RenExperiment(), new DeCamargoExperiment(),
                new RahmanSubhlokExperiment(), new KannaExperiment());
    }

    /** What the positional argument may name: {@code all}, then each experiment. */
    static final class Choices implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            List<String> names = new ArrayList<>();
            names.add("all");
            experiments().forEach(e -> names.add(e.name()));
            return names.iterator();
        }
    }

    @Parameters(arity = "0..1", paramLabel = "EXPERIMENT", defaultValue = "all", completionCandidates = Choices.class,
            description = "the experiment to run, or all: one of ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE})")
    void experiment(String value) {
        List<String> choices = new ArrayList<>();
        new Choices().forEach(choices::add);
        experiment = OptionChecks.oneOf(spec, "EXPERIMENT", value, choices);
    }

    @Option(names = "--out", paramLabel = "DIR", description = "the report directory (default " + DEFAULT_OUT + ")")
    void out(Path value) {
        outDirectory = OptionChecks.directory(spec, "--out", value);
    }

    @Option(names = "--trace-dir", paramLabel = "PATH", description = "the directory holding "
            + "microsoft99-ping-subset/PingData00.txt; the trace replay is skipped when it is absent (default "
            + DEFAULT_TRACES + ")")
    void traceDirectory(Path value) {
        traceDirectory = OptionChecks.path(spec, "--trace-dir", value);
    }

    @Option(names = "--seed", paramLabel = "N", defaultValue = "2008",
            description = "the master seed of every random stream [0, " + Long.MAX_VALUE + "] (default "
                    + "${DEFAULT-VALUE})")
    void seed(long value) {
        seed = OptionChecks.inRange(spec, "--seed", value, 0, Long.MAX_VALUE);
    }

    @Option(names = "--threads", paramLabel = "N", description = "worker threads for independent simulation cells "
            + "[1, 64] (default: one per processor)")
    void threads(int value) {
        threads = OptionChecks.inRange(spec, "--threads", value, 1, 64);
    }

    @Override
    public int run(PrintStream out) throws Exception {
        // Created (or refused, in one line) before any experiment runs, so no work is lost to a bad path.
        Path outDir = OptionChecks.prepareDirectory("--out", outDirectory);
        Setup setup = new Setup(seed, quick, threads, traceDirectory);
        String chosen = experiment;
        List<Experiment> toRun = experiments().stream()
                .filter(e -> chosen.equals("all") || e.name().equals(chosen)).toList();
        List<Result> results = runAll(toRun, setup, new Progress(out), out, outDir);
        double wall = results.stream().mapToDouble(Result::wallSeconds).sum();
        Report.writeIndex(outDir, results, setup, wall);
        out.printf(Locale.ROOT, "Done in %s: report at %s%n", Progress.duration(wall),
                outDir.resolve("index.html").toAbsolutePath().normalize());
        return 0;
    }

    /** Runs experiments in order, printing each one's tables and writing its files as soon as it ends. */
    static List<Result> runAll(List<Experiment> toRun, Setup setup, Progress progress, PrintStream out, Path outDir)
            throws Exception {
        List<Result> results = new ArrayList<>();
        for (int i = 0; i < toRun.size(); i++) {
            Experiment experiment = toRun.get(i);
            double later = 0;
            for (Experiment next : toRun.subList(i + 1, toRun.size())) {
                later += next.estimatedSeconds(setup);
            }
            progress.startExperiment(experiment.name(), experiment.estimatedSeconds(setup), later);
            long start = System.nanoTime();
            Result result = experiment.run(setup, progress);
            result.wallSeconds((System.nanoTime() - start) / 1e9);
            out.println();
            out.print(Report.text(result));
            out.printf(Locale.ROOT, "(%s in %s)%n%n", experiment.name(), Progress.duration(result.wallSeconds()));
            if (outDir != null) {
                Report.writeExperiment(outDir, result);
            }
            results.add(result);
        }
        return results;
    }
}
