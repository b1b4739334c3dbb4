package io.github.volpex.examples.tour;

import io.github.volpex.checkpoint.interval.AdaptiveCheckpointScheduler;
import io.github.volpex.checkpoint.interval.NiHarwoodEstimateSource;
import io.github.volpex.checkpoint.placement.Objective;
import io.github.volpex.checkpoint.store.AbandonedCommit;
import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.CheckpointUnavailableException;
import io.github.volpex.checkpoint.store.Chunking;
import io.github.volpex.checkpoint.store.CommitAbandonedException;
import io.github.volpex.checkpoint.store.CommitSupersededException;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.repository.DirectoryRepository;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.RecoveredCheckpoint;
import io.github.volpex.checkpoint.store.RepairReport;
import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.estimators.DownloadTimeEstimator;
import io.github.volpex.estimators.RateEstimate;
import io.github.volpex.examples.remd.RemdProcess;
import io.github.volpex.examples.remd.RemdSetup;
import io.github.volpex.examples.remd.RemdState;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The tour: replica-exchange Monte Carlo on a simulated pool of volatile machines, composing every module the way a
 * grid middleware would.
 *
 * <ul>
 *   <li><b>volpex-api</b>: the {@link RemdProcess logical processes} exchange energies and temperatures through the
 *       dataspace; each runs as {@code replicas} threads, each thread on its own simulated compute host.</li>
 *   <li><b>estimators</b>: every replica whose host fails is a failure observation; hosts still up are censored
 *       observations. Their censoring-aware MLE is the failure rate {@code μ}; the download time {@code T_d} is
 *       re-measured at every restart.</li>
 *   <li><b>checkpoint-core</b>: each process's {@link AdaptiveCheckpointScheduler} (Ni–Harwood) turns those estimates
 *       into a checkpoint interval; the greedy repository selector chooses 9 storage hosts for each checkpoint; the
 *       {@link CheckpointStore} commits it crash-safely — asynchronously (the replica pays for a copy of its state,
 *       the store persists it in the background) and differentially (only the blocks of the state that changed) —
 *       repairs what departing storage hosts take away, and recovers it when a process has lost every replica. A
 *       shadow store commits every checkpoint taken again, in full and synchronously, on storage of its own, so that
 *       the summary sets what the job paid beside what full synchronous commits cost, both measured.</li>
 *   <li><b>erasure</b>: checkpoints are dispersed by {@code IdaCodec.systematic(6, 3)}: any 6 of the 9 fragments
 *       rebuild them.</li>
 * </ul>
 *
 * <p>Time is virtual: a step of sampling counts {@code stepSeconds}, a checkpoint {@code checkpointSeconds}, a restart
 * {@code downloadSeconds}; host lifetimes are drawn in those seconds. The computation itself is real and runs as fast
 * as the machine allows. When every replica of a process has died, the process restarts from its last checkpoint (its
 * chain, its rung, its step and its dataspace request number) on fresh hosts and catches up through the dataspace's
 * read log: what it re-executes returns exactly what its dead replicas received. At the end the outcome is compared,
 * bit for bit, with a failure-free run that has one replica per process.
 */
public final class Tour {

    /**
     * How states are cut into blocks for differential checkpoints: the smallest fixed blocks, since a process's state
     * is a few hundred bytes of chain, which moves at every step, and the temperature history, which only grows.
     */
    public static final Chunking CHUNKING = Chunking.fixed(Chunking.MIN_BLOCK_BYTES);

    /** How long the end of a run waits for the persists and the shadow store's full commits still running. */
    public static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

    /** How the tour commits checkpoints. */
    public static final String COMMITS = "asynchronous, differential in " + CHUNKING.blockBytes() + "-byte blocks";

    /** How the full synchronous commits' figures are obtained. */
    private static final String SHADOW = "measured on a shadow store";

