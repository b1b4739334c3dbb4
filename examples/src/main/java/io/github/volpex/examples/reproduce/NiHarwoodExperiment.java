package io.github.volpex.examples.reproduce;

import io.github.volpex.examples.report.Chart;
import io.github.volpex.examples.report.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Ni and Harwood, Fig. 4 and 5: the relative runtime (fixed / adaptive × 100%) of fixed checkpoint intervals of 5,
 * 10, 20, 30 and 60 minutes against the adaptive scheme, for peer MTBF 4000, 7200 and 14400 s, with a constant
 * failure rate and with one that doubles every 20 hours (Fig. 4), and for checkpoint overheads V from 10 to 100 s
 * and image download times T_d from 10 to 200 s at MTBF 7200 s (Fig. 5).
 */
final class NiHarwoodExperiment implements Experiment {

    static final double[] FIXED_SECONDS = {300, 600, 1200, 1800, 3600};
    static final double[] MTBF_SECONDS = {4000, 7200, 14400};
    static final double[] V_SECONDS = {10, 20, 40, 60, 80, 100};
    static final double[] TD_SECONDS = {10, 25, 50, 100, 150, 200};
    static final double DOUBLING_SECONDS = 20 * 3600;

    /** The sizes the paper leaves open. */
    record Scale(int peers, double workSeconds, int repetitions, int neighbours, int lastFailures,
                 double warmUpSeconds, double capFactor) {
    }

    /** One point of a figure. */
    record Scenario(String figure, double mtbfSeconds, double overheadSeconds, double downloadSeconds,
                    boolean doubling) {
        String label() {
            return String.format(Locale.ROOT, "%s, MTBF %.0f s, V %.0f s, T_d %.0f s", figure, mtbfSeconds,
                    overheadSeconds, downloadSeconds);
        }
    }

    static Scale scale(Setup setup) {
        return setup.quick() ? new Scale(8, 4 * 3600, 6, 16, 50, 12 * 3600, 10)
                : new Scale(8, 10 * 3600, 100, 16, 50, 12 * 3600, 10);
    }

    static List<NiHarwoodJob.Policy> policies() {
        List<NiHarwoodJob.Policy> policies = new ArrayList<>();
        for (double s : FIXED_SECONDS) {
            policies.add(NiHarwoodJob.Policy.fixed(s));
        }
        policies.add(NiHarwoodJob.Policy.adaptivePolicy());
        policies.add(NiHarwoodJob.Policy.trueModel());
        return policies;
    }

    static List<Scenario> scenarios() {
        List<Scenario> scenarios = new ArrayList<>();
        for (double mtbf : MTBF_SECONDS) {
            scenarios.add(new Scenario("Fig. 4 left", mtbf, 20, 50, false));
        }
        for (double mtbf : MTBF_SECONDS) {
            scenarios.add(new Scenario("Fig. 4 right", mtbf, 20, 50, true));
        }
        for (double v : V_SECONDS) {
            scenarios.add(new Scenario("Fig. 5 left", 7200, v, 50, false));
        }
        for (double td : TD_SECONDS) {
            scenarios.add(new Scenario("Fig. 5 right", 7200, 20, td, false));
        }
        return scenarios;
    }

    @Override
    public String name() {
        return "ni-harwood";
    }

    @Override
    public String title() {
        return "Ni & Harwood, Fig. 4 and 5: adaptive checkpointing against fixed intervals";
    }

    @Override
    public double estimatedSeconds(Setup setup) {
        return setup.quick() ? 2 : 10;
    }

    static NiHarwoodJob.Setting setting(Scale scale, Scenario scenario) {
        PeerLifetimes lifetimes = scenario.doubling()
                ? new PeerLifetimes(1 / scenario.mtbfSeconds(), DOUBLING_SECONDS)
                : PeerLifetimes.constant(1 / scenario.mtbfSeconds());
        return new NiHarwoodJob.Setting(scale.peers(), scale.workSeconds(), scenario.overheadSeconds(),
                scenario.downloadSeconds(), lifetimes, scale.neighbours(), scale.lastFailures(),
                scale.warmUpSeconds(), scale.capFactor() * scale.workSeconds());
    }

