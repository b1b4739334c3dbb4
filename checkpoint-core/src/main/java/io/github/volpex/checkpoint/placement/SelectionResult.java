package io.github.volpex.checkpoint.placement;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The hosts a {@link RepositorySelector} chose and what they cost.
 *
 * @param hosts              the chosen hosts, distinct, in the order the selector chose them
 * @param networkCostSeconds {@code N = Σ ⌈n/m⌉ / bw_i}, the time the fragments occupy the network, in seconds
 * @param reliabilityProduct {@code Π TRS_i(τ)}, the probability that no chosen host fails within the objective's
 *                           horizon, in {@code [0, 1]}
 * @param objectiveValue     the objective {@code w·N − B·Π}, in seconds (lower is better)
 * @since 0.1
 */
public record SelectionResult(List<StorageHost> hosts, double networkCostSeconds, double reliabilityProduct,
                              double objectiveValue) {

    /**
     * Validates and copies the components.
     *
     * @param hosts              the chosen hosts, distinct
     * @param networkCostSeconds the network cost, in seconds
     * @param reliabilityProduct the survival product
     * @param objectiveValue     the objective value, in seconds
     * @throws NullPointerException     if {@code hosts} or one of its elements is null
     * @throws IllegalArgumentException if two hosts share an id
     */
    public SelectionResult {
        hosts = List.copyOf(hosts);
        Set<String> ids = new HashSet<>();
        for (StorageHost host : hosts) {
            if (!ids.add(host.id())) {
                throw new IllegalArgumentException("hosts must be distinct: " + host.id() + " appears twice");
            }
        }
    }

    /**
     * Returns the ids of the chosen hosts, in order.
     *
     * @return an unmodifiable list
     */
    public List<String> hostIds() {
        return hosts.stream().map(StorageHost::id).toList();
    }
}
