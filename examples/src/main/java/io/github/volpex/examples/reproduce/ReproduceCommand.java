package io.github.volpex.examples.reproduce;

import io.github.volpex.examples.cli.Command;
import io.github.volpex.examples.cli.Options;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code reproduce <experiment>|all}: reruns the papers' evaluations in simulation with the library's own
 * calculators, estimators, selectors and codec, prints each table, and writes charts (PNG and SVG) and an
 * {@code index.html} report under {@code --out}.
 *
 * @since 0.1
 */
public final class ReproduceCommand implements Command {

    private static final String DEFAULT_OUT = "reproduction";
    private static final String DEFAULT_TRACES = "../shared/data";

    /** Creates the command. */
    public ReproduceCommand() {
    }

    /** Returns every experiment, in the order {@code all} runs them. */
    static List<Experiment> experiments() {
        return List.of(new NiHarwoodExperiment(), new RenExperiment(), new DeCamargoExperiment(),
                new RahmanSubhlokExperiment(), new KannaExperiment());
    }

    private static List<String> choices() {
        List<String> names = new ArrayList<>();
        names.add("all");
        experiments().forEach(e -> names.add(e.name()));
        return names;
    }

    @Override
    public Options options() {
        return Options.forCommand("reproduce", "Reproduce the papers' experiments in simulation: tables on the "
                        + "terminal, charts (PNG, SVG) and index.html under --out.")
                .positionalChoice("experiment", "all", choices(), "the experiment to run, or all")
                .directoryOption("out", "the report directory (default " + DEFAULT_OUT + ")")
                .pathOption("trace-dir", "the directory holding microsoft99-ping-subset/PingData00.txt; the trace "
                        + "replay is skipped when it is absent (default " + DEFAULT_TRACES + ")")
                .longOption("seed", 2008, 0, Long.MAX_VALUE, "the master seed of every random stream")
                .intOption("threads", Math.max(1, Runtime.getRuntime().availableProcessors()), 1, 64,
                        "worker threads for independent simulation cells")
                .flag("quick", "small parameters: the same experiments in seconds, with wider error bars");
    }

    @Override
    public int run(Options.Parsed options, PrintStream out) throws Exception {
        // Created (or refused, in one line) before any experiment runs, so no work is lost to a bad path.
        Path outDir = Options.prepareDirectory("out", options.path("out").orElse(Path.of(DEFAULT_OUT)));
        Setup setup = new Setup(options.longValue("seed"), options.flag("quick"), options.intValue("threads"),
                options.path("trace-dir").orElse(Path.of(DEFAULT_TRACES)));
        String chosen = options.choice("experiment");
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
