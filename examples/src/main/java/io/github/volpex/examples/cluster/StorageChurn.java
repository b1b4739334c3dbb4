package io.github.volpex.examples.cluster;

import io.github.volpex.examples.tour.LifetimeLaw;
import java.util.List;
import java.util.OptionalInt;
import java.util.SplittableRandom;

/**
 * When the storage hosts of a run across processes depart: each lives a lifetime drawn from its law in virtual time,
 * then departs, losing everything it held, and an empty host takes its place. Hosts whose lifetime has passed depart
 * in the order they fail, one at a time: the next leaves only once the one away has {@linkplain #rejoined rejoined}
 * (as a pool that keeps its size would), so that writers can repair between departures. Since a departure takes real
 * time and virtual time does not, the run's clocks could run past departures still to come and leave the churn ever
 * further behind (every later restart then meets, in the real seconds its new JVMs take to start, departures that
 * belong to virtual times long past); the caller holds back a clock past which a departure is still {@linkplain
 * #dueBy due}, and {@link #behindSeconds} says how far a clock ran ahead of the churn. Pure bookkeeping: what a
 * departure does to a host is the caller's. Not thread-safe.
 */
final class StorageChurn {

    private final List<LifetimeLaw> laws;
    private final SplittableRandom random;
    private final double[] failsAtSeconds;
    private int away = -1;
    private double virtualSeconds;

    /**
     * Draws every host's first lifetime, in host order.
     *
     * @param laws   each host's lifetime law
     * @param random the source of lifetimes (shared with the run's other host draws, in the order they happen)
     */
    StorageChurn(List<LifetimeLaw> laws, SplittableRandom random) {
        this.laws = List.copyOf(laws);
        this.random = random;
        this.failsAtSeconds = new double[laws.size()];
        for (int h = 0; h < failsAtSeconds.length; h++) {
            failsAtSeconds[h] = this.laws.get(h).draw(random);
        }
    }

    /**
     * The run's virtual time reached {@code seconds} somewhere (the furthest time seen counts): the host due first
     * departs if its time has come and no host is away.
     *
     * @param seconds a virtual time
     * @return the host that departs now, or empty
     */
    OptionalInt advance(double seconds) {
        virtualSeconds = Math.max(virtualSeconds, seconds);
        if (away >= 0) {
            return OptionalInt.empty();
        }
        int next = -1;
        for (int h = 0; h < failsAtSeconds.length; h++) {
            if (next < 0 || failsAtSeconds[h] < failsAtSeconds[next]) {
                next = h;
            }
        }
        if (next < 0 || failsAtSeconds[next] > virtualSeconds) {
            return OptionalInt.empty();
        }
        away = next;
        failsAtSeconds[next] += laws.get(next).draw(random);
        return OptionalInt.of(next);
    }

    /**
     * The host away is back, empty: the next host due may depart.
     *
     * @return the host that departs now, or empty
     * @throws IllegalStateException if no host is away
     */
    OptionalInt rejoined() {
        if (away < 0) {
            throw new IllegalStateException("no storage host is away");
        }
        away = -1;
        return advance(virtualSeconds);
    }

    /**
     * Whether a departure due at or before {@code seconds} has yet to happen: a clock that has reached it runs ahead
     * of the churn.
     *
     * @param seconds a virtual time
     * @return whether some host's lifetime ended at or before it and the host has not departed yet
     */
    boolean dueBy(double seconds) {
        return earliestFailure() <= seconds;
    }

    /**
     * Returns how far a virtual time is past the earliest departure still to happen: how far a clock that reached it
     * ran ahead of the churn.
     *
     * @param seconds a virtual time
     * @return virtual seconds, 0 if no departure due by then is still to come
     */
    double behindSeconds(double seconds) {
        return Math.max(0, seconds - earliestFailure());
    }

    private double earliestFailure() {
        double earliest = Double.POSITIVE_INFINITY;
        for (double at : failsAtSeconds) {
            earliest = Math.min(earliest, at);
        }
        return earliest;
    }

    /**
     * Returns the host away now.
     *
     * @return its index, or empty if every host is there
     */
    OptionalInt away() {
        return away < 0 ? OptionalInt.empty() : OptionalInt.of(away);
    }

    /**
     * Returns when a host departs next, in virtual seconds.
     *
     * @param host the host's index
     * @return the end of its current lifetime
     */
    double failsAtSeconds(int host) {
        return failsAtSeconds[host];
    }
}
