package io.github.volpex.testkit.selftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.estimators.TraceInterval;
import io.github.volpex.testkit.HostPool;
import io.github.volpex.testkit.HostPools;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** What the host-pool arbitraries promise: well-formed pools, the laws asked for, replays of the trace given. */
class HostPoolsTest {

    @Provide
    Arbitrary<HostPool> weibullPools() {
        return HostPools.weibull(1, 12, 0.7, 3600, 600, 86_400);
    }

    @Property(tries = 200)
    void pools_are_well_formed(@ForAll("weibullPools") HostPool pool) {
        assertTrue(pool.hosts().size() >= 1 && pool.hosts().size() <= 12);
        for (HostPool.Host host : pool.hosts()) {
            assertEquals(0.0, host.up().get(0).startSeconds(), "every host starts up");
            for (HostPool.Period period : host.up()) {
                assertTrue(period.endSeconds() <= pool.horizonSeconds());
            }
            assertTrue(host.upSeconds() <= pool.horizonSeconds());
        }
        for (double t : pool.eventSeconds()) {
            assertTrue(pool.upCount(t) >= 0 && pool.upCount(t) <= pool.hosts().size());
        }
    }

    @Test
    void exponential_up_times_have_the_mean_asked_for() {
        // 400 hosts over a long horizon: some 40,000 up periods; the sample mean is within 3 % of 1 h with
        // overwhelming probability (standard error 0.5 %); periods cut by the horizon are left out.
        HostPool pool = HostPools.exponential(400, 400, 3600, 600, 400_000).sample();
        double sum = 0;
        int count = 0;
        for (HostPool.Host host : pool.hosts()) {
            for (HostPool.Period period : host.up()) {
                if (period.endSeconds() < pool.horizonSeconds()) {
                    sum += period.durationSeconds();
                    count++;
                }
            }
        }
        assertTrue(count > 30_000, "periods: " + count);
        assertEquals(3600, sum / count, 0.03 * 3600);
    }

    @Test
    void a_trace_replay_uses_only_the_trace_s_own_period_lengths() {
        List<TraceInterval> trace = List.of(new TraceInterval(1, true, 0, 100, false, false),
                new TraceInterval(1, false, 100, 130, false, false), new TraceInterval(2, true, 0, 250, false, false),
                new TraceInterval(2, false, 250, 260, false, false));
        HostPool pool = HostPools.traceReplay(5, 5, trace, 10_000).sample();
        Set<Double> lengths = new HashSet<>();
        for (HostPool.Host host : pool.hosts()) {
            for (int i = 0; i < host.up().size(); i++) {
                HostPool.Period period = host.up().get(i);
                if (period.endSeconds() < pool.horizonSeconds()) {
                    lengths.add(period.durationSeconds());
                }
                if (i > 0) {
                    lengths.add(-(period.startSeconds() - host.up().get(i - 1).endSeconds()));
                }
            }
        }
        for (double length : lengths) {
            assertTrue(List.of(100.0, 250.0, -30.0, -10.0).stream().anyMatch(l -> Math.abs(l - length) < 1e-6),
                    "a length the trace does not have: " + length);
        }
        assertThrows(IllegalArgumentException.class, () -> HostPools.traceReplay(1, 2,
                List.of(new TraceInterval(1, true, 0, 1, false, false)), 10));
    }

    @Test
    void validates_its_arguments() {
        assertEquals("hosts must satisfy 1 <= minHosts <= maxHosts: [3, 2]", assertThrows(
                IllegalArgumentException.class, () -> HostPools.exponential(3, 2, 1, 1, 1)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> HostPools.weibull(1, 2, 0, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> HostPool.of(-1, List.of()));
        assertThrows(IllegalArgumentException.class, () -> new HostPool.Period(5, 5));
        assertThrows(IllegalArgumentException.class, () -> new HostPool.Host(0,
                List.of(new HostPool.Period(0, 2), new HostPool.Period(2, 3))));
    }
}
