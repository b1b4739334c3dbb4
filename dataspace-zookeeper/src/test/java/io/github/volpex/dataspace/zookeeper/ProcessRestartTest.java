package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.ProcessCheckpoint;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testsupport.SearchDepth;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The restart cycle of a replicated process on the ZooKeeper dataspace: its state and request number committed as one
 * process checkpoint under its elected writer's epoch; every replica lost; a new replica recovers both, reopens at the
 * saved request number and re-executes what came after it — every get answered from the read log with the bytes the
 * lost replicas received, nothing consumed twice — and ends with the state a run without failures ends with. The
 * crash point is drawn from a seed; the test runs once per seed ({@link SearchDepth#eachSeed}: more in a deeper
 * search), each in namespaces and repositories of its own on the class's server, and
 * {@code -Dvolpex.zookeeper.restart.seed=<seed>} replays one.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProcessRestartTest {

    private static final int TASKS = 30;
    private static final String SEED_PROPERTY = "volpex.zookeeper.restart.seed";
    /** Numbers the runs, so that each uses a dataspace namespace and an election path of its own. */
    private static final AtomicInteger RUNS = new AtomicInteger();
    private static EmbeddedZooKeeper ensemble;

    @BeforeAll
    static void start() {
        ensemble = EmbeddedZooKeeper.start(1);
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    private static byte[] value(int task) {
        return ByteBuffer.allocate(8).putLong(1000L * task + 7).array();
    }

    /** The state: tasks done and the sum of their values. */
    private static byte[] state(long done, long sum) {
        return ByteBuffer.allocate(16).putLong(done).putLong(sum).array();
    }

    @Test
    void a_process_restarted_from_its_checkpoint_replays_from_the_read_log_and_ends_as_without_failures() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, ProcessRestartTest::restartedFromItsCheckpointWithSeed);
    }

    private static void restartedFromItsCheckpointWithSeed(long seed) throws Exception {
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            repositories.add(FragmentRepository.inMemory("r" + i));
        }
        int crashAt = 10 + new SplittableRandom(seed).nextInt(15);
        String context = "crash after task " + crashAt;
        DataspaceOptions options = DataspaceOptions.builder().readLogCapacity(100).build();
        int run = RUNS.incrementAndGet();
        try (ZooKeeperDataspace dataspace = ZooKeeperDataspace.connect(ensemble.connectString(), "/restart-" + run,
                2, options);
             WriterElection election = WriterElection.join(ensemble.connectString(), "/restart-epochs-" + run,
                     "p0")) {
            Replica feeder = dataspace.open(1);
            for (int task = 1; task <= TASKS; task++) {
                feeder.put("task-" + task, value(task));
            }
            CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(3, 2), repositories)
                    .epochs(election).build();
            // Two replicas of process 0 consume tasks; the writer checkpoints every fifth; both die after crashAt.
            Replica leading = dataspace.open(0);
            Replica trailing = dataspace.open(0);
            long sum = 0;
            for (int task = 1; task <= crashAt; task++) {
                byte[] taken = leading.get("task-" + task);
                assertArrayEquals(taken, trailing.get("task-" + task), "identical get");
                sum += ByteBuffer.wrap(taken).getLong();
                if (task % 5 == 0) {
                    store.commit("p0", ProcessCheckpoint.of(leading.requestNumber(), state(task, sum)));
                }
            }
            leading.close();
            trailing.close();

            ProcessCheckpoint saved = store.recoverProcess("p0").orElseThrow();
            ByteBuffer restored = ByteBuffer.wrap(saved.state());
            long done = restored.getLong();
            long restoredSum = restored.getLong();
            assertEquals(crashAt - crashAt % 5, done, context);
            assertEquals(done, saved.requestNumber(), "one request per task: " + context);
            long servedBefore = dataspace.statistics().servedFromLog();
            Replica restarted = dataspace.open(0, saved.requestNumber());
            for (long task = done + 1; task <= TASKS; task++) {
                restoredSum += ByteBuffer.wrap(restarted.get("task-" + task)).getLong();
            }
            assertEquals(crashAt - done, dataspace.statistics().servedFromLog() - servedBefore,
                    "what the lost replicas had done after the checkpoint is replayed from the read log: " + context);
            long expected = 0;
            for (int task = 1; task <= TASKS; task++) {
                expected += ByteBuffer.wrap(value(task)).getLong();
            }
            assertEquals(expected, restoredSum, context);
            for (int task = 1; task <= TASKS; task++) {
                assertTrue(feeder.tryRead("task-" + task).isEmpty(), "task-" + task + " was consumed once");
            }
        }
    }
}
