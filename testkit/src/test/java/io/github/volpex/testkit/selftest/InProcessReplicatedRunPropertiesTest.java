package io.github.volpex.testkit.selftest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.DataspaceStatistics;
import io.github.volpex.testkit.ProgramStep;
import io.github.volpex.testkit.ReplicatedPrograms;
import io.github.volpex.testkit.ReplicatedRun;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * The paper's guarantee as a property of the in-process dataspace, through the kit's {@link ReplicatedRun}: random
 * per-process programs run with 1–3 replicas per process under a random schedule — replicas die (at least one survives
 * per process), save checkpoints (also in the middle of a call that waits, numbered as issued) and restart from a saved
 * request number, and middleware cancels requests that wait — and every replica's observations equal those of a run
 * with one replica per process that cancels at the same points; a replica that trails by more than the read log holds
 * gets {@code ReadLogEvictedException}, never a wrong value; and the run's history is linearizable per tag. The
 * schedule is deterministic, so a case replays from its seed.
 */
class InProcessReplicatedRunPropertiesTest {

    @Provide
    Arbitrary<List<List<ProgramStep>>> programs() {
        return ReplicatedPrograms.programs();
    }

    @Property(tries = 400)
    void every_replica_observes_the_single_replica_run_or_a_typed_eviction(
            @ForAll("programs") List<List<ProgramStep>> programs,
            @ForAll @IntRange(min = 1, max = 6) int readLogCapacity,
            @ForAll long scheduleSeed) {
        try (Dataspace dataspace = Dataspace.inProcess(programs.size(),
                DataspaceOptions.builder().readLogCapacity(readLogCapacity).build())) {
            ReplicatedRun run = ReplicatedRun.of(dataspace, programs, new SplittableRandom(scheduleSeed));
            run.execute();
            run.assertConsistentWithSingleReplicaRun();
            run.assertLinearizable();
            DataspaceStatistics statistics = dataspace.statistics();
            Statistics.label("a replica was evicted").collect(run.replicas().stream().anyMatch(r -> r.evicted()));
            Statistics.label("a replica restarted").collect(run.restarts() > 0);
            Statistics.label("a trailing replica was served from the log").collect(statistics.servedFromLog() > 0);
            Statistics.label("a request stayed pending").collect(statistics.joinedPending() > 0);
            Statistics.label("the middleware cancelled a request").collect(run.cancels() > 0);
            Statistics.label("a replica restarted inside a call").collect(run.restartsInsideCalls() > 0);
            Statistics.label("a replica was evicted").coverage(c -> c.check(true).percentage(p -> p >= 3));
            Statistics.label("a replica restarted").coverage(c -> c.check(true).percentage(p -> p >= 20));
            Statistics.label("a trailing replica was served from the log")
                    .coverage(c -> c.check(true).percentage(p -> p >= 50));
            Statistics.label("a request stayed pending").coverage(c -> c.check(true).percentage(p -> p >= 10));
            Statistics.label("the middleware cancelled a request")
                    .coverage(c -> c.check(true).percentage(p -> p >= 10));
            Statistics.label("a replica restarted inside a call").coverage(c -> c.check(true).percentage(p -> p >= 2));
        }
    }

    @Property(tries = 100)
    void with_one_replica_per_process_and_no_failures_no_replica_lags(
            @ForAll("programs") List<List<ProgramStep>> programs, @ForAll long scheduleSeed) {
        try (Dataspace dataspace = Dataspace.inProcess(programs.size(),
                DataspaceOptions.builder().readLogCapacity(1).build())) {
            ReplicatedRun run = ReplicatedRun.of(dataspace, programs, new SplittableRandom(scheduleSeed))
                    .replicasPerProcess(1)
                    .failures(false);
            run.execute();
            DataspaceStatistics statistics = dataspace.statistics();
            assertEquals(0, statistics.duplicatesIgnored());
            assertEquals(0, statistics.maxReplicaLag(), "only retries of the process's own pending request replay");
            assertEquals(0, statistics.evictedRequests());
            List<List<String>> single = ReplicatedPrograms.singleReplicaRun(programs, run.freshOrder());
            for (ReplicatedRun.ScheduledReplica replica : run.replicas()) {
                assertEquals(single.get(replica.processId()), replica.observations());
            }
        }
    }
}
