package io.github.volpex.dataspace;

import static io.github.volpex.dataspace.TestSupport.bytes;
import static io.github.volpex.dataspace.TestSupport.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * The paper's guarantee as a property: random per-process programs run with 1–3 replicas per process under a random
 * schedule — replicas die (at least one survives per process), save checkpoints (also in the middle of a call that
 * waits, numbered as issued) and restart from a saved request number, and middleware cancels requests that wait — and
 * every replica's observations equal those of a run with one replica per process; a replica that trails by more than
 * the read log holds gets {@link ReadLogEvictedException}, never a wrong value.
 *
 * <p>The scheduler is deterministic and single-threaded (every call uses a zero timeout; a read or get that must wait
 * stays pending and is retried when the dataspace has changed), so a failing case replays from its seed. Programs race
 * with each other for tags, so the single-replica run follows the process-level order of the replicated run: the order
 * in which each (process, request number) was first issued by any replica, and where the middleware cancelled.
 */
class ReplicatedRunPropertiesTest {

    private static final int MAX_STEPS = 20_000;

    /** One call of a program; a put's data is derived from its position. */
    record Step(Operation operation, String tag) {
    }

    /** A process-level event of the replicated run: a request first issued, or the middleware's cancel. */
    record Event(int processId, boolean cancel) {
    }

    @Provide
    Arbitrary<List<List<Step>>> programs() {
        Arbitrary<Operation> operations = Arbitraries.frequency(
                Tuple.of(4, Operation.PUT), Tuple.of(1, Operation.PUT_IF_ABSENT), Tuple.of(2, Operation.READ),
                Tuple.of(2, Operation.GET), Tuple.of(1, Operation.TRY_READ), Tuple.of(1, Operation.TRY_GET));
        Arbitrary<Step> steps = Combinators.combine(operations, Arbitraries.of("a", "b", "c")).as(Step::new);
        return steps.list().ofMinSize(1).ofMaxSize(12).list().ofMinSize(2).ofMaxSize(4);
    }

    @Property(tries = 400)
    void every_replica_observes_the_single_replica_run_or_a_typed_eviction(
            @ForAll("programs") List<List<Step>> programs,
            @ForAll @IntRange(min = 1, max = 6) int readLogCapacity,
            @ForAll long scheduleSeed) {
        int processCount = programs.size();
        ReplicatedRun run = new ReplicatedRun(programs, readLogCapacity, new SplittableRandom(scheduleSeed));
        run.execute();
        List<List<String>> single = singleReplicaRun(programs, run.freshOrder);
        for (Sim replica : run.replicas) {
            List<String> expected = single.get(replica.processId);
            assertTrue(replica.observations.size() <= expected.size(), () -> "replica " + replica + " saw more than "
                    + "the single run: " + replica.observations + " vs " + expected);
            assertEquals(expected.subList(0, replica.observations.size()), replica.observations,
                    () -> "replica " + replica + " observed a different value");
            if (!replica.dead && !replica.evicted) {
                assertEquals(expected, replica.observations, () -> "surviving replica " + replica
                        + " did not reach the end of the single run");
            }
        }
        Statistics.label("a replica was evicted").collect(run.replicas.stream().anyMatch(r -> r.evicted));
        Statistics.label("a replica restarted").collect(run.restarts > 0);
        Statistics.label("a trailing replica was served from the log")
                .collect(run.dataspace.statistics().servedFromLog() > 0);
        Statistics.label("a request stayed pending").collect(run.dataspace.statistics().joinedPending() > 0);
        Statistics.label("the middleware cancelled a request").collect(run.cancels > 0);
        Statistics.label("a replica restarted inside a call").collect(run.restartsInsideCalls > 0);
        Statistics.label("a replica was evicted").coverage(c -> c.check(true).percentage(p -> p >= 3));
        Statistics.label("a replica restarted").coverage(c -> c.check(true).percentage(p -> p >= 20));
        Statistics.label("a trailing replica was served from the log")
                .coverage(c -> c.check(true).percentage(p -> p >= 50));
        Statistics.label("a request stayed pending").coverage(c -> c.check(true).percentage(p -> p >= 10));
        Statistics.label("the middleware cancelled a request").coverage(c -> c.check(true).percentage(p -> p >= 10));
        Statistics.label("a replica restarted inside a call").coverage(c -> c.check(true).percentage(p -> p >= 2));
        for (int process = 0; process < processCount; process++) {
            int p = process;
            assertTrue(run.replicas.stream().anyMatch(r -> r.processId == p && !r.dead),
                    "every process keeps a survivor");
        }
    }

