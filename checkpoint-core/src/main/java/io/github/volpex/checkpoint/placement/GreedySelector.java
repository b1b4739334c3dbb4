package io.github.volpex.checkpoint.placement;

import java.util.Objects;

/**
 * Ren's greedy (§4.4), guarded by the cheapest hosts; see {@link RepositorySelector#greedy()}.
 *
 * <p>The guard: the objective is a sum minus a product, and a myopic greedy that buys reliability one host at a time
 * can pay for reliable hosts and then have to add unreliable ones that ruin the product anyway. The {@code m + k}
 * cheapest hosts, already found for the bootstrap, are then the better answer; comparing the two costs {@code m + k}
 * evaluations.
 */
final class GreedySelector implements RepositorySelector {

    static final GreedySelector INSTANCE = new GreedySelector(true);
    /** The algorithm exactly as printed, without the guard: kept to measure what the guard buys. */
    static final GreedySelector AS_PRINTED = new GreedySelector(false);

    private final boolean guarded;

    private GreedySelector(boolean guarded) {
        this.guarded = guarded;
    }

    @Override
    public SelectionResult select(SelectionProblem problem) {
        Objects.requireNonNull(problem, "problem");
        Instance in = new Instance(problem);
        int[] chosen = choose(in, guarded);
        return in.result(chosen, chosen.length);
    }

    /**
     * The greedy's choice beyond the preselected hosts, in the order chosen. Marks hosts taken in {@code in}: callers
     * use the returned indices, not those marks.
     */
    static int[] choose(Instance in, boolean guarded) {
        int want = in.remaining;
        int[] chosen = new int[want];
        int count = 0;
        double weight = in.weight;
        double product = in.preselectedProduct();
        if (want == 0) {
            return chosen;
        }
        int[] cheapest = in.smallest(in.cost, want);
        if (weight != 0.0) {
            // Bootstrap: hosts in the top m + k of both rankings, in network-cost order.
            int[] reliable = in.smallest(in.fail, want);
            boolean[] inReliable = new boolean[in.size];
            for (int i : reliable) {
                inReliable[i] = true;
            }
            for (int i : cheapest) {
                if (inReliable[i]) {
                    chosen[count++] = i;
                    in.taken[i] = true;
                    product *= 1.0 - in.fail[i];
                }
            }
        } else {
            // Bypassed reliability: the objective is the network cost alone, and the cheapest hosts are optimal.
            return cheapest;
        }
        double[] cost = in.cost;
        double[] fail = in.fail;
        boolean[] taken = in.taken;
        boolean[] eligible = in.eligible;
        int size = in.size;
        while (count < want) {
            double scale = weight * product;
            int best = -1;
            double bestIncrease = Double.POSITIVE_INFINITY;
            for (int i = 0; i < size; i++) {
                if (taken[i] || !eligible[i]) {
                    continue;
                }
                double increase = cost[i] + scale * fail[i];
                // The first free host is taken even when its increase is +∞ (a network cost that overflows).
                if (best < 0 || increase < bestIncrease) {
                    bestIncrease = increase;
                    best = i;
                }
            }
            // The problem holds enough eligible hosts, so one is always free.
            chosen[count++] = best;
            taken[best] = true;
            product *= 1.0 - fail[best];
        }
        if (guarded && value(in, cheapest) < value(in, chosen)) {
            return cheapest;
        }
        return chosen;
    }

    /** The objective of the preselected hosts plus {@code chosen}, from the instance's arrays. */
    private static double value(Instance in, int[] chosen) {
        double sum = in.preselectedCost();
        double product = in.preselectedProduct();
        for (int i : chosen) {
            sum += in.cost[i];
            product *= 1.0 - in.fail[i];
        }
        return sum - in.weight * product;
    }

    @Override
    public String toString() {
        return "RepositorySelector.greedy()";
    }
}
