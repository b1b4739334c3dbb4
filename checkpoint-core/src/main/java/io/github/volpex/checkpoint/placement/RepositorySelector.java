package io.github.volpex.checkpoint.placement;

import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Chooses the {@code m + k} hosts that will hold a checkpoint's fragments.
 *
 * <p>Every selector returns exactly {@link SelectionProblem#hostsToSelect()} distinct eligible hosts, the
 * {@linkplain SelectionProblem#preselected() preselected} ones first, and evaluates them with
 * {@link SelectionProblem#evaluate}. They differ in how they search:
 * <ul>
 *   <li>{@link #greedy()}: Ren, Eigenmann and Bagchi §4.4, {@code O(V·(m + k))};</li>
 *   <li>{@link #exact()}: branch and bound, optimal, for small instances;</li>
 *   <li>{@link #uniformRandom}: the paper's baseline;</li>
 *   <li>{@link #capacityProportional}: de Camargo, Castor and Kon §4.2, hosts drawn with probability proportional to
 *       their free space.</li>
 * </ul>
 *
 * @since 0.1
 */
public interface RepositorySelector {

    /**
     * Chooses the hosts.
     *
     * @param problem the problem
     * @return the chosen hosts and their evaluation
     * @throws NullPointerException     if {@code problem} is null
     * @throws IllegalArgumentException if this selector cannot handle the problem (see each factory)
     */
    SelectionResult select(SelectionProblem problem);

    /**
     * Returns Ren's greedy selector (§4.4). It bootstraps with the hosts that rank in the top {@code m + k} both by
     * network cost (ascending) and by reliability (descending), then adds, one at a time, the host that increases the
     * objective least, {@code w·N_h + B·Π_S·(1 − TRS_h(τ))} for the current set {@code S}; each step is one pass over
     * the hosts. Ties go to the host listed first. When the objective {@linkplain Objective#bypassesReliability()
     * bypasses reliability} the result is the {@code m + k} cheapest hosts, which is optimal.
     *
     * <p>One departure from the paper: the greedy's set is compared with the {@code m + k} cheapest hosts (already
     * ranked for the bootstrap) and the better of the two is returned. A greedy that buys reliability one host at a
     * time can end with a product ruined by its last, unreliable picks, having paid for the reliable ones; on 1000
     * random instances with {@code V ≤ 20} this guard lowers the worst optimality gap from about 57% to about 6% (see
     * the package documentation; it is an observation, not a bound).
     *
     * <p>Stateless and thread-safe; {@code O(V·(m + k))} time and {@code O(V)} memory.
     *
     * @return the greedy selector
     */
    static RepositorySelector greedy() {
        return GreedySelector.INSTANCE;
    }

    /**
     * Returns an exact selector: depth-first branch and bound over the eligible hosts sorted by network cost, pruned
     * with a bound that pairs the cheapest remaining costs with the most reliable remaining hosts. It returns an
     * optimal selection; ties may be broken either way.
     *
     * <p>Meant for small instances (measuring the greedy's optimality gap, choosing among a handful of hosts). It
     * refuses problems with more than 10^9 candidate subsets so it cannot run for
     * hours. Stateless and thread-safe.
     *
     * @return the exact selector
     */
    static RepositorySelector exact() {
        return ExactSelector.INSTANCE;
    }

    /**
     * Returns the uniform random selector, the baseline of Ren §7.2: every set of eligible hosts of the right size is
     * equally likely.
     *
     * <p>Not thread-safe when {@code random} is not (most generators are not).
     *
     * @param random the source of randomness
     * @return the selector
     * @throws NullPointerException if {@code random} is null
     */
    static RepositorySelector uniformRandom(RandomGenerator random) {
        return new RandomSelector(Objects.requireNonNull(random, "random"), false);
    }

    /**
     * Returns the capacity-proportional selector of de Camargo, Castor and Kon §4.2: hosts are drawn one after
     * another without replacement, each with probability proportional to its free space
     * ({@link StorageHost#capacityBytes()}) among those not drawn yet (the Efraimidis–Spirakis weighted sampling).
     *
     * <p>Not thread-safe when {@code random} is not. {@link #select} throws {@link IllegalArgumentException} when an
     * eligible host has no known capacity.
     *
     * @param random the source of randomness
     * @return the selector
     * @throws NullPointerException if {@code random} is null
     */
    static RepositorySelector capacityProportional(RandomGenerator random) {
        return new RandomSelector(Objects.requireNonNull(random, "random"), true);
    }
}
