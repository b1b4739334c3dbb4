package io.github.volpex.examples.reproduce;

import io.github.volpex.erasure.Fragment;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.examples.report.Chart;
import io.github.volpex.examples.report.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * de Camargo, Castor and Kon, Table 1: files stored with IDA(6, n) in an opportunistic grid of 30 clusters, 10% of
 * the machines departing per day for a month, lost fragments rebuilt by the reconstruction protocol (threshold t) or
 * from the local fragment copy; the fraction of files recoverable at the end.
 *
 * <p>Every file holds real bytes: fragments are made by {@link IdaCodec#systematic(int, int)}, lost ones rebuilt with
 * {@link IdaCodec#decodeMissing}, and a file counts as recovered only if {@link IdaCodec#decode} of fragments read
 * from machines that are idle at the request returns its exact bytes.
 */
final class DeCamargoExperiment implements Experiment {

    static final int K = 6;
    static final double DAY = 86_400;
    private static final double[][] PATTERNS = {{0.60, 0.80}, {0.25, 0.40}, {0.40, 0.70}};
    private static final int[] CLUSTER_SIZES = {10, 20, 50, 100, 200};
    private static final int CLUSTERS = 30;
    private static final int PAYLOAD_BYTES = 36;
    /** How far from the paper's value a fraction may be and still count as reproduced. */
    static final double TOLERANCE = 0.10;

    /** One storage configuration: IDA(6, n) with a reconstruction threshold, or with the local fragment copy. */
    record Config(int n, int threshold, boolean localCopy, double paper) {
        String label() {
            return "IDA(6," + n + ") " + (localCopy ? "fc" : "t=" + threshold);
        }
    }

    /** How the protocol is modelled: the primary reading first, the others as the investigation of the gaps. */
    enum Reading {
        /**
         * Rebuild as soon as fewer than t fragments remain, reading k of them from any holder still in the grid; the
         * local copy is refreshed at once, and the two copies of a fragment are idle independently.
         */
        PRIMARY("fewer than t left; repair reads any holder in the grid"),
        /** As primary, but the repair must read k fragments from holders idle at that moment (else it waits). */
        REPAIR_NEEDS_IDLE("repair reads only idle holders"),
        /** As primary, but the repair starts when t or fewer fragments remain ("the threshold was reached"). */
        AT_THRESHOLD("repair at t or fewer left"),
        /** Local copy only: the two copies of a fragment (same cluster) are idle or busy together. */
        COPIES_TOGETHER("the two copies are idle together"),
        /** No departures at all: retrieval at random times in the month (the paper's Fig. 3 setting). */
        NO_DEPARTURES("no departures, retrieval at random times");

        final String text;

        Reading(String text) {
            this.text = text;
        }

        boolean appliesTo(Config config) {
            return switch (this) {
                case PRIMARY -> true;
                case REPAIR_NEEDS_IDLE, AT_THRESHOLD -> !config.localCopy();
                case COPIES_TOGETHER -> config.localCopy();
                case NO_DEPARTURES -> !config.localCopy() && config.threshold() == 9;
            };
        }
    }

    static final List<Config> CONFIGS = List.of(
            new Config(12, 9, false, 0.45133), new Config(12, 0, true, 0.84733),
            new Config(18, 9, false, 0.73833), new Config(18, 12, false, 0.87500),
            new Config(18, 15, false, 0.95867), new Config(18, 0, true, 1.00000),
            new Config(24, 9, false, 0.88100), new Config(24, 12, false, 0.92933),
            new Config(24, 15, false, 0.99733), new Config(24, 0, true, 1.00000));

    /** The grid of one repetition's size, departures and idleness. */
    record Scale(int files, int repetitions, double days, double departuresPerDay) {
    }

    /** One simulated month: a configuration, a reading of the protocol and a repetition. */
    private record Cell(Config config, Reading reading, int repetition) {
    }

    @Override
    public String name() {
        return "de-camargo";
    }

    @Override
    public String title() {
        return "de Camargo, Castor & Kon, Table 1: file availability after a month of 10%/day departures";
    }

    @Override
    public double estimatedSeconds(Setup setup) {
        return setup.quick() ? 3 : 45;
    }

    static Scale scale(Setup setup) {
        return setup.quick() ? new Scale(400, 3, 30, 0.10) : new Scale(3000, 12, 30, 0.10);
    }

    /** The outcome of one configuration in one repetition. */
    record Outcome(int recovered, int files, long repairs, long events) {
        double fraction() {
            return recovered / (double) files;
        }
    }

    @Override
    public Result run(Setup setup, Progress progress) throws InterruptedException {
        Scale scale = scale(setup);
        List<Cell> cells = new ArrayList<>();
        for (Reading reading : Reading.values()) {
            for (Config config : CONFIGS) {
                if (!reading.appliesTo(config)) {
                    continue;
                }
                for (int r = 0; r < scale.repetitions(); r++) {
                    cells.add(new Cell(config, reading, r));
                }
            }
        }
        List<Outcome> outcomes = Cells.map(cells, setup.threads(), progress,
                c -> c.config().label() + ", " + c.reading().name().toLowerCase(Locale.ROOT) + ", run "
                        + (c.repetition() + 1),
                c -> c.config().n(), c -> simulate(setup, scale, c.config(), c.reading(), c.repetition()));

        Result result = new Result(this);
        result.setting(String.format(Locale.ROOT, "grid: %d clusters of 10/20/50/100/200 machines, idle patterns "
                + "60/80%%, 25/40%%, 40/70%% (day/night and weekends), 24 time zones, disks 1-10 GB or 20-50 GB",
                CLUSTERS))
                .setting(String.format(Locale.ROOT, "%d files of %d bytes, %.0f days, %.0f%% of machines depart per "
                        + "day (replaced at once in a random cluster), %d repetitions with different grids",
                        scale.files(), PAYLOAD_BYTES, scale.days(), 100 * scale.departuresPerDay(),
                        scale.repetitions()))
                .setting("codec: IdaCodec.systematic(6, n - 6); repairs with decodeMissing, final reads with decode");

        Table table = new Table("Fraction of files recoverable after a month (mean ± sd over runs)", "IDA",
                "t / fc", "paper", "ours", "ours - paper", "repair reads only idle holders",
                "repair at t or fewer left", "the two copies idle together");
        Table baseline = new Table("No departures: fraction of retrievals that succeed at random times (Fig. 3 "
                + "setting)", "IDA", "paper", "ours");
        int ok = 0;
        int within = 0;
        double[] paperValues = new double[CONFIGS.size()];
        double[] ourValues = new double[CONFIGS.size()];
        for (int i = 0; i < CONFIGS.size(); i++) {
            Config config = CONFIGS.get(i);
            double[] primary = fractions(cells, outcomes, config, Reading.PRIMARY);
            double[] needsIdle = fractions(cells, outcomes, config, Reading.REPAIR_NEEDS_IDLE);
            double[] atThreshold = fractions(cells, outcomes, config, Reading.AT_THRESHOLD);
            double[] together = fractions(cells, outcomes, config, Reading.COPIES_TOGETHER);
            double mean = Stats.mean(primary);
            paperValues[i] = config.paper();
            ourValues[i] = mean;
            if (Math.abs(mean - config.paper()) <= TOLERANCE) {
                within++;
            }
            ok++;
            table.row("(6," + config.n() + ")", config.localCopy() ? "fc" : "t = " + config.threshold(),
                    String.format(Locale.ROOT, "%.5f", config.paper()), Stats.meanSd(primary, 3),
                    String.format(Locale.ROOT, "%+.3f", mean - config.paper()),
                    needsIdle.length == 0 ? "-" : Stats.meanSd(needsIdle, 3),
                    atThreshold.length == 0 ? "-" : Stats.meanSd(atThreshold, 3),
                    together.length == 0 ? "-" : Stats.meanSd(together, 3));
        }
        for (int n : new int[] {12, 18, 24}) {
            Config config = CONFIGS.stream().filter(c -> c.n() == n && c.threshold() == 9).findFirst().orElseThrow();
            double[] none = fractions(cells, outcomes, config, Reading.NO_DEPARTURES);
            baseline.row("(6," + n + ")", n == 18 ? "0.993" : "(chart only)", Stats.meanSd(none, 3));
        }
        result.table(table).table(baseline);
        long events = outcomes.stream().mapToLong(Outcome::events).sum();
        result.addEvents(events);

        List<String> categories = CONFIGS.stream().map(c -> "(6," + c.n() + ") " + (c.localCopy() ? "fc"
                : "t" + c.threshold())).toList();
        result.chart(Chart.bars("table1", "de Camargo Table 1: files recoverable after a month",
                "IDA(k, n) and threshold t or local copy fc", "fraction recoverable", categories)
                .add("paper", paperValues).add("ours", ourValues));

        addFindings(result, ourValues, within, ok);
        return result;
    }

    private static void addFindings(Result result, double[] ours, int within, int total) {
        boolean thresholdMonotone = ours[2] < ours[3] && ours[3] < ours[4] && ours[6] < ours[7] && ours[7] < ours[8];
        boolean moreFragments = ours[0] < ours[2] && ours[2] < ours[6] && ours[3] < ours[7] && ours[4] < ours[8];
        boolean copyBest = ours[1] > ours[0] && ours[5] >= ours[4] && ours[9] >= ours[8];
        result.finding("availability rises with the threshold t", "t = 9 < 12 < 15 for n = 18 and 24",
                thresholdMonotone ? "yes, for n = 18 and 24" : "no",
                thresholdMonotone ? Result.Verdict.REPRODUCED : Result.Verdict.NOT_REPRODUCED);
        result.finding("availability rises with the number of fragments n", "n = 12 < 18 < 24 at equal t",
                moreFragments ? "yes, at every t" : "no",
                moreFragments ? Result.Verdict.REPRODUCED : Result.Verdict.NOT_REPRODUCED);
        result.finding("the local fragment copy is the most available", "fc ≥ every threshold for each n",
                copyBest ? "yes, for each n" : "no",
                copyBest ? Result.Verdict.REPRODUCED : Result.Verdict.NOT_REPRODUCED);
        result.finding("IDA(6,18), t = 15", "0.95867", String.format(Locale.ROOT, "%.3f", ours[4]),
                Math.abs(ours[4] - 0.95867) <= 0.05 ? Result.Verdict.REPRODUCED : Result.Verdict.NOT_REPRODUCED);
        result.finding("each value of Table 1 within " + TOLERANCE, "10 values",
                within + " of " + total + " within " + TOLERANCE,
                within == total ? Result.Verdict.REPRODUCED
                        : within >= total / 2 ? Result.Verdict.PARTLY : Result.Verdict.NOT_REPRODUCED);
    }

    private static double[] fractions(List<Cell> cells, List<Outcome> outcomes, Config config, Reading reading) {
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
            Cell cell = cells.get(i);
            if (cell.config().equals(config) && cell.reading() == reading) {
                values.add(outcomes.get(i).fraction());
            }
        }
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** Simulates one configuration over one repetition's grid and departures. */
    static Outcome simulate(Setup setup, Scale scale, Config config, Reading reading, int repetition) {
        return new Run(setup, scale, config, reading, repetition).execute();
    }

    /** The state of one simulated month. */
    private static final class Run {
        private final Scale scale;
        private final Config config;
        private final Reading reading;
        private final IdaCodec codec;
        private final SplittableRandom gridRandom;
        private final SplittableRandom departureRandom;
        private final SplittableRandom placementRandom;
        private final SplittableRandom idleRandom;
        private final double[] idleDay = new double[CLUSTERS];
        private final double[] idleNight = new double[CLUSTERS];
        private final int[] zoneHours = new int[CLUSTERS];
        private final double[] diskLo = new double[CLUSTERS];
        private final double[] diskHi = new double[CLUSTERS];
        private final double[] clusterWeight = new double[CLUSTERS];
        private final IntList[] members = new IntList[CLUSTERS];
        private int[] clusterOf = new int[4096];
        private int[] position = new int[4096];
        private double[] weight = new double[4096];
        private boolean[] alive = new boolean[4096];
        private IntList[] holdings = new IntList[4096];
        private int machines;
        private int aliveCount;
        private final byte[][] payloads;
        private final Fragment[][] fragments;
        private final int[][] holder;
        private final int[][] copyHolder;
        private final boolean[] lost;
        private long repairs;

        Run(Setup setup, Scale scale, Config config, Reading reading, int repetition) {
            this.scale = scale;
            this.config = config;
            this.reading = reading;
            this.codec = IdaCodec.systematic(K, config.n() - K);
            this.gridRandom = setup.random("de-camargo/grid", repetition);
            this.departureRandom = setup.random("de-camargo/departures", repetition);
            this.placementRandom = setup.random("de-camargo/placement", repetition, config.n(), config.threshold(),
                    config.localCopy() ? 1 : 0);
            this.idleRandom = setup.random("de-camargo/idle", repetition, config.n(), config.threshold(),
                    reading.ordinal());
            SplittableRandom dataRandom = setup.random("de-camargo/data", repetition);
            payloads = new byte[scale.files()][PAYLOAD_BYTES];
            for (byte[] payload : payloads) {
                dataRandom.nextBytes(payload);
            }
            fragments = new Fragment[scale.files()][];
            holder = new int[scale.files()][config.n()];
            copyHolder = config.localCopy() ? new int[scale.files()][config.n()] : null;
            lost = new boolean[scale.files()];
        }

        Outcome execute() {
            buildGrid();
            for (int f = 0; f < payloads.length; f++) {
                fragments[f] = codec.encode(payloads[f]).toArray(new Fragment[0]);
                boolean[] used = new boolean[machines];
                for (int s = 0; s < config.n(); s++) {
                    place(f, s, used);
                }
            }
            Simulation sim = new Simulation(0);
            double end = scale.days() * DAY;
            if (reading == Reading.NO_DEPARTURES) {
                int successes = 0;
                int trials = 0;
                for (int f = 0; f < payloads.length; f++) {
                    for (int trial = 0; trial < 4; trial++) {
                        double at = idleRandom.nextDouble() * end;
                        trials++;
                        if (recoverable(f, at)) {
                            successes++;
                        }
                    }
                }
                return new Outcome((int) Math.round(successes * (payloads.length / (double) trials)),
                        payloads.length, 0, 0);
            }
            scheduleDeparture(sim, end);
            sim.run(end);
            int recovered = 0;
            for (int f = 0; f < payloads.length; f++) {
                if (!lost[f] && recoverable(f, end)) {
                    recovered++;
                }
            }
            return new Outcome(recovered, payloads.length, repairs, sim.eventsRun());
        }

        private void buildGrid() {
            for (int c = 0; c < CLUSTERS; c++) {
                double[] pattern = PATTERNS[gridRandom.nextInt(PATTERNS.length)];
                idleDay[c] = pattern[0];
                idleNight[c] = pattern[1];
                zoneHours[c] = gridRandom.nextInt(24);
                boolean small = c % 2 == 0;
                diskLo[c] = small ? 1 : 20;
                diskHi[c] = small ? 10 : 50;
                members[c] = new IntList(256);
                int size = CLUSTER_SIZES[gridRandom.nextInt(CLUSTER_SIZES.length)];
                for (int i = 0; i < size; i++) {
                    addMachine(c, gridRandom);
                }
            }
        }

        private void addMachine(int cluster, SplittableRandom random) {
            if (machines == clusterOf.length) {
                int capacity = machines * 2;
                clusterOf = Arrays.copyOf(clusterOf, capacity);
                position = Arrays.copyOf(position, capacity);
                weight = Arrays.copyOf(weight, capacity);
                alive = Arrays.copyOf(alive, capacity);
                holdings = Arrays.copyOf(holdings, capacity);
            }
            int m = machines++;
            clusterOf[m] = cluster;
            alive[m] = true;
            aliveCount++;
            position[m] = members[cluster].size();
            members[cluster].add(m);
            // capacity: mean availability times free disk (de Camargo §3, virtual ids)
            double meanIdle = (idleDay[cluster] * 50 + idleNight[cluster] * 118) / 168;
            weight[m] = meanIdle * (diskLo[cluster] + random.nextDouble() * (diskHi[cluster] - diskLo[cluster]));
            clusterWeight[cluster] += weight[m];
            holdings[m] = new IntList(8);
        }

        private void removeMachine(int m) {
            alive[m] = false;
            aliveCount--;
            int c = clusterOf[m];
            int moved = members[c].swapRemove(position[m]);
            if (moved >= 0) {
                position[moved] = position[m];
            }
            clusterWeight[c] -= weight[m];
        }

        /** Picks a cluster with probability proportional to its capacity, then a machine in it not in {@code used}. */
        private int pickMachine(boolean[] used, int cluster) {
            int c = cluster;
            if (c < 0) {
                double total = 0;
                for (double w : clusterWeight) {
                    total += w;
                }
                double x = placementRandom.nextDouble() * total;
                c = 0;
                while (c < CLUSTERS - 1 && (x -= clusterWeight[c]) > 0) {
                    c++;
                }
            }
            IntList list = members[c];
            for (int attempt = 0; attempt < 64; attempt++) {
                int m = list.get(placementRandom.nextInt(list.size()));
                if (used == null || m >= used.length || !used[m]) {
                    return m;
                }
            }
            return pickMachine(used, -1);
        }

        private void place(int f, int s, boolean[] used) {
            int m = pickMachine(used, -1);
            holder[f][s] = m;
            holdings[m].add(f * 64 + s * 2);
            if (used != null && m < used.length) {
                used[m] = true;
            }
            if (copyHolder != null) {
                int second = pickCopy(m, used);
                copyHolder[f][s] = second;
                holdings[second].add(f * 64 + s * 2 + 1);
                if (used != null && second < used.length) {
                    used[second] = true;
                }
            }
        }

        private int pickCopy(int first, boolean[] used) {
            IntList list = members[clusterOf[first]];
            for (int attempt = 0; attempt < 64; attempt++) {
                int m = list.get(placementRandom.nextInt(list.size()));
                if (m != first && (used == null || m >= used.length || !used[m])) {
                    return m;
                }
            }
            return first;
        }

        private void scheduleDeparture(Simulation sim, double end) {
            double rate = scale.departuresPerDay() / DAY * aliveCount;
            double next = sim.now() - Math.log(1 - departureRandom.nextDouble()) / rate;
            if (next < end) {
                sim.at(next, () -> {
                    depart(sim.now());
                    scheduleDeparture(sim, end);
                });
            }
        }

        private void depart(double now) {
            // a uniformly random machine of the grid: pick by index over all live machines
            int index = departureRandom.nextInt(aliveCount);
            int cluster = 0;
            while (index >= members[cluster].size()) {
                index -= members[cluster].size();
                cluster++;
            }
            int m = members[cluster].get(index);
            removeMachine(m);
            addMachine(departureRandom.nextInt(CLUSTERS), departureRandom);
            IntList held = holdings[m];
            List<Integer> touched = new ArrayList<>();
            for (int i = 0; i < held.size(); i++) {
                int ref = held.get(i);
                int f = ref / 64;
                int s = (ref % 64) / 2;
                boolean copy = (ref & 1) == 1;
                if (lost[f]) {
                    continue;
                }
                if (copyHolder != null) {
                    int[] mine = copy ? copyHolder[f] : holder[f];
                    int[] other = copy ? holder[f] : copyHolder[f];
                    if (mine[s] != m) {
                        continue;
                    }
                    if (other[s] >= 0 && alive[other[s]]) {
                        int fresh = pickCopy(other[s], null);
                        if (fresh == other[s]) {
                            mine[s] = -1;
                        } else {
                            mine[s] = fresh;
                            holdings[fresh].add(f * 64 + s * 2 + (copy ? 1 : 0));
                        }
                    } else {
                        mine[s] = -1;
                    }
                } else if (holder[f][s] == m) {
                    holder[f][s] = -1;
                    touched.add(f);
                }
            }
            held.clear();
            for (int f : touched) {
                maybeRepair(f, now);
            }
        }

        private void maybeRepair(int f, double now) {
            int live = 0;
            for (int s = 0; s < config.n(); s++) {
                if (holder[f][s] >= 0) {
                    live++;
                }
            }
            if (live < K) {
                lost[f] = true;
                return;
            }
            boolean due = reading == Reading.AT_THRESHOLD ? live <= config.threshold() : live < config.threshold();
            if (!due) {
                return;
            }
            List<Fragment> readable = new ArrayList<>(K);
            IntList missing = new IntList(config.n());
            for (int s = 0; s < config.n(); s++) {
                int m = holder[f][s];
                if (m < 0) {
                    missing.add(s);
                } else if (readable.size() < K && (reading != Reading.REPAIR_NEEDS_IDLE || idle(m, now))) {
                    readable.add(fragments[f][s]);
                }
            }
            if (readable.size() < K) {
                return; // retried at the next notification for this file
            }
            int[] indexes = new int[missing.size()];
            for (int i = 0; i < indexes.length; i++) {
                indexes[i] = missing.get(i);
            }
            List<Fragment> rebuilt = codec.decodeMissing(readable, indexes);
            boolean[] used = new boolean[machines];
            for (int s = 0; s < config.n(); s++) {
                if (holder[f][s] >= 0) {
                    used[holder[f][s]] = true;
                }
            }
            for (int i = 0; i < indexes.length; i++) {
                fragments[f][indexes[i]] = rebuilt.get(i);
                place(f, indexes[i], used);
            }
            repairs++;
        }

        private boolean idle(int m, double now) {
            int c = clusterOf[m];
            double local = now + zoneHours[c] * 3600.0;
            long day = (long) Math.floor(local / DAY);
            double hour = (local - day * DAY) / 3600.0;
            boolean weekday = Math.floorMod(day, 7) < 5;
            boolean working = weekday && hour >= 8 && hour < 18;
            return idleRandom.nextDouble() < (working ? idleDay[c] : idleNight[c]);
        }

        private boolean recoverable(int f, double now) {
            List<Fragment> readable = new ArrayList<>(K);
            for (int s = 0; s < config.n() && readable.size() < K; s++) {
                boolean first = holder[f][s] >= 0 && idle(holder[f][s], now);
                boolean second = !first && copyHolder != null && copyHolder[f][s] >= 0
                        && (reading == Reading.COPIES_TOGETHER ? holder[f][s] < 0 && idle(copyHolder[f][s], now)
                                : idle(copyHolder[f][s], now));
                if (first || second) {
                    readable.add(fragments[f][s]);
                }
            }
            if (readable.size() < K) {
                return false;
            }
            byte[] back = codec.decode(readable);
            if (!Arrays.equals(back, payloads[f])) {
                throw new IllegalStateException("file " + f + " decoded to different bytes");
            }
            return true;
        }
    }
}
