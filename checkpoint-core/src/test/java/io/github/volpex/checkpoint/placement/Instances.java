package io.github.volpex.checkpoint.placement;

import io.github.volpex.estimators.SurvivalFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Random selection problems for tests, reproducible from a seed. */
final class Instances {

    private Instances() {
    }

    /** A Weibull survival function {@code exp(−(t/scale)^shape)}. */
    static SurvivalFunction weibull(double scaleSeconds, double shape) {
        return SurvivalFunction.weibull(shape, scaleSeconds);
    }

    static double logUniform(SplittableRandom random, double low, double high) {
        return Math.exp(Math.log(low) + random.nextDouble() * (Math.log(high) - Math.log(low)));
    }

    /** {@code v} hosts: bandwidths 10^5..10^8 B/s, exponential or Weibull reliabilities with MTTF 10^3..10^6 s. */
    static List<StorageHost> hosts(SplittableRandom random, int v, boolean withCapacity) {
        List<StorageHost> hosts = new ArrayList<>(v);
        for (int i = 0; i < v; i++) {
            double bandwidth = logUniform(random, 1e5, 1e8);
            double mttf = logUniform(random, 1e3, 1e6);
            SurvivalFunction reliability = random.nextBoolean()
                    ? SurvivalFunction.exponential(1.0 / mttf)
                    : weibull(mttf, 0.5 + 2.5 * random.nextDouble());
            hosts.add(withCapacity
                    ? StorageHost.of("h" + i, bandwidth, reliability, random.nextLong(1, 1L << 32))
                    : StorageHost.of("h" + i, bandwidth, reliability));
        }
        return hosts;
    }

    /** An optimistic or pessimistic objective whose two terms are of comparable size for {@link #hosts}. */
    static Objective objective(SplittableRandom random) {
        if (random.nextBoolean()) {
            return Objective.optimistic(logUniform(random, 1e3, 1e5), logUniform(random, 6e2, 2e4),
                    logUniform(random, 1e2, 1e6));
        }
        return Objective.pessimistic(logUniform(random, 6e2, 2e4), logUniform(random, 1e2, 1e6),
                random.nextDouble());
    }

    /** A problem with {@code m + k ≤ maxSelected} and {@code V ≤ maxHosts}. */
    static SelectionProblem problem(long seed, int maxHosts, int maxSelected) {
        SplittableRandom random = new SplittableRandom(seed);
        int m = 1 + random.nextInt(Math.min(6, maxSelected));
        int k = random.nextInt(Math.min(4, maxSelected - m) + 1);
        int v = m + k + random.nextInt(maxHosts - m - k + 1);
        long bytes = (long) logUniform(random, 1e6, 1e9);
        return SelectionProblem.of(bytes, m, k, hosts(random, v, false), objective(random));
    }

    /** A problem with exactly {@code v} hosts, {@code m} and {@code k}. */
    static SelectionProblem problem(long seed, int v, int m, int k) {
        SplittableRandom random = new SplittableRandom(seed);
        long bytes = (long) logUniform(random, 1e6, 1e9);
        return SelectionProblem.of(bytes, m, k, hosts(random, v, false), objective(random));
    }

    /** The expected cost {@code w·N + B·(1 − Π)} of a result: the objective shifted to be non-negative. */
    static double expectedCost(SelectionProblem problem, SelectionResult result) {
        return result.objectiveValue() + problem.objective().reliabilityWeightSeconds();
    }

    /** The optimum by enumerating every subset that contains the preselected hosts. */
    static double bruteForceMinimum(SelectionProblem problem) {
        List<StorageHost> free = new ArrayList<>();
        List<StorageHost> fixed = new ArrayList<>();
        for (String id : problem.preselected()) {
            fixed.add(problem.hosts().stream().filter(h -> h.id().equals(id)).findFirst().orElseThrow());
        }
        for (StorageHost host : problem.hosts()) {
            if (problem.isEligible(host) && !problem.preselected().contains(host.id())) {
                free.add(host);
            }
        }
        int r = problem.hostsToSelect() - fixed.size();
        double[] best = {Double.POSITIVE_INFINITY};
        enumerate(problem, free, fixed, 0, r, best);
        return best[0];
    }

    private static void enumerate(SelectionProblem problem, List<StorageHost> free, List<StorageHost> chosen,
                                  int from, int need, double[] best) {
        if (need == 0) {
            best[0] = Math.min(best[0], problem.evaluate(chosen).objectiveValue());
            return;
        }
        for (int i = from; i <= free.size() - need; i++) {
            chosen.add(free.get(i));
            enumerate(problem, free, chosen, i + 1, need - 1, best);
            chosen.remove(chosen.size() - 1);
        }
    }

    /**
     * The exact expected objective of a uniformly random selection (no preselected hosts): {@code E[N]} is
     * {@code K} times the mean fragment time and {@code E[Π]} is the elementary symmetric polynomial {@code e_K} of the
     * survival probabilities divided by {@code C(V, K)}.
     */
    static double uniformRandomMean(SelectionProblem problem) {
        List<StorageHost> eligible = problem.hosts().stream().filter(problem::isEligible).toList();
        int v = eligible.size();
        int kk = problem.hostsToSelect();
        double tau = problem.objective().horizonSeconds();
        double meanTime = 0.0;
        // e[j] / C(i, j) after i hosts: the mean product over j-subsets of the first i hosts, a stable recurrence.
        double[] mean = new double[kk + 1];
        mean[0] = 1.0;
        for (int i = 1; i <= v; i++) {
            StorageHost host = eligible.get(i - 1);
            meanTime += problem.fragmentBytes() / host.bandwidthBytesPerSecond();
            double s = host.reliability().survival(tau);
            for (int j = Math.min(i, kk); j >= 1; j--) {
                // E_i[j] = (j/i)·s·E_{i−1}[j−1] + ((i−j)/i)·E_{i−1}[j]
                mean[j] = (double) j / i * s * mean[j - 1] + (double) (i - j) / i * mean[j];
            }
        }
        meanTime /= v;
        Objective objective = problem.objective();
        return objective.value(kk * meanTime, mean[kk]);
    }
}
