package io.github.volpex.checkpoint.placement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One instance of Ren's 0/1 repository selection (§4.3): choose exactly {@code m + k} of the candidate hosts to hold
 * the fragments of a checkpoint of {@code checkpointBytes} bytes, each fragment {@code ⌈checkpointBytes / m⌉} bytes,
 * minimising an {@link Objective}.
 *
 * <p>A host is <em>eligible</em> when its capacity, if known, holds one fragment. Some hosts may be
 * {@linkplain #withPreselected preselected}: they belong to every answer (a repair keeps the hosts that still hold
 * fragments and chooses only the rest).
 *
 * <p>Immutable and thread-safe. Building a problem validates every host once (O(V)); {@link #withObjective} and
 * {@link #withPreselected} reuse that work.
 *
 * @since 0.1
 */
public final class SelectionProblem {

    /** The largest {@code m + k}: fragments are indexed by the nonzero elements of GF(2^8). */
    public static final int MAX_FRAGMENTS = 255;

    private final long checkpointBytes;
    private final int m;
    private final int k;
    private final List<StorageHost> hosts;
    private final Map<String, Integer> indexById;
    private final Objective objective;
    private final List<String> preselected;
    private final int eligibleCount;

    private SelectionProblem(long checkpointBytes, int m, int k, List<StorageHost> hosts,
                             Map<String, Integer> indexById, Objective objective, List<String> preselected,
                             int eligibleCount) {
        this.checkpointBytes = checkpointBytes;
        this.m = m;
        this.k = k;
        this.hosts = hosts;
        this.indexById = indexById;
        this.objective = objective;
        this.preselected = preselected;
        this.eligibleCount = eligibleCount;
    }

    /**
     * Returns a selection problem with no preselected host.
     *
     * @param checkpointBytes the size of the checkpoint, in bytes; {@code ≥ 1}
     * @param m               the number of fragments that rebuild the checkpoint; {@code ≥ 1}
     * @param k               the number of redundant fragments; {@code ≥ 0}, with {@code m + k ≤ 255}
     * @param hosts           the candidate hosts, with distinct ids; at least {@code m + k} of them eligible
     * @param objective       what to minimise
     * @return the problem
     * @throws NullPointerException     if {@code hosts}, one of its elements or {@code objective} is null
     * @throws IllegalArgumentException if a number is out of range, two hosts share an id, or fewer than
     *                                  {@code m + k} hosts have room for a fragment
     */
    public static SelectionProblem of(long checkpointBytes, int m, int k, List<StorageHost> hosts,
                                      Objective objective) {
        if (checkpointBytes < 1) {
            throw new IllegalArgumentException("checkpointBytes must be >= 1: " + checkpointBytes);
        }
        if (m < 1 || m > MAX_FRAGMENTS) {
            throw new IllegalArgumentException("m must be in [1, " + MAX_FRAGMENTS + "]: " + m);
        }
        if (k < 0 || k > MAX_FRAGMENTS - m) {
            throw new IllegalArgumentException("k must be in [0, " + (MAX_FRAGMENTS - m) + "] for m = " + m + ": " + k);
        }
        Objects.requireNonNull(hosts, "hosts");
        Objects.requireNonNull(objective, "objective");
        List<StorageHost> copy = List.copyOf(hosts);
        Map<String, Integer> indexById = new HashMap<>(Math.max(16, (int) (copy.size() / 0.75f) + 1));
        long fragmentBytes = fragmentBytes(checkpointBytes, m);
        int eligible = 0;
        for (int i = 0; i < copy.size(); i++) {
            StorageHost host = copy.get(i);
            if (indexById.putIfAbsent(host.id(), i) != null) {
                throw new IllegalArgumentException("hosts must have distinct ids: " + host.id() + " appears twice");
            }
            if (fits(host, fragmentBytes)) {
                eligible++;
            }
        }
        if (eligible < m + k) {
            throw new IllegalArgumentException("hosts must include at least m + k = " + (m + k)
                    + " hosts with room for a fragment of " + fragmentBytes + " bytes: " + eligible + " of "
                    + copy.size() + " have");
        }
        return new SelectionProblem(checkpointBytes, m, k, copy, Map.copyOf(indexById), objective, List.of(),
                eligible);
    }

    /**
     * Returns this problem with another objective (the hosts are not validated again).
     *
     * @param newObjective the objective
     * @return the problem
     * @throws NullPointerException if {@code newObjective} is null
     */
    public SelectionProblem withObjective(Objective newObjective) {
        Objects.requireNonNull(newObjective, "newObjective");
        return new SelectionProblem(checkpointBytes, m, k, hosts, indexById, newObjective, preselected,
                eligibleCount);
    }

    /**
     * Returns this problem with hosts that every answer must include; a solver chooses only the other
     * {@code m + k − preselected.size()}.
     *
     * @param hostIds the ids of the preselected hosts, distinct, each naming an eligible host of this problem; at most
     *                {@code m + k} of them
     * @return the problem
     * @throws NullPointerException     if {@code hostIds} or one of its elements is null
     * @throws IllegalArgumentException if an id is unknown, repeated, names a host without room for a fragment, or
     *                                  there are more than {@code m + k}
     */
    public SelectionProblem withPreselected(Collection<String> hostIds) {
        Objects.requireNonNull(hostIds, "hostIds");
        Set<String> ids = new LinkedHashSet<>();
        long fragmentBytes = fragmentBytes();
        for (String id : hostIds) {
            Objects.requireNonNull(id, "hostIds element");
            Integer index = indexById.get(id);
            if (index == null) {
                throw new IllegalArgumentException("preselected host is not a candidate: " + id);
            }
            if (!fits(hosts.get(index), fragmentBytes)) {
                throw new IllegalArgumentException("preselected host " + id + " has no room for a fragment of "
                        + fragmentBytes + " bytes: " + hosts.get(index).capacityBytes().getAsLong());
            }
            if (!ids.add(id)) {
                throw new IllegalArgumentException("preselected hosts must be distinct: " + id + " appears twice");
            }
        }
        if (ids.size() > m + k) {
            throw new IllegalArgumentException(
                    "preselected hosts must number at most m + k = " + (m + k) + ": " + ids.size());
        }
        return new SelectionProblem(checkpointBytes, m, k, hosts, indexById, objective, List.copyOf(ids),
                eligibleCount);
    }

    /**
     * Returns the size of the checkpoint.
     *
     * @return {@code n}, in bytes
     */
    public long checkpointBytes() {
        return checkpointBytes;
    }

    /**
     * Returns the number of fragments that rebuild the checkpoint.
     *
     * @return {@code m}
     */
    public int m() {
        return m;
    }

    /**
     * Returns the number of redundant fragments.
     *
     * @return {@code k}
     */
    public int k() {
        return k;
    }

    /**
     * Returns how many hosts an answer holds.
     *
     * @return {@code m + k}
     */
    public int hostsToSelect() {
        return m + k;
    }

    /**
     * Returns the size of one fragment, {@code ⌈n / m⌉}.
     *
     * @return the fragment size, in bytes
     */
    public long fragmentBytes() {
        return fragmentBytes(checkpointBytes, m);
    }

    /**
     * Returns the candidate hosts, in the order given.
     *
     * @return an unmodifiable list
     */
    public List<StorageHost> hosts() {
        return hosts;
    }

    /**
     * Returns the objective.
     *
     * @return the objective
     */
    public Objective objective() {
        return objective;
    }

    /**
     * Returns the ids of the hosts every answer includes.
     *
     * @return an unmodifiable list, empty unless {@link #withPreselected} was used
     */
    public List<String> preselected() {
        return preselected;
    }

    /**
     * Returns how many candidates have room for a fragment.
     *
     * @return the number of eligible hosts, {@code ≥ m + k}
     */
    public int eligibleHosts() {
        return eligibleCount;
    }

    /**
     * Returns whether a host has room for one fragment of this problem.
     *
     * @param host a host
     * @return {@code true} if its capacity is unknown or at least {@link #fragmentBytes()}
     * @throws NullPointerException if {@code host} is null
     */
    public boolean isEligible(StorageHost host) {
        return fits(host, fragmentBytes());
    }

    /**
     * Returns the network cost, reliability product and objective value of a set of hosts.
     *
     * @param selection hosts of this problem with distinct ids (any number of them)
     * @return the evaluation, listing the hosts in the order given
     * @throws NullPointerException     if {@code selection} or one of its elements is null
     * @throws IllegalArgumentException if a host is not a candidate of this problem or appears twice
     */
    public SelectionResult evaluate(Collection<StorageHost> selection) {
        Objects.requireNonNull(selection, "selection");
        double fragment = fragmentBytes();
        double horizon = objective.horizonSeconds();
        double network = 0.0;
        double product = 1.0;
        List<StorageHost> chosen = new ArrayList<>(selection.size());
        for (StorageHost host : selection) {
            Objects.requireNonNull(host, "selection element");
            Integer index = indexById.get(host.id());
            if (index == null || !hosts.get(index).equals(host)) {
                throw new IllegalArgumentException("selected host is not a candidate: " + host.id());
            }
            network += fragment / host.bandwidthBytesPerSecond();
            product *= host.reliability().survival(horizon);
            chosen.add(host);
        }
        return new SelectionResult(chosen, network, product, objective.value(network, product));
    }

    /** Returns the index of a host id in {@link #hosts()}, or {@code -1}. */
    int indexOf(String hostId) {
        Integer index = indexById.get(hostId);
        return index == null ? -1 : index;
    }

    static long fragmentBytes(long checkpointBytes, int m) {
        return checkpointBytes / m + (checkpointBytes % m == 0 ? 0 : 1);
    }

    private static boolean fits(StorageHost host, long fragmentBytes) {
        return host.capacityBytes().isEmpty() || host.capacityBytes().getAsLong() >= fragmentBytes;
    }

    @Override
    public String toString() {
        return "SelectionProblem[n=" + checkpointBytes + " B, m=" + m + ", k=" + k + ", V=" + hosts.size()
                + ", preselected=" + preselected.size() + ", " + objective + "]";
    }
}
