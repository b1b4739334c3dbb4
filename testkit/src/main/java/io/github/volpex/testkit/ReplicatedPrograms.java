package io.github.volpex.testkit;

import static io.github.volpex.testkit.ContractSupport.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceCancelledException;
import io.github.volpex.dataspace.DataspaceTimeoutException;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.Replica;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Random replicated programs and their oracle: what each process observes in a run with one replica per process.
 *
 * <p>A program is a list of {@link ProgramStep}s per logical process. Every replica of a process runs the same program;
 * the Volpex guarantee (Kanna et al., §II-B) is that each replica observes exactly what the single-replica run
 * observes, whatever the replicas' speeds, deaths and restarts. Processes race with each other for tags, so the single
 * run is defined by a <em>fresh order</em>: the order in which each (process, request number) was first issued in
 * the replicated run's global serial order, and where the middleware cancelled a request that waited, given as a list
 * of {@link ProcessEvent}s. {@link #singleReplicaRun(List, List)} replays the programs in that order on an in-process
 * dataspace, and {@link #assertConsistentWithSingleReplicaRun(List, List, List)} compares every replica's observations
 * with it.
 *
 * <p>Use {@link ReplicatedRun} for a deterministic single-threaded schedule over any {@link Dataspace}; a test that
 * runs replicas on threads or in other JVMs calls {@link #step(Replica, List, Duration)} itself and recovers the fresh
 * order from its implementation.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.1
 */
public final class ReplicatedPrograms {

    /** What {@link #step} observes for a put. */
    public static final String PUT = "put";
    /** What {@link #step} observes for a single-assignment put that stored its data. */
    public static final String STORED = "stored";
    /** What {@link #step} observes for a single-assignment put that found the tag present. */
    public static final String KEPT = "kept";
    /** What {@link #step} observes for a try-operation that found the tag absent. */
    public static final String ABSENT = "absent";
    /** What {@link #step} observes for a read or get that was cancelled while it waited. */
    public static final String CANCELLED = "cancelled";

    private ReplicatedPrograms() {
    }

    /**
     * Returns random programs for 2 to 4 processes of 1 to 12 steps each on the tags {@code a}, {@code b} and
     * {@code c}: puts (4 in 11), single-assignment puts (1), reads (2), gets (2), try-reads (1) and try-gets (1).
     * Few tags make processes race for them, so tuples are overwritten, consumed and waited for.
     *
     * @return the arbitrary, one list of steps per process
     */
    public static Arbitrary<List<List<ProgramStep>>> programs() {
        return programs(2, 4, 12);
    }

    /**
     * Returns random programs with the same mix of operations and tags as {@link #programs()}, sized as given.
     *
     * @param minProcesses the fewest processes, {@code ≥ 1}
     * @param maxProcesses the most processes, {@code ≥ minProcesses}
     * @param maxSteps     the longest program, {@code ≥ 1}
     * @return the arbitrary, one list of steps per process
     * @throws IllegalArgumentException if a bound is out of range
     */
    public static Arbitrary<List<List<ProgramStep>>> programs(int minProcesses, int maxProcesses, int maxSteps) {
        if (minProcesses < 1) {
            throw new IllegalArgumentException("minProcesses must be >= 1: " + minProcesses);
        }
        if (maxProcesses < minProcesses) {
            throw new IllegalArgumentException("maxProcesses must be >= minProcesses (" + minProcesses + "): "
                    + maxProcesses);
        }
        if (maxSteps < 1) {
            throw new IllegalArgumentException("maxSteps must be >= 1: " + maxSteps);
        }
        Arbitrary<Operation> operations = Arbitraries.frequency(
                Tuple.of(4, Operation.PUT), Tuple.of(1, Operation.PUT_IF_ABSENT), Tuple.of(2, Operation.READ),
                Tuple.of(2, Operation.GET), Tuple.of(1, Operation.TRY_READ), Tuple.of(1, Operation.TRY_GET));
        Arbitrary<ProgramStep> steps = Combinators.combine(operations, Arbitraries.of("a", "b", "c"))
                .as(ProgramStep::new);
        return steps.list().ofMinSize(1).ofMaxSize(maxSteps).list().ofMinSize(minProcesses).ofMaxSize(maxProcesses);
    }

    /**
     * Returns the data that step {@code index} of process {@code processId} puts: the UTF-8 text
     * {@code "p<processId>.<index>"}.
     *
     * @param processId the process
     * @param index     the step's index in the program (its request number minus one)
     * @return new bytes
     */
    public static byte[] data(int processId, int index) {
        return ContractSupport.bytes("p" + processId + "." + index);
    }

    /**
     * Issues the replica's next call (the step at its {@link Replica#requestNumber()}) without waiting: a read or get
     * whose tag is absent stays pending and the result is empty. Calling again later retries the same request.
     *
     * @param replica the replica
     * @param program its process's program
     * @return what the call observed, or empty when it is pending
     * @throws IndexOutOfBoundsException if the replica has completed its program
     */
    public static Optional<String> step(Replica replica, List<ProgramStep> program) {
        try {
            return step(replica, program, Duration.ZERO);
        } catch (InterruptedException ex) {
            throw new AssertionError("a zero timeout never waits", ex);
        }
    }

    /**
     * Issues the replica's next call (the step at its {@link Replica#requestNumber()}), waiting at most
     * {@code timeout} for a read or get. The observation is {@value #PUT} for a put, {@value #STORED} or
     * {@value #KEPT} for a single-assignment put, the data as UTF-8 text for a read or get (or {@value #CANCELLED}
     * when it was cancelled while it waited), and the data or {@value #ABSENT} for a try-operation.
     *
     * @param replica the replica
     * @param program its process's program
     * @param timeout how long a read or get may wait
     * @return what the call observed, or empty when a read or get is still pending after {@code timeout}
     * @throws InterruptedException      if interrupted while waiting; the request stays pending
     * @throws IndexOutOfBoundsException if the replica has completed its program
     */
    public static Optional<String> step(Replica replica, List<ProgramStep> program, Duration timeout)
            throws InterruptedException {
        int index = (int) replica.requestNumber();
        ProgramStep step = program.get(index);
        String tag = step.tag();
        try {
            return Optional.of(switch (step.operation()) {
                case PUT -> {
                    replica.put(tag, data(replica.processId(), index));
                    yield PUT;
                }
                case PUT_IF_ABSENT -> replica.putIfAbsent(tag, data(replica.processId(), index)) ? STORED : KEPT;
                case READ -> text(replica.read(tag, timeout));
                case GET -> text(replica.get(tag, timeout));
                case TRY_READ -> replica.tryRead(tag).map(ContractSupport::text).orElse(ABSENT);
                case TRY_GET -> replica.tryGet(tag).map(ContractSupport::text).orElse(ABSENT);
                default -> throw new AssertionError(step);
            });
        } catch (DataspaceTimeoutException stillPending) {
            return Optional.empty();
        } catch (DataspaceCancelledException cancelled) {
            return Optional.of(CANCELLED);
        }
    }

    /**
     * Runs the programs with one replica per process on an in-process dataspace, issuing each process's requests and
     * cancelling its waiting requests in the given fresh order, and returns what each process observed. A request left
     * pending completes when a later put serves it or a later cancel ends it ({@value #CANCELLED}); the process's next
     * request is issued only after that.
     *
     * @param programs   one program per process
     * @param freshOrder the events in the order they happened; process {@code p} has at most
     *                   {@code programs.get(p).size()} {@link ProcessEvent.Kind#ISSUE} events
     * @return one list of observations per process
     * @throws AssertionError if the order asks a process to issue a request while its previous one is still pending
     *                        in the single run, or cancels a request that does not wait there, that is, when no single
     *                        run explains the order
     */
    public static List<List<String>> singleReplicaRun(List<List<ProgramStep>> programs,
            List<ProcessEvent> freshOrder) {
        int processCount = programs.size();
        List<List<String>> observations = new ArrayList<>();
        try (Dataspace dataspace = Dataspace.inProcess(processCount)) {
            Replica[] replicas = new Replica[processCount];
            boolean[] pending = new boolean[processCount];
            for (int process = 0; process < processCount; process++) {
                replicas[process] = dataspace.open(process);
                observations.add(new ArrayList<>());
            }
            for (ProcessEvent event : freshOrder) {
                int process = event.processId();
                if (event.isCancel()) {
                    assertTrue(pending[process], () -> "the middleware cancelled a request of process " + process
                            + " that does not wait in the single run");
                    assertEquals(Optional.empty(), dataspace.server().cancel(process,
                            replicas[process].requestNumber() + 1), () -> "process " + process + "'s request was "
                            + "served before the middleware cancelled it in the single run");
                    continue;
                }
                if (pending[process]) {
                    Optional<String> completed = step(replicas[process], programs.get(process));
                    int p = process;
                    observations.get(process).add(completed.orElseThrow(() -> new AssertionError(
                            "process " + p + " issued its next request before this one completed")));
                    pending[process] = false;
                }
                Optional<String> observed = step(replicas[process], programs.get(process));
                observed.ifPresent(observations.get(process)::add);
                pending[process] = observed.isEmpty();
            }
            for (int process = 0; process < processCount; process++) {
                if (pending[process]) {
                    step(replicas[process], programs.get(process)).ifPresent(observations.get(process)::add);
                }
            }
        }
        return observations;
    }

    /**
     * Asserts that every replica observed a prefix of its process's single-replica run in the given fresh order, and
     * that every replica required to complete observed all of it.
     *
     * @param programs   one program per process
     * @param freshOrder the events in the order they happened (see {@link #singleReplicaRun(List, List)})
     * @param histories  what each replica observed
     * @return the single-replica run's observations, one list per process
     * @throws AssertionError if a replica saw something the single run did not, or a replica that had to complete did
     *                        not reach the end of the single run
     */
    public static List<List<String>> assertConsistentWithSingleReplicaRun(List<List<ProgramStep>> programs,
            List<ProcessEvent> freshOrder, List<ReplicaHistory> histories) {
        List<List<String>> single = singleReplicaRun(programs, freshOrder);
        for (ReplicaHistory history : histories) {
            List<String> expected = single.get(history.processId());
            List<String> observed = history.observations();
            assertTrue(observed.size() <= expected.size(), () -> "replica " + history + " saw more than the single "
                    + "run: " + observed + " vs " + expected);
            assertEquals(expected.subList(0, observed.size()), observed,
                    () -> "replica " + history + " observed a different value");
            if (history.mustComplete()) {
                assertEquals(expected, observed, () -> "surviving replica " + history
                        + " did not reach the end of the single run");
            }
        }
        return single;
    }

    /**
     * What one replica observed in a replicated run. Immutable and thread-safe: the observations are copied.
     *
     * @param name         how failure messages name the replica
     * @param processId    its process
     * @param observations what its calls observed, in order (copied)
     * @param mustComplete whether it survived and so must have observed its process's whole single run
     * @since 0.1
     */
    public record ReplicaHistory(String name, int processId, List<String> observations, boolean mustComplete) {

        /**
         * Validates and copies the history.
         *
         * @param name         how failure messages name the replica
         * @param processId    its process, {@code ≥ 0}
         * @param observations what its calls observed, in order (copied)
         * @param mustComplete whether it must have observed its process's whole single run
         * @throws NullPointerException     if the name or the observations are null
         * @throws IllegalArgumentException if {@code processId < 0}
         */
        public ReplicaHistory {
            Objects.requireNonNull(name, "name");
            if (processId < 0) {
                throw new IllegalArgumentException("processId must be >= 0: " + processId);
            }
            observations = List.copyOf(observations);
        }

        @Override
        public String toString() {
            return name + " (process " + processId + ") " + observations;
        }
    }
}