    /** The mean runtimes of every policy in one scenario, with the finished counts. */
    record Row(Scenario scenario, List<NiHarwoodJob.Policy> policies, double[][] runtimes, boolean[][] finished,
               long events) {
        double mean(int policy) {
            return Stats.mean(runtimes[policy]);
        }

        boolean allFinished(int policy) {
            for (boolean f : finished[policy]) {
                if (!f) {
                    return false;
                }
            }
            return true;
        }

        int adaptive() {
            return policies.indexOf(NiHarwoodJob.Policy.adaptivePolicy());
        }

        /** Returns fixed / adaptive × 100%, a lower bound when some fixed-interval jobs hit the cap. */
        double relative(int policy) {
            return 100 * mean(policy) / mean(adaptive());
        }

        String relativeText(int policy) {
            return (allFinished(policy) ? "" : ">") + String.format(Locale.ROOT, "%.1f%%", relative(policy));
        }
    }

    /** Simulates every policy of one scenario over {@code repetitions} jobs with common peer failures. */
    static Row simulate(Setup setup, Scale scale, Scenario scenario, int index) {
        List<NiHarwoodJob.Policy> policies = policies();
        NiHarwoodJob.Setting setting = setting(scale, scenario);
        double[][] runtimes = new double[policies.size()][scale.repetitions()];
        boolean[][] finished = new boolean[policies.size()][scale.repetitions()];
        long events = 0;
        for (int p = 0; p < policies.size(); p++) {
            for (int r = 0; r < scale.repetitions(); r++) {
                NiHarwoodJob.Outcome outcome = NiHarwoodJob.run(setting, policies.get(p), setup, index, r);
                runtimes[p][r] = outcome.runtimeSeconds();
                finished[p][r] = outcome.finished();
                events += outcome.events();
            }
        }
        return new Row(scenario, policies, runtimes, finished, events);
    }

