package io.github.volpex.examples.cluster;

import io.github.volpex.examples.tour.LifetimeLaw;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pure parts of the coordinator of the tour across processes: storage churn, the disruptions, the tally. */
class ClusterPartsTest {

    /**
     * Over any advance of virtual time with rejoins in between: at most one host is away, a host departs only once its
     * lifetime has passed, hosts depart in the order their lifetimes end, and each departure draws the next lifetime.
     */
    @Property(tries = 200)
    void storage_hosts_depart_one_at_a_time_in_the_order_they_fail(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 12) int hosts, @ForAll @IntRange(min = 1, max = 300) int moves) {
        SplittableRandom moveRandom = new SplittableRandom(seed);
        List<LifetimeLaw> laws = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            laws.add(LifetimeLaw.weibull(0.7, 3600 * (1 + h % 3)));
        }
        StorageChurn churn = new StorageChurn(laws, new SplittableRandom(seed ^ 0x5DEECE66DL));
        double now = 0;
        for (int move = 0; move < moves; move++) {
            double[] before = new double[hosts];
            for (int h = 0; h < hosts; h++) {
                before[h] = churn.failsAtSeconds(h);
            }
            OptionalInt departed;
            if (churn.away().isPresent() && moveRandom.nextBoolean()) {
                departed = churn.rejoined();
            } else {
                now += moveRandom.nextDouble() * 3600;
                boolean wasAway = churn.away().isPresent();
                departed = churn.advance(now - moveRandom.nextDouble() * 7200); // an older time changes nothing
                if (wasAway) {
                    assertEquals(OptionalInt.empty(), departed, "a host departed while another was away");
                }
            }
            if (departed.isPresent()) {
                int host = departed.getAsInt();
                assertEquals(departed, churn.away());
                assertTrue(before[host] <= now, "host " + host + " departed before its lifetime ended");
                for (int h = 0; h < hosts; h++) {
                    assertTrue(h == host || before[h] >= before[host], "host " + h + " failed earlier");
                    assertEquals(h == host, churn.failsAtSeconds(h) != before[h], "only the departed host redraws");
                }
                assertTrue(churn.failsAtSeconds(host) > before[host]);
            }
        }
    }

    @Test
    void a_rejoin_lets_the_next_host_due_depart_at_once() {
        StorageChurn churn = new StorageChurn(List.of(LifetimeLaw.exponential(10), LifetimeLaw.exponential(10)),
                new SplittableRandom(1));
        double late = Math.max(churn.failsAtSeconds(0), churn.failsAtSeconds(1));
        int first = churn.failsAtSeconds(0) <= churn.failsAtSeconds(1) ? 0 : 1;
        assertEquals(OptionalInt.of(first), churn.advance(late));
        assertEquals(OptionalInt.empty(), churn.advance(late), "one host away at a time");
        OptionalInt next = churn.rejoined();
        assertTrue(next.isPresent(), "the other host's time has come too");
        assertEquals(1 - first, next.getAsInt());
        assertThrows(IllegalStateException.class, new StorageChurn(List.of(LifetimeLaw.exponential(10)),
                new SplittableRandom(2))::rejoined);
    }

    /**
     * A clock that reaches a departure still to come finds it due until the host departs, and is behind by how far it
     * is past the earliest departure not yet made; once the churn has caught up (hosts rejoined and the next ones
     * departed), nothing is due by that clock and it is behind by nothing.
     */
    @Property(tries = 200)
    void a_departure_not_yet_made_is_due_until_the_churn_has_caught_up(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 12) int hosts) {
        List<LifetimeLaw> laws = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            laws.add(LifetimeLaw.exponential(100));
        }
        StorageChurn churn = new StorageChurn(laws, new SplittableRandom(seed));
        double earliest = Double.POSITIVE_INFINITY;
        for (int h = 0; h < hosts; h++) {
            earliest = Math.min(earliest, churn.failsAtSeconds(h));
        }
        assertFalse(churn.dueBy(Math.nextDown(earliest)));
        assertTrue(churn.dueBy(earliest));
        assertEquals(0.0, churn.behindSeconds(earliest));
        double clock = earliest + 500;
        assertEquals(500.0, churn.behindSeconds(clock), 1e-9, "nothing has departed yet");
        assertTrue(churn.advance(clock).isPresent(), "the host due first departs");
        int departures = 1;
        while (churn.dueBy(clock)) {
            assertTrue(churn.behindSeconds(clock) > 0);
            assertTrue(churn.rejoined().isPresent(), "a host due by the clock departs once the one away is back");
            departures++;
            assertTrue(departures < 10_000, "the churn never caught up");
        }
        assertEquals(0.0, churn.behindSeconds(clock), "caught up after " + departures + " departures");
        for (int h = 0; h < hosts; h++) {
            assertTrue(churn.failsAtSeconds(h) > clock);
        }
    }

    @Test
    void the_failover_comes_once_halfway_and_the_pauses_spread_over_the_steps() {
        DisruptionSchedule schedule = new DisruptionSchedule(60, true, 2);
        assertFalse(schedule.startFailover(29));
        assertTrue(schedule.startFailover(30));
        assertTrue(schedule.failoverRunning());
        assertFalse(schedule.startFailover(31), "once");
        schedule.failoverDeferred();
        assertFalse(schedule.failoverRunning());
        assertTrue(schedule.startFailover(31), "a deferred failover is due again");
        schedule.failoverEnded();
        assertFalse(schedule.failoverRunning());
        assertFalse(schedule.startFailover(59));

        assertFalse(schedule.pauseDue(19, 0));
        assertTrue(schedule.pauseDue(20, 0));
        assertFalse(schedule.pauseDue(39, 1));
        assertTrue(schedule.pauseDue(40, 1));
        assertFalse(schedule.pauseDue(60, 2), "no more than planned");

        DisruptionSchedule given = new DisruptionSchedule(60, false, 0);
        assertFalse(given.startFailover(60), "no failover on an ensemble the run was given");
        assertFalse(given.pauseDue(60, 0));
    }

    @Test
    void the_tally_counts_restarts_by_origin_and_intervals_between_checkpoints_of_a_process() {
        ClusterTally tally = new ClusterTally();
        tally.restarted();
        tally.restartedFrom(ReplicaReport.Origin.CHECKPOINT);
        tally.restarted();
        tally.restartedFrom(ReplicaReport.Origin.SCRATCH);
        tally.restarted();
        tally.restartedFrom(ReplicaReport.Origin.LOST);
        assertEquals(3, tally.restarts());
        assertEquals(2, tally.restartsFromScratch());
        assertEquals(1, tally.lostCheckpoints());

        assertEquals(Double.POSITIVE_INFINITY, tally.lastIntervalSeconds());
        tally.checkpointed(-1, 900, 850);
        tally.checkpointed(900, 1800, 870);
        tally.checkpointed(1800, 1700, 880); // a stale writer's time, behind: no interval
        assertEquals(3, tally.checkpoints());
        assertEquals(List.of(900.0), tally.intervalsSeconds());
        assertEquals(880, tally.lastIntervalSeconds());

        tally.departed();
        tally.lost(12);
        tally.failedOver("leader server 1 stopped");
        assertEquals(1, tally.departures());
        assertEquals(12, tally.objectsLost());
        assertEquals(1, tally.failovers());
        assertEquals("leader server 1 stopped", tally.failoverNote());
    }
}
