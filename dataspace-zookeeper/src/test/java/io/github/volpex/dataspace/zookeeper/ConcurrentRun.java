package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.volpex.dataspace.DataspaceClosedException;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.Request;
import io.github.volpex.testkit.ProcessEvent;
import io.github.volpex.testkit.ProgramStep;
import io.github.volpex.testkit.ReplicatedPrograms;
import io.github.volpex.testkit.ReplicatedPrograms.ReplicaHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Random programs run by replicas on threads, each replica on a client (a ZooKeeper session) of its own, while a chaos
 * thread cuts clients' connections (so replies of applied transactions are lost), expires sessions on the client side,
 * kills replicas, which restart from one of their checkpoints with a new client, and, as middleware, cancels the
 * request a process waits for through one of those clients. The first replica of each process is never killed, so
 * every process keeps a survivor.
 *
 * <p>The run ends when it cannot change any more, which the dataspace itself tells: every process has completed its
 * program or waits on a pending request, and every live replica has caught up with its process. Since the faults can
 * still move a settled run on (a cancel of the request a process waits for), the run stops them once it has settled,
 * and ends only when it has settled again without them. The oracle's fresh
 * order is the dataspace's serial order: the zxid at which each request was issued, and each cancel committed.
 */
final class ConcurrentRun {

    private static final Duration STEP_WAIT = Duration.ofMillis(100);
    private static final long RUN_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(90);

    private final IntFunction<ZkDataspace> clients;
    private final ZkDataspace observer;
    private final List<List<ProgramStep>> programs;
    private final SplittableRandom random;
    private final List<Runner> runners = new ArrayList<>();
    private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    private final AtomicInteger kills = new AtomicInteger();
    private final AtomicInteger expiries = new AtomicInteger();
    private final AtomicInteger cancels = new AtomicInteger();
    private volatile boolean stopping;
    private volatile boolean faultsStopped;
    private boolean chaosEnabled = true;

    /**
     * @param clients opens a new client for a process (its argument), on the namespace of {@code observer}
     */
    ConcurrentRun(IntFunction<ZkDataspace> clients, ZkDataspace observer, List<List<ProgramStep>> programs,
            long seed) {
        this.clients = clients;
        this.observer = observer;
        this.programs = programs;
        this.random = new SplittableRandom(seed);
    }

    /** Turns the chaos thread off (faults come from the disruptor alone); returns this run. */
    ConcurrentRun withoutChaos() {
        chaosEnabled = false;
        return this;
    }

    /** Runs until quiescent, then checks every replica against the single-replica run. */
    void executeAndCheck() throws Exception {
        executeAndCheck(run -> { });
    }

    /**
     * Runs until quiescent while {@code disruptor} runs on a thread of its own (it may stop servers, expire sessions:
     * it must return), then checks every replica against the single-replica run.
     */
    void executeAndCheck(Disruptor disruptor) throws Exception {
        for (int process = 0; process < programs.size(); process++) {
            int count = 1 + random.nextInt(3);
            for (int i = 0; i < count; i++) {
                runners.add(new Runner(process, i == 0, random.split()));
            }
        }
        Thread chaos = new Thread(() -> chaos(random.split()), "chaos");
        chaos.setDaemon(true);
        Thread disrupting = new Thread(() -> {
            try {
                disruptor.disrupt(this);
            } catch (Throwable failure) {
                failures.add(failure);
            }
        }, "disruptor");
        disrupting.setDaemon(true);
        try {
            runners.forEach(runner -> runner.thread.start());
            chaos.start();
            disrupting.start();
            awaitSettled(System.nanoTime() + RUN_LIMIT_NANOS);
            disrupting.join(60_000);
            assertTrue(!disrupting.isAlive(), "the disruptor returned");
            // A fault injected after the run first looked settled (a cancel committed just then) may still move it
            // on: stop the faults, then wait for the run to settle again before it ends.
            faultsStopped = true;
            chaos.join(10_000);
            assertTrue(!chaos.isAlive(), "the chaos thread stopped");
            awaitSettled(System.nanoTime() + RUN_LIMIT_NANOS);
        } finally {
            stopping = true;
            chaos.join(10_000);
            for (Runner runner : runners) {
                runner.thread.join(30_000);
                assertTrue(!runner.thread.isAlive(), "replica thread stopped: " + runner);
            }
        }
        if (!failures.isEmpty()) {
            throw new AssertionError("a replica failed", failures.peek());
        }
        List<ReplicaHistory> histories = new ArrayList<>();
        for (Runner runner : runners) {
            histories.addAll(runner.histories);
        }
        ReplicatedPrograms.assertConsistentWithSingleReplicaRun(programs, freshOrder(observer, programs.size()),
                histories);
    }

