package io.github.volpex.testkit.selftest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.testkit.ConcurrentReplicatedRun;
import io.github.volpex.testkit.ProgramStep;
import io.github.volpex.testkit.ReplicatedPrograms;
import io.github.volpex.testsupport.SearchDepth;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import net.jqwik.api.Example;

/**
 * The in-process dataspace, linearizable on a busy machine: random programs of 2–6 processes, each run by 1–4 replicas
 * on threads of their own beside two threads that only spin — replicas join late, pause, die, restart from saved
 * request numbers, time out and retry, and the middleware cancels waiting requests — and every run's history, with a
 * final try-read of every tag, must be linearizable per tag, with every replica of a request receiving one outcome
 * ({@link io.github.volpex.testkit.LinearizabilityChecker}). Read logs are sometimes small, so that late replicas are
 * evicted.
 *
 * <p>{@value #RUNS} runs in an ordinary build, times the search factor ({@code -Pdeep-search} runs 15,000; the Maven
 * profile {@code linearizability} runs 10,050). Each run draws a new seed, named in the failure message with the
 * property that repeats its programs and choices ({@code -D}{@value #SEED_PROPERTY}{@code =<seed>}); the threads'
 * interleaving is the machine's.
 */
class InProcessConcurrentReplicatedRunTest {

    private static final int RUNS = 150;
    private static final String SEED_PROPERTY = "volpex.testkit.linearizability.seed";

    // A jqwik example, so that the programs can be drawn from the kit's arbitrary; each run stops itself after 60 s.
    @Example
    void replicas_on_the_threads_of_a_busy_machine_leave_linearizable_histories() {
        int[] counts = new int[6];
        SearchDepth.eachSeed(SEED_PROPERTY, RUNS, seed -> {
            ConcurrentReplicatedRun run = runOnce(seed);
            counts[0]++;
            counts[1] += run.restarts();
            counts[2] += run.lateJoiners();
            counts[3] += run.timeouts();
            counts[4] += run.cancels();
            counts[5] += run.evictions();
        });
        if (counts[0] >= RUNS) {
            String tally = "restarts " + counts[1] + ", late joiners " + counts[2] + ", timeouts " + counts[3]
                    + ", cancels " + counts[4] + ", evictions " + counts[5] + " in " + counts[0] + " runs";
            assertTrue(counts[1] > 0 && counts[2] > 0 && counts[3] > 0 && counts[4] > 0 && counts[5] > 0,
                    () -> "the runs did not try every kind of event: " + tally);
        }
    }

    private static ConcurrentReplicatedRun runOnce(long seed) throws InterruptedException {
        SplittableRandom random = new SplittableRandom(seed);
        List<List<ProgramStep>> programs = ReplicatedPrograms.programs(2, 6, 12).generator(1_000)
                .next(new Random(random.nextLong())).value();
        DataspaceOptions options = random.nextInt(3) == 0
                ? DataspaceOptions.builder().readLogCapacity(1 + random.nextInt(4)).build()
                : DataspaceOptions.defaults();
        try (Dataspace dataspace = Dataspace.inProcess(programs.size() + 1, options)) {
            ConcurrentReplicatedRun run = ConcurrentReplicatedRun.of(dataspace, programs, random.nextLong())
                    .maxReplicasPerProcess(4)
                    .busyThreads(2);
            run.execute();
            run.assertLinearizable();
            return run;
        }
    }
}
