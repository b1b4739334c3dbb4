package io.github.volpex.examples.reproduce;

import io.github.volpex.estimators.DistributionFit;
import io.github.volpex.estimators.LifetimeSample;
import io.github.volpex.estimators.SurvivalFunction;
import io.github.volpex.estimators.TraceInterval;
import io.github.volpex.estimators.WeibullFit;
import io.github.volpex.examples.report.Chart;
import io.github.volpex.examples.report.Table;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Ren, Eigenmann and Bagchi, Fig. 3 to 5: checkpoint repository selection (random against the optimistic and
 * pessimistic failure-aware models, solved by the library's greedy selector) and the one-step look-ahead interval
 * heuristic ({@code RenLookAhead}) against periodic checkpointing every 1 to 4 hours, for 720 jobs of 5 to 10 hours
 * on 20 computation and 20 storage hosts, IDA (6, 3). Host availability is drawn from the FTA's microsoft99 fits
 * (up: Weibull 0.55 / 35.30 h; down: 0.60 / 9.34 h) and, when the trace is present, replayed from it.
 */
final class RenExperiment implements Experiment {

    static final double HOUR = 3600;
    static final double UP_SHAPE = 0.55;
    static final double UP_SCALE = 35.30 * HOUR;
    static final double DOWN_SHAPE = 0.60;
    static final double DOWN_SCALE = 9.34 * HOUR;
    static final int HOSTS = 20;
    static final double NOMINAL_BANDWIDTH = 10e6 / 8;
    static final double[] LENGTH_HOURS = {5, 6, 7, 8, 9, 10};
    static final double[] SIZES_MB = {100, 200, 300, 400, 500};
    static final double[] PERIOD_HOURS = {1, 2, 3, 4};
    static final RenJob.Storage[] SELECTION = {RenJob.Storage.RANDOM, RenJob.Storage.OPTIMISTIC,
        RenJob.Storage.PESSIMISTIC};

    /** How many worlds and submission times. */
    record Scale(int worlds, int submissions) {
    }

    static Scale scale(Setup setup) {
        return setup.quick() ? new Scale(1, 24) : new Scale(4, 120);
    }

    @Override
    public String name() {
        return "ren";
    }

    @Override
    public String title() {
        return "Ren, Eigenmann & Bagchi, Fig. 3-5: failure-aware repository selection and the look-ahead interval";
    }

    @Override
    public double estimatedSeconds(Setup setup) {
        return setup.quick() ? 2 : 10;
    }

    /** One world's makespans: [part][variant][length] sums and counts. */
    static final class Sums {
        final double[][] sum;
        final int[][] count;
        final int[] unfinished;
        final long[] failures;
        final long[] restarts;
        final long[] jobs;

        Sums(int variants, int lengths) {
            sum = new double[variants][lengths];
            count = new int[variants][lengths];
            unfinished = new int[variants];
            failures = new long[variants];
            restarts = new long[variants];
            jobs = new long[variants];
        }

        void add(int variant, int length, RenJob.Outcome outcome) {
            jobs[variant]++;
            failures[variant] += outcome.failures();
            restarts[variant] += outcome.restartsFromScratch();
            if (outcome.finished()) {
                sum[variant][length] += outcome.makespanSeconds();
                count[variant][length]++;
            } else {
                unfinished[variant]++;
            }
        }

        void addAll(Sums other) {
            for (int v = 0; v < sum.length; v++) {
                for (int l = 0; l < sum[v].length; l++) {
                    sum[v][l] += other.sum[v][l];
                    count[v][l] += other.count[v][l];
                }
                unfinished[v] += other.unfinished[v];
                failures[v] += other.failures[v];
                restarts[v] += other.restarts[v];
                jobs[v] += other.jobs[v];
            }
        }

        double mean(int variant, int length) {
            return sum[variant][length] / count[variant][length];
        }

        double meanAll(int variant) {
            double s = 0;
            int c = 0;
            for (int l = 0; l < sum[variant].length; l++) {
                s += sum[variant][l];
                c += count[variant][l];
            }
            return s / c;
        }
    }

    /** The parts of the experiment, each run per world. */
    enum Part {
        SELECTION(3), SIZES(2 * SIZES_MB.length), PERIODS(1 + PERIOD_HOURS.length);

        final int variants;

        Part(int variants) {
            this.variants = variants;
        }
    }

    /** Runs one part over one world's 720 (or fewer) jobs, only jobs whose submissions all variants share. */
    static Sums runPart(Setup setup, Scale scale, RenJob.World world, Part part, int worldIndex, double firstSubmit,
            double lastSubmit, String stream) {
        Sums sums = new Sums(part.variants, LENGTH_HOURS.length);
        for (int i = 0; i < scale.submissions(); i++) {
            double submit = firstSubmit + (lastSubmit - firstSubmit) * i / Math.max(1, scale.submissions() - 1);
            for (int l = 0; l < LENGTH_HOURS.length; l++) {
                SplittableRandom jobRandom = setup.random(stream + "/job", worldIndex, i, l);
                double sizeMb = 100 + 400 * jobRandom.nextDouble();
                double work = LENGTH_HOURS[l] * HOUR;
                switch (part) {
                    case SELECTION -> {
                        RenJob.Spec spec = new RenJob.Spec(submit, work, sizeMb * RenJob.MB);
                        for (int v = 0; v < SELECTION.length; v++) {
                            sums.add(v, l, RenJob.run(world, spec, SELECTION[v], RenJob.Interval.periodic(HOUR),
                                    setup.random(stream + "/select", worldIndex, i, l, v)));
                        }
                    }
                    case SIZES -> {
                        for (int s = 0; s < SIZES_MB.length; s++) {
                            RenJob.Spec spec = new RenJob.Spec(submit, work, SIZES_MB[s] * RenJob.MB);
                            sums.add(2 * s, l, RenJob.run(world, spec, RenJob.Storage.ALWAYS_UP,
                                    RenJob.Interval.periodic(HOUR), jobRandom));
                            sums.add(2 * s + 1, l, RenJob.run(world, spec, RenJob.Storage.ALWAYS_UP,
                                    RenJob.Interval.lookAhead(), jobRandom));
                        }
                    }
                    case PERIODS -> {
                        RenJob.Spec spec = new RenJob.Spec(submit, work, 300 * RenJob.MB);
                        sums.add(0, l, RenJob.run(world, spec, RenJob.Storage.ALWAYS_UP, RenJob.Interval.lookAhead(),
                                jobRandom));
                        for (int p = 0; p < PERIOD_HOURS.length; p++) {
                            sums.add(1 + p, l, RenJob.run(world, spec, RenJob.Storage.ALWAYS_UP,
                                    RenJob.Interval.periodic(PERIOD_HOURS[p] * HOUR), jobRandom));
                        }
                    }
                    default -> throw new IllegalStateException(part.toString());
                }
            }
        }
        return sums;
    }

    static RenJob.World syntheticWorld(Setup setup, Kind kind, int index, double horizon) {
        boolean testbed = kind == Kind.TESTBED || kind == Kind.AFTERNOON;
        // The afternoon world is the testbed world (same stream) with the outages added on top.
        SplittableRandom random = setup.random("ren/world/" + (testbed ? Kind.TESTBED : kind), index);
        double upScale = testbed ? TESTBED_UP_SCALE : UP_SCALE;
        double downScale = testbed ? TESTBED_DOWN_SCALE : DOWN_SCALE;
        Availability availability = Availability.weibull(2 * HOSTS, UP_SHAPE, upScale, DOWN_SHAPE, downScale, 0,
                horizon, random);
        SurvivalFunction law = SurvivalFunction.weibull(UP_SHAPE, upScale);
        double[] bandwidths = bandwidths(random);
        if (kind != Kind.AFTERNOON) {
            return new RenJob.World(availability, HOSTS, bandwidths, law, NOMINAL_BANDWIDTH);
        }
        SplittableRandom afternoons = setup.random("ren/afternoons", index);
        AfternoonOutages outages = AfternoonOutages.draw(HOSTS, afternoons);
        double[][][] down = outages.outages(HOSTS, horizon, afternoons);
        return new RenJob.World(availability.withOutages(down[0], down[1]), HOSTS, bandwidths, law,
                NOMINAL_BANDWIDTH, outages.predictor(law));
    }

    /** Storage hosts' effective bandwidths: 2 to 10 Mbit/s on 10 Mbit/s links loaded by their owners. */
    static double[] bandwidths(SplittableRandom random) {
        double[] bw = new double[HOSTS];
        for (int i = 0; i < HOSTS; i++) {
            bw[i] = (2 + 8 * random.nextDouble()) * 1e6 / 8;
        }
        return bw;
    }

    /** Where availability comes from. */
    enum Kind {
        /** Alternating Weibull times with the FTA's microsoft99 fits (the setting). */
        FTA("", ""),
        /**
         * The same shapes with the time scale of Ren's testbed, where most availability intervals last 2 to 4 hours
         * and hosts are up about 70% of the time: up scale 1.78 h (mean 3 h), down scale 0.86 h (mean 1.3 h).
         */
        TESTBED(", Ren's testbed time scale", "-testbed"),
        /** The microsoft99 trace replayed, with the library's Weibull fit of it as the TR predictor. */
        TRACE(", microsoft99 replay", "-trace"),
        /**
         * Ren's testbed time scale plus correlated afternoon reclaims of storage hosts ({@link AfternoonOutages}),
         * the selectors told each host's daily pattern.
         */
        AFTERNOON(", testbed scale with correlated afternoon storage outages", "-afternoon");

        final String suffix;
        final String file;

        Kind(String suffix, String file) {
            this.suffix = suffix;
            this.file = file;
        }
    }

    static final double TESTBED_UP_SCALE = 1.78 * HOUR;
    static final double TESTBED_DOWN_SCALE = 0.86 * HOUR;

    /** One world of one kind and one part of the experiment run on it. */
    record WorldCell(Kind kind, int index, Part part) {
    }

    @Override
    public Result run(Setup setup, Progress progress) throws Exception {
        Scale scale = scale(setup);
        double window = 30 * 86_400.0;
        double horizon = window + 20 * LENGTH_HOURS[LENGTH_HOURS.length - 1] * HOUR;
        Optional<java.nio.file.Path> tracePath = setup.microsoft99();
        Map<Long, List<TraceInterval>> trace = null;
        WeibullFit traceFit = null;
        List<long[]> traceHosts = new ArrayList<>();
        if (tracePath.isPresent()) {
            trace = Availability.readMatrix(tracePath.get());
            LifetimeSample up = trace.values().stream().flatMap(List::stream)
                    .filter(i -> i.available() && i.durationSeconds() > 0).collect(LifetimeSample.collector());
            traceFit = DistributionFit.weibull(up);
            for (int w = 0; w < scale.worlds(); w++) {
                traceHosts.add(pickTraceHosts(trace, setup.random("ren/trace-hosts", w)));
            }
        } else {
            progress.say("microsoft99 trace not found at " + setup.microsoft99Path() + ": the trace replay is "
                    + "skipped (give --trace-dir DIR with microsoft99-ping-subset/PingData00.txt under it)");
        }
        List<Kind> kinds = tracePath.isPresent() ? List.of(Kind.FTA, Kind.TESTBED, Kind.TRACE, Kind.AFTERNOON)
                : List.of(Kind.FTA, Kind.TESTBED, Kind.AFTERNOON);
        List<WorldCell> cells = new ArrayList<>();
        for (Kind kind : kinds) {
            for (int w = 0; w < scale.worlds(); w++) {
                // Storage outages change only the selection part: the interval parts keep repositories up.
                Part[] parts = kind == Kind.TRACE ? new Part[] {Part.SELECTION, Part.PERIODS}
                        : kind == Kind.AFTERNOON ? new Part[] {Part.SELECTION} : Part.values();
                for (Part part : parts) {
                    cells.add(new WorldCell(kind, w, part));
                }
            }
        }
        Map<Long, List<TraceInterval>> traceData = trace;
        WeibullFit fit = traceFit;
        List<Sums> sums = Cells.map(cells, setup.threads(), progress,
                c -> c.kind().name().toLowerCase(Locale.ROOT) + " world " + (c.index() + 1) + ", "
                        + c.part().name().toLowerCase(Locale.ROOT),
                c -> c.part() == Part.SELECTION ? 3 : c.part() == Part.SIZES ? 10 : 5,
                c -> {
                    if (c.kind() != Kind.TRACE) {
                        return runPart(setup, scale, syntheticWorld(setup, c.kind(), c.index(), horizon), c.part(),
                                c.index(), 0, window, "ren/" + c.kind());
                    }
                    SplittableRandom random = setup.random("ren/trace-bandwidth", c.index());
                    Availability availability = Availability.replay(traceData, traceHosts.get(c.index()));
                    RenJob.World world = new RenJob.World(availability, HOSTS, bandwidths(random), fit.survival(),
                            NOMINAL_BANDWIDTH);
                    return runPart(setup, scale, world, c.part(), c.index(), 48 * HOUR,
                            availability.horizonSeconds() - 220 * HOUR, "ren/trace");
                });
        Result result = new Result(this);
        result.setting(String.format(Locale.ROOT, "%d computation + %d storage hosts; availability: alternating "
                        + "Weibull up (shape %.2f, scale %.2f h) and down (%.2f, %.2f h) times; %d worlds x %d "
                        + "submission times x 6 lengths (5-10 h) = %d jobs per strategy", HOSTS, HOSTS, UP_SHAPE,
                        UP_SCALE / HOUR, DOWN_SHAPE, DOWN_SCALE / HOUR, scale.worlds(), scale.submissions(),
                        scale.worlds() * scale.submissions() * LENGTH_HOURS.length))
                .setting("checkpoints of 100-500 MB, IDA (6, 3), overhead 0.43 n + 5.63 s, decoding 0.06 n - 0.29 s "
                        + "(Table 2); storage links 2-10 Mbit/s; the scheduler places a job on the up computation "
                        + "host most likely to outlive the remaining work")
                .setting("selection: RepositorySelector.uniformRandom against greedy() with Objective.optimistic / "
                        + "Objective.pessimistic and each host's TR conditioned on its current uptime; intervals: "
                        + "RenLookAhead (step = checkpoint latency) against periodic");
        for (Kind kind : kinds) {
            Sums selection = merge(cells, sums, kind, Part.SELECTION);
            Sums periods = kind == Kind.AFTERNOON ? null : merge(cells, sums, kind, Part.PERIODS);
            Sums sizes = kind == Kind.TRACE || kind == Kind.AFTERNOON ? null : merge(cells, sums, kind, Part.SIZES);
            selectionTable(result, selection, "Fig. 3" + kind.suffix, "fig3" + kind.file, kind.suffix);
            if (sizes != null) {
                sizesTable(result, sizes, "Fig. 4" + kind.suffix, "fig4" + kind.file);
            }
            if (periods != null) {
                periodsTable(result, periods, "Fig. 5" + kind.suffix, "fig5" + kind.file, kind.suffix);
            }
            addFindings(result, selection, sizes, periods, kind.suffix.isEmpty() ? "" : " (" + kind.suffix
                    .substring(2) + ")");
        }
        result.setting(String.format(Locale.ROOT, "investigation, correlated afternoon storage outages: the testbed "
                + "worlds plus daily reclaims of storage hosts between %.0f:00 and %.0f:00, host i taken on a day of "
                + "load L ~ U(0, 1) with probability min(1, 2 rho_i L), rho_i ~ U(0, 1), for Exp(mean %.0f h) cut at "
                + "%.0f:00; the selectors' TR of a storage host includes its chance of a reclaim",
                AfternoonOutages.WINDOW_START / HOUR, AfternoonOutages.WINDOW_END / HOUR,
                AfternoonOutages.MEAN_OUTAGE / HOUR, AfternoonOutages.WINDOW_END / HOUR));
        result.setting(String.format(Locale.ROOT, "investigation, Ren's testbed time scale: the same shapes with up "
                + "scale %.2f h and down scale %.2f h (availability intervals mostly 2-4 h, hosts up about 70%%)",
                TESTBED_UP_SCALE / HOUR, TESTBED_DOWN_SCALE / HOUR));
        if (fit != null) {
            result.setting(String.format(Locale.ROOT, "trace replay: %d worlds of 40 hosts drawn from %s (hosts up "
                            + "at least 10%% of the trace), TR = the library's Weibull fit of the trace's up "
                            + "intervals: shape %.2f, scale %.2f h (FTA, whole microsoft99: 0.55, 35.30 h)",
                    scale.worlds(), Setup.MICROSOFT99, fit.shape(), fit.scaleSeconds() / HOUR));
        } else {
            result.finding("the same on the replayed microsoft99 trace", "-", "trace not present: skipped",
                    Result.Verdict.SKIPPED);
        }
        return result;
    }

    private static long[] pickTraceHosts(Map<Long, List<TraceInterval>> trace, SplittableRandom random) {
        List<Long> eligible = new ArrayList<>();
        for (Map.Entry<Long, List<TraceInterval>> e : trace.entrySet()) {
            double up = 0;
            double all = 0;
            for (TraceInterval i : e.getValue()) {
                all += i.durationSeconds();
                up += i.available() ? i.durationSeconds() : 0;
            }
            if (all > 0 && up / all >= 0.10) {
                eligible.add(e.getKey());
            }
        }
        long[] hosts = new long[2 * HOSTS];
        for (int h = 0; h < hosts.length; h++) {
            hosts[h] = eligible.remove(random.nextInt(eligible.size()));
        }
        return hosts;
    }

    private static Sums merge(List<WorldCell> cells, List<Sums> sums, Kind kind, Part part) {
        Sums merged = new Sums(part.variants, LENGTH_HOURS.length);
        for (int i = 0; i < cells.size(); i++) {
            if (cells.get(i).kind() == kind && cells.get(i).part() == part) {
                merged.addAll(sums.get(i));
            }
        }
        return merged;
    }

    private static String h(double seconds) {
        return String.format(Locale.ROOT, "%.2f", seconds / HOUR);
    }

    private static String pct(double value) {
        return String.format(Locale.ROOT, "%+.1f%%", value);
    }

    static double improvement(double baseline, double value) {
        return 100 * (baseline - value) / baseline;
    }

    private static void selectionTable(Result result, Sums s, String figure, String file, String suffix) {
        Table table = new Table(figure + ": mean makespan (h) by repository selection, hourly checkpoints" + suffix,
                "job length (h)", "random", "optimistic", "pessimistic", "optimistic vs random",
                "pessimistic vs random");
        List<String> categories = new ArrayList<>();
        double[][] bars = new double[3][LENGTH_HOURS.length + 1];
        for (int l = 0; l <= LENGTH_HOURS.length; l++) {
            boolean all = l == LENGTH_HOURS.length;
            double[] m = new double[3];
            for (int v = 0; v < 3; v++) {
                m[v] = all ? s.meanAll(v) : s.mean(v, l);
                bars[v][l] = m[v] / HOUR;
            }
            String label = all ? "all" : String.format(Locale.ROOT, "%.0f", LENGTH_HOURS[l]);
            categories.add(label);
            table.row(label, h(m[0]), h(m[1]), h(m[2]), pct(improvement(m[0], m[1])), pct(improvement(m[0], m[2])));
        }
        result.table(table);
        Table failures = new Table(figure + ": computation-host failures and restarts from scratch (checkpoint "
                + "unreachable) per job", "strategy", "failures per job", "restarts from scratch per job",
                "jobs not finished");
        String[] strategies = {"random", "optimistic", "pessimistic"};
        for (int v = 0; v < 3; v++) {
            failures.row(strategies[v], String.format(Locale.ROOT, "%.3f", s.failures[v] / (double) s.jobs[v]),
                    String.format(Locale.ROOT, "%.4f", s.restarts[v] / (double) s.jobs[v]), s.unfinished[v]);
        }
        result.table(failures);
        Chart chart = Chart.bars(file, figure + ": makespan by repository selection",
                "normalized job length (h)", "mean makespan (h)", categories);
        String[] names = {"random", "optimistic", "pessimistic"};
        for (int v = 0; v < 3; v++) {
            chart.add(names[v], bars[v]);
        }
        result.chart(chart);
    }

    private static void sizesTable(Result result, Sums s, String figure, String file) {
        String[] headers = new String[SIZES_MB.length + 1];
        headers[0] = "job length (h)";
        for (int i = 0; i < SIZES_MB.length; i++) {
            headers[i + 1] = String.format(Locale.ROOT, "%.0f MB", SIZES_MB[i]);
        }
        Table table = new Table(figure + ": makespan improvement of the look-ahead heuristic over hourly "
                + "checkpoints, by checkpoint size (repositories always up)", headers);
        List<String> categories = new ArrayList<>();
        double[][] bars = new double[SIZES_MB.length][LENGTH_HOURS.length + 1];
        for (int l = 0; l <= LENGTH_HOURS.length; l++) {
            boolean all = l == LENGTH_HOURS.length;
            Object[] row = new Object[headers.length];
            row[0] = all ? "all" : String.format(Locale.ROOT, "%.0f", LENGTH_HOURS[l]);
            categories.add((String) row[0]);
            for (int i = 0; i < SIZES_MB.length; i++) {
                double periodic = all ? s.meanAll(2 * i) : s.mean(2 * i, l);
                double ahead = all ? s.meanAll(2 * i + 1) : s.mean(2 * i + 1, l);
                bars[i][l] = improvement(periodic, ahead);
                row[i + 1] = pct(bars[i][l]);
            }
            table.row(row);
        }
        result.table(table);
        Chart chart = Chart.bars(file, figure + ": look-ahead against hourly checkpoints",
                "normalized job length (h)", "makespan improvement (%)", categories);
        for (int i = 0; i < SIZES_MB.length; i++) {
            chart.add(headers[i + 1], bars[i]);
        }
        result.chart(chart);
    }

    private static void periodsTable(Result result, Sums s, String figure, String file, String suffix) {
        String[] headers = new String[2 + 2 * PERIOD_HOURS.length];
        headers[0] = "job length (h)";
        headers[1] = "look-ahead (h)";
        for (int p = 0; p < PERIOD_HOURS.length; p++) {
            headers[2 + p] = String.format(Locale.ROOT, "every %.0f h (h)", PERIOD_HOURS[p]);
            headers[2 + PERIOD_HOURS.length + p] = String.format(Locale.ROOT, "vs %.0f h", PERIOD_HOURS[p]);
        }
        Table table = new Table(figure + ": makespan of look-ahead and periodic checkpoints, and the look-ahead's "
                + "improvement, 300 MB" + suffix, headers);
        List<String> categories = new ArrayList<>();
        double[][] bars = new double[PERIOD_HOURS.length][LENGTH_HOURS.length + 1];
        for (int l = 0; l <= LENGTH_HOURS.length; l++) {
            boolean all = l == LENGTH_HOURS.length;
            Object[] row = new Object[headers.length];
            row[0] = all ? "all" : String.format(Locale.ROOT, "%.0f", LENGTH_HOURS[l]);
            categories.add((String) row[0]);
            double ahead = all ? s.meanAll(0) : s.mean(0, l);
            row[1] = h(ahead);
            for (int p = 0; p < PERIOD_HOURS.length; p++) {
                double periodic = all ? s.meanAll(1 + p) : s.mean(1 + p, l);
                row[2 + p] = h(periodic);
                bars[p][l] = improvement(periodic, ahead);
                row[2 + PERIOD_HOURS.length + p] = pct(bars[p][l]);
            }
            table.row(row);
        }
        result.table(table);
        Chart chart = Chart.bars(file, figure + ": look-ahead against periodic checkpoints",
                "normalized job length (h)", "makespan improvement (%)", categories);
        for (int p = 0; p < PERIOD_HOURS.length; p++) {
            chart.add(String.format(Locale.ROOT, "every %.0f h", PERIOD_HOURS[p]), bars[p]);
        }
        result.chart(chart);
    }

    /** Makespans closer than this share of their size are a tie: no strategy is "faster" by rounding. */
    static final double TIE = 0.001;

    /** −1 if {@code a} is shorter than {@code b} by more than a tie, +1 if longer, 0 for a tie. */
    static int order(double a, double b) {
        double scale = Math.max(Math.abs(a), Math.abs(b));
        return Math.abs(a - b) <= TIE * scale ? 0 : a < b ? -1 : 1;
    }

    /** The words for an {@link #order}. */
    static String comparison(int order) {
        return order < 0 ? "faster than" : order > 0 ? "slower than" : "tied with";
    }

    private static void addFindings(Result result, Sums selection, Sums sizes, Sums periods, String suffix) {
        double opt = improvement(selection.meanAll(0), selection.meanAll(1));
        double pess = improvement(selection.meanAll(0), selection.meanAll(2));
        result.finding("failure-aware selection beats random on average" + suffix, "optimistic +13.04%, "
                        + "pessimistic +15.29%", String.format(Locale.ROOT, "optimistic %s, pessimistic %s",
                        pct(opt), pct(pess)),
                opt > 1 && pess > 1 ? (Math.abs(opt - 13.04) <= 5 && Math.abs(pess - 15.29) <= 5
                        ? Result.Verdict.REPRODUCED : Result.Verdict.PARTLY) : Result.Verdict.NOT_REPRODUCED);
        int longIndex = 4; // 9 h and 10 h
        double shortOpt = 0;
        double shortPess = 0;
        double longOpt = 0;
        double longPess = 0;
        for (int l = 0; l < LENGTH_HOURS.length; l++) {
            if (l < longIndex) {
                shortOpt += selection.mean(1, l);
                shortPess += selection.mean(2, l);
            } else {
                longOpt += selection.mean(1, l);
                longPess += selection.mean(2, l);
            }
        }
        int shortOrder = order(shortOpt, shortPess);
        int longOrder = order(longPess, longOpt);
        boolean crossover = shortOrder <= 0 && longOrder < 0;
        result.finding("optimistic is slightly better below 9 h, pessimistic better from 9 h" + suffix,
                "crossover at 9 h", String.format(Locale.ROOT, "5-8 h: optimistic %s pessimistic; 9-10 h: "
                        + "pessimistic %s optimistic (%s)", comparison(shortOrder), comparison(longOrder),
                        "a difference under " + pct(100 * TIE) + " of the makespan counts as a tie"),
                crossover ? Result.Verdict.REPRODUCED : Result.Verdict.NOT_REPRODUCED);
        if (sizes != null) {
            int positive = 0;
            int cells = 0;
            for (int i = 0; i < SIZES_MB.length; i++) {
                for (int l = 0; l < LENGTH_HOURS.length; l++) {
                    cells++;
                    if (improvement(sizes.mean(2 * i, l), sizes.mean(2 * i + 1, l)) > 0) {
                        positive++;
                    }
                }
            }
            double small = improvement(sizes.meanAll(0), sizes.meanAll(1));
            double large = improvement(sizes.meanAll(2 * (SIZES_MB.length - 1)),
                    sizes.meanAll(2 * (SIZES_MB.length - 1) + 1));
            result.finding("look-ahead improves on hourly checkpoints for every size and length, more for larger "
                            + "checkpoints", "all bars positive, rising with size",
                    String.format(Locale.ROOT, "%d of %d positive; %s at 100 MB, %s at 500 MB", positive, cells,
                            pct(small), pct(large)),
                    positive == cells && large > small ? Result.Verdict.REPRODUCED
                            : positive >= cells / 2 ? Result.Verdict.PARTLY : Result.Verdict.NOT_REPRODUCED);
        }
        if (periods == null) {
            return;
        }
        int best = 0;
        for (int p = 1; p < PERIOD_HOURS.length; p++) {
            if (periods.meanAll(1 + p) < periods.meanAll(1 + best)) {
                best = p;
            }
        }
        boolean beatsAll = true;
        for (int p = 0; p < PERIOD_HOURS.length; p++) {
            beatsAll &= periods.meanAll(0) < periods.meanAll(1 + p);
        }
        result.finding("periodic checkpointing has a sweet spot at 3 h" + suffix, "every 3 h is the best period",
                String.format(Locale.ROOT, "best period: %.0f h", PERIOD_HOURS[best]),
                PERIOD_HOURS[best] == 3 ? Result.Verdict.REPRODUCED : Result.Verdict.NOT_REPRODUCED);
        result.finding("look-ahead beats every periodicity" + suffix, "better than 1, 2, 3 and 4 h",
                String.format(Locale.ROOT, "%s; vs the best period (%.0f h): %s", beatsAll ? "yes" : "no",
                        PERIOD_HOURS[best], pct(improvement(periods.meanAll(1 + best), periods.meanAll(0)))),
                beatsAll ? Result.Verdict.REPRODUCED : Result.Verdict.NOT_REPRODUCED);
    }
}
