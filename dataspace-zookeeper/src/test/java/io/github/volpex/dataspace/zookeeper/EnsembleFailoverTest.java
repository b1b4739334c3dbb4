package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Operation;
import io.github.volpex.testkit.ProgramStep;
import io.github.volpex.testsupport.SearchDepth;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A 3-server ensemble whose leader is stopped in the middle of a replicated run and restarted, and a client whose
 * session the ensemble expires: replicas on threads (each on its own session, some killed and restarted, connections
 * cut at random) exchange values around a ring of processes, and every replica observes exactly the single-replica
 * run — nothing lost, duplicated or diverging — while the namespace stays consistent. The random choices replay from
 * {@code -Dvolpex.zookeeper.seed}; the seed is in every failure message.
 */
// A hang guard only, far above the run time of a loaded machine.
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class EnsembleFailoverTest {

    private static final int PROCESSES = 3;
    private static final int ROUNDS = 25;
    private static TestEnsemble ensemble;

    @BeforeAll
    static void start() throws Exception {
        ensemble = TestEnsemble.start(3, "/failover");
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    /** Each process puts a value per round and gets its neighbour's value of the same round. */
    private static List<List<ProgramStep>> ring() {
        List<List<ProgramStep>> programs = new ArrayList<>();
        for (int process = 0; process < PROCESSES; process++) {
            List<ProgramStep> program = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                program.add(new ProgramStep(Operation.PUT, "ring/" + process + "." + round));
                program.add(new ProgramStep(Operation.GET, "ring/" + ((process + PROCESSES - 1) % PROCESSES) + "."
                        + round));
            }
            programs.add(program);
        }
        return programs;
    }

    @Test
    void a_leader_failover_and_an_expired_session_lose_duplicate_and_diverge_nothing() throws Exception {
        SearchDepth.eachSeed("volpex.zookeeper.seed", 1, this::failoverAndExpiry);
    }

    private void failoverAndExpiry(long seed) throws Exception {
        String namespace = ensemble.freshNamespace();
        List<List<ProgramStep>> programs = ring();
        int[] leaders = new int[2];
        int[] expiries = new int[1];
        try (ZkDataspace observer = connect(namespace)) {
            ConcurrentRun run = new ConcurrentRun(process -> connect(namespace), observer, programs, seed);
            run.executeAndCheck(disrupted -> {
                disrupted.awaitProgress(disrupted.totalSteps() / 5);
                leaders[0] = ensemble.servers().leader();
                assertTrue(leaders[0] >= 0, "a server leads");
                ensemble.servers().stop(leaders[0]);
                disrupted.awaitProgress(disrupted.progress() + 10);
                leaders[1] = ensemble.servers().leader();
                ensemble.servers().restart(leaders[0]);
                disrupted.awaitProgress(disrupted.totalSteps() * 3 / 5);
                ZkDataspace victim = disrupted.survivorClient(1);
                Sessions.expire(ensemble.connectString(), victim);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (victim.context().session.expiries() == 0) {
                    assertTrue(System.nanoTime() - deadline < 0, "the victim saw its session expire");
                    Thread.sleep(10);
                }
                expiries[0] = victim.context().session.expiries();
            });
            assertNotEquals(leaders[0], leaders[1], "another server took the lead");
            assertTrue(expiries[0] >= 1, "the session expired");
            observer.collectGarbage(); // blobs of puts killed before their commit
            ensemble.inspector().check(namespace);
        }
    }

    private static ZkDataspace connect(String namespace) {
        return (ZkDataspace) ZooKeeperDataspace.connect(ensemble.connectString(), namespace, PROCESSES);
    }
}
