package io.github.volpex.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceServer;
import io.github.volpex.dataspace.ReadLogEvictedException;
import io.github.volpex.dataspace.Reply;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.Request;
import io.github.volpex.testkit.ReplicatedPrograms.ReplicaHistory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * A replicated run of random programs under a deterministic random schedule, against any {@link Dataspace}: each
 * process runs 1–3 replicas; at every step one runnable replica is picked and it issues its next call, dies (when
 * another live replica of its process remains), saves a checkpoint (its request number and observations so far), or
 * a dead replica of its process restarts from one of its checkpoints or from the start, or the middleware cancels the
 * request its process waits for ({@link DataspaceServer#pendingRequest(int)}, {@link DataspaceServer#cancel(int,
 * long)}).
 *
 * <p>A checkpoint saved while the replica's call waits may count the call as issued, as middleware that numbers
 * issued requests, or a system-level checkpoint of a blocked process, would: it saves the waiting request's number,
 * and sometimes the replica's host fails right after it and the replica restarts from it at once. Such a restart must
 * resume inside the call ({@link Dataspace#open(int, long)} then opens the handle one request earlier) and receive the
 * call's result; the run checks that it does. Once the call has completed, a restart from such a checkpoint opens at
 * the number before it, since that is the last request the checkpoint's observations include.
 *
 * <p>The schedule is single-threaded and every call uses a zero timeout: a read or get that must wait stays pending and
 * its replica is retried only after the dataspace has changed. So a failing case replays from the random generator's
 * seed. A replica that trails by more than the read log holds gets {@link ReadLogEvictedException} and stops; the run
 * checks that the exception's facts show a request the log no longer holds and, when the log has no byte budget, a
 * lag of at least its capacity. Its fresh order ({@link #freshOrder()}) records where each request was first issued
 * and where the middleware cancelled one, so that the single-replica run cancels at the same points.
 *
 * <pre>{@code
 * @Property
 * void replicas_observe_the_single_run(@ForAll("programs") List<List<ProgramStep>> programs, @ForAll long seed) {
 *     try (Dataspace dataspace = createMyDataspace(programs.size())) {
 *         ReplicatedRun run = ReplicatedRun.of(dataspace, programs, new SplittableRandom(seed));
 *         run.execute();
 *         run.assertConsistentWithSingleReplicaRun();
 *     }
 * }
 * }</pre>
 *
 * <p>The run also records its calls in a {@link DataspaceHistory} ({@link #history()}), which
 * {@link #assertLinearizable()} judges with the {@link LinearizabilityChecker}. {@link ConcurrentReplicatedRun} runs
 * the same programs with every replica on a thread of its own, where only such a check applies.
 *
 * <p>Not thread-safe: one thread builds, executes and inspects a run.
 *
 * @since 0.1
 */
public final class ReplicatedRun {

    private static final int MAX_STEPS = 20_000;

    private final Dataspace dataspace;
    private final List<List<ProgramStep>> programs;
    private final RandomGenerator random;
    private final int readLogCapacity;
    /** Whether the read log also has a byte budget, which may evict before the capacity is reached. */
    private final boolean byteBudget;
    private final List<ScheduledReplica> replicas = new ArrayList<>();
    private final List<ProcessEvent> freshOrder = new ArrayList<>();
    /** One tick per reading: the schedule is sequential, so every call returns before the next is invoked. */
    private final long[] ticks = new long[1];
    private final DataspaceHistory history = DataspaceHistory.create(() -> ++ticks[0]);
    private int replicasPerProcess = -1;
    private boolean failures = true;
    private int restarts;
    private int restartsInsideCalls;
    private int cancels;
    private long version;
    private boolean executed;

    private ReplicatedRun(Dataspace dataspace, List<List<ProgramStep>> programs, RandomGenerator random) {
        this.dataspace = Objects.requireNonNull(dataspace, "dataspace");
        this.programs = List.copyOf(programs);
        this.random = Objects.requireNonNull(random, "random");
        if (dataspace.processCount() != this.programs.size()) {
            throw new IllegalArgumentException("dataspace.processCount() must equal the number of programs ("
                    + this.programs.size() + "): " + dataspace.processCount());
        }
        this.readLogCapacity = dataspace.options().readLogCapacity();
        this.byteBudget = dataspace.options().readLogBudgetBytes().isPresent();
    }

    /**
     * Creates a run of the programs on the dataspace, which must be fresh (no request issued yet) and have one process
     * per program. The run does not close the dataspace.
     *
     * @param dataspace the dataspace under test
     * @param programs  one program per process
     * @param random    the schedule's source of randomness; seed it to replay a run
     * @return a run that has not executed yet
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if the dataspace's process count differs from the number of programs
     */
    public static ReplicatedRun of(Dataspace dataspace, List<List<ProgramStep>> programs, RandomGenerator random) {
        return new ReplicatedRun(dataspace, programs, random);
    }

    /**
     * Fixes the number of replicas of every process (by default each process draws 1–3).
     *
     * @param count replicas per process, {@code ≥ 1}
     * @return this run
     * @throws IllegalArgumentException if {@code count < 1}
     */
    public ReplicatedRun replicasPerProcess(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("replicasPerProcess must be >= 1: " + count);
        }
        this.replicasPerProcess = count;
        return this;
    }

    /**
     * Turns deaths, checkpoints, restarts and the middleware's cancels on (the default) or off.
     *
     * @param enabled whether replicas die and restart and the middleware cancels waiting requests
     * @return this run
     */
    public ReplicatedRun failures(boolean enabled) {
        this.failures = enabled;
        return this;
    }

    /**
     * Runs the schedule until no replica can make progress: every live replica has completed its program, was evicted,
     * or waits for a tag no remaining call will put.
     *
     * @throws IllegalStateException if the run was executed already
     * @throws AssertionError        if an eviction's facts do not show a lag beyond the read log, a restart from a
     *                               checkpoint inside a waiting call does not resume inside it, the middleware's
     *                               cancel of the request a process waits for returns an outcome, or the schedule does
     *                               not end within 20,000 steps
     */
    public void execute() {
        if (executed) {
            throw new IllegalStateException("a run executes once");
        }
        executed = true;
        int processCount = programs.size();
        for (int process = 0; process < processCount; process++) {
            int count = replicasPerProcess > 0 ? replicasPerProcess : 1 + random.nextInt(3);
            for (int i = 0; i < count; i++) {
                replicas.add(new ScheduledReplica(process, history.recording(dataspace.open(process)),
                        new ArrayList<>()));
            }
        }
        long[] maxIssued = new long[processCount];
        int restartsLeft = 2 * processCount;
        for (int step = 0; step < MAX_STEPS; step++) {
            List<ScheduledReplica> runnable = new ArrayList<>();
            for (ScheduledReplica sim : replicas) {
                if (!sim.dead && !sim.evicted && sim.stuckAtVersion != version
                        && sim.replica.requestNumber() < programs.get(sim.processId).size()) {
                    runnable.add(sim);
                }
            }
            if (runnable.isEmpty()) {
                return;
            }
            ScheduledReplica sim = runnable.get(random.nextInt(runnable.size()));
            int event = failures ? random.nextInt(100) : 99;
            if (event < 8) {
                kill(sim);
            } else if (event < 16 && restartsLeft > 0) {
                restartsLeft -= restart(sim.processId) ? 1 : 0;
            } else if (event < 22) {
                // Inside a call that waits, a checkpoint may count the call as issued (as middleware counting
                // issued requests would); a restart from it must still receive the call's result.
                boolean insideCall = sim.waiting && random.nextBoolean();
                sim.checkpoints.add(new Checkpoint(sim.replica.requestNumber() + (insideCall ? 1 : 0), insideCall,
                        List.copyOf(sim.observations)));
                if (insideCall && restartsLeft > 0 && random.nextBoolean()) {
                    // The host fails right after the checkpoint and the middleware restarts the replica from it at
                    // once, so the process keeps a replica even if this was its only one.
                    die(sim);
                    restartFrom(sim, sim.checkpoints.size() - 1);
                    restartsLeft--;
                }
            } else if (event < 25) {
                cancelPending(sim.processId);
            } else {
                long next = sim.replica.requestNumber() + 1;
                if (next > maxIssued[sim.processId]) {
                    maxIssued[sim.processId] = next;
                    freshOrder.add(ProcessEvent.issue(sim.processId));
                }
                advance(sim);
            }
        }
        fail("the schedule did not finish in " + MAX_STEPS + " steps");
    }

    /**
     * Asserts the Volpex guarantee on the executed run: every replica observed a prefix of its process's single-replica
     * run (in this run's fresh order), every process kept a live replica, and every live replica that was not evicted
     * observed the whole of it.
     *
     * @return the single-replica run's observations, one list per process
     * @throws IllegalStateException if the run has not executed
     * @throws AssertionError        if the guarantee does not hold
     */
    public List<List<String>> assertConsistentWithSingleReplicaRun() {
        if (!executed) {
            throw new IllegalStateException("execute the run first");
        }
        for (int process = 0; process < programs.size(); process++) {
            int p = process;
            assertTrue(replicas.stream().anyMatch(r -> r.processId == p && !r.dead),
                    "every process keeps a survivor");
        }
        List<ReplicaHistory> histories = new ArrayList<>();
        for (ScheduledReplica sim : replicas) {
            histories.add(new ReplicaHistory(sim.name(), sim.processId, sim.observations, !sim.dead && !sim.evicted));
        }
        return ReplicatedPrograms.assertConsistentWithSingleReplicaRun(programs, freshOrder, histories);
    }

    /**
     * Returns the run's history: every replica's calls and the middleware's cancels, on a clock that ticks once per
     * reading (the schedule runs one call at a time).
     *
     * @return the history, which the run keeps extending while it executes
     */
    public DataspaceHistory history() {
        return history;
    }

    /**
     * Asserts that the executed run's history is linearizable per tag and that every replica of a request received
     * one outcome ({@link LinearizabilityChecker}): a check of the dataspace's answers in the order it gave them,
     * independent of the single-replica run.
     *
     * @throws IllegalStateException if the run has not executed
     * @throws AssertionError        if the history is not linearizable; the message lists the facts
     */
    public void assertLinearizable() {
        if (!executed) {
            throw new IllegalStateException("execute the run first");
        }
        LinearizabilityChecker.create().assertLinearizable(history);
    }

    /**
     * Returns the replicas of the run, dead and restarted ones included, in the order they were opened.
     *
     * @return an unmodifiable view
     */
    public List<ScheduledReplica> replicas() {
        return Collections.unmodifiableList(replicas);
    }

    /**
     * Returns the run's fresh order: where each process's requests were first issued, and where the middleware
     * cancelled a request that waited.
     *
     * @return an unmodifiable view
     */
    public List<ProcessEvent> freshOrder() {
        return Collections.unmodifiableList(freshOrder);
    }

    /**
     * Returns how many replicas restarted.
     *
     * @return the number of restarts
     */
    public int restarts() {
        return restarts;
    }

    /**
     * Returns how many replicas restarted inside a call: from a checkpoint that counted a waiting call as issued, while
     * that call's request still waited.
     *
     * @return the number of restarts inside calls
     */
    public int restartsInsideCalls() {
        return restartsInsideCalls;
    }

    /**
     * Returns how many waiting requests the middleware cancelled.
     *
     * @return the number of cancels
     */
    public int cancels() {
        return cancels;
    }

    private void advance(ScheduledReplica sim) {
        try {
            Optional<String> observed = ReplicatedPrograms.step(sim.replica, programs.get(sim.processId));
            sim.waiting = observed.isEmpty();
            if (observed.isPresent()) {
                sim.observations.add(observed.get());
                version++;
            } else {
                sim.stuckAtVersion = version;
            }
        } catch (ReadLogEvictedException evicted) {
            assertEquals(sim.replica.requestNumber() + 1, evicted.requestNumber());
            if (!byteBudget) {
                assertTrue(evicted.highWaterMark() - evicted.requestNumber() >= readLogCapacity,
                        () -> "evicted although the log covers the lag: " + evicted.getMessage());
            }
            assertTrue(evicted.requestNumber() < evicted.oldestRetained(), evicted::getMessage);
            sim.evicted = true;
        }
    }

    /** The middleware cancels the request the process waits for, if any. */
    private void cancelPending(int processId) {
        DataspaceServer server = dataspace.server();
        Optional<Request> pending = server.pendingRequest(processId);
        if (pending.isPresent()) {
            DataspaceHistory.Call call = history.invokeCancel(processId, pending.get().requestNumber());
            Optional<Reply> answer = server.cancel(processId, pending.get().requestNumber());
            call.returned(CallOutcome.ofCancel(answer));
            assertEquals(Optional.empty(), answer,
                    () -> "the middleware cancelled " + pending.get() + ", which waited");
            freshOrder.add(ProcessEvent.cancel(processId));
            cancels++;
            version++;
        }
    }

    /** Kills a replica if another live, unevicted replica of its process remains. */
    private void kill(ScheduledReplica sim) {
        boolean survivor = replicas.stream()
                .anyMatch(r -> r != sim && r.processId == sim.processId && !r.dead && !r.evicted);
        if (survivor) {
            die(sim);
        }
    }

    private static void die(ScheduledReplica sim) {
        sim.dead = true;
        sim.replica.close();
    }

    /** Restarts a dead replica of the process from one of its checkpoints, or from the start. */
    private boolean restart(int processId) {
        List<ScheduledReplica> dead = new ArrayList<>();
        for (ScheduledReplica sim : replicas) {
            if (sim.dead && sim.processId == processId) {
                dead.add(sim);
            }
        }
        if (dead.isEmpty()) {
            return false;
        }
        ScheduledReplica old = dead.get(random.nextInt(dead.size()));
        restartFrom(old, random.nextInt(old.checkpoints.size() + 1));
        return true;
    }

    /** Restarts a dead replica from its checkpoint {@code choice}, or from the start if there is no such one. */
    private void restartFrom(ScheduledReplica old, int choice) {
        int processId = old.processId;
        if (choice == old.checkpoints.size()) {
            replicas.add(new ScheduledReplica(processId, history.recording(dataspace.open(processId, 0)),
                    new ArrayList<>()));
        } else {
            Checkpoint checkpoint = old.checkpoints.get(choice);
            long saved = checkpoint.requestNumber();
            Replica restarted;
            if (checkpoint.insideCall()) {
                boolean stillWaiting = dataspace.server().pendingRequest(processId)
                        .filter(r -> r.requestNumber() == saved).isPresent();
                // Once the call has completed, the number such a checkpoint stands for is the one before it.
                restarted = dataspace.open(processId, stillWaiting ? saved : saved - 1);
                assertEquals(saved - 1, restarted.requestNumber(), () -> "process " + processId + " restarted "
                        + (stillWaiting ? "inside its waiting request " : "after its request ") + saved);
                restartsInsideCalls += stillWaiting ? 1 : 0;
            } else {
                restarted = dataspace.open(processId, saved);
            }
            replicas.add(new ScheduledReplica(processId, history.recording(restarted),
                    new ArrayList<>(checkpoint.observations())));
        }
        restarts++;
    }

    /**
     * A replica's checkpoint: the request number it saved (that of the waiting call when {@code insideCall}) and what
     * it had observed.
     */
    private record Checkpoint(long requestNumber, boolean insideCall, List<String> observations) {
    }

    /**
     * One replica of a {@link ReplicatedRun}: its handle, what it observed, and whether it died or was evicted.
     *
     * <p>Not thread-safe: the run changes it as it executes; read it on the run's thread.
     *
     * @since 0.1
     */
    public static final class ScheduledReplica {
        private final int processId;
        private final Replica replica;
        private final List<String> observations;
        private final List<Checkpoint> checkpoints = new ArrayList<>();
        private boolean dead;
        private boolean evicted;
        /** Whether the replica's last call left its request pending. */
        private boolean waiting;
        private long stuckAtVersion = -1;

        ScheduledReplica(int processId, Replica replica, List<String> observations) {
            this.processId = processId;
            this.replica = replica;
            this.observations = observations;
        }

        /**
         * Returns the replica's process.
         *
         * @return the process id
         */
        public int processId() {
            return processId;
        }

        /**
         * Returns the replica's handle.
         *
         * @return the handle (closed if the replica died)
         */
        public Replica replica() {
            return replica;
        }

        /**
         * Returns what the replica's calls observed, in order, including the prefix it restarted with.
         *
         * @return an unmodifiable view
         */
        public List<String> observations() {
            return Collections.unmodifiableList(observations);
        }

        /**
         * Tells whether the replica died.
         *
         * @return whether the schedule killed it
         */
        public boolean dead() {
            return dead;
        }

        /**
         * Tells whether the replica stopped on a {@link ReadLogEvictedException}.
         *
         * @return whether it was evicted
         */
        public boolean evicted() {
            return evicted;
        }

        /** The handle and the replica's fate, without its observations (a failure message lists those once). */
        private String name() {
            return replica + (dead ? " (dead)" : "") + (evicted ? " (evicted)" : "");
        }

        @Override
        public String toString() {
            return name() + " " + observations;
        }
    }
}