    @Override
    public Result run(Setup setup, Progress progress) throws InterruptedException {
        Scale scale = scale(setup);
        List<Scenario> scenarios = scenarios();
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < scenarios.size(); i++) {
            indexes.add(i);
        }
        List<Row> rows = Cells.map(indexes, setup.threads(), progress, i -> scenarios.get(i).label(),
                i -> weight(scenarios.get(i)), i -> simulate(setup, scale, scenarios.get(i), i));
        Result result = new Result(this);
        result.setting(String.format(Locale.ROOT, "k = %d peers, failure-free job length %.0f h, %d jobs per point "
                        + "(the same peer failures for every policy), exponential peer lifetimes", scale.peers(),
                        scale.workSeconds() / 3600, scale.repetitions()))
                .setting(String.format(Locale.ROOT, "adaptive: each job peer watches %d peers and estimates μ by the "
                        + "MLE over its last %d observed lifetimes; estimates piggybacked and averaged "
                        + "(PiggybackAggregator, mean); AdaptiveCheckpointScheduler on the virtual clock; "
                        + "estimators warmed up for %.0f h before the job starts", scale.neighbours(),
                        scale.lastFailures(), scale.warmUpSeconds() / 3600))
                .setting(String.format(Locale.ROOT, "a job still running at %.0f x its failure-free length is "
                        + "stopped; its relative runtime is then a lower bound (shown with >)", scale.capFactor()))
                .setting("'model, true μ' is Ni & Harwood's optimum from the true failure rate (no estimation): "
                        + "a reference, not in the paper");
        List<NiHarwoodJob.Policy> policies = policies();
        String[] headers = new String[policies.size() + 2];
        headers[0] = "point";
        headers[1] = "adaptive runtime (h)";
        for (int p = 0; p < policies.size(); p++) {
            headers[p + 2] = policies.get(p).name();
        }
        Table table = new Table("Relative runtime: policy / adaptive x 100% (mean over jobs)", headers);
        for (Row row : rows) {
            Object[] cells = new Object[headers.length];
            Scenario s = row.scenario();
            cells[0] = s.figure() + (s.figure().startsWith("Fig. 4")
                    ? String.format(Locale.ROOT, ", MTBF %.0f s", s.mtbfSeconds())
                    : s.figure().endsWith("left") ? String.format(Locale.ROOT, ", V %.0f s", s.overheadSeconds())
                    : String.format(Locale.ROOT, ", T_d %.0f s", s.downloadSeconds()));
            cells[1] = String.format(Locale.ROOT, "%.2f ± %.2f", row.mean(row.adaptive()) / 3600,
                    Stats.ci95(row.runtimes()[row.adaptive()]) / 3600);
            for (int p = 0; p < policies.size(); p++) {
                cells[p + 2] = row.relativeText(p);
            }
            table.row(cells);
            result.addEvents(row.events());
        }
        result.table(table);
        chart(result, rows, "Fig. 4 left", "fig4-left", "Fig. 4 left: constant failure rate", "peer MTBF (s)",
                s -> s.mtbfSeconds());
        chart(result, rows, "Fig. 4 right", "fig4-right", "Fig. 4 right: failure rate doubling every 20 h",
                "initial peer MTBF (s)", s -> s.mtbfSeconds());
        chart(result, rows, "Fig. 5 left", "fig5-left", "Fig. 5 left: checkpoint overhead V (MTBF 7200 s)",
                "checkpoint overhead V (s)", s -> s.overheadSeconds());
        chart(result, rows, "Fig. 5 right", "fig5-right", "Fig. 5 right: image download time T_d (MTBF 7200 s)",
                "image download time T_d (s)", s -> s.downloadSeconds());
        addFindings(result, rows, scale.workSeconds() / 3600);
        investigateDoubling(setup, scale, result, progress);
        return result;
    }

    static final double[] JOB_HOURS = {5, 10, 15, 20, 22.5, 25, 27.5, 30};

    /**
     * The paper's "3 times" for a 5-minute interval under a doubling rate depends on how long the job runs (the rate
     * keeps growing), which the paper does not state: sweep the job length.
     */
    private static void investigateDoubling(Setup setup, Scale scale, Result result, Progress progress)
            throws InterruptedException {
        Scenario scenario = new Scenario("Fig. 4 right", 7200, 20, 50, true);
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < JOB_HOURS.length; i++) {
            indexes.add(i);
        }
        List<NiHarwoodJob.Policy> policies = List.of(NiHarwoodJob.Policy.fixed(300),
                NiHarwoodJob.Policy.adaptivePolicy());
        List<double[]> means = Cells.map(indexes, setup.threads(), progress,
                i -> "doubling rate, job of " + JOB_HOURS[i] + " h", i -> 1.0, i -> {
                    Scale longer = new Scale(scale.peers(), JOB_HOURS[i] * 3600, scale.repetitions() / 2,
                            scale.neighbours(), scale.lastFailures(), scale.warmUpSeconds(), 4);
                    NiHarwoodJob.Setting setting = setting(longer, scenario);
                    double[] mean = new double[policies.size() + 1];
                    for (int p = 0; p < policies.size(); p++) {
                        for (int r = 0; r < longer.repetitions(); r++) {
                            NiHarwoodJob.Outcome outcome = NiHarwoodJob.run(setting, policies.get(p), setup,
                                    100 + i, r);
                            mean[p] += outcome.runtimeSeconds() / longer.repetitions();
                            mean[policies.size()] += outcome.finished() ? 0 : 1;
                        }
                    }
                    return mean;
                });
        Table table = new Table("Investigation: rate doubling every 20 h from MTBF 7200 s; 5-minute interval "
                + "against adaptive, by failure-free job length", "job length (h)", "adaptive runtime (h)",
                "5 min runtime (h)", "relative runtime", "jobs stopped at 4 x the length");
        double[] rel = new double[JOB_HOURS.length];
        for (int i = 0; i < JOB_HOURS.length; i++) {
            double[] m = means.get(i);
            rel[i] = 100 * m[0] / m[1];
            table.row(String.format(Locale.ROOT, "%.1f", JOB_HOURS[i]), String.format(Locale.ROOT, "%.2f",
                    m[1] / 3600), String.format(Locale.ROOT, "%.2f", m[0] / 3600),
                    (m[2] > 0 ? ">" : "") + String.format(Locale.ROOT, "%.0f%%", rel[i]),
                    String.format(Locale.ROOT, "%.0f", m[2]));
        }
        result.table(table);
        result.chart(Chart.lines("doubling-job-length", "Rate doubling from MTBF 7200 s: 5-min interval / adaptive",
                "failure-free job length (h)", "relative runtime (%)").add("5 min / adaptive", JOB_HOURS, rel));
    }

    private static double weight(Scenario s) {
        return (s.doubling() ? 3 : 1) * 7200 / s.mtbfSeconds();
    }

    private static void chart(Result result, List<Row> rows, String figure, String file, String title, String xLabel,
            java.util.function.ToDoubleFunction<Scenario> x) {
        List<Row> mine = rows.stream().filter(r -> r.scenario().figure().equals(figure)).toList();
        Chart chart = Chart.lines(file, title, xLabel, "relative runtime: fixed / adaptive (%)").logY();
        double[] xs = mine.stream().mapToDouble(r -> x.applyAsDouble(r.scenario())).toArray();
        List<NiHarwoodJob.Policy> policies = policies();
        for (int p = 0; p < policies.size(); p++) {
            int policy = p;
            chart.add(policies.get(p).name(), xs, mine.stream().mapToDouble(r -> r.relative(policy)).toArray());
        }
        result.chart(chart);
    }

    /**
     * The "3 times" is a size, not a direction: reproduced within 300% ± 75%, not reproduced otherwise (a ratio that
     * is merely above 100% says the adaptive scheme is faster, which another finding already covers).
     */
    static Result.Verdict threeTimesVerdict(double relativePercent) {
        return Math.abs(relativePercent - 300) <= 75 ? Result.Verdict.REPRODUCED : Result.Verdict.NOT_REPRODUCED;
    }

    private static void addFindings(Result result, List<Row> rows, double jobHours) {
        for (String figure : List.of("Fig. 4 left", "Fig. 4 right", "Fig. 5 left", "Fig. 5 right")) {
            int points = 0;
            int beaten = 0;
            double worst = Double.POSITIVE_INFINITY;
            String worstAt = "";
            for (Row row : rows) {
                if (!row.scenario().figure().equals(figure)) {
                    continue;
                }
                for (int p = 0; p < FIXED_SECONDS.length; p++) {
                    points++;
                    double rel = row.relative(p);
                    if (rel > 100) {
                        beaten++;
                    }
                    if (rel < worst) {
                        worst = rel;
                        worstAt = row.policies().get(p).name() + " at " + row.scenario().label()
                                .substring(figure.length() + 2);
                    }
                }
            }
            String claim = switch (figure) {
                case "Fig. 4 left" -> "adaptive beats every fixed interval at MTBF 4000, 7200, 14400 s";
                case "Fig. 4 right" -> "with the rate doubling every 20 h, adaptive beats fixed in almost all cases";
                case "Fig. 5 left" -> "adaptive beats every fixed interval for V from 10 to 100 s";
                default -> "adaptive beats every fixed interval for T_d from 10 to 200 s";
            };
            Result.Verdict verdict = beaten == points ? Result.Verdict.REPRODUCED
                    : figure.equals("Fig. 4 right") && beaten >= points - 2 ? Result.Verdict.REPRODUCED
                    : beaten >= points * 3 / 4 ? Result.Verdict.PARTLY : Result.Verdict.NOT_REPRODUCED;
            result.finding(claim, figure.equals("Fig. 4 right") ? "almost all" : "all points",
                    String.format(Locale.ROOT, "%d of %d fixed settings slower; closest: %.1f%% (%s)", beaten,
                            points, worst, worstAt), verdict);
        }
        rows.stream().filter(r -> r.scenario().figure().equals("Fig. 4 right") && r.scenario().mtbfSeconds() == 7200)
                .findFirst().ifPresent(row -> result.finding(
                        "rate doubling, initial MTBF 7200 s: 5-minute interval takes 3 x the adaptive runtime",
                        "about 300%", row.relativeText(0) + " for a job of " + String.format(Locale.ROOT, "%.0f",
                                jobHours) + " failure-free hours (the sweep below shows the length it takes)",
                        threeTimesVerdict(row.relative(0))));
    }
}
