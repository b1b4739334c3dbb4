package io.github.volpex.testkit;

import io.github.volpex.estimators.TraceInterval;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * jqwik arbitraries of {@link HostPool}s: hosts whose up and down periods follow an exponential or a Weibull law, or
 * are replayed from a real availability trace. Each pool is built from a number of hosts (which shrinks towards fewer
 * hosts) and a seed, so a failing pool is reported with both and replays exactly.
 *
 * <pre>{@code
 * @Property
 * void my_scheduler_finishes_the_job(@ForAll("pools") HostPool pool) { ... }
 *
 * @Provide
 * Arbitrary<HostPool> pools() {
 *     return HostPools.weibull(4, 32, 0.7, 3 * 3600, 1800, 24 * 3600);
 * }
 * }</pre>
 *
 * <p>Every host starts up at time 0 with a fresh lifetime (the usual assumption of the papers' simulations).
 *
 * <p>Stateless and thread-safe; the arbitraries it returns hold only their parameters.
 *
 * @since 0.1
 */
public final class HostPools {

    private HostPools() {
    }

    /**
     * Pools whose hosts stay up an exponential time (memoryless failures, Ni and Harwood's model) and down an
     * exponential time.
     *
     * @param minHosts        the fewest hosts, {@code ≥ 1}
     * @param maxHosts        the most hosts, {@code ≥ minHosts}
     * @param meanUpSeconds   the mean up time, positive
     * @param meanDownSeconds the mean down time, positive
     * @param horizonSeconds  the length of time described, positive
     * @return the arbitrary
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static Arbitrary<HostPool> exponential(int minHosts, int maxHosts, double meanUpSeconds,
                                                  double meanDownSeconds, double horizonSeconds) {
        positive("meanUpSeconds", meanUpSeconds);
        positive("meanDownSeconds", meanDownSeconds);
        return pools(minHosts, maxHosts, horizonSeconds, random -> new Laws(
                () -> exponentialSeconds(random, meanUpSeconds), () -> exponentialSeconds(random, meanDownSeconds)));
    }

    /**
     * Pools whose hosts stay up a Weibull time — shape below 1 is the decreasing hazard measured on desktop grids
     * (Javadi et al.) — and down an exponential time.
     *
     * @param minHosts        the fewest hosts, {@code ≥ 1}
     * @param maxHosts        the most hosts, {@code ≥ minHosts}
     * @param shape           the Weibull shape, positive
     * @param scaleSeconds    the Weibull scale, positive
     * @param meanDownSeconds the mean down time, positive
     * @param horizonSeconds  the length of time described, positive
     * @return the arbitrary
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static Arbitrary<HostPool> weibull(int minHosts, int maxHosts, double shape, double scaleSeconds,
                                              double meanDownSeconds, double horizonSeconds) {
        positive("shape", shape);
        positive("scaleSeconds", scaleSeconds);
        positive("meanDownSeconds", meanDownSeconds);
        return pools(minHosts, maxHosts, horizonSeconds, random -> new Laws(
                () -> scaleSeconds * Math.pow(-Math.log(1 - random.nextDouble()), 1 / shape),
                () -> exponentialSeconds(random, meanDownSeconds)));
    }

    /**
     * Pools whose up and down periods are drawn from those of a real availability trace (a bootstrap: each period's
     * length is the length of a period of the same kind picked at random from the trace).
     *
     * @param minHosts       the fewest hosts, {@code ≥ 1}
     * @param maxHosts       the most hosts, {@code ≥ minHosts}
     * @param trace          the trace's intervals (for example from {@code TraceReaders}); it must hold at least one
     *                       up and one down interval of positive length
     * @param horizonSeconds the length of time described, positive
     * @return the arbitrary
     * @throws IllegalArgumentException if an argument is out of range or the trace lacks up or down intervals
     * @throws NullPointerException     if {@code trace} or an interval is null
     */
    public static Arbitrary<HostPool> traceReplay(int minHosts, int maxHosts, List<TraceInterval> trace,
                                                  double horizonSeconds) {
        List<Double> ups = new ArrayList<>();
        List<Double> downs = new ArrayList<>();
        for (TraceInterval interval : Objects.requireNonNull(trace, "trace")) {
            double length = Objects.requireNonNull(interval, "interval").durationSeconds();
            if (length > 0) {
                (interval.available() ? ups : downs).add(length);
            }
        }
        if (ups.isEmpty() || downs.isEmpty()) {
            throw new IllegalArgumentException("trace must hold up and down intervals of positive length: "
                    + ups.size() + " up, " + downs.size() + " down");
        }
        List<Double> up = List.copyOf(ups);
        List<Double> down = List.copyOf(downs);
        return pools(minHosts, maxHosts, horizonSeconds, random -> new Laws(
                () -> up.get(random.nextInt(up.size())), () -> down.get(random.nextInt(down.size()))));
    }

    /** The up-time and down-time samplers of one pool. */
    private record Laws(DoubleSupplier up, DoubleSupplier down) {
    }

    private static Arbitrary<HostPool> pools(int minHosts, int maxHosts, double horizonSeconds,
                                             Function<SplittableRandom, Laws> laws) {
        if (minHosts < 1 || maxHosts < minHosts) {
            throw new IllegalArgumentException("hosts must satisfy 1 <= minHosts <= maxHosts: [" + minHosts + ", "
                    + maxHosts + "]");
        }
        positive("horizonSeconds", horizonSeconds);
        return Combinators.combine(Arbitraries.integers().between(minHosts, maxHosts), Arbitraries.longs())
                .as((count, seed) -> build(count, seed, horizonSeconds, laws));
    }

    private static HostPool build(int count, long seed, double horizonSeconds,
                                  Function<SplittableRandom, Laws> lawsOf) {
        SplittableRandom random = new SplittableRandom(seed);
        Laws laws = lawsOf.apply(random);
        List<HostPool.Host> hosts = new ArrayList<>(count);
        for (int id = 0; id < count; id++) {
            List<HostPool.Period> up = new ArrayList<>();
            double t = 0;
            while (t < horizonSeconds) {
                double end = Math.min(horizonSeconds, t + Math.max(laws.up().getAsDouble(), Double.MIN_NORMAL));
                if (end > t) {
                    up.add(new HostPool.Period(t, end));
                }
                t = end + Math.max(laws.down().getAsDouble(), 1e-9 * Math.max(1, end));
            }
            hosts.add(new HostPool.Host(id, up));
        }
        return HostPool.of(horizonSeconds, hosts);
    }

    /** Draws an exponential time of the given mean by inversion. */
    private static double exponentialSeconds(SplittableRandom random, double meanSeconds) {
        return -meanSeconds * Math.log(1 - random.nextDouble());
    }

    private static void positive(String name, double value) {
        if (!(value > 0) || !Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be positive and finite: " + value);
        }
    }
}