    @Property(tries = 100)
    void with_one_replica_per_process_and_no_failures_no_replica_lags(
            @ForAll("programs") List<List<Step>> programs, @ForAll long scheduleSeed) {
        ReplicatedRun run = new ReplicatedRun(programs, 1, new SplittableRandom(scheduleSeed));
        run.replicasPerProcess = 1;
        run.failures = false;
        run.execute();
        DataspaceStatistics statistics = run.dataspace.statistics();
        assertEquals(0, statistics.duplicatesIgnored());
        assertEquals(0, statistics.maxReplicaLag(), "only retries of the process's own pending request replay");
        assertEquals(0, statistics.evictedRequests());
        List<List<String>> single = singleReplicaRun(programs, run.freshOrder);
        for (Sim replica : run.replicas) {
            assertEquals(single.get(replica.processId), replica.observations);
        }
    }

    /** The reference: one replica per process, issuing each process's requests and cancels in the given order. */
    private static List<List<String>> singleReplicaRun(List<List<Step>> programs, List<Event> freshOrder) {
        int processCount = programs.size();
        List<List<String>> observations = new ArrayList<>();
        try (Dataspace dataspace = Dataspace.inProcess(processCount)) {
            Replica[] replicas = new Replica[processCount];
            boolean[] pending = new boolean[processCount];
            for (int process = 0; process < processCount; process++) {
                replicas[process] = dataspace.open(process);
                observations.add(new ArrayList<>());
            }
            for (Event event : freshOrder) {
                int process = event.processId();
                if (event.cancel()) {
                    assertTrue(pending[process], "the middleware cancels only a request that waits");
                    assertEquals(Optional.empty(),
                            dataspace.server().cancel(process, replicas[process].requestNumber() + 1));
                    continue;
                }
                if (pending[process]) {
                    Optional<String> completed = call(replicas[process], programs.get(process));
                    observations.get(process).add(completed.orElseThrow(() -> new AssertionError(
                            "process " + process + " issued its next request before this one completed")));
                    pending[process] = false;
                }
                Optional<String> observed = call(replicas[process], programs.get(process));
                observed.ifPresent(observations.get(process)::add);
                pending[process] = observed.isEmpty();
            }
            for (int process = 0; process < processCount; process++) {
                if (pending[process]) {
                    call(replicas[process], programs.get(process)).ifPresent(observations.get(process)::add);
                }
            }
        }
        return observations;
    }

    /** Issues the replica's next call with a zero timeout; empty when it stays pending. */
    static Optional<String> call(Replica replica, List<Step> program) {
        int index = (int) replica.requestNumber();
        Step step = program.get(index);
        String tag = step.tag();
        byte[] data = bytes("p" + replica.processId() + "." + index);
        try {
            switch (step.operation()) {
                case PUT:
                    replica.put(tag, data);
                    return Optional.of("put");
                case PUT_IF_ABSENT:
                    return Optional.of(replica.putIfAbsent(tag, data) ? "stored" : "kept");
                case READ:
                    return Optional.of(text(replica.read(tag, Duration.ZERO)));
                case GET:
                    return Optional.of(text(replica.get(tag, Duration.ZERO)));
                case TRY_READ:
                    return Optional.of(replica.tryRead(tag).map(TestSupport::text).orElse("absent"));
                case TRY_GET:
                    return Optional.of(replica.tryGet(tag).map(TestSupport::text).orElse("absent"));
                default:
                    throw new AssertionError(step);
            }
        } catch (DataspaceTimeoutException stillPending) {
            return Optional.empty();
        } catch (DataspaceCancelledException cancelled) {
            return Optional.of("cancelled");
        } catch (InterruptedException ex) {
            throw new AssertionError("a zero timeout never waits", ex);
        }
    }

