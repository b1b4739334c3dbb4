package io.github.volpex.examples.reproduce;

import io.github.volpex.estimators.SurvivalFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Correlated, time-of-day outages of storage hosts, after Ren et al.'s remark that their testbed's failures cluster
 * between 11 AM and 10 PM, when a lab fills up: each day has a load {@code L} drawn uniformly in [0, 1], shared by
 * every host; host {@code i}, with its own propensity {@code ρ_i} (uniform in [0, 1]: quiet offices to a busy lab),
 * is reclaimed that day with probability {@code min(1, 2 ρ_i L)}, at a time uniform between 11:00 and 22:00, for an
 * exponential time of mean 3 hours cut at 22:00. Busy days take many hosts at once, which independent failures
 * rarely do.
 *
 * <p>The selectors are told each host's chance of a reclaim over the coming hours, as a per-host predictor that had
 * learnt the daily pattern would be: the host's propensity and the window, not the day's load (which no predictor
 * knows in advance).
 */
final class AfternoonOutages {

    static final double DAY = 86_400;
    static final double WINDOW_START = 11 * 3600;
    static final double WINDOW_END = 22 * 3600;
    static final double MEAN_OUTAGE = 3 * 3600;

    private final double[] propensity;

    private AfternoonOutages(double[] propensity) {
        this.propensity = propensity;
    }

    /** Draws the propensities of {@code hosts} storage hosts. */
    static AfternoonOutages draw(int hosts, SplittableRandom random) {
        double[] rho = new double[hosts];
        for (int i = 0; i < hosts; i++) {
            rho[i] = random.nextDouble();
        }
        return new AfternoonOutages(rho);
    }

    /**
     * Draws the outages of every day in {@code [0, horizon)}: returns {starts, ends}, each indexed by the host's place
     * in an availability of {@code firstHost + hosts} hosts (the first {@code firstHost}, compute hosts, have none).
     */
    double[][][] outages(int firstHost, double horizonSeconds, SplittableRandom random) {
        int hosts = propensity.length;
        List<List<double[]>> byHost = new ArrayList<>();
        for (int i = 0; i < hosts; i++) {
            byHost.add(new ArrayList<>());
        }
        for (double day = 0; day < horizonSeconds; day += DAY) {
            double load = random.nextDouble();
            for (int i = 0; i < hosts; i++) {
                if (random.nextDouble() < Math.min(1, 2 * propensity[i] * load)) {
                    double start = day + WINDOW_START + (WINDOW_END - WINDOW_START) * random.nextDouble();
                    double end = Math.min(day + WINDOW_END, start - MEAN_OUTAGE * Math.log(1 - random.nextDouble()));
                    byHost.get(i).add(new double[] {start, end});
                }
            }
        }
        double[][] starts = new double[firstHost + hosts][0];
        double[][] ends = new double[firstHost + hosts][0];
        for (int i = 0; i < hosts; i++) {
            starts[firstHost + i] = byHost.get(i).stream().mapToDouble(o -> o[0]).toArray();
            ends[firstHost + i] = byHost.get(i).stream().mapToDouble(o -> o[1]).toArray();
        }
        return new double[][][] {starts, ends};
    }

    /** The chance that host {@code i} is reclaimed on a day: {@code E[min(1, 2ρL)]} over the load. */
    double dailyProbability(int i) {
        double rho = propensity[i];
        return rho <= 0.5 ? rho : 1 - 1 / (4 * rho);
    }

    /**
     * The probability that host {@code i} is not reclaimed in {@code (now, now + t]}: over each day's window, one
     * minus its daily chance times the share of the window covered.
     */
    double survival(int i, double nowSeconds, double t) {
        double p = dailyProbability(i);
        double survive = 1;
        double end = nowSeconds + t;
        for (double day = Math.floor(nowSeconds / DAY) * DAY; day < end; day += DAY) {
            double overlap = Math.max(0, Math.min(end, day + WINDOW_END) - Math.max(nowSeconds, day + WINDOW_START));
            survive *= 1 - p * overlap / (WINDOW_END - WINDOW_START);
            if (survive == 0) {
                break;
            }
        }
        return survive;
    }

    /** A storage predictor: the host's conditional TR under {@code law} times its chance of no reclaim. */
    RenJob.StoragePredictor predictor(SurvivalFunction law) {
        return (i, now, age) -> {
            SurvivalFunction base = RenJob.conditional(law, age);
            return t -> base.survival(t) * survival(i, now, t);
        };
    }
}