    /** The read log must reach back to the oldest checkpoint a process may restart from; these runs are short. */
    private static final DataspaceOptions DATASPACE = DataspaceOptions.builder().readLogCapacity(1 << 16).build();

    /**
     * Everything a tour run is made of.
     *
     * @param setup             the replica-exchange physics
     * @param replicas          replicas per logical process, {@code ≥ 1}
     * @param stepSeconds       virtual seconds one step of sampling takes
     * @param computeHosts      the lifetime law of compute hosts
     * @param storageHosts      the number of storage hosts, {@code ≥ m + k}
     * @param storageLaw        the lifetime law of a typical storage host (each host's scale is this one's times a
     *                          random factor in [0.25, 4])
     * @param checkpointSeconds virtual seconds a checkpoint costs, {@code V}
     * @param downloadSeconds   virtual seconds a restart takes to fetch its checkpoint, {@code T_d}
     * @param storeDirectory    where repositories keep their files, or empty for memory
     * @param seed              the seed of the host pool (the physics has its own in {@code setup})
     */
    public record Config(RemdSetup setup, int replicas, double stepSeconds, LifetimeLaw computeHosts, int storageHosts,
                         LifetimeLaw storageLaw, double checkpointSeconds, double downloadSeconds,
                         Optional<Path> storeDirectory, long seed) {

        /** Validates the configuration. */
        public Config {
            if (replicas < 1) {
                throw new IllegalArgumentException("replicas must be >= 1: " + replicas);
            }
            if (storageHosts < StoragePool.DATA_FRAGMENTS + StoragePool.PARITY_FRAGMENTS) {
                throw new IllegalArgumentException("storageHosts must be >= " + (StoragePool.DATA_FRAGMENTS
                        + StoragePool.PARITY_FRAGMENTS) + ": " + storageHosts);
            }
            if (!(stepSeconds > 0) || !(checkpointSeconds > 0) || !(downloadSeconds >= 0)) {
                throw new IllegalArgumentException("stepSeconds and checkpointSeconds must be > 0 and downloadSeconds"
                        + " >= 0: " + stepSeconds + ", " + checkpointSeconds + ", " + downloadSeconds);
            }
        }
    }

    /**
     * What a run did and whether it verified.
     *
     * @param outcomes             each process's outcome in the run with failures
     * @param reference            each process's outcome in the failure-free single-replica run
     * @param replicaFailures      compute-host failures injected (replicas killed mid-step)
     * @param restarts             processes restarted because every replica had died
     * @param restartsFromScratch  of those, restarts with no checkpoint to recover (from the initial state)
     * @param lostCheckpoints      of those, restarts whose checkpoint could not be rebuilt (too few fragments left)
     * @param checkpoints          checkpoints committed (durable)
     * @param intervalsSeconds     virtual seconds between consecutive checkpoints of a process, in commit order
     * @param lastIntervalSeconds  the scheduler's interval at the end, seconds ({@code +∞} if never known)
     * @param estimatedRate        the failure rate estimated at the end, per second
     * @param bytesStored          bytes written to storage hosts (fragments and index copies, by commits and repairs)
     * @param storageDepartures    storage-host departures injected
     * @param objectsLost          objects (fragments and index copies) those departures took
     * @param fragmentsRepaired    fragments regenerated by repairs
     * @param servedFromLog        dataspace requests answered from the read log (trailing and restarted replicas)
     * @param duplicatePuts        dataspace puts ignored as duplicates
     * @param wallSeconds          real seconds the run with failures took
     * @param virtualSeconds       virtual seconds the slowest process needed
     * @param commits              what the checkpoints cost the job, beside what full synchronous commits would have
     */
    public record Result(List<RemdProcess.Outcome> outcomes, List<RemdProcess.Outcome> reference, int replicaFailures,
                         int restarts, int restartsFromScratch, int lostCheckpoints, int checkpoints,
                         List<Double> intervalsSeconds,
                         double lastIntervalSeconds, double estimatedRate, long bytesStored, int storageDepartures,
                         long objectsLost, int fragmentsRepaired, long servedFromLog, long duplicatePuts,
                         double wallSeconds, double virtualSeconds, CommitCosts commits) {

        /**
         * Returns whether the run with failures reproduced the failure-free run bit for bit.
         *
         * @return the verdict
         */
        public boolean verified() {
            return outcomes.equals(reference);
        }
    }

