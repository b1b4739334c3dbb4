package io.github.volpex.testkit;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceClosedException;
import io.github.volpex.dataspace.DataspaceException;
import io.github.volpex.dataspace.DataspaceServer;
import io.github.volpex.dataspace.ReadLogEvictedException;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.Request;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A replicated run of random programs ({@link ReplicatedPrograms#programs()}) with every replica on a thread of its
 * own, against any {@link Dataspace}, recorded in a {@link DataspaceHistory} and judged by the
 * {@link LinearizabilityChecker} — the threaded counterpart of the single-threaded, replayable {@link ReplicatedRun}.
 * Each process runs 1 to {@link #maxReplicasPerProcess(int) a few} replicas; the first starts at once and never dies,
 * the others may join late (from the first request, trailing the leader and served from the read log), pause at random
 * (yielding, parking for up to 50 µs), die between calls, and restart from the request number they saved last. Each
 * read or get waits a random time — none, 1 ms, 10 ms, or up to 30 s — and is retried (joining the same request)
 * when its time runs out. The middleware cancels waiting requests now and then, and whenever the run stalls (no call
 * completed for 20 ms: a process waits for a tag that no remaining call will put). Extra threads that only spin
 * ({@link #busyThreads(int)}) make the threads' scheduling uneven, as on a busy machine, so that a thread is
 * descheduled at any point.
 *
 * <p>The threads' interleaving is the machine's: a failing run does not replay exactly, but its seed fixes the
 * programs' drawing and every replica's choices. If the dataspace has more processes than programs, the first spare
 * process try-reads every tag at the end (its requests join the history), so that the final state is checked too.
 *
 * <pre>{@code
 * try (Dataspace dataspace = createMyDataspace(programs.size() + 1)) {
 *     ConcurrentReplicatedRun run = ConcurrentReplicatedRun.of(dataspace, programs, seed).busyThreads(2);
 *     run.execute();
 *     run.assertLinearizable();
 * }
 * }</pre>
 *
 * <p>Not thread-safe: one thread configures, executes and inspects a run; the run starts and ends the replicas'
 * threads itself (from {@link #threadFactory(ThreadFactory)}), and never closes the dataspace.
 *
 * @since 0.1
 */
public final class ConcurrentReplicatedRun {

    /** How long a run may take before it is stopped and failed. */
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** How long without a completed call makes the middleware cancel a waiting request. */
    private static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final Duration[] TIMEOUTS = {Duration.ZERO, Duration.ofMillis(1), Duration.ofMillis(10),
        Duration.ofSeconds(30)};

    private final Dataspace dataspace;
    private final List<List<ProgramStep>> programs;
    private final long seed;
    private final DataspaceHistory history = DataspaceHistory.create();
    private int maxReplicasPerProcess = 3;
    private int busyThreads;
    private boolean failures = true;
    private ThreadFactory threadFactory = runnable -> {
        Thread thread = new Thread(runnable, "volpex-replica");
        thread.setDaemon(true);
        return thread;
    };
    private boolean executed;

    private final AtomicLong completedCalls = new AtomicLong();
    private final AtomicInteger restartsLeft = new AtomicInteger();
    private final AtomicInteger restarts = new AtomicInteger();
    private final AtomicInteger lateJoiners = new AtomicInteger();
    private final AtomicInteger deaths = new AtomicInteger();
    private final AtomicInteger timeouts = new AtomicInteger();
    private final AtomicInteger evictions = new AtomicInteger();
    private final AtomicInteger cancels = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final List<Thread> threads = Collections.synchronizedList(new ArrayList<>());
    private final List<Replica> handles = Collections.synchronizedList(new ArrayList<>());
    private final List<Throwable> unexpected = Collections.synchronizedList(new ArrayList<>());

    private ConcurrentReplicatedRun(Dataspace dataspace, List<List<ProgramStep>> programs, long seed) {
        this.dataspace = Objects.requireNonNull(dataspace, "dataspace");
        this.programs = List.copyOf(programs);
        this.seed = seed;
        if (dataspace.processCount() < this.programs.size()) {
            throw new IllegalArgumentException("dataspace.processCount() must be >= the number of programs ("
                    + this.programs.size() + "): " + dataspace.processCount());
        }
    }

    /**
     * Creates a run of the programs on the dataspace, which must be fresh (no request issued yet) and have at least one
     * process per program (one more for the final try-reads).
     *
     * @param dataspace the dataspace under test
     * @param programs  one program per process
     * @param seed      fixes every replica's random choices (not the threads' interleaving)
     * @return a run that has not executed yet
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if the dataspace has fewer processes than there are programs
     */
    public static ConcurrentReplicatedRun of(Dataspace dataspace, List<List<ProgramStep>> programs, long seed) {
        return new ConcurrentReplicatedRun(dataspace, programs, seed);
    }

    /**
     * Sets the most replicas a process runs (each draws 1 to this many; by default 3).
     *
     * @param count the most replicas, {@code ≥ 1}
     * @return this run
     * @throws IllegalArgumentException if {@code count < 1}
     */
    public ConcurrentReplicatedRun maxReplicasPerProcess(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("maxReplicasPerProcess must be >= 1: " + count);
        }
        this.maxReplicasPerProcess = count;
        return this;
    }

    /**
     * Sets how many extra threads spin for the whole run (by default none).
     *
     * @param count the spinning threads, {@code ≥ 0}
     * @return this run
     * @throws IllegalArgumentException if {@code count < 0}
     */
    public ConcurrentReplicatedRun busyThreads(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("busyThreads must be >= 0: " + count);
        }
        this.busyThreads = count;
        return this;
    }

    /**
     * Turns deaths, restarts, late joiners and the middleware's random cancels on (the default) or off; cancels that
     * end a stall stay on.
     *
     * @param enabled whether replicas fail and the middleware cancels at random
     * @return this run
     */
    public ConcurrentReplicatedRun failures(boolean enabled) {
        this.failures = enabled;
        return this;
    }

    /**
     * Sets where the run's threads come from (by default new daemon platform threads).
     *
     * @param factory the thread factory
     * @return this run
     * @throws NullPointerException if {@code factory} is null
     */
    public ConcurrentReplicatedRun threadFactory(ThreadFactory factory) {
        this.threadFactory = Objects.requireNonNull(factory, "factory");
        return this;
    }

    /**
     * Runs the replicas until every one has completed its program, died, been evicted from its process's read log, or
     * been stopped; every thread it started has ended when it returns.
     *
     * @throws IllegalStateException if the run was executed already
     * @throws InterruptedException  if interrupted while waiting for the replicas; the run then stops them
     * @throws AssertionError        if a replica failed other than by a timeout, an eviction, a closed handle or a
     *                               cancel, or the run did not end within 60 seconds
     */
    public void execute() throws InterruptedException {
        if (executed) {
            throw new IllegalStateException("a run executes once");
        }
        executed = true;
        SplittableRandom random = new SplittableRandom(seed);
        restartsLeft.set(2 * programs.size());
        List<Thread> spinners = new ArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        for (int i = 0; i < busyThreads; i++) {
            Thread spinner = threadFactory.newThread(() -> {
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            });
            spinners.add(spinner);
            spinner.start();
        }
        try {
            for (int process = 0; process < programs.size(); process++) {
                int replicas = 1 + random.nextInt(maxReplicasPerProcess);
                for (int r = 0; r < replicas; r++) {
                    long startDelayNanos = r > 0 && failures && random.nextInt(3) == 0
                            ? random.nextLong(TimeUnit.MILLISECONDS.toNanos(2)) : 0;
                    if (startDelayNanos > 0) {
                        lateJoiners.incrementAndGet();
                    }
                    start(process, r == 0, 0, startDelayNanos, random.nextLong());
                }
            }
            supervise(random);
        } finally {
            stop.set(true);
            for (Thread spinner : spinners) {
                spinner.join();
            }
        }
        audit();
        if (!unexpected.isEmpty()) {
            AssertionError failure = new AssertionError("a replica failed unexpectedly (seed " + seed + ")",
                    unexpected.get(0));
            unexpected.stream().skip(1).forEach(failure::addSuppressed);
            throw failure;
        }
    }

    /** Watches the replicas: cancels waiting requests at random and on stalls; stops everything at the deadline. */
    private void supervise(SplittableRandom random) throws InterruptedException {
        long start = System.nanoTime();
        long lastCompleted = -1;
        long lastProgress = start;
        try {
            while (running.get() > 0) {
                LockSupport.parkNanos(200_000);
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while the replicas ran");
                }
                long now = System.nanoTime();
                long completed = completedCalls.get();
                if (completed != lastCompleted) {
                    lastCompleted = completed;
                    lastProgress = now;
                }
                if (now - lastProgress > STALL_NANOS) {
                    cancelWaiting(random);
                    lastProgress = now;
                } else if (failures && random.nextInt(100) == 0) {
                    cancelWaiting(random);
                }
                if (now - start > DEADLINE_NANOS) {
                    throw new AssertionError("the run did not end within " + TimeUnit.NANOSECONDS.toSeconds(
                            DEADLINE_NANOS) + " s (seed " + seed + "); history so far:\n" + history);
                }
            }
        } finally {
            // Wakes every replica still blocked (only after a failure: otherwise all have ended).
            synchronized (handles) {
                handles.forEach(Replica::close);
            }
            List<Thread> all;
            synchronized (threads) {
                all = new ArrayList<>(threads);
            }
            for (Thread thread : all) {
                thread.join(TimeUnit.NANOSECONDS.toMillis(DEADLINE_NANOS));
            }
        }
    }

    /** The middleware cancels the request of a random process that has one waiting. */
    private void cancelWaiting(SplittableRandom random) {
        DataspaceServer server = dataspace.server();
        List<Request> waiting = new ArrayList<>();
        for (int process = 0; process < programs.size(); process++) {
            server.pendingRequest(process).ifPresent(waiting::add);
        }
        if (waiting.isEmpty()) {
            return;
        }
        Request request = waiting.get(random.nextInt(waiting.size()));
        DataspaceHistory.Call call = history.invokeCancel(request.processId(), request.requestNumber());
        try {
            call.returned(CallOutcome.ofCancel(server.cancel(request.processId(), request.requestNumber())));
            cancels.incrementAndGet();
        } catch (DataspaceException failed) {
            // Evicted or closed: the cancel's answer is unknown, and so it stays in the history.
            Objects.requireNonNull(failed);
        }
    }

    /** The first spare process, if any, try-reads every tag of the programs. */
    private void audit() {
        if (dataspace.processCount() == programs.size()) {
            return;
        }
        SortedSet<String> tags = new TreeSet<>();
        programs.forEach(program -> program.forEach(step -> tags.add(step.tag())));
        Replica auditor = history.recording(dataspace.open(programs.size()));
        for (String tag : tags) {
            auditor.tryRead(tag);
        }
    }

    /** Starts a replica of {@code process} at request number {@code from} on a thread of its own. */
    private void start(int process, boolean immortal, long from, long startDelayNanos, long replicaSeed) {
        running.incrementAndGet();
        Thread thread = threadFactory.newThread(() -> {
            try {
                runReplica(process, immortal, from, startDelayNanos, new SplittableRandom(replicaSeed));
            } catch (Throwable t) {
                unexpected.add(t);
            } finally {
                running.decrementAndGet();
            }
        });
        threads.add(thread);
        thread.start();
    }

    private void runReplica(int process, boolean immortal, long from, long startDelayNanos, SplittableRandom random)
            throws InterruptedException {
        if (startDelayNanos > 0) {
            LockSupport.parkNanos(startDelayNanos);
        }
        List<ProgramStep> program = programs.get(process);
        Replica replica;
        try {
            replica = history.recording(dataspace.open(process, from));
        } catch (DataspaceClosedException closed) {
            return;
        }
        handles.add(replica);
        long saved = from;
        try {
            while (replica.requestNumber() < program.size()) {
                pause(random);
                if (failures && !immortal && random.nextInt(30) == 0) {
                    deaths.incrementAndGet();
                    replica.close();
                    if (random.nextBoolean() && restartsLeft.getAndDecrement() > 0) {
                        restarts.incrementAndGet();
                        start(process, false, saved, 0, random.nextLong());
                    }
                    return;
                }
                if (failures && random.nextInt(5) == 0) {
                    saved = replica.requestNumber();
                }
                Duration timeout = TIMEOUTS[random.nextInt(TIMEOUTS.length)];
                Optional<String> observed = ReplicatedPrograms.step(replica, program, timeout);
                if (observed.isPresent()) {
                    completedCalls.incrementAndGet();
                } else {
                    timeouts.incrementAndGet();
                }
            }
        } catch (ReadLogEvictedException evicted) {
            evictions.incrementAndGet();
        } catch (DataspaceClosedException closed) {
            // Stopped by the run.
            Objects.requireNonNull(closed);
        } finally {
            replica.close();
        }
    }

    /** A random pause between calls: none, a yield, or a park of up to 50 µs. */
    private static void pause(SplittableRandom random) {
        switch (random.nextInt(3)) {
            case 0 -> {
            }
            case 1 -> Thread.yield();
            default -> LockSupport.parkNanos(random.nextInt(50_000));
        }
    }

    /**
     * Returns the history of the run: every replica's calls, the middleware's cancels and the final try-reads.
     *
     * @return the history
     */
    public DataspaceHistory history() {
        return history;
    }

    /**
     * Checks the executed run's history with the {@link LinearizabilityChecker} and fails unless it is linearizable.
     *
     * @throws IllegalStateException if the run has not executed
     * @throws AssertionError        if replicas of a request received different outcomes or a tag's history is not
     *                               (or not shown to be) linearizable; the message names the seed and the facts
     */
    public void assertLinearizable() {
        if (!executed) {
            throw new IllegalStateException("execute the run first");
        }
        LinearizabilityChecker.Result result = LinearizabilityChecker.create().check(history);
        if (!result.isLinearizable()) {
            throw new AssertionError("seed " + seed + ": " + result);
        }
    }

    /**
     * Returns how many replicas restarted from a saved request number.
     *
     * @return the number of restarts
     */
    public int restarts() {
        return restarts.get();
    }

    /**
     * Returns how many replicas joined late.
     *
     * @return the number of late joiners
     */
    public int lateJoiners() {
        return lateJoiners.get();
    }

    /**
     * Returns how many replicas died between calls.
     *
     * @return the number of deaths
     */
    public int deaths() {
        return deaths.get();
    }

    /**
     * Returns how many calls timed out (their requests stayed pending for a retry).
     *
     * @return the number of timeouts
     */
    public int timeouts() {
        return timeouts.get();
    }

    /**
     * Returns how many replicas stopped because their process's read log no longer held a request they needed.
     *
     * @return the number of evicted replicas
     */
    public int evictions() {
        return evictions.get();
    }

    /**
     * Returns how many waiting requests the middleware cancelled (at random or to end a stall).
     *
     * @return the number of cancels that answered
     */
    public int cancels() {
        return cancels.get();
    }
}
