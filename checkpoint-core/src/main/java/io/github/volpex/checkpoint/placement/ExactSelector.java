package io.github.volpex.checkpoint.placement;

import java.util.Arrays;
import java.util.Objects;

/**
 * Depth-first branch and bound over the free eligible hosts sorted by weighted network cost; see
 * {@link RepositorySelector#exact()}.
 *
 * <p>The bound for completing a partial set {@code S} with {@code r} more hosts from the suffix {@code p…} is
 * {@code C_S + (the r smallest costs of the suffix) − B·Π_S·(the r largest survival probabilities of the suffix)}:
 * each part is optimised on its own, so no completion does better. Sorting by cost makes the first part a prefix
 * sum; the second is tabulated once per suffix. The greedy's answer is the first incumbent.
 */
final class ExactSelector implements RepositorySelector {

    static final ExactSelector INSTANCE = new ExactSelector();

    /** The most candidate subsets, {@code C(V', r)}, the solver accepts. */
    static final double MAX_SUBSETS = 1e9;

    private ExactSelector() {
    }

    @Override
    public SelectionResult select(SelectionProblem problem) {
        Objects.requireNonNull(problem, "problem");
        Instance in = new Instance(problem);
        int r = in.remaining;
        if (r == 0) {
            return in.result(new int[0], 0);
        }
        int[] free = in.freeEligible();
        double subsets = binomial(free.length, r);
        if (subsets > MAX_SUBSETS) {
            throw new IllegalArgumentException("exact selection must consider at most 1e9 subsets: C("
                    + free.length + ", " + r + ") = " + String.format("%.3g", subsets) + "; use greedy()");
        }
        Integer[] boxed = new Integer[free.length];
        for (int j = 0; j < free.length; j++) {
            boxed[j] = free[j];
        }
        Arrays.sort(boxed, (a, b) -> {
            int c = Double.compare(in.cost[a], in.cost[b]);
            return c != 0 ? c : Integer.compare(a, b);
        });
        Search search = new Search(in, boxed, r);
        // The greedy's answer is the first incumbent (on a copy: the greedy marks hosts taken).
        Instance greedyView = new Instance(problem);
        int[] greedy = GreedySelector.choose(greedyView, true);
        search.offer(greedy, in.preselectedCost(), in.preselectedProduct());
        search.run(0, 0, in.preselectedCost(), in.preselectedProduct());
        return in.result(search.best, r);
    }

    private static double binomial(int n, int r) {
        double c = 1.0;
        for (int i = 1; i <= r; i++) {
            c = c * (n - r + i) / i;
        }
        return c;
    }

    /** One branch-and-bound run. */
    private static final class Search {
        private final int[] order;
        private final double[] cost;
        private final double[] survive;
        private final double weight;
        private final int r;
        private final double[] prefix;
        /** {@code bestProduct[p][j]}: the product of the {@code j} largest survival probabilities in the suffix p. */
        private final double[][] bestProduct;
        private final int[] current;
        final int[] best;
        private double bestValue = Double.POSITIVE_INFINITY;

        Search(Instance in, Integer[] sorted, int r) {
            int n = sorted.length;
            this.order = new int[n];
            this.cost = new double[n];
            this.survive = new double[n];
            for (int j = 0; j < n; j++) {
                order[j] = sorted[j];
                cost[j] = in.cost[order[j]];
                survive[j] = 1.0 - in.fail[order[j]];
            }
            this.weight = in.weight;
            this.r = r;
            this.prefix = new double[n + 1];
            for (int j = 0; j < n; j++) {
                prefix[j + 1] = prefix[j] + cost[j];
            }
            this.bestProduct = new double[n + 1][r + 1];
            double[] top = new double[r];
            int held = 0;
            for (int p = n; p >= 0; p--) {
                if (p < n) {
                    // Insert survive[p] into the descending list of the r largest.
                    double s = survive[p];
                    int at = Math.min(held, r - 1);
                    if (held < r || s > top[r - 1]) {
                        while (at > 0 && top[at - 1] < s) {
                            top[at] = top[at - 1];
                            at--;
                        }
                        if (r > 0) {
                            top[at] = s;
                        }
                        held = Math.min(held + 1, r);
                    }
                }
                double product = 1.0;
                bestProduct[p][0] = 1.0;
                for (int j = 1; j <= r; j++) {
                    product = j <= held ? product * top[j - 1] : 0.0;
                    bestProduct[p][j] = product;
                }
            }
            this.current = new int[r];
            this.best = new int[r];
        }

        void offer(int[] hosts, double baseCost, double baseProduct) {
            double sum = baseCost;
            double product = baseProduct;
            for (int i = 0; i < hosts.length; i++) {
                int position = positionOf(hosts[i]);
                sum += cost[position];
                product *= survive[position];
            }
            bestValue = sum - weight * product;
            System.arraycopy(hosts, 0, best, 0, r);
        }

        private int positionOf(int host) {
            for (int j = 0; j < order.length; j++) {
                if (order[j] == host) {
                    return j;
                }
            }
            throw new AssertionError("host " + host + " is not free and eligible");
        }

        void run(int p, int chosen, double sum, double product) {
            int need = r - chosen;
            if (need == 0) {
                double value = sum - weight * product;
                if (value < bestValue) {
                    bestValue = value;
                    for (int j = 0; j < r; j++) {
                        best[j] = order[current[j]];
                    }
                }
                return;
            }
            if (order.length - p < need) {
                return;
            }
            double bound = sum + (prefix[p + need] - prefix[p]) - weight * product * bestProduct[p][need];
            if (bound >= bestValue) {
                return;
            }
            current[chosen] = p;
            run(p + 1, chosen + 1, sum + cost[p], product * survive[p]);
            run(p + 1, chosen, sum, product);
        }
    }

    @Override
    public String toString() {
        return "RepositorySelector.exact()";
    }
}
