package io.github.volpex.examples.tour;

import io.github.volpex.checkpoint.placement.Objective;
import io.github.volpex.checkpoint.placement.RepositorySelector;
import io.github.volpex.checkpoint.placement.StorageHost;
import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.PlacementPolicy;
import io.github.volpex.erasure.IdaCodec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * The tour's storage hosts: heterogeneous volunteers, each with its own lifetime law (the typical law's scale times a
 * factor in [1/4, 4]) and bandwidth (1 to 20 MB/s), drawn from the run's seed so that every JVM of a run derives the
 * same pool; and the checkpoint store that keeps IDA (6,3) fragments on the hosts Ren's greedy selector picks.
 * Immutable.
 */
public final class StoragePool {

    /** Data fragments of each checkpoint. */
    public static final int DATA_FRAGMENTS = 6;
    /** Redundant fragments of each checkpoint. */
    public static final int PARITY_FRAGMENTS = 3;

    /**
     * One storage host.
     *
     * @param id                      its repository id
     * @param law                     how long it stays up
     * @param bandwidthBytesPerSecond its bandwidth
     */
    public record Host(String id, LifetimeLaw law, double bandwidthBytesPerSecond) {
    }

    private final List<Host> hosts;
    private final Map<String, StorageHost> byId = new LinkedHashMap<>();

    private StoragePool(List<Host> hosts) {
        this.hosts = List.copyOf(hosts);
        for (Host host : hosts) {
            byId.put(host.id(), StorageHost.of(host.id(), host.bandwidthBytesPerSecond(), host.law().survival()));
        }
    }

    /**
     * Draws the pool of a run.
     *
     * @param count   the number of hosts, {@code ≥ 9}
     * @param typical the lifetime law of a typical host
     * @param seed    the run's seed
     * @return the pool
     */
    public static StoragePool draw(int count, LifetimeLaw typical, long seed) {
        if (count < DATA_FRAGMENTS + PARITY_FRAGMENTS) {
            throw new IllegalArgumentException("storage hosts must be >= " + (DATA_FRAGMENTS + PARITY_FRAGMENTS)
                    + ": " + count);
        }
        SplittableRandom random = new SplittableRandom(seed ^ 0x5354_4F52_4147_4531L);
        List<Host> hosts = new ArrayList<>();
        for (int h = 0; h < count; h++) {
            LifetimeLaw law = typical.scaled(Math.pow(4.0, 2 * random.nextDouble() - 1));
            double bandwidth = 1e6 * (1 + 19 * random.nextDouble());
            hosts.add(new Host(id(h), law, bandwidth));
        }
        return new StoragePool(hosts);
    }

    /** The repository id of host {@code index}. */
    public static String id(int index) {
        return String.format("storage-%02d", index);
    }

    public List<Host> hosts() {
        return hosts;
    }

    int size() {
        return hosts.size();
    }

    /**
     * Returns a builder of the store that keeps checkpoints on these hosts: IDA (6,3), placed by Ren's greedy
     * selector under {@code objective}.
     *
     * @param repositories one repository per host, in the pool's order
     * @param objective    the selection objective at the time of each placement
     * @return the builder, for the caller's executor and epoch source
     */
    public CheckpointStore.Builder store(List<? extends FragmentRepository> repositories,
            Supplier<Objective> objective) {
        return CheckpointStore.perennial(IdaCodec.systematic(DATA_FRAGMENTS, PARITY_FRAGMENTS), repositories)
                .placement(PlacementPolicy.selecting(RepositorySelector.greedy(), byId::get, objective));
    }

    /**
     * Ren's optimistic objective for a job whose compute hosts have mean lifetime {@code computeMeanSeconds}, at
     * virtual time {@code nowSeconds}, under the scheduler's interval (one step while it is not yet known).
     */
    public static Objective objective(double computeMeanSeconds, double intervalSeconds, double stepSeconds,
                               double nowSeconds) {
        double interval = intervalSeconds < Double.POSITIVE_INFINITY ? intervalSeconds : stepSeconds;
        return Objective.optimistic(computeMeanSeconds, interval, nowSeconds);
    }
}