    /** One replica in the simulation. */
    static final class Sim {
        final int processId;
        final Replica replica;
        final List<String> observations;
        final List<long[]> checkpoints = new ArrayList<>();
        final List<List<String>> checkpointObservations = new ArrayList<>();
        boolean dead;
        boolean evicted;
        /** Whether the replica's last call left its request pending. */
        boolean waiting;
        long stuckAtVersion = -1;

        Sim(int processId, Replica replica, List<String> observations) {
            this.processId = processId;
            this.replica = replica;
            this.observations = observations;
        }

        @Override
        public String toString() {
            return replica + (dead ? " (dead)" : "") + (evicted ? " (evicted)" : "") + " " + observations;
        }
    }

    /** The replicated run under a deterministic random schedule. */
    static final class ReplicatedRun {
        final List<List<Step>> programs;
        final int readLogCapacity;
        final SplittableRandom random;
        final Dataspace dataspace;
        final List<Sim> replicas = new ArrayList<>();
        final List<Event> freshOrder = new ArrayList<>();
        int replicasPerProcess = -1;
        int restarts;
        int restartsInsideCalls;
        int cancels;
        boolean failures = true;
        private long version;

        ReplicatedRun(List<List<Step>> programs, int readLogCapacity, SplittableRandom random) {
            this.programs = programs;
            this.readLogCapacity = readLogCapacity;
            this.random = random;
            this.dataspace = Dataspace.inProcess(programs.size(),
                    DataspaceOptions.builder().readLogCapacity(readLogCapacity).build());
        }

        void execute() {
            int processCount = programs.size();
            for (int process = 0; process < processCount; process++) {
                int count = replicasPerProcess > 0 ? replicasPerProcess : 1 + random.nextInt(3);
                for (int i = 0; i < count; i++) {
                    replicas.add(new Sim(process, dataspace.open(process), new ArrayList<>()));
                }
            }
            long[] maxIssued = new long[processCount];
            int restartsLeft = 2 * processCount;
            for (int step = 0; step < MAX_STEPS; step++) {
                List<Sim> runnable = new ArrayList<>();
                for (Sim sim : replicas) {
                    if (!sim.dead && !sim.evicted && sim.stuckAtVersion != version
                            && sim.replica.requestNumber() < programs.get(sim.processId).size()) {
                        runnable.add(sim);
                    }
                }
                if (runnable.isEmpty()) {
                    return;
                }
                Sim sim = runnable.get(random.nextInt(runnable.size()));
                int event = failures ? random.nextInt(100) : 99;
                if (event < 8) {
                    kill(sim);
                } else if (event < 16 && restartsLeft > 0) {
                    restartsLeft -= restart(sim.processId) ? 1 : 0;
                } else if (event < 22) {
                    // Inside a call that waits, a checkpoint may count the call as issued (as middleware counting
                    // issued requests would); a restart from it must still receive the call's result.
                    boolean insideCall = sim.waiting && random.nextBoolean();
                    long saved = sim.replica.requestNumber() + (insideCall ? 1 : 0);
                    sim.checkpoints.add(new long[] {saved, insideCall ? 1 : 0});
                    sim.checkpointObservations.add(List.copyOf(sim.observations));
                    if (insideCall && restartsLeft > 0 && random.nextBoolean() && kill(sim)) {
                        // The host fails right after the checkpoint; the middleware restarts the replica at once.
                        restartFrom(sim, sim.checkpoints.size() - 1);
                        restartsLeft--;
                    }
                } else if (event < 25) {
                    cancelPending(sim.processId);
                } else {
                    long next = sim.replica.requestNumber() + 1;
                    if (next > maxIssued[sim.processId]) {
                        maxIssued[sim.processId] = next;
                        freshOrder.add(new Event(sim.processId, false));
                    }
                    advance(sim);
                }
            }
            fail("the schedule did not finish in " + MAX_STEPS + " steps");
        }

