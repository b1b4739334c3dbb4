package io.github.volpex.checkpoint.placement;

import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Uniform random selection (Ren §7.2's baseline) and capacity-proportional selection (de Camargo §4.2); see
 * {@link RepositorySelector#uniformRandom} and {@link RepositorySelector#capacityProportional}.
 */
final class RandomSelector implements RepositorySelector {

    private final RandomGenerator random;
    private final boolean byCapacity;

    RandomSelector(RandomGenerator random, boolean byCapacity) {
        this.random = random;
        this.byCapacity = byCapacity;
    }

    @Override
    public SelectionResult select(SelectionProblem problem) {
        Objects.requireNonNull(problem, "problem");
        // Only eligibility matters here: a zero objective spares the survival functions.
        Instance in = new Instance(problem.withObjective(Objective.of(0.0, 0.0, 0.0)));
        int[] free = in.freeEligible();
        int[] chosen = byCapacity ? byCapacity(in, free) : uniform(free, in.remaining);
        return Instance.resultOf(problem, chosen, chosen.length);
    }

    /** Floyd's sampling of {@code r} distinct positions of {@code free}: every subset equally likely, O(r). */
    private int[] uniform(int[] free, int r) {
        Set<Integer> picked = new HashSet<>();
        int[] chosen = new int[r];
        int count = 0;
        for (int j = free.length - r; j < free.length; j++) {
            int t = random.nextInt(j + 1);
            int position = picked.add(t) ? t : j;
            if (position == j) {
                picked.add(j);
            }
            chosen[count++] = free[position];
        }
        return chosen;
    }

    /**
     * Efraimidis–Spirakis: host {@code i} gets the key {@code ln(u_i)/c_i} with {@code u_i} uniform in (0, 1]; the
     * {@code r} largest keys are a draw without replacement with probabilities proportional to the capacities.
     */
    private int[] byCapacity(Instance in, int[] free) {
        SelectionProblem problem = in.problem;
        double[] negatedKey = new double[problem.hosts().size()];
        for (int i : free) {
            StorageHost host = problem.hosts().get(i);
            if (host.capacityBytes().isEmpty()) {
                throw new IllegalArgumentException(
                        "capacity-proportional selection needs every eligible host's capacityBytes: host "
                                + host.id() + " has none");
            }
            double u = 1.0 - random.nextDouble();
            negatedKey[i] = -Math.log(u) / host.capacityBytes().getAsLong();
        }
        return in.smallest(negatedKey, in.remaining);
    }

    @Override
    public String toString() {
        return byCapacity ? "RepositorySelector.capacityProportional(" + random + ")"
                : "RepositorySelector.uniformRandom(" + random + ")";
    }
}
