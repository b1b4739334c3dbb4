package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.Request;
import io.github.volpex.testkit.ProgramStep;
import io.github.volpex.testkit.ReplicatedPrograms;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * Random replicated programs with replicas as threads, each on its own ZooKeeper session, under injected faults:
 * connections cut at random (replies of applied transactions lost), sessions expired, replicas killed and restarted
 * from checkpoints, waiting requests cancelled by middleware through those faulty clients. Every replica observes the
 * single-replica run in the dataspace's serial order, and the namespace stays consistent. A case replays from its
 * jqwik seed (the thread timing differs; the programs and faults drawn do not).
 */
class ConcurrentReplicasPropertiesTest {

    private static TestEnsemble ensemble;

    @BeforeContainer
    static void start() throws Exception {
        ensemble = TestEnsemble.start(1, "/concurrent");
    }

    @AfterContainer
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    @Provide
    Arbitrary<List<List<ProgramStep>>> programs() {
        return ReplicatedPrograms.programs(2, 3, 10);
    }

    @Property(tries = 5, shrinking = ShrinkingMode.OFF)
    void replicas_on_threads_observe_the_single_replica_run_through_connection_loss_expiry_and_deaths(
            @ForAll("programs") List<List<ProgramStep>> programs, @ForAll boolean blobs, @ForAll long seed)
            throws Exception {
        String namespace = ensemble.freshNamespace();
        int inline = blobs ? 0 : ZooKeeperDataspace.Builder.DEFAULT_INLINE_LIMIT_BYTES;
        try (ZkDataspace observer = connect(namespace, programs.size(), inline)) {
            ConcurrentRun run = new ConcurrentRun(process -> connect(namespace, programs.size(), inline), observer,
                    programs, seed);
            run.executeAndCheck();
            observer.collectGarbage(); // blobs of puts killed before their commit
            ensemble.inspector().check(namespace);
            Statistics.label("lost replies recovered").collect(run.recoveredCommits() > 0);
            Statistics.label("replicas killed").collect(run.kills() > 0);
            Statistics.label("sessions expired").collect(run.expiries() > 0);
            Statistics.label("the middleware cancelled a request").collect(run.cancels() > 0);
            long[] unread = run.unreadCommits();
            Statistics.label("a commit on a remembered state applied").collect(unread[1] > 0);
            Statistics.label("a commit on a remembered state was refused").collect(unread[0] > unread[1]);
        }
    }

    /**
     * A request the middleware cancels after every replica has settled on it waiting: the run is not over until the
     * replicas have observed the cancel and gone on. (A run that ended as soon as it first looked settled missed a
     * cancel committed just after, and blamed the replicas for it.)
     */
    @Example
    void a_cancel_after_the_run_looks_settled_is_observed_before_the_run_ends() throws Exception {
        List<List<ProgramStep>> programs = List.of(
                List.of(new ProgramStep(Operation.PUT, "x"), new ProgramStep(Operation.GET, "never"),
                        new ProgramStep(Operation.PUT, "y")),
                List.of(new ProgramStep(Operation.GET, "x")));
        String namespace = ensemble.freshNamespace();
        int inline = ZooKeeperDataspace.Builder.DEFAULT_INLINE_LIMIT_BYTES;
        boolean[] cancelled = new boolean[1];
        try (ZkDataspace observer = connect(namespace, programs.size(), inline)) {
            ConcurrentRun run = new ConcurrentRun(process -> connect(namespace, programs.size(), inline), observer,
                    programs, 1L).withoutChaos();
            run.executeAndCheck(settled -> {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                Optional<Request> waiting = observer.server().pendingRequest(0);
                while (waiting.isEmpty() || waiting.get().requestNumber() != 2) {
                    assertTrue(System.nanoTime() - deadline < 0, "process 0 came to wait on its get");
                    Thread.sleep(10);
                    waiting = observer.server().pendingRequest(0);
                }
                Thread.sleep(500); // the run looks settled meanwhile
                cancelled[0] = observer.server().cancel(0, 2).isEmpty();
            });
            assertTrue(cancelled[0], "the middleware cancelled the waiting get");
            assertEquals(3, observer.highWaterMark(0), "process 0 went on past the cancelled get to its last put");
            ensemble.inspector().check(namespace);
        }
    }

    private static ZkDataspace connect(String namespace, int processCount, int inlineLimit) {
        return (ZkDataspace) ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                .processCount(processCount)
                .inlineLimitBytes(inlineLimit)
                .connect();
    }
}