    /** Waits until {@link #quiescentState()} describes the same state twice in a row, 20 ms apart. */
    private void awaitSettled(long deadline) throws InterruptedException {
        String previous = null;
        while (true) {
            String state = quiescentState();
            if (state != null && state.equals(previous)) {
                return;
            }
            previous = state;
            if (!failures.isEmpty()) {
                throw new AssertionError("a replica failed", failures.peek());
            }
            if (System.nanoTime() - deadline > 0) {
                fail("the run did not settle within " + TimeUnit.NANOSECONDS.toSeconds(RUN_LIMIT_NANOS) + " s: "
                        + runners);
            }
            Thread.sleep(20);
        }
    }

    /**
     * The dataspace's serial order, for the oracle: every request's issue, and every cancel, of the namespace's
     * {@code processCount} processes in zxid order, as {@code observer} reads them from the read logs.
     */
    static List<ProcessEvent> freshOrder(ZkDataspace observer, int processCount) {
        TreeMap<Long, ProcessEvent> byZxid = new TreeMap<>();
        for (int process = 0; process < processCount; process++) {
            long issued = observer.highWaterMark(process);
            for (long request = 1; request <= issued; request++) {
                OptionalLong zxid = observer.context().issueZxid(process, request);
                assertTrue(zxid.isPresent(), "request " + request + " of process " + process + " is in the log");
                assertEquals(null, byZxid.put(zxid.getAsLong(), ProcessEvent.issue(process)), "one event per zxid");
                OptionalLong cancelled = observer.context().cancelZxid(process, request);
                if (cancelled.isPresent()) {
                    assertEquals(null, byZxid.put(cancelled.getAsLong(), ProcessEvent.cancel(process)),
                            "one event per zxid");
                }
            }
        }
        return new ArrayList<>(byZxid.values());
    }

    /**
     * Describes the run if nothing can change any more — every process completed its program or waits on a pending
     * request (so no put remains to serve it), and every live replica has observed all its process completed — or
     * returns null. The caller waits for the same description twice in a row, so that no snapshot taken across a
     * change counts.
     */
    private String quiescentState() {
        StringBuilder state = new StringBuilder();
        long[] issued = new long[programs.size()];
        boolean[] pending = new boolean[programs.size()];
        for (int process = 0; process < programs.size(); process++) {
            issued[process] = observer.highWaterMark(process);
            pending[process] = observer.pendingRequest(process).isPresent();
            if (!pending[process] && issued[process] < programs.get(process).size()) {
                return null;
            }
            state.append(issued[process]).append(pending[process] ? "p " : " ");
        }
        for (Runner runner : runners) {
            int observed = runner.observed;
            int length = programs.get(runner.processId).size();
            boolean atEnd = observed == length;
            boolean waiting = pending[runner.processId] && observed == issued[runner.processId] - 1;
            if (runner.restarting || !(atEnd || waiting)) {
                return null;
            }
            state.append(observed).append(' ');
        }
        return state.toString();
    }

    private void chaos(SplittableRandom random) {
        int killsLeft = 2 * programs.size();
        while (!stopping && !faultsStopped && chaosEnabled) {
            sleep(10 + random.nextInt(40));
            Runner runner = runners.get(random.nextInt(runners.size()));
            ZkDataspace client = runner.client;
            if (client == null || client.isClosed()) {
                continue;
            }
            int action = random.nextInt(100);
            try {
                if (action < 15 && !runner.immortal && killsLeft > 0) {
                    killsLeft--;
                    kills.incrementAndGet();
                    client.close();
                } else if (action < 22) {
                    expiries.incrementAndGet();
                    client.context().session.zooKeeper().getTestable().injectSessionExpiration();
                } else if (action < 32) {
                    cancelPending(client, random.nextInt(programs.size()));
                } else {
                    client.context().session.zooKeeper().getTestable().closeSocket();
                }
            } catch (Exception ex) {
                // The client closed meanwhile.
            }
        }
    }

    /**
     * As middleware would, cancels a request that waits — the first one found from process {@code first} on — through
     * a client the chaos cuts and expires too; a put may serve the request first, and the cancel then returns its
     * outcome.
     */
    private void cancelPending(ZkDataspace client, int first) {
        int processCount = programs.size();
        for (int i = 0; i < processCount; i++) {
            int processId = (first + i) % processCount;
            try {
                Optional<Request> pending = client.server().pendingRequest(processId);
                if (pending.isPresent()) {
                    if (client.server().cancel(processId, pending.get().requestNumber()).isEmpty()) {
                        cancels.incrementAndGet();
                    }
                    return;
                }
            } catch (DataspaceClosedException killed) {
                return; // the replica's client was closed meanwhile
            } catch (RuntimeException | Error failure) {
                failures.add(new AssertionError("the middleware's cancel for process " + processId + " failed",
                        failure));
                return;
            }
        }
    }

