package io.github.volpex.dataspace;

import static io.github.volpex.dataspace.TestSupport.bytes;
import static io.github.volpex.dataspace.TestSupport.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.testsupport.SearchDepth;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real threads racing through the in-process dataspace: every logical process runs as two replicas on two threads,
 * which issue the same random program on two shared tags — puts, single-assignment puts, try-ops, and reads and gets
 * that are left waiting for a while and then cancelled — each thread visiting its replicas in a random order.
 * Replicas of one process race for their requests (one executes, the other joins or replays), puts race with waiting
 * gets and with their cancels, and processes race for tags. Afterwards both replicas of every process must have
 * observed the same outcomes, no value put may have been taken twice or invented, and nothing may be left waiting.
 *
 * <p>The programs and visiting orders come from a seed, named in every failure; replay them with
 * {@code -Dvolpex.dataspace.stress.seed=<seed>} (the threads' interleaving is the machine's).
 */
// A hang guard only (a lost wake-up blocks forever), far above the run time of a loaded machine.
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ConcurrentReplicasStressTest {

    private static final int PROCESSES = 8;
    private static final int STEPS = 20_000;
    private static final String[] TAGS = {"a", "b"};

    private enum Kind { PUT, PUT_IF_ABSENT, TRY_READ, TRY_GET, READ_OR_CANCEL, GET_OR_CANCEL }

    private record Step(Kind kind, String tag) {
    }

    @Test
    void replicas_racing_on_two_threads_observe_the_same_outcomes_and_lose_or_duplicate_nothing() throws Exception {
        SearchDepth.eachSeed("volpex.dataspace.stress.seed", 1, ConcurrentReplicasStressTest::run);
    }

    private static void run(long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        List<List<Step>> programs = new ArrayList<>();
        for (int process = 0; process < PROCESSES; process++) {
            List<Step> program = new ArrayList<>();
            for (int i = 0; i < STEPS; i++) {
                program.add(new Step(Kind.values()[random.nextInt(Kind.values().length)],
                        TAGS[random.nextInt(TAGS.length)]));
            }
            programs.add(program);
        }
        DataspaceOptions options = DataspaceOptions.builder().readLogCapacity(2 * STEPS).build();
        try (Dataspace dataspace = Dataspace.inProcess(PROCESSES, options)) {
            CyclicBarrier start = new CyclicBarrier(2);
            List<CompletableFuture<List<List<String>>>> threads = new ArrayList<>();
            for (int thread = 0; thread < 2; thread++) {
                long threadSeed = random.nextLong();
                CompletableFuture<List<List<String>>> result = new CompletableFuture<>();
                Thread runner = new Thread(() -> {
                    try {
                        start.await(10, TimeUnit.SECONDS);
                        result.complete(runReplicas(dataspace, programs, new SplittableRandom(threadSeed)));
                    } catch (Throwable t) {
                        result.completeExceptionally(t);
                    }
                }, "replicas-" + thread);
                runner.setDaemon(true);
                runner.start();
                threads.add(result);
            }
            List<List<String>> first = threads.get(0).get(100, TimeUnit.SECONDS);
            List<List<String>> second = threads.get(1).get(100, TimeUnit.SECONDS);
            Set<String> written = new HashSet<>();
            Set<String> taken = new HashSet<>();
            for (int process = 0; process < PROCESSES; process++) {
                assertEquals(first.get(process), second.get(process),
                        "the two replicas of process " + process + " observed different outcomes");
                for (int i = 0; i < STEPS; i++) {
                    if (programs.get(process).get(i).kind() == Kind.PUT
                            || programs.get(process).get(i).kind() == Kind.PUT_IF_ABSENT) {
                        written.add(value(process, i));
                    }
                }
            }
            for (int process = 0; process < PROCESSES; process++) {
                for (int i = 0; i < STEPS; i++) {
                    Kind kind = programs.get(process).get(i).kind();
                    String observed = first.get(process).get(i);
                    boolean received = kind != Kind.PUT && kind != Kind.PUT_IF_ABSENT
                            && !observed.equals("absent") && !observed.equals("cancelled");
                    if (received) {
                        assertTrue(written.contains(observed), "process " + process + " received " + observed
                                + ", which no request put");
                    }
                    if (received && (kind == Kind.TRY_GET || kind == Kind.GET_OR_CANCEL)) {
                        assertTrue(taken.add(observed), observed + " was taken twice");
                    }
                }
                assertEquals(Optional.empty(), dataspace.server().pendingRequest(process),
                        "every request that waited was served or cancelled");
            }
            assertEquals(STEPS, dataspace.server().highWaterMark(0));
        }
    }

    /** Runs one replica of every process, visiting them in a random order; returns each replica's observations. */
    private static List<List<String>> runReplicas(Dataspace dataspace, List<List<Step>> programs,
            SplittableRandom random) {
        List<Replica> replicas = new ArrayList<>();
        List<List<String>> observations = new ArrayList<>();
        List<Integer> unfinished = new ArrayList<>();
        boolean[] waited = new boolean[PROCESSES];
        for (int process = 0; process < PROCESSES; process++) {
            replicas.add(dataspace.open(process));
            observations.add(new ArrayList<>());
            unfinished.add(process);
        }
        while (!unfinished.isEmpty()) {
            int slot = random.nextInt(unfinished.size());
            int process = unfinished.get(slot);
            Replica replica = replicas.get(process);
            int index = (int) replica.requestNumber();
            String observed = step(replica, programs.get(process).get(index), value(process, index), waited[process]);
            waited[process] = observed == null;
            if (observed != null) {
                observations.get(process).add(observed);
            }
            if (replica.requestNumber() == STEPS) {
                unfinished.remove(slot);
            }
        }
        return observations;
    }

    /**
     * Runs one step; a read or get that would wait is left pending the first time (null is returned, the replica
     * visits it again later) and cancelled the second time ({@code waitedBefore}).
     */
    private static String step(Replica replica, Step step, String value, boolean waitedBefore) {
        String tag = step.tag();
        switch (step.kind()) {
            case PUT -> {
                replica.put(tag, bytes(value));
                return "put";
            }
            case PUT_IF_ABSENT -> {
                return replica.putIfAbsent(tag, bytes(value)) ? "stored" : "kept";
            }
            case TRY_READ -> {
                return replica.tryRead(tag).map(TestSupport::text).orElse("absent");
            }
            case TRY_GET -> {
                return replica.tryGet(tag).map(TestSupport::text).orElse("absent");
            }
            case READ_OR_CANCEL, GET_OR_CANCEL -> {
                try {
                    return text(step.kind() == Kind.GET_OR_CANCEL ? replica.get(tag, Duration.ZERO)
                            : replica.read(tag, Duration.ZERO));
                } catch (DataspaceTimeoutException waiting) {
                    return waitedBefore ? replica.cancelPending().map(TestSupport::text).orElse("cancelled") : null;
                } catch (DataspaceCancelledException cancelled) {
                    return "cancelled";
                } catch (InterruptedException ex) {
                    throw new AssertionError("a zero timeout never waits", ex);
                }
            }
            default -> throw new AssertionError(step);
        }
    }

    private static String value(int process, int index) {
        return "p" + process + "." + index;
    }
}
