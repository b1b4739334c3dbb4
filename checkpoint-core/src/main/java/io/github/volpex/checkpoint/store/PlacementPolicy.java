package io.github.volpex.checkpoint.store;

import io.github.volpex.checkpoint.placement.Objective;
import io.github.volpex.checkpoint.placement.RepositorySelector;
import io.github.volpex.checkpoint.placement.SelectionProblem;
import io.github.volpex.checkpoint.placement.SelectionResult;
import io.github.volpex.checkpoint.placement.StorageHost;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Chooses which repositories receive a checkpoint's fragments.
 *
 * <p>The store calls it with the lock of the job held, and for different jobs from different threads at once: an
 * implementation must be thread-safe. It must return {@code request.count()} distinct ids taken from
 * {@code request.candidates()}, and should be quick (it must not call the repositories).
 *
 * @since 0.1
 */
@FunctionalInterface
public interface PlacementPolicy {

    /**
     * Chooses repositories.
     *
     * @param request what to choose
     * @return {@code request.count()} distinct candidate ids, in the order fragments should be assigned to them
     */
    List<String> choose(PlacementRequest request);

    /**
     * Returns the first candidates in the order the store lists its repositories: deterministic, for tests and for
     * deployments that rank repositories themselves.
     *
     * @return the policy
     */
    static PlacementPolicy inOrder() {
        return request -> request.candidates().subList(0, request.count());
    }

    /**
     * Returns uniformly random candidates.
     *
     * @param random the source of randomness; the store calls the policy under a per-job lock, so a generator that is
     *               not thread-safe must not be shared by stores or jobs committing concurrently
     * @return the policy
     * @throws NullPointerException if {@code random} is null
     */
    static PlacementPolicy random(RandomGenerator random) {
        Objects.requireNonNull(random, "random");
        return request -> {
            List<String> pool = new ArrayList<>(request.candidates());
            List<String> chosen = new ArrayList<>(request.count());
            synchronized (random) {
                for (int j = 0; j < request.count(); j++) {
                    chosen.add(pool.remove(random.nextInt(pool.size())));
                }
            }
            return chosen;
        };
    }

    /**
     * Returns a policy that solves Ren et al.'s repository selection (§4) over the candidates, keeping the holders as
     * preselected hosts, with the given selector (usually {@link RepositorySelector#greedy()}).
     *
     * @param selector  the selector
     * @param hosts     describes each repository (by id) as a storage host with its bandwidth and reliability; the
     *                  host's id must be the repository's id
     * @param objective supplies the objective at each placement (its weights change as the job progresses)
     * @return the policy
     * @throws NullPointerException if an argument is null
     */
    static PlacementPolicy selecting(RepositorySelector selector, Function<String, StorageHost> hosts,
                                     Supplier<Objective> objective) {
        Objects.requireNonNull(selector, "selector");
        Objects.requireNonNull(hosts, "hosts");
        Objects.requireNonNull(objective, "objective");
        return request -> {
            List<StorageHost> candidates = new ArrayList<>();
            for (String id : request.candidates()) {
                candidates.add(describe(hosts, id));
            }
            for (String id : request.holders()) {
                candidates.add(describe(hosts, id));
            }
            // Choose count more hosts around the holders; k' keeps the fragment size ⌈n/m⌉ when count is short.
            int total = request.holders().size() + request.count();
            int m = Math.min(request.m(), total);
            SelectionProblem problem = SelectionProblem.of(Math.max(1, request.checkpointBytes()), m, total - m,
                    candidates, objective.get()).withPreselected(request.holders());
            SelectionResult result = selector.select(problem);
            return result.hostIds().subList(request.holders().size(), total);
        };
    }

    private static StorageHost describe(Function<String, StorageHost> hosts, String id) {
        StorageHost host = Objects.requireNonNull(hosts.apply(id), () -> "no storage host describes repository " + id);
        if (!host.id().equals(id)) {
            throw new IllegalArgumentException("the storage host of repository " + id + " must have its id: "
                    + host.id());
        }
        return host;
    }
}
