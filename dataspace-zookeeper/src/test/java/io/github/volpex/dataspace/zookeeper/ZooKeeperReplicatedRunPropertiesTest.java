package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.DataspaceOptions;
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
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * The paper's guarantee against the ZooKeeper dataspace, through the kit's deterministic {@link ReplicatedRun}: random
 * programs with 1–3 replicas per process that die, checkpoint (also inside a waiting call) and restart (also inside
 * one), while the middleware cancels waiting requests; every replica observes the single-replica run that cancels at
 * the same points, or a typed eviction. About a fifth of the cases cancel and one in fifteen restarts inside a call;
 * at least one case in the run must cancel. Values are inline, or (inline limit 0) every value is a blob, so that
 * reference counting runs through overwrites, consumption, log eviction and the byte budget; after each run the
 * namespace's invariants hold ({@link NamespaceInspector}). A case replays from its jqwik seed.
 */
class ZooKeeperReplicatedRunPropertiesTest {

    private static TestEnsemble ensemble;

    @BeforeContainer
    static void start() throws Exception {
        ensemble = TestEnsemble.start(1, "/replicated");
    }

    @AfterContainer
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    @Provide
    Arbitrary<List<List<ProgramStep>>> programs() {
        return ReplicatedPrograms.programs();
    }

    @Property(tries = 60)
    void every_replica_observes_the_single_replica_run_or_a_typed_eviction(
            @ForAll("programs") List<List<ProgramStep>> programs,
            @ForAll @IntRange(min = 1, max = 6) int readLogCapacity,
            @ForAll boolean blobs,
            @ForAll boolean budget,
            @ForAll long scheduleSeed) throws Exception {
        DataspaceOptions.Builder options = DataspaceOptions.builder().readLogCapacity(readLogCapacity);
        if (budget) {
            options.readLogBudgetBytes(8);
        }
        String namespace = ensemble.freshNamespace();
        try (ZooKeeperDataspace dataspace = ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                .processCount(programs.size())
                .options(options.build())
                .inlineLimitBytes(blobs ? 0 : ZooKeeperDataspace.Builder.DEFAULT_INLINE_LIMIT_BYTES)
                .connect()) {
            ReplicatedRun run = ReplicatedRun.of(dataspace, programs, new SplittableRandom(scheduleSeed));
            run.execute();
            run.assertConsistentWithSingleReplicaRun();
            ensemble.inspector().check(namespace);
            Statistics.label("a replica was evicted").collect(run.replicas().stream().anyMatch(r -> r.evicted()));
            Statistics.label("a request stayed pending").collect(dataspace.statistics().joinedPending() > 0);
            Statistics.label("the middleware cancelled a request").collect(run.cancels() > 0);
            Statistics.label("a replica restarted inside a call").collect(run.restartsInsideCalls() > 0);
            ZkDataspace client = (ZkDataspace) dataspace;
            Statistics.label("a commit on a remembered state applied").collect(client.counters().committedUnread() > 0);
            Statistics.label("a commit on a remembered state was refused")
                    .collect(client.counters().triedUnread() > client.counters().committedUnread());
            Statistics.label("a commit on a remembered state applied").coverage(c -> c.check(true).count(n -> n >= 1));
            Statistics.label("the middleware cancelled a request").coverage(c -> c.check(true).count(n -> n >= 1));
        }
    }
}
