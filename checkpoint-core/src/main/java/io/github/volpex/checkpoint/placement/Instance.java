package io.github.volpex.checkpoint.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link SelectionProblem} in arrays, as the solvers read it: per host the weighted network cost {@code w·N_i}
 * ({@code +∞} when the host has no room for a fragment) and the failure probability {@code q_i = 1 − TRS_i(τ)}.
 */
final class Instance {

    final SelectionProblem problem;
    final int size;
    /** {@code w·N_i} in seconds ({@code +∞} for an ineligible host, and possibly for an eligible one too). */
    final double[] cost;
    /** {@code true} for the hosts with room for a fragment. */
    final boolean[] eligible;
    /** {@code 1 − TRS_i(τ)}, computed without cancellation when the survival function allows. */
    final double[] fail;
    /** Preselected hosts, in the problem's order. */
    final int[] preselected;
    /** {@code true} for the preselected hosts. */
    final boolean[] taken;
    /** {@code B}, in seconds. */
    final double weight;
    /** How many hosts the solver must still choose. */
    final int remaining;

    Instance(SelectionProblem problem) {
        this.problem = problem;
        List<StorageHost> hosts = problem.hosts();
        this.size = hosts.size();
        this.cost = new double[size];
        this.fail = new double[size];
        this.eligible = new boolean[size];
        this.taken = new boolean[size];
        Objective objective = problem.objective();
        double networkWeight = objective.networkWeight();
        double horizon = objective.horizonSeconds();
        double fragment = problem.fragmentBytes();
        this.weight = objective.reliabilityWeightSeconds();
        boolean needReliability = weight != 0.0;
        for (int i = 0; i < size; i++) {
            StorageHost host = hosts.get(i);
            if (problem.isEligible(host)) {
                eligible[i] = true;
                // w = 0 ignores the network cost, even one that overflows to +∞ (0·∞ would be NaN).
                cost[i] = networkWeight == 0.0 ? 0.0 : networkWeight * (fragment / host.bandwidthBytesPerSecond());
                fail[i] = needReliability ? failure(host, horizon) : 0.0;
            } else {
                cost[i] = Double.POSITIVE_INFINITY;
                fail[i] = 1.0;
            }
        }
        List<String> pre = problem.preselected();
        this.preselected = new int[pre.size()];
        for (int j = 0; j < preselected.length; j++) {
            preselected[j] = problem.indexOf(pre.get(j));
            taken[preselected[j]] = true;
        }
        this.remaining = problem.hostsToSelect() - preselected.length;
    }

    private static double failure(StorageHost host, double horizonSeconds) {
        double q = host.reliability().conditionalFailure(0.0, horizonSeconds);
        if (!(q >= 0.0 && q <= 1.0)) {
            throw new IllegalArgumentException("reliability of host " + host.id() + " must give a failure "
                    + "probability in [0, 1] over " + horizonSeconds + " s: " + q);
        }
        return q;
    }

    boolean eligibleAndFree(int i) {
        return !taken[i] && eligible[i];
    }

    /** The indices of the free eligible hosts. */
    int[] freeEligible() {
        int[] out = new int[size];
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (eligibleAndFree(i)) {
                out[n++] = i;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** The product {@code Π (1 − q_i)} over the preselected hosts. */
    double preselectedProduct() {
        double product = 1.0;
        for (int i : preselected) {
            product *= 1.0 - fail[i];
        }
        return product;
    }

    /** The sum of {@code w·N_i} over the preselected hosts. */
    double preselectedCost() {
        double sum = 0.0;
        for (int i : preselected) {
            sum += cost[i];
        }
        return sum;
    }

    /** Evaluates the preselected hosts followed by the first {@code count} of {@code chosen}. */
    SelectionResult result(int[] chosen, int count) {
        return resultOf(problem, chosen, count);
    }

    /** Evaluates, for {@code problem}, its preselected hosts followed by the first {@code count} of {@code chosen}. */
    static SelectionResult resultOf(SelectionProblem problem, int[] chosen, int count) {
        List<StorageHost> hosts = problem.hosts();
        List<String> pre = problem.preselected();
        List<StorageHost> selection = new ArrayList<>(pre.size() + count);
        for (String id : pre) {
            selection.add(hosts.get(problem.indexOf(id)));
        }
        for (int j = 0; j < count; j++) {
            selection.add(hosts.get(chosen[j]));
        }
        return problem.evaluate(selection);
    }

    /**
     * Returns the {@code count} free eligible hosts with the smallest {@code key}, ascending (ties by index), in
     * {@code O(V log count)} with a bounded max-heap.
     */
    int[] smallest(double[] key, int count) {
        if (count == 0) {
            return new int[0];
        }
        int[] heap = new int[count];
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (!eligibleAndFree(i)) {
                continue;
            }
            if (n < count) {
                heap[n] = i;
                siftUp(heap, n, key);
                n++;
            } else if (before(i, heap[0], key)) {
                heap[0] = i;
                siftDown(heap, n, key);
            }
        }
        int[] out = Arrays.copyOf(heap, n);
        // Heap-sort in place: repeatedly move the largest to the end.
        for (int end = n - 1; end > 0; end--) {
            int top = out[0];
            out[0] = out[end];
            out[end] = top;
            siftDown(out, end, key);
        }
        return out;
    }

    /** {@code a} orders before {@code b}: smaller key, then smaller index. */
    private static boolean before(int a, int b, double[] key) {
        int c = Double.compare(key[a], key[b]);
        return c < 0 || (c == 0 && a < b);
    }

    private static void siftUp(int[] heap, int at, double[] key) {
        int item = heap[at];
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (!before(heap[parent], item, key)) {
                break;
            }
            heap[at] = heap[parent];
            at = parent;
        }
        heap[at] = item;
    }

    private static void siftDown(int[] heap, int n, double[] key) {
        int at = 0;
        int item = heap[0];
        while (true) {
            int child = 2 * at + 1;
            if (child >= n) {
                break;
            }
            if (child + 1 < n && before(heap[child], heap[child + 1], key)) {
                child++;
            }
            if (!before(item, heap[child], key)) {
                break;
            }
            heap[at] = heap[child];
            at = child;
        }
        heap[at] = item;
    }
}