    /** Thrown inside a replica when its simulated host fails. */
    private static final class HostFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        HostFailure() {
            super(null, null, false, false);
        }
    }

    private final Config config;
    private final PrintStream progress;

    private Tour(Config config, PrintStream progress) {
        this.config = config;
        this.progress = progress;
    }

    /**
     * Prepares a run.
     *
     * @param config   the configuration
     * @param progress where progress lines go while the run lasts
     * @return the tour
     */
    public static Tour of(Config config, PrintStream progress) {
        return new Tour(config, progress);
    }

    /**
     * Runs the failure-free reference, then the run with failures, and compares them.
     *
     * @param timeout how long the run with failures may take
     * @return what happened
     * @throws InterruptedException if interrupted
     * @throws IOException          if the store directory cannot be used
     */
    public Result run(Duration timeout) throws InterruptedException, IOException {
        List<RemdProcess.Outcome> reference = timedReference();
        progress.println("Replicated run on volatile hosts:");
        return new Execution(timeout).run(reference);
    }

    /** Runs the failure-free reference, saying so and how long it took. */
    public List<RemdProcess.Outcome> timedReference() throws InterruptedException {
        progress.print("Failure-free reference run, one replica per process... ");
        long start = System.nanoTime();
        List<RemdProcess.Outcome> reference = reference();
        progress.printf("%.1f s%n", (System.nanoTime() - start) / 1e9);
        return reference;
    }

    /** The failure-free run with one replica per process: what every run must reproduce. */
    List<RemdProcess.Outcome> reference() throws InterruptedException {
        RemdSetup setup = config.setup();
        RemdProcess program = RemdProcess.of(setup);
        try (Dataspace dataspace = Dataspace.inProcess(setup.processes(), DATASPACE)) {
            ExecutorService threads = Executors.newFixedThreadPool(setup.processes(), daemon("reference"));
            try {
                List<CompletableFuture<RemdProcess.Outcome>> futures = new ArrayList<>();
                for (int p = 0; p < setup.processes(); p++) {
                    int process = p;
                    futures.add(CompletableFuture.supplyAsync(() -> {
                        try (Replica replica = dataspace.open(process)) {
                            return program.run(replica, RemdState.initial(setup, process), RemdProcess.NO_HOOKS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException(e);
                        }
                    }, threads));
                }
                List<RemdProcess.Outcome> outcomes = new ArrayList<>();
                for (CompletableFuture<RemdProcess.Outcome> future : futures) {
                    outcomes.add(future.get(10, TimeUnit.MINUTES));
                }
                return outcomes;
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("the failure-free reference run failed", e);
            } finally {
                threads.shutdownNow();
            }
        }
    }

    /** Daemon threads named {@code name-1}, {@code name-2}, ... */
    public static ThreadFactory daemon(String name) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** One run with failures: the host pool, the store, the processes and their replicas. */
    private final class Execution {

        private final Duration timeout;
        private final RemdSetup setup = config.setup();
        private final RemdProcess program = RemdProcess.of(setup);
        private final SplittableRandom hostRandom = new SplittableRandom(config.seed());
        private final ExecutorService replicaThreads = Executors.newCachedThreadPool(daemon("replica"));
        private final ExecutorService storeThreads = Executors.newFixedThreadPool(2, daemon("store"));
        private final Dataspace dataspace = Dataspace.inProcess(setup.processes(), DATASPACE);
        private final List<VolatileRepository> repositories = new ArrayList<>();
        private final List<CountingRepository> counted = new ArrayList<>();
        private final StoragePool pool;
        private final double[] storageFailureAt;
        private final CheckpointStore store;
        /** Full synchronous commits of every checkpoint taken, on a thread and in-memory repositories of their own. */
        private final ExecutorService shadowThread = Executors.newSingleThreadExecutor(daemon("full-commit"));
        private final List<CountingRepository> shadowRepositories = new ArrayList<>();
        private final CheckpointStore shadow;
        private final ProcessSlot[] slots;
        private final FailureObservations observations = new FailureObservations();
        private final DownloadTimeEstimator downloadTime;
        private final NiHarwoodEstimateSource estimates;

        private final AtomicInteger restarts = new AtomicInteger();
        private final AtomicInteger restartsFromScratch = new AtomicInteger();
        private final AtomicInteger lostCheckpoints = new AtomicInteger();
        private final AtomicInteger taken = new AtomicInteger();
        private final AtomicInteger durable = new AtomicInteger();
        private final AtomicInteger superseded = new AtomicInteger();
        private final AtomicInteger failedCommits = new AtomicInteger();
        private final AtomicInteger abandoned = new AtomicInteger();
        private final LongAdder blockingNanos = new LongAdder();
        private final LongAdder bytesCommitted = new LongAdder();
        private final LongAdder fullNanos = new LongAdder();
        private final List<Double> intervals = Collections.synchronizedList(new ArrayList<>());
        private final AtomicInteger departures = new AtomicInteger();
        private final AtomicInteger repaired = new AtomicInteger();
        private final AtomicLong globalVirtualNanos = new AtomicLong();
        private final CompletableFuture<Void> failed = new CompletableFuture<>();
        private final Queue<Future<?>> replicaTasks = new ConcurrentLinkedQueue<>();

        Execution(Duration timeout) throws IOException {
            this.timeout = timeout;
            pool = StoragePool.draw(config.storageHosts(), config.storageLaw(), config.seed());
            storageFailureAt = new double[pool.size()];
            for (StoragePool.Host host : pool.hosts()) {
                FragmentRepository backing = config.storeDirectory().isPresent()
                        ? DirectoryRepository.open(host.id(), config.storeDirectory().get().resolve(host.id()), false)
                        : FragmentRepository.inMemory(host.id());
                VolatileRepository repository = new VolatileRepository(backing);
                repositories.add(repository);
                counted.add(new CountingRepository(repository));
                shadowRepositories.add(new CountingRepository(FragmentRepository.inMemory(host.id())));
                storageFailureAt[repositories.size() - 1] = host.law().draw(hostRandom);
            }
            downloadTime = DownloadTimeEstimator.startingAt(config.checkpointSeconds());
            estimates = () -> observations.estimate(config.checkpointSeconds(), downloadTime.seconds());
            store = pool.store(counted, this::objective).executor(storeThreads).differential(CHUNKING)
                    .closeTimeout(CLOSE_WAIT).build();
            shadow = pool.store(shadowRepositories, this::objective).build();
            slots = new ProcessSlot[setup.processes()];
            for (int p = 0; p < slots.length; p++) {
                slots[p] = new ProcessSlot(p);
            }
        }

        /** Ren's optimistic objective for the current state of the job. */
        private Objective objective() {
            return StoragePool.objective(config.computeHosts().meanSeconds(), slots[0].scheduler.intervalSeconds(),
                    config.stepSeconds(), globalVirtualNanos.get() / 1e9);
        }

        Result run(List<RemdProcess.Outcome> reference) throws InterruptedException {
            long start = System.nanoTime();
            ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(daemon("progress"));
            ticker.scheduleAtFixedRate(() -> printProgress(start), 1, 1, TimeUnit.SECONDS);
            try {
                for (ProcessSlot slot : slots) {
                    for (int r = 0; r < config.replicas(); r++) {
                        startReplica(slot, RemdState.initial(setup, slot.process), 0.0);
                    }
                }
                List<RemdProcess.Outcome> outcomes = new ArrayList<>();
                long deadline = System.nanoTime() + timeout.toNanos();
                for (ProcessSlot slot : slots) {
                    CompletableFuture<Object> either = CompletableFuture.anyOf(slot.outcome, failed);
                    Object done = either.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    if (!(done instanceof RemdProcess.Outcome outcome)) {
                        throw new IllegalStateException("the run failed");
                    }
                    outcomes.add(outcome);
                }
                // Let trailing replicas finish too: each one's outcome is compared with its process's.
                for (Future<?> task; (task = replicaTasks.poll()) != null; ) {
                    task.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                }
                // Every checkpoint taken gets decided: persists still running have a bounded time to finish.
                List<AbandonedCommit> left = store.close(CLOSE_WAIT);
                if (!left.isEmpty()) {
                    progress.println("  abandoned at close: " + left);
                }
                shadowThread.shutdown();
                if (!shadowThread.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("the shadow store's full commits did not finish within "
                            + CLOSE_WAIT);
                }
                if (failed.isCompletedExceptionally()) {
                    failed.get();
                }
                // What a durable commit left to do (marking other repositories, deleting older checkpoints) runs on
                // the store's threads after its stage completed: the run ends once they are done with the
                // repositories, so nothing writes or deletes there after it returns.
                storeThreads.shutdown();
                if (!storeThreads.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("the store's threads did not finish within " + CLOSE_WAIT);
                }
                double wall = (System.nanoTime() - start) / 1e9;
                ticker.shutdownNow();
                ticker.awaitTermination(1, TimeUnit.SECONDS);
                printProgress(start);
                double virtual = 0;
                for (ProcessSlot slot : slots) {
                    virtual = Math.max(virtual, slot.clockNanos.get() / 1e9);
                }
                long bytes = CountingRepository.bytesWritten(counted);
                long lost = repositories.stream().mapToLong(VolatileRepository::objectsLost).sum();
                RateEstimate rate = observations.rate();
                CommitCosts costs = new CommitCosts(COMMITS, taken.get(), durable.get(), superseded.get(),
                        failedCommits.get(), abandoned.get(), blockingNanos.sum() / 1e9, bytesCommitted.sum(),
                        fullNanos.sum() / 1e9, SHADOW, CountingRepository.bytesWritten(shadowRepositories), SHADOW);
                return new Result(outcomes, reference, observations.failures(), restarts.get(),
                        restartsFromScratch.get(), lostCheckpoints.get(), durable.get(), List.copyOf(intervals),
                        slots[0].scheduler.intervalSeconds(),
                        rate.isEmpty() ? 0.0 : rate.ratePerSecond(), bytes, departures.get(), lost, repaired.get(),
                        dataspace.statistics().servedFromLog(), dataspace.statistics().duplicatesIgnored(), wall,
                        virtual, costs);
            } catch (ExecutionException e) {
                throw new IllegalStateException("the run failed: " + e.getCause(), e.getCause());
            } catch (TimeoutException e) {
                throw new IllegalStateException("the run did not finish within " + timeout, e);
            } finally {
                ticker.shutdownNow();
                dataspace.close();
                replicaThreads.shutdownNow();
                store.close(Duration.ZERO);
                shadowThread.shutdownNow();
                storeThreads.shutdownNow();
            }
        }

        private void printProgress(long start) {
            int slowest = Integer.MAX_VALUE;
            int fastest = 0;
            for (ProcessSlot slot : slots) {
                slowest = Math.min(slowest, slot.leadingStep.get());
                fastest = Math.max(fastest, slot.leadingStep.get());
            }
            progress.printf("  [%5.1f s] steps %d..%d of %d | replicas killed %d | restarts %d | checkpoints %d | "
                            + "storage departures %d | fragments repaired %d%n", (System.nanoTime() - start) / 1e9,
                    slowest, fastest, setup.steps(), observations.failures(), restarts.get(), taken.get(),
                    departures.get(), repaired.get());
        }

        /** Starts one replica of a process on a fresh compute host, from its own copy of {@code state}. */
        private void startReplica(ProcessSlot slot, RemdState state, double startVirtualSeconds) {
            double lifetime;
            synchronized (hostRandom) {
                lifetime = config.computeHosts().draw(hostRandom);
            }
            ReplicaClock clock = new ReplicaClock(startVirtualSeconds, lifetime);
            observations.started(clock, clock::uptimeSeconds);
            slot.liveReplicas.incrementAndGet();
            RemdState own = RemdState.fromBytes(state.toBytes());
            replicaTasks.add(replicaThreads.submit(() -> runReplica(slot, own, clock)));
        }

        private void runReplica(ProcessSlot slot, RemdState state, ReplicaClock clock) {
            try (Replica replica = dataspace.open(slot.process, state.requestNumber())) {
                RemdProcess.Outcome outcome = program.run(replica, state, new RemdProcess.Hooks() {
                    @Override
                    public void beforeChunk(int step, int chunk) {
                        slot.awaitPersist();
                        clock.advance(config.stepSeconds() / RemdProcess.CHUNKS_PER_STEP);
                        slot.observeClock(clock.virtualSeconds());
                        if (clock.failed()) {
                            throw new HostFailure();
                        }
                    }

                    @Override
                    public void afterStep(RemdState after) {
                        afterReplicaStep(slot, after, clock);
                    }
                });
                observations.finished(clock, clock.uptimeSeconds());
                slot.finish(outcome, failed);
            } catch (HostFailure e) {
                hostFailed(slot, clock);
            } catch (Throwable e) {
                if (!failed.isDone() && !dataspace.isClosed()) {
                    failed.completeExceptionally(e);
                }
            }
        }

        /** The leading replica of a process decides checkpoints; every replica pays for the ones taken. */
        private void afterReplicaStep(ProcessSlot slot, RemdState state, ReplicaClock clock) {
            int step = state.completedSteps();
            if (slot.checkpointedSteps.containsKey(step)) {
                clock.advance(config.checkpointSeconds());
                return;
            }
            if (!slot.lead(step)) {
                return;
            }
            if (step < setup.steps() && slot.scheduler.checkpointDue()) {
                byte[] checkpoint = state.toBytes();
                synchronized (slot) {
                    // The scheduler measures the blocking overhead and the latency until durable in virtual time
                    // (the overhead is V, charged here); the real time the commit call holds this thread is counted
                    // apart, as is what the stage reports when it completes.
                    slot.scheduler.checkpoint(() -> {
                        long start = System.nanoTime();
                        CompletionStage<FragmentIndex> stage = store.commitAsync(slot.jobId, checkpoint);
                        blockingNanos.add(System.nanoTime() - start);
                        slot.persisting = stage.toCompletableFuture();
                        stage.whenComplete((index, failure) -> settled(slot, index, failure));
                        clock.advance(config.checkpointSeconds());
                        slot.observeClock(clock.virtualSeconds());
                        return stage;
                    });
                    taken.incrementAndGet();
                    double now = clock.virtualSeconds();
                    if (slot.lastCheckpointVirtualSeconds >= 0) {
                        intervals.add(now - slot.lastCheckpointVirtualSeconds);
                    }
                    slot.lastCheckpointVirtualSeconds = now;
                    slot.checkpointedSteps.put(step, Boolean.TRUE);
                }
                shadowThread.execute(() -> commitInFull(slot.jobId, checkpoint));
                advanceStorage(clock.virtualSeconds());
            }
        }

        /**
         * A commit's stage completed: a durable commit counts the bytes written under its keys until now; a
         * superseded one was replaced by a newer checkpoint of its process before it started (normal when commits
         * come faster than storage takes them); an abandoned one was cut off by the store's close; a failed one is
         * reported, and the process's previous checkpoint stays the one a restart recovers.
         */
        private void settled(ProcessSlot slot, FragmentIndex index, Throwable failure) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause == null) {
                durable.incrementAndGet();
                bytesCommitted.add(CountingRepository.bytesWritten(counted, index));
            } else if (cause instanceof CommitSupersededException) {
                superseded.incrementAndGet();
            } else if (cause instanceof CommitAbandonedException) {
                abandoned.incrementAndGet();
            } else {
                failedCommits.incrementAndGet();
                progress.println("  a checkpoint of " + slot.jobId + " failed: " + cause);
            }
        }

        /** What the job would have paid without a background persist and differential checkpoints. */
        private void commitInFull(String jobId, byte[] checkpoint) {
            try {
                long start = System.nanoTime();
                shadow.commit(jobId, checkpoint);
                fullNanos.add(System.nanoTime() - start);
            } catch (RuntimeException e) {
                failed.completeExceptionally(new IllegalStateException("the shadow store's full commit failed", e));
            }
        }

        /** A replica's host failed: record it; if it was its process's last replica, restart the process. */
        private void hostFailed(ProcessSlot slot, ReplicaClock clock) {
            observations.failed(clock, clock.uptimeSeconds());
            if (slot.liveReplicas.decrementAndGet() > 0 || slot.outcome.isDone()) {
                return;
            }
            try {
                restart(slot, clock.virtualSeconds());
            } catch (RuntimeException e) {
                failed.completeExceptionally(e);
            }
        }

        /** Every replica of a process died: recover its last checkpoint and start fresh replicas from it. */
        private void restart(ProcessSlot slot, double deathVirtualSeconds) {
            restarts.incrementAndGet();
            advanceStorage(deathVirtualSeconds);
            RemdState state;
            synchronized (slot) {
                Optional<RecoveredCheckpoint> recovered;
                try {
                    recovered = store.recover(slot.jobId);
                } catch (CheckpointUnavailableException e) {
                    // Too many storage hosts departed between repairs: start over; the read log replays the rest.
                    lostCheckpoints.incrementAndGet();
                    recovered = Optional.empty();
                }
                if (recovered.isPresent()) {
                    state = RemdState.fromBytes(recovered.get().toByteArray());
                } else {
                    restartsFromScratch.incrementAndGet();
                    state = RemdState.initial(setup, slot.process);
                }
                downloadTime.recordRestartDownload(config.downloadSeconds());
                double resume = deathVirtualSeconds + config.downloadSeconds();
                slot.restartedAt(resume, state.completedSteps());
            }
            for (int r = 0; r < config.replicas(); r++) {
                startReplica(slot, state, deathVirtualSeconds + config.downloadSeconds());
            }
        }

        /**
         * Storage hosts whose lifetime has passed depart, losing what they stored, in the order they fail; after each
         * departure the store repairs every job, as a periodic repair would.
         */
        private void advanceStorage(double virtualSeconds) {
            long nanos = (long) (virtualSeconds * 1e9);
            globalVirtualNanos.accumulateAndGet(nanos, Math::max);
            double now = globalVirtualNanos.get() / 1e9;
            synchronized (storageFailureAt) {
                while (true) {
                    int next = 0;
                    for (int h = 1; h < storageFailureAt.length; h++) {
                        if (storageFailureAt[h] < storageFailureAt[next]) {
                            next = h;
                        }
                    }
                    if (storageFailureAt[next] > now) {
                        return;
                    }
                    try {
                        repositories.get(next).depart();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    departures.incrementAndGet();
                    synchronized (hostRandom) {
                        storageFailureAt[next] += pool.hosts().get(next).law().draw(hostRandom);
                    }
                    for (ProcessSlot slot : slots) {
                        synchronized (slot) {
                            RepairReport report = store.repair(slot.jobId);
                            repaired.addAndGet(report.regenerated().size());
                        }
                    }
                }
            }
        }

        /** One logical process: its checkpoint scheduler, its virtual clock and its outcome. */
        private final class ProcessSlot {

            final int process;
            final String jobId;
            final AtomicLong clockNanos = new AtomicLong();
            final AtomicInteger leadingStep = new AtomicInteger();
            final AtomicInteger liveReplicas = new AtomicInteger();
            final Map<Integer, Boolean> checkpointedSteps = new ConcurrentHashMap<>();
            final AdaptiveCheckpointScheduler scheduler;
            final CompletableFuture<RemdProcess.Outcome> outcome = new CompletableFuture<>();
            double lastCheckpointVirtualSeconds = -1;
            /** The stage of the process's last commit, or null. */
            volatile CompletableFuture<FragmentIndex> persisting;

            ProcessSlot(int process) {
                this.process = process;
                this.jobId = "remd-" + process;
                // One peer per process: a process rolls back only when all its replicas are gone, so the interval
                // computed for a single host is a cautious one.
                this.scheduler = AdaptiveCheckpointScheduler.create(1, estimates, clockNanos::get);
            }

            /**
             * Waits, before a replica's virtual clock moves on, until the process's last persist is over (for at
             * most {@link #CLOSE_WAIT}; how it ended is counted by its stage). Time is virtual: a step counts minutes
             * but computes in milliseconds, so a persist, which a real step would hide entirely, would otherwise span
             * steps of virtual time, and a host failure drawn in them would take checkpoints that a real job would
             * have made durable long before. The wait is real time only, not the job's: the summary's blocking time
             * is that of the commit calls.
             */
            void awaitPersist() {
                CompletableFuture<FragmentIndex> last = persisting;
                if (last == null || last.isDone()) {
                    return;
                }
                try {
                    last.get(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (ExecutionException | TimeoutException e) {
                    // Counted when the stage completes; a persist that takes longer goes on in the background.
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            void observeClock(double virtualSeconds) {
                clockNanos.accumulateAndGet((long) (virtualSeconds * 1e9), Math::max);
            }

            /** Returns whether this replica is the first of its generation to complete {@code step}. */
            boolean lead(int step) {
                int previous = leadingStep.get();
                while (step > previous) {
                    if (leadingStep.compareAndSet(previous, step)) {
                        return true;
                    }
                    previous = leadingStep.get();
                }
                return false;
            }

            void restartedAt(double resumeVirtualSeconds, int completedSteps) {
                observeClock(resumeVirtualSeconds);
                leadingStep.set(completedSteps);
                // Steps after the checkpoint are computed again and may be checkpointed again.
                checkpointedSteps.keySet().removeIf(step -> step > completedSteps);
                scheduler.checkpointCompleted();
            }

            void finish(RemdProcess.Outcome result, CompletableFuture<Void> failure) {
                if (!outcome.complete(result) && !outcome.join().equals(result)) {
                    failure.completeExceptionally(new IllegalStateException("two replicas of process " + process
                            + " finished with different outcomes"));
                }
            }
        }
    }

    /** A replica's own virtual clock and the virtual time its host fails. */
    private static final class ReplicaClock {

        private final double startSeconds;
        private final double failsAtSeconds;
        private volatile double virtualSeconds;

        ReplicaClock(double startSeconds, double lifetimeSeconds) {
            this.startSeconds = startSeconds;
            this.failsAtSeconds = startSeconds + lifetimeSeconds;
            this.virtualSeconds = startSeconds;
        }

        void advance(double seconds) {
            virtualSeconds = Math.min(virtualSeconds + seconds, failsAtSeconds);
        }

        boolean failed() {
            return virtualSeconds >= failsAtSeconds;
        }

        double virtualSeconds() {
            return virtualSeconds;
        }

        double uptimeSeconds() {
            return virtualSeconds - startSeconds;
        }
    }
}