    /** Faults injected while the run goes on. */
    @FunctionalInterface
    interface Disruptor {
        void disrupt(ConcurrentRun run) throws Exception;
    }

    /** Returns how many calls the live replicas have completed, over all replicas. */
    int progress() {
        int total = 0;
        for (Runner runner : runners) {
            total += runner.observed;
        }
        return total;
    }

    /** Returns the total number of steps of every replica's program. */
    int totalSteps() {
        int total = 0;
        for (Runner runner : runners) {
            total += programs.get(runner.processId).size();
        }
        return total;
    }

    /** Returns the client of the survivor replica of a process (null while it connects). */
    ZkDataspace survivorClient(int processId) {
        for (Runner runner : runners) {
            if (runner.immortal && runner.processId == processId) {
                return runner.client;
            }
        }
        throw new IllegalArgumentException("no process " + processId);
    }

    /** Waits until the replicas have completed at least {@code calls} calls, at most 180 s. */
    void awaitProgress(int calls) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (progress() < calls && !stopping) {
            assertTrue(System.nanoTime() - deadline < 0, "the run reached " + progress() + " of " + calls + " calls");
            Thread.sleep(5);
        }
    }

    int kills() {
        return kills.get();
    }

    int expiries() {
        return expiries.get();
    }

    /** Requests the middleware cancelled while they waited (a cancel that found one served does not count). */
    int cancels() {
        return cancels.get();
    }

    /** Commits whose reply was lost and that their client found applied, over every client of the run. */
    long recoveredCommits() {
        long total = 0;
        for (Runner runner : runners) {
            total += runner.recovered;
        }
        return total;
    }

    /** Commits sent on a remembered state without reading first, and those that applied, over every client. */
    long[] unreadCommits() {
        long tried = 0;
        long applied = 0;
        for (Runner runner : runners) {
            tried += runner.triedUnread;
            applied += runner.committedUnread;
        }
        return new long[] {tried, applied};
    }

    /** One replica, its incarnations and what each observed. */
    private final class Runner {
        final int processId;
        final boolean immortal;
        final SplittableRandom random;
        final Thread thread;
        final List<ReplicaHistory> histories = Collections.synchronizedList(new ArrayList<>());
        volatile ZkDataspace client;
        volatile int observed;
        volatile boolean restarting = true;
        volatile long recovered;
        volatile long triedUnread;
        volatile long committedUnread;
        private int incarnation;

        Runner(int processId, boolean immortal, SplittableRandom random) {
            this.processId = processId;
            this.immortal = immortal;
            this.random = random;
            this.thread = new Thread(this::run, "replica-" + processId + (immortal ? "-survivor" : ""));
            this.thread.setDaemon(true);
        }

        private void run() {
            List<ProgramStep> program = programs.get(processId);
            List<Long> checkpoints = new ArrayList<>(List.of(0L));
            List<List<String>> checkpointObservations = new ArrayList<>(List.of(List.of()));
            List<String> observations = new ArrayList<>();
            try {
                while (!stopping) {
                    int choice = random.nextInt(checkpoints.size());
                    observations = new ArrayList<>(checkpointObservations.get(choice));
                    ZkDataspace dataspace = clients.apply(processId);
                    client = dataspace;
                    incarnation++;
                    Replica replica = dataspace.open(processId, checkpoints.get(choice));
                    observed = observations.size();
                    restarting = false;
                    boolean died = false;
                    try {
                        while (!stopping) {
                            if (replica.requestNumber() == program.size()) {
                                sleep(10);
                                continue;
                            }
                            Optional<String> observation = ReplicatedPrograms.step(replica, program, STEP_WAIT);
                            if (observation.isPresent()) {
                                observations.add(observation.get());
                                observed = observations.size();
                                if (random.nextInt(4) == 0) {
                                    checkpoints.add(replica.requestNumber());
                                    checkpointObservations.add(List.copyOf(observations));
                                }
                            }
                        }
                    } catch (DataspaceClosedException killed) {
                        died = !stopping;
                    } finally {
                        restarting = !stopping;
                        recovered += dataspace.counters().recoveredCommits();
                        triedUnread += dataspace.counters().triedUnread();
                        committedUnread += dataspace.counters().committedUnread();
                        dataspace.close();
                    }
                    histories.add(new ReplicaHistory(this + " incarnation " + incarnation, processId, observations,
                            !died));
                    if (died && immortal) {
                        throw new AssertionError("the survivor of process " + processId + " was closed");
                    }
                }
            } catch (Throwable failure) {
                failures.add(new AssertionError(this + " failed after observing " + observations, failure));
            }
        }

        @Override
        public String toString() {
            return "replica of process " + processId + (immortal ? " (survivor)" : "") + " observed " + observed;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
