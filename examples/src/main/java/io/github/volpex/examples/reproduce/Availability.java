package io.github.volpex.examples.reproduce;

import io.github.volpex.estimators.TraceInterval;
import io.github.volpex.estimators.TraceReaders;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * When each of a set of hosts is up: per host, sorted disjoint up intervals {@code [start, end)} in seconds. Built
 * from alternating Weibull up and down times, or replayed from an hourly availability trace. Immutable.
 */
final class Availability {

    private final double[][] starts;
    private final double[][] ends;
    private final double horizonSeconds;

    private Availability(double[][] starts, double[][] ends, double horizonSeconds) {
        this.starts = starts;
        this.ends = ends;
        this.horizonSeconds = horizonSeconds;
    }

    int hosts() {
        return starts.length;
    }

    /** Returns the time after which every host counts as down (the end of the trace or of the generated span). */
    double horizonSeconds() {
        return horizonSeconds;
    }

    /**
     * Generates alternating up and down times with Weibull laws (shape, scale in seconds) from {@code fromSeconds}
     * to {@code horizonSeconds}; each host starts at a random phase of a long run-in, so it is near steady state.
     */
    static Availability weibull(int hosts, double upShape, double upScale, double downShape, double downScale,
            double fromSeconds, double horizonSeconds, SplittableRandom random) {
        double[][] starts = new double[hosts][];
        double[][] ends = new double[hosts][];
        for (int h = 0; h < hosts; h++) {
            List<Double> s = new ArrayList<>();
            List<Double> e = new ArrayList<>();
            double t = fromSeconds - 60 * 86_400.0; // run-in: 60 days
            boolean up = random.nextBoolean();
            while (t < horizonSeconds) {
                double length = up ? weibull(upShape, upScale, random) : weibull(downShape, downScale, random);
                if (up && t + length > fromSeconds) {
                    s.add(t);
                    e.add(t + length);
                }
                t += length;
                up = !up;
            }
            starts[h] = s.stream().mapToDouble(Double::doubleValue).toArray();
            ends[h] = e.stream().mapToDouble(Double::doubleValue).toArray();
        }
        return new Availability(starts, ends, horizonSeconds);
    }

    private static double weibull(double shape, double scale, SplittableRandom random) {
        return scale * Math.pow(-Math.log(1 - random.nextDouble()), 1 / shape);
    }

    /** Reads an hourly 0/1 availability matrix and keeps the up intervals of every node. */
    static Map<Long, List<TraceInterval>> readMatrix(Path file) throws IOException {
        Map<Long, List<TraceInterval>> byNode = new TreeMap<>();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
             Stream<TraceInterval> intervals = TraceReaders.availabilityMatrix(reader, Duration.ofHours(1))) {
            intervals.forEach(i -> byNode.computeIfAbsent(i.nodeId(), k -> new ArrayList<>()).add(i));
        }
        return byNode;
    }

    /** Replays the given nodes of a trace (read by {@link #readMatrix}); after the trace's end every host is down. */
    static Availability replay(Map<Long, List<TraceInterval>> byNode, long[] nodes) {
        double[][] starts = new double[nodes.length][];
        double[][] ends = new double[nodes.length][];
        double horizon = 0;
        for (int h = 0; h < nodes.length; h++) {
            List<TraceInterval> up = byNode.get(nodes[h]).stream().filter(TraceInterval::available).toList();
            starts[h] = up.stream().mapToDouble(TraceInterval::startSeconds).toArray();
            ends[h] = up.stream().mapToDouble(TraceInterval::endSeconds).toArray();
            for (TraceInterval i : byNode.get(nodes[h])) {
                horizon = Math.max(horizon, i.endSeconds());
            }
        }
        return new Availability(starts, ends, horizon);
    }

    /**
     * Returns this availability with host {@code h} also down during {@code [outageStarts[h][i], outageEnds[h][i])}
     * (a host without outages keeps its intervals); the outages of a host must be sorted and disjoint.
     */
    Availability withOutages(double[][] outageStarts, double[][] outageEnds) {
        double[][] newStarts = new double[starts.length][];
        double[][] newEnds = new double[starts.length][];
        for (int h = 0; h < starts.length; h++) {
            List<Double> s = new ArrayList<>();
            List<Double> e = new ArrayList<>();
            int o = 0;
            double[] os = h < outageStarts.length ? outageStarts[h] : new double[0];
            double[] oe = h < outageEnds.length ? outageEnds[h] : new double[0];
            for (int i = 0; i < starts[h].length; i++) {
                double from = starts[h][i];
                double to = ends[h][i];
                while (o < os.length && oe[o] <= from) {
                    o++;
                }
                int k = o;
                while (from < to) {
                    if (k >= os.length || os[k] >= to) {
                        s.add(from);
                        e.add(to);
                        break;
                    }
                    if (os[k] > from) {
                        s.add(from);
                        e.add(os[k]);
                    }
                    from = Math.max(from, oe[k]);
                    k++;
                }
            }
            newStarts[h] = s.stream().mapToDouble(Double::doubleValue).toArray();
            newEnds[h] = e.stream().mapToDouble(Double::doubleValue).toArray();
        }
        return new Availability(newStarts, newEnds, horizonSeconds);
    }

    private int intervalAt(int host, double t) {
        double[] s = starts[host];
        int i = Arrays.binarySearch(s, t);
        int index = i >= 0 ? i : -i - 2;
        return index >= 0 && t < ends[host][index] && t < horizonSeconds ? index : -1;
    }

    boolean isUp(int host, double t) {
        return intervalAt(host, t) >= 0;
    }

    /** Returns when the host's current up interval began; the host must be up at {@code t}. */
    double upSince(int host, double t) {
        return starts[host][checkedInterval(host, t)];
    }

    /** Returns when the host's current up interval ends (at most the horizon); the host must be up at {@code t}. */
    double upUntil(int host, double t) {
        return Math.min(ends[host][checkedInterval(host, t)], horizonSeconds);
    }

    /** Returns the first time at or after {@code t} when the host is up, or +∞. */
    double nextUp(int host, double t) {
        if (isUp(host, t)) {
            return t;
        }
        double[] s = starts[host];
        int i = Arrays.binarySearch(s, t);
        int index = i >= 0 ? i : -i - 1;
        return index < s.length && s[index] < horizonSeconds ? s[index] : Double.POSITIVE_INFINITY;
    }

    /** Returns the fraction of [from, to) that the host is up. */
    double upFraction(int host, double from, double to) {
        double up = 0;
        for (int i = 0; i < starts[host].length; i++) {
            up += Math.max(0, Math.min(ends[host][i], to) - Math.max(starts[host][i], from));
        }
        return up / (to - from);
    }

    private int checkedInterval(int host, double t) {
        int index = intervalAt(host, t);
        if (index < 0) {
            throw new IllegalStateException("host " + host + " is down at " + t);
        }
        return index;
    }
}
