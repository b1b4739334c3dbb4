package io.github.volpex.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A pool of volatile hosts over a time horizon: for each host, the periods when it is up; between them it is down
 * (gone, crashed, reclaimed by its owner). What middleware under test should survive; generate pools with
 * {@link HostPools}.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class HostPool {

    /**
     * One period when a host is up. Immutable.
     *
     * @param startSeconds when it comes up, in {@code [0, horizon]}
     * @param endSeconds   when it goes down (or the horizon), after {@code startSeconds}
     * @since 0.1
     */
    public record Period(double startSeconds, double endSeconds) {

        /**
         * Validates the period.
         *
         * @param startSeconds when it comes up
         * @param endSeconds   when it goes down
         * @throws IllegalArgumentException if a time is negative or not finite, or {@code endSeconds <= startSeconds}
         */
        public Period {
            if (!(startSeconds >= 0) || !Double.isFinite(endSeconds) || !(endSeconds > startSeconds)) {
                throw new IllegalArgumentException("a period must satisfy 0 <= start < end < infinity: [" + startSeconds
                        + ", " + endSeconds + ")");
            }
        }

        /**
         * Returns the period's length.
         *
         * @return {@code endSeconds − startSeconds}
         */
        public double durationSeconds() {
            return endSeconds - startSeconds;
        }
    }

    /**
     * One host and its up periods. Immutable: the periods are copied.
     *
     * @param id the host's number in the pool, from 0
     * @param up its up periods, in time order, disjoint and not touching
     * @since 0.1
     */
    public record Host(int id, List<Period> up) {

        /**
         * Validates and copies the periods.
         *
         * @param id the host's number
         * @param up its up periods
         * @throws IllegalArgumentException if {@code id < 0} or the periods overlap, touch or are out of order
         * @throws NullPointerException     if {@code up} or a period is null
         */
        public Host {
            if (id < 0) {
                throw new IllegalArgumentException("id must be >= 0: " + id);
            }
            up = List.copyOf(up);
            for (int i = 1; i < up.size(); i++) {
                if (!(up.get(i).startSeconds() > up.get(i - 1).endSeconds())) {
                    throw new IllegalArgumentException("periods must be in order, apart: " + up.get(i - 1) + " then "
                            + up.get(i));
                }
            }
        }

        /**
         * Tells whether the host is up at {@code seconds}.
         *
         * @param seconds a time
         * @return whether a period contains it (start included, end excluded)
         */
        public boolean isUp(double seconds) {
            for (Period period : up) {
                if (seconds >= period.startSeconds() && seconds < period.endSeconds()) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Returns how long the host is up in all.
         *
         * @return the sum of its periods' lengths, in seconds
         */
        public double upSeconds() {
            return up.stream().mapToDouble(Period::durationSeconds).sum();
        }
    }

    private final double horizonSeconds;
    private final List<Host> hosts;

    private HostPool(double horizonSeconds, List<Host> hosts) {
        this.horizonSeconds = horizonSeconds;
        this.hosts = List.copyOf(hosts);
    }

    /**
     * Creates a pool.
     *
     * @param horizonSeconds the length of time the pool describes, positive and finite
     * @param hosts          the hosts, numbered 0, 1, … in order, their periods within the horizon
     * @return the pool
     * @throws IllegalArgumentException if the horizon is not positive and finite, the hosts are not numbered in order
     *                                  or a period ends after the horizon
     * @throws NullPointerException     if {@code hosts} or a host is null
     */
    public static HostPool of(double horizonSeconds, List<Host> hosts) {
        if (!(horizonSeconds > 0) || !Double.isFinite(horizonSeconds)) {
            throw new IllegalArgumentException("horizonSeconds must be positive and finite: " + horizonSeconds);
        }
        Objects.requireNonNull(hosts, "hosts");
        for (int i = 0; i < hosts.size(); i++) {
            Host host = Objects.requireNonNull(hosts.get(i), "host");
            if (host.id() != i) {
                throw new IllegalArgumentException("hosts must be numbered 0, 1, ... in order: host " + i + " has id "
                        + host.id());
            }
            for (Period period : host.up()) {
                if (period.endSeconds() > horizonSeconds) {
                    throw new IllegalArgumentException("host " + i + " is up past the horizon " + horizonSeconds + ": "
                            + period);
                }
            }
        }
        return new HostPool(horizonSeconds, hosts);
    }

    /**
     * Returns the length of time the pool describes.
     *
     * @return the horizon, in seconds
     */
    public double horizonSeconds() {
        return horizonSeconds;
    }

    /**
     * Returns the hosts.
     *
     * @return the hosts, by id, an unmodifiable list
     */
    public List<Host> hosts() {
        return hosts;
    }

    /**
     * Returns how many hosts are up at {@code seconds}.
     *
     * @param seconds a time
     * @return the number of hosts up
     */
    public int upCount(double seconds) {
        int count = 0;
        for (Host host : hosts) {
            if (host.isUp(seconds)) {
                count++;
            }
        }
        return count;
    }

    /**
     * Returns every time a host comes up or goes down, in order (each once).
     *
     * @return the event times, in seconds
     */
    public List<Double> eventSeconds() {
        List<Double> events = new ArrayList<>();
        for (Host host : hosts) {
            for (Period period : host.up()) {
                events.add(period.startSeconds());
                events.add(period.endSeconds());
            }
        }
        return events.stream().distinct().sorted().toList();
    }

    @Override
    public String toString() {
        return "HostPool[" + hosts.size() + " hosts over " + horizonSeconds + " s]";
    }
}
