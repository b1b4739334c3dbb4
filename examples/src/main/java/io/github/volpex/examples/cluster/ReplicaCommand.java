package io.github.volpex.examples.cluster;

import io.github.volpex.checkpoint.interval.AdaptiveCheckpointScheduler;
import io.github.volpex.checkpoint.interval.NiHarwoodEstimate;
import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.CheckpointStoreException;
import io.github.volpex.checkpoint.store.CheckpointUnavailableException;
import io.github.volpex.checkpoint.store.CommitAbandonedException;
import io.github.volpex.checkpoint.store.CommitFailedException;
import io.github.volpex.checkpoint.store.CommitSupersededException;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.store.ProcessCheckpoint;
import io.github.volpex.checkpoint.store.RepairReport;
import io.github.volpex.checkpoint.store.RepositoriesUnreachableException;
import io.github.volpex.checkpoint.store.StaleWriterException;
import io.github.volpex.checkpoint.repository.s3.S3Repository;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.zookeeper.WriterElection;
import io.github.volpex.dataspace.zookeeper.ZooKeeperDataspace;
import io.github.volpex.examples.cli.OptionChecks;
import io.github.volpex.examples.cli.Subcommand;
import io.github.volpex.examples.cli.UsageException;
import io.github.volpex.examples.remd.RemdProcess;
import io.github.volpex.examples.remd.RemdSetup;
import io.github.volpex.examples.remd.RemdState;
import io.github.volpex.examples.tour.CommitCosts;
import io.github.volpex.examples.tour.CountingRepository;
import io.github.volpex.examples.tour.StoragePool;
import io.github.volpex.examples.tour.Tour;
import io.github.volpex.examples.tour.VolatileRepository;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code replica}: one replica of one logical process of the tour across processes, in a JVM of its own. It reads the
 * run's description from ZooKeeper, joins its process's writer election, opens its process in the ZooKeeper
 * dataspace (at the request number of the process checkpoint it restarts from), runs replica-exchange Monte Carlo,
 * and — while the election makes it its process's writer — commits process checkpoints to the S3 storage hosts under
 * the election's fencing epoch, when the Ni–Harwood scheduler says so: asynchronously (the replica pays for a copy of
 * its state, the store persists it in the background and the replica reports how each commit ended) and
 * differentially (only the blocks of the state that changed since the last durable checkpoint; see {@link #COMMITS}).
 *
 * <p>With {@code --coordinated} it reports to its coordinator on standard output, one {@link ReplicaReport} per line,
 * each starting with {@code @}: the virtual clock before every part of a step ({@code @clock}), every step
 * ({@code @step}), its role in the election ({@code @writer}, {@code @candidate}), checkpoints, refusals and repairs,
 * and at the end its final state ({@code @done}, Base64). It takes {@link ReplicaOrder}s on standard input:
 * {@code ack n} (the coordinator has seen clock report {@code n}; a {@code --coordinated} replica runs at most
 * {@value #PACING_WINDOW} parts of a step ahead of it), {@code estimate μ V T_d} (the latest estimates) and
 * {@code departed <host>} (a storage host lost its data: repair).
 * It stops when its input ends, unless detached, and at its deadline.
 */
@Command(name = "replica", description = "One replica of the tour across processes, in a JVM of its own: joins "
        + "run --run of the ensemble --zookeeper as a replica of process --process, computes it through the "
        + "ZooKeeper dataspace (from its last checkpoint with --restart) and prints its outcome. The cluster command "
        + "starts these; start one by hand on another machine to add a replica to a running process. S3 credentials "
        + "come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.")
public final class ReplicaCommand implements Subcommand {

    /**
     * The session timeout of a replica's election: a writer whose host dies or pauses is replaced about this long
     * after (plus one tick of the ensemble), and a pause this long makes another replica the writer.
     */
    static final Duration ELECTION_SESSION = Duration.ofSeconds(3);

    /**
     * How many parts of a step a paced replica may run past the last clock report its coordinator acknowledged: the
     * coordinator sees the replica's virtual time at most half a step late, so a host's failure lands close to the
     * time its law drew, wherever the replica is then.
     */
    static final int PACING_WINDOW = RemdProcess.CHUNKS_PER_STEP / 2;

    /**
     * How writers commit: asynchronously and differentially. A differential checkpoint needs the older segments its
     * manifest lists, exposed to every storage departure since they were written and repaired by nobody while a
     * process has no writer; the store refers to an older segment only if its commit's listing shows all {@code n}
     * of that segment's fragments, and stores the live blocks of any other again, so a committed checkpoint tolerates
     * {@code k} losses on each segment it lists as a full one tolerates them on its own. The states here (a few
     * hundred bytes) change in every 256-byte block between two checkpoints, so a commit refers to no older segment:
     * it stores the whole state and its block manifest, a few percent more bytes than a full commit, and a writer
     * elected after a restart reads the newest segment once to learn that manifest. How long a run takes follows
     * mostly from how many of its restarts find their checkpoint lost to the storage churn (they start over, and the
     * run needs more virtual time), with either kind of commit: docs/tour-across-processes.md gives the measurements.
     */
    static final String COMMITS = "asynchronous, differential";

    @Spec
    private CommandSpec spec;

    private String zookeeper;
    private String run;
    private Integer process;
    private String name;
    private double startVirtualSeconds;
    private double deadlineMinutes;

    @Option(names = "--restart",
            description = "start from the process's last checkpoint (from the start if it has none)")
    private boolean restart;

    @Option(names = "--detached", description = "ignore standard input: stop only when done or at the deadline")
    private boolean detached;

    @Option(names = "--coordinated", description = "report every event to a coordinator on standard output, and run "
            + "at most " + PACING_WINDOW + " parts of a step ahead of what it acknowledged (the cluster command's "
            + "replicas); otherwise print a line per step")
    private boolean coordinated;

    @Option(names = "--zookeeper", paramLabel = "HOST:PORT,...", description = "the ensemble (required)")
    void zookeeper(String value) {
        zookeeper = OptionChecks.notBlank(spec, "--zookeeper", value);
    }

    @Option(names = "--run", paramLabel = "NAME", description = "the run, as the cluster command names it (required)")
    void run(String value) {
        run = OptionChecks.notBlank(spec, "--run", value);
    }

    @Option(names = "--process", paramLabel = "N", description = "the logical process, from 0 (required) [0, 1000]")
    void process(int value) {
        process = OptionChecks.inRange(spec, "--process", value, 0, 1_000);
    }

    @Option(names = "--name", paramLabel = "NAME", description = "what the replica is called in its process's writer "
            + "election (default: replica and the process id of its JVM)")
    void name(String value) {
        name = OptionChecks.notBlank(spec, "--name", value);
    }

    @Option(names = "--start-virtual-seconds", paramLabel = "X", defaultValue = "0.0",
            description = "the virtual time this replica starts at [0.0, 1.0E12] (default ${DEFAULT-VALUE})")
    void startVirtualSeconds(double value) {
        startVirtualSeconds = OptionChecks.inRange(spec, "--start-virtual-seconds", value, 0.0, 1e12);
    }

    @Option(names = "--deadline-minutes", paramLabel = "X", defaultValue = "60.0",
            description = "stop after this long whatever happens [0.05, 10080.0] (default ${DEFAULT-VALUE})")
    void deadlineMinutes(double value) {
        deadlineMinutes = OptionChecks.inRange(spec, "--deadline-minutes", value, 0.05, 10_080.0);
    }

    @Override
    public int run(PrintStream out) throws Exception {
        if (zookeeper == null) {
            throw new UsageException("--zookeeper is required");
        }
        if (run == null) {
            throw new UsageException("--run is required");
        }
        if (process == null) {
            throw new UsageException("--process is required");
        }
        if (coordinated && detached) {
            throw new UsageException("--coordinated needs standard input: it cannot be --detached");
        }
        String replicaName = name != null ? name : "replica " + ProcessHandle.current().pid();
        ReplicaRun replica = new ReplicaRun(zookeeper, run, process, replicaName, startVirtualSeconds, coordinated,
                out);
        Duration deadline = Duration.ofMillis((long) (deadlineMinutes * 60_000));
        Lifeline.watch(detached ? null : System.in, deadline, replica::command);
        return replica.run(restart);
    }

    /** One replica's run. */
    private static final class ReplicaRun {

        private final String zookeeper;
        private final String runName;
        private final int process;
        private final String job;
        private final String name;
        private final PrintStream out;
        private volatile double virtualSeconds;
        private volatile NiHarwoodEstimate latest;
        /**
         * Set when a commit failed: the scheduler restarted its interval when the call returned, so the writer takes
         * the next checkpoint after its next step instead, as it did when a synchronous commit failed.
         */
        private volatile boolean retryCheckpoint;
        /** The stage of the writer's last commit, or null. */
        private volatile CompletableFuture<FragmentIndex> persisting;
        private final AtomicInteger departures = new AtomicInteger();
        private final boolean coordinated;
        private final Object pacing = new Object();
        private long reported;
        private long acknowledged;

        ReplicaRun(String zookeeper, String run, int process, String name, double startVirtualSeconds,
                   boolean coordinated, PrintStream out) {
            this.zookeeper = zookeeper;
            this.runName = run;
            this.process = process;
            this.job = RunSpec.jobId(process);
            this.name = name;
            this.virtualSeconds = startVirtualSeconds;
            this.coordinated = coordinated;
            this.out = out;
        }

        /**
         * An order from the coordinator (on the lifeline's thread).
         *
         * @throws IllegalArgumentException if the line is not a {@link ReplicaOrder}
         */
        void command(String line) {
            ReplicaOrder order = ReplicaOrder.parse(line.trim());
            if (order instanceof ReplicaOrder.Ack ack) {
                synchronized (pacing) {
                    acknowledged = Math.max(acknowledged, ack.sequence());
                    pacing.notifyAll();
                }
            } else if (order instanceof ReplicaOrder.Estimate estimate) {
                latest = estimate.estimate();
            } else if (order instanceof ReplicaOrder.Departed) {
                departures.incrementAndGet();
            }
        }

        /** Tells the coordinator, if there is one. */
        private void report(ReplicaReport report) {
            if (!coordinated) {
                return;
            }
            synchronized (out) {
                out.println(report.format());
                out.flush();
            }
        }

        int run(boolean restart) throws Exception {
            RunSpec spec = RunSpec.read(zookeeper, runName, Duration.ofSeconds(30));
            RemdSetup setup = spec.setup();
            if (process >= setup.processes()) {
                throw new UsageException("--process must be in [0, " + (setup.processes() - 1) + "]: " + process);
            }
            AdaptiveCheckpointScheduler scheduler = AdaptiveCheckpointScheduler.create(1,
                    () -> Optional.ofNullable(latest), () -> (long) (virtualSeconds * 1e9));
            // Every replica of the process competes for its writer role; the one elected writes the checkpoints.
            try (WriterElection election = WriterElection.builder(zookeeper, spec.epochsPath(), job).name(name)
                    .sessionTimeout(ELECTION_SESSION).executor(Runnable::run).listener(this::roleChanged).join();
                 Checkpoints checkpoints = new Checkpoints(spec, scheduler, election)) {
                ProcessCheckpoint start = restart ? recover(checkpoints.store(), setup)
                        : ProcessCheckpoint.of(0, RemdState.initial(setup, process).toBytes());
                if (!restart) {
                    report(new ReplicaReport.Restored(ReplicaReport.Origin.START, 0, 0));
                }
                RemdState state = RemdState.fromBytes(start.state());
                DataspaceOptions dataspaceOptions = DataspaceOptions.builder()
                        .readLogCapacity(RunSpec.READ_LOG_CAPACITY).build();
                try (ZooKeeperDataspace dataspace = ZooKeeperDataspace.builder(zookeeper, spec.namespace())
                        .processCount(setup.processes()).options(dataspaceOptions).connect();
                     Replica replica = dataspace.open(process, start.requestNumber())) {
                    RemdProcess.Outcome outcome = RemdProcess.of(setup).run(replica, state, new RemdProcess.Hooks() {
                        @Override
                        public void beforeChunk(int step, int chunk) {
                            awaitPersist();
                            virtualSeconds += spec.stepSeconds() / RemdProcess.CHUNKS_PER_STEP;
                            pace(step);
                        }

                        @Override
                        public void afterStep(RemdState after) {
                            report(new ReplicaReport.Step(after.completedSteps(),
                                    dataspace.statistics().servedFromLog(),
                                    dataspace.statistics().duplicatesIgnored(), checkpoints.bytesWritten()));
                            if (!coordinated) {
                                out.printf("process %d: step %d of %d done (request %d)%n", process,
                                        after.completedSteps(), setup.steps(), after.requestNumber());
                            }
                            if (election.isWriter() && departures.getAndSet(0) > 0) {
                                repair(checkpoints.store());
                            }
                            if (election.isWriter() && after.completedSteps() < setup.steps()
                                    && (scheduler.checkpointDue() || retryCheckpoint)) {
                                retryCheckpoint = false;
                                commit(checkpoints, election, scheduler, after, spec.checkpointSeconds());
                            }
                        }
                    });
                    checkpoints.finish();
                    report(ReplicaReport.Done.of(state.toBytes()));
                    out.printf("process %d finished: rung %d, final energy %.6f kcal/mol%n", process,
                            outcome.finalRung(), outcome.energy());
                }
            }
            return 0;
        }

        /** The election's news: reported to the coordinator; a new writer repairs what departures cost first. */
        private void roleChanged(WriterElection.Role role, long epoch) {
            if (role == WriterElection.Role.WRITER) {
                departures.incrementAndGet();
                report(new ReplicaReport.Elected(epoch));
            } else {
                report(new ReplicaReport.Demoted(epoch));
            }
        }

        /**
         * The way to the process's checkpoints — the storage hosts' S3 clients, the epoch source and the store — opened
         * when first needed: a replica that neither writes nor restarts never pays for them.
         */
        private final class Checkpoints implements AutoCloseable {
            private final RunSpec spec;
            private final AdaptiveCheckpointScheduler scheduler;
            private final WriterElection election;
            private final List<S3Repository> clients = new ArrayList<>();
            private final List<CountingRepository> repositories = new ArrayList<>();
            private ExecutorService threads;
            private CheckpointStore store;

            Checkpoints(RunSpec spec, AdaptiveCheckpointScheduler scheduler, WriterElection election) {
                this.spec = spec;
                this.scheduler = scheduler;
                this.election = election;
            }

            /**
             * The store, its epochs the election's: it commits under the epoch of this replica's current term, and
             * is refused once another replica was elected.
             */
            CheckpointStore store() {
                if (store == null) {
                    S3Credentials credentials = S3Credentials.fromEnvironment(System.getenv())
                            .orElse(S3Credentials.LOOPBACK);
                    for (int h = 0; h < spec.storageHosts(); h++) {
                        S3Repository s3 = spec.repository(h, credentials);
                        clients.add(s3);
                        repositories.add(new CountingRepository(new VolatileRepository(s3)));
                    }
                    threads = Executors.newFixedThreadPool(4, Tour.daemon("store"));
                    // Ten storage hosts, replaced one at a time: the writer repairs every lost fragment at once (a
                    // reconstruction threshold of n), not only once the checkpoint is down to its midpoint.
                    store = spec.pool().store(repositories, () -> StoragePool.objective(spec.computeLaw()
                                    .meanSeconds(), scheduler.intervalSeconds(), spec.stepSeconds(), virtualSeconds))
                            .reconstructionThreshold(StoragePool.DATA_FRAGMENTS + StoragePool.PARITY_FRAGMENTS)
                            .executor(threads).epochs(election).differential(Tour.CHUNKING)
                            .closeTimeout(Tour.CLOSE_WAIT).build();
                }
                return store;
            }

            long bytesWritten() {
                return CountingRepository.bytesWritten(repositories);
            }

            /** The bytes the checkpoint {@code index} describes was written as, so far. */
            long bytesWritten(FragmentIndex index) {
                return CountingRepository.bytesWritten(repositories, index);
            }

            /**
             * Waits, for at most {@link Tour#CLOSE_WAIT}, until the commits taken are decided and reported; abandons
             * the rest.
             */
            void finish() {
                if (store != null) {
                    store.close(Tour.CLOSE_WAIT);
                }
            }

            @Override
            public void close() {
                if (store != null) {
                    store.close(java.time.Duration.ZERO);
                }
                if (threads != null) {
                    threads.shutdownNow();
                }
                for (S3Repository client : clients) {
                    client.close();
                }
            }
        }

        /** Reports the clock and, when coordinated, waits until the coordinator is at most the window behind. */
        private void pace(int step) {
            synchronized (pacing) {
                reported++;
                report(new ReplicaReport.Clock(virtualSeconds, step, reported));
                boolean interrupted = false;
                while (coordinated && reported - acknowledged > PACING_WINDOW) {
                    try {
                        pacing.wait();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        /**
         * Recovers the process's last checkpoint — its state and the request number to reopen at — waiting while
         * storage hosts that may hold it are unreachable.
         */
        private ProcessCheckpoint recover(CheckpointStore store, RemdSetup setup) throws InterruptedException {
            ProcessCheckpoint scratch = ProcessCheckpoint.of(0, RemdState.initial(setup, process).toBytes());
            while (true) {
                try {
                    Optional<ProcessCheckpoint> recovered = store.recoverProcess(job);
                    if (recovered.isEmpty()) {
                        report(new ReplicaReport.Restored(ReplicaReport.Origin.SCRATCH, 0, 0));
                        return scratch;
                    }
                    RemdState state = RemdState.fromBytes(recovered.get().state());
                    report(new ReplicaReport.Restored(ReplicaReport.Origin.CHECKPOINT, state.completedSteps(),
                            recovered.get().requestNumber()));
                    return recovered.get();
                } catch (RepositoriesUnreachableException e) {
                    Thread.sleep(200); // a storage host is coming back: ask again
                } catch (CheckpointUnavailableException e) {
                    // Too many storage hosts lost their data between repairs: start over; the read log replays.
                    report(new ReplicaReport.Restored(ReplicaReport.Origin.LOST, 0, 0));
                    return scratch;
                }
            }
        }

        /**
         * Takes a process checkpoint: the scheduler runs the commit call, which returns once the store has its
         * snapshot, and measures its blocking overhead (the modelled {@code V}, charged to the virtual clock here) and
         * its latency until durable, in virtual time; the real time the call held this thread is measured apart. How
         * the commit ends is reported when its stage completes.
         */
        private void commit(Checkpoints checkpoints, WriterElection election, AdaptiveCheckpointScheduler scheduler,
                            RemdState state, double checkpointSeconds) {
            ProcessCheckpoint checkpoint = ProcessCheckpoint.of(state.requestNumber(), state.toBytes());
            int stateBytes = ProcessCheckpoint.HEADER_BYTES + checkpoint.stateLength();
            double interval = scheduler.intervalSeconds();
            scheduler.checkpoint(() -> {
                long start = System.nanoTime();
                CompletionStage<FragmentIndex> stage = checkpoints.store().commitAsync(job, checkpoint);
                long blockedNanos = System.nanoTime() - start;
                persisting = stage.toCompletableFuture();
                virtualSeconds += checkpointSeconds;
                stage.whenComplete((index, failure) -> persisted(checkpoints, election, state.completedSteps(),
                        stateBytes, start, blockedNanos, index, failure));
                return stage;
            });
            report(new ReplicaReport.Checkpoint(state.completedSteps(), virtualSeconds, interval));
        }

        /**
         * Waits, before the replica's virtual clock moves on, until the last commit's persist is over (for at most
         * {@link Tour#CLOSE_WAIT}; how it ended is reported by its stage). Time is virtual: a step counts minutes
         * but computes in milliseconds, so a persist of a few kilobytes, which a real step would hide entirely, would
         * otherwise span steps of virtual time, and a host failure drawn in them would take checkpoints that a real
         * job would have made durable long before. The wait is real time only, not the job's: the summary's blocking
         * time is that of the commit calls.
         */
        private void awaitPersist() {
            CompletableFuture<FragmentIndex> last = persisting;
            if (last == null || last.isDone()) {
                return;
            }
            try {
                last.get(Tour.CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // Reported when the stage completes; a persist that takes longer goes on in the background.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /**
         * A commit's stage completed (on a store thread): reports what it cost, measured — the real time the call
         * held the replica, the time until durable, the bytes it wrote — and what a full commit of the same
         * checkpoint writes, derived. Superseded commits are normal when commits come faster than the storage hosts
         * take them; abandoned ones were cut off by the end of the replica; a stale writer's commit and one too few
         * storage hosts took are reported as before, and the previous checkpoint stays the one a restart recovers.
         */
        private void persisted(Checkpoints checkpoints, WriterElection election, int steps, int stateBytes,
                               long startNanos, long blockedNanos, FragmentIndex index, Throwable failure) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            double blocking = blockedNanos / 1e9;
            if (cause == null) {
                double latency = Math.max(0, System.nanoTime() - startNanos) / 1e9;
                long full = CommitCosts.fullCommitBytes(stateBytes, index.m(), index.n(), index.toBytes().length);
                report(new ReplicaReport.Persist(ReplicaReport.Outcome.DURABLE, blocking, latency,
                        checkpoints.bytesWritten(index), full));
                return;
            }
            ReplicaReport.Outcome outcome = cause instanceof CommitSupersededException
                    ? ReplicaReport.Outcome.SUPERSEDED : cause instanceof CommitAbandonedException
                    ? ReplicaReport.Outcome.ABANDONED : ReplicaReport.Outcome.FAILED;
            report(new ReplicaReport.Persist(outcome, blocking, 0, 0, 0));
            if (outcome == ReplicaReport.Outcome.FAILED) {
                retryCheckpoint = true;
            }
            if (cause instanceof StaleWriterException e) {
                // Another replica was elected while this one wrote (it was paused, or cut off): its commit is refused.
                report(new ReplicaReport.Stale(e.epoch()));
            } else if (outcome == ReplicaReport.Outcome.FAILED
                    && !(cause instanceof CommitFailedException && !election.isWriter())) {
                // Too few storage hosts took the fragments (some are being replaced): the next checkpoint tries again.
                // (A commit that failed because the role went meanwhile is the new writer's to take again.)
                String reason = cause.getMessage() != null ? cause.getMessage() : cause.toString();
                System.err.println("checkpoint of step " + steps + " failed: " + reason);
                report(new ReplicaReport.CommitFailed(Fields.oneLine(reason)));
            }
        }

        private void repair(CheckpointStore store) {
            try {
                RepairReport repaired = store.repair(job);
                report(new ReplicaReport.Repaired(repaired.regenerated().size(), Optional.empty()));
            } catch (CheckpointStoreException e) {
                System.err.println("repair failed: " + e.getMessage());
                report(new ReplicaReport.Repaired(0, Optional.of(Fields.oneLine(e.getMessage()))));
            }
        }
    }

}