        private void advance(Sim sim) {
            try {
                Optional<String> observed = call(sim.replica, programs.get(sim.processId));
                sim.waiting = observed.isEmpty();
                if (observed.isPresent()) {
                    sim.observations.add(observed.get());
                    version++;
                } else {
                    sim.stuckAtVersion = version;
                }
            } catch (ReadLogEvictedException evicted) {
                assertEquals(sim.replica.requestNumber() + 1, evicted.requestNumber());
                assertTrue(evicted.highWaterMark() - evicted.requestNumber() >= readLogCapacity,
                        () -> "evicted although the log covers the lag: " + evicted.getMessage());
                assertTrue(evicted.requestNumber() < evicted.oldestRetained(), evicted::getMessage);
                sim.evicted = true;
            }
        }

        /** The middleware cancels the request the process waits for, if any. */
        private void cancelPending(int processId) {
            DataspaceServer server = dataspace.server();
            Optional<Request> pending = server.pendingRequest(processId);
            if (pending.isPresent()) {
                assertEquals(Optional.empty(), server.cancel(processId, pending.get().requestNumber()));
                freshOrder.add(new Event(processId, true));
                cancels++;
                version++;
            }
        }

        /** Kills a replica if another live, unevicted replica of its process remains; tells whether it did. */
        private boolean kill(Sim sim) {
            boolean survivor = replicas.stream()
                    .anyMatch(r -> r != sim && r.processId == sim.processId && !r.dead && !r.evicted);
            if (survivor) {
                sim.dead = true;
                sim.replica.close();
            }
            return survivor;
        }

        /** Restarts a dead replica of the process from one of its checkpoints, or from the start. */
        private boolean restart(int processId) {
            List<Sim> dead = new ArrayList<>();
            for (Sim sim : replicas) {
                if (sim.dead && sim.processId == processId) {
                    dead.add(sim);
                }
            }
            if (dead.isEmpty()) {
                return false;
            }
            Sim old = dead.get(random.nextInt(dead.size()));
            restartFrom(old, random.nextInt(old.checkpoints.size() + 1));
            return true;
        }

        /** Restarts a dead replica from its checkpoint {@code choice}, or from the start if there is no such one. */
        private void restartFrom(Sim old, int choice) {
            int processId = old.processId;
            long saved = choice == old.checkpoints.size() ? 0 : old.checkpoints.get(choice)[0];
            boolean insideCall = choice < old.checkpoints.size() && old.checkpoints.get(choice)[1] == 1;
            List<String> prefix = choice == old.checkpoints.size() ? List.of() : old.checkpointObservations.get(choice);
            if (insideCall) {
                boolean stillWaiting = dataspace.server().pendingRequest(processId)
                        .filter(r -> r.requestNumber() == saved).isPresent();
                // Once the call has completed, the number such a checkpoint stands for is the one before it.
                long resumeAt = stillWaiting ? saved : saved - 1;
                Replica restarted = dataspace.open(processId, resumeAt);
                assertEquals(saved - 1, restarted.requestNumber(), "a restart inside a call resumes inside it");
                replicas.add(new Sim(processId, restarted, new ArrayList<>(prefix)));
                restartsInsideCalls += stillWaiting ? 1 : 0;
            } else {
                replicas.add(new Sim(processId, dataspace.open(processId, saved), new ArrayList<>(prefix)));
            }
            restarts++;
        }
    }
}
