package io.github.volpex.testkit.selftest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.testkit.ConcurrentReplicatedRun;
import io.github.volpex.testkit.ProgramStep;
import io.github.volpex.testkit.ReplicatedPrograms;
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
 * <p>{@value #DEFAULT_RUNS} runs by default; {@code -Dvolpex.testkit.linearizability.runs=N} sets another number (the
 * Maven profile {@code linearizability} runs 10,000). Each run draws a new seed, named in the failure message with the
 * property that repeats its programs and choices ({@code -Dvolpex.testkit.linearizability.seed=<seed>}); the threads'
 * interleaving is the machine's.
 */
class InProcessConcurrentReplicatedRunTest {

    private static final int DEFAULT_RUNS = 150;

    // A jqwik example, so that the programs can be drawn from the kit's arbitrary; each run stops itself after 60 s.
    @Example
    void replicas_on_the_threads_of_a_busy_machine_leave_linearizable_histories() throws Exception {
        Long fixed = Long.getLong("volpex.testkit.linearizability.seed");
        int runs = fixed != null ? 1 : Integer.getInteger("volpex.testkit.linearizability.runs", DEFAULT_RUNS);
        SplittableRandom seeds = new SplittableRandom();
        int restarts = 0;
        int lateJoiners = 0;
        int timeouts = 0;
        int cancels = 0;
        int evictions = 0;
        for (int i = 0; i < runs; i++) {
            long seed = fixed != null ? fixed : seeds.nextLong();
            ConcurrentReplicatedRun run;
            try {
                run = runOnce(seed);
            } catch (AssertionError | RuntimeException failure) {
                throw new AssertionError("run " + (i + 1) + " of " + runs + " failed: seed " + seed
                        + " (repeat its programs and choices with -Dvolpex.testkit.linearizability.seed=" + seed + ")",
                        failure);
            }
            restarts += run.restarts();
            lateJoiners += run.lateJoiners();
            timeouts += run.timeouts();
            cancels += run.cancels();
            evictions += run.evictions();
        }
        if (runs >= DEFAULT_RUNS) {
            String counts = "restarts " + restarts + ", late joiners " + lateJoiners + ", timeouts " + timeouts
                    + ", cancels " + cancels + ", evictions " + evictions + " in " + runs + " runs";
            assertTrue(restarts > 0 && lateJoiners > 0 && timeouts > 0 && cancels > 0 && evictions > 0,
                    () -> "the runs did not try every kind of event: " + counts);
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
