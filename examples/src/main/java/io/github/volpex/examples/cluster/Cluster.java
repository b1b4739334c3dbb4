package io.github.volpex.examples.cluster;

import io.github.volpex.dataspace.zookeeper.EmbeddedZooKeeper;
import io.github.volpex.estimators.DownloadTimeEstimator;
import io.github.volpex.estimators.RateEstimate;
import io.github.volpex.examples.Main;
import io.github.volpex.examples.remd.RemdProcess;
import io.github.volpex.examples.remd.RemdSetup;
import io.github.volpex.examples.remd.RemdState;
import io.github.volpex.examples.tour.CommitCosts;
import io.github.volpex.examples.tour.FailureObservations;
import io.github.volpex.examples.tour.StoragePool;
import io.github.volpex.examples.tour.Tour;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The coordinator of the tour across processes: the host application of a grid whose machines are real processes.
 * It starts a 3-server ZooKeeper ensemble and the S3 storage hosts (S3Proxy servers, each on its own port) in this JVM,
 * or uses the ones it is given, then starts every replica of every logical process as a JVM of its own from the same
 * class path ({@link ReplicaCommand}), and makes them fail for real:
 * <ul>
 *   <li>each replica's host lives a lifetime drawn from the compute hosts' law, in the virtual time the replica
 *       reports; when it is over, the replica's JVM is killed with SIGKILL, wherever it is (in a transaction, in a
 *       checkpoint commit);</li>
 *   <li>a replica JVM that dies in a way the coordinator did not schedule — killed from outside, an exit, a crash —
 *       is a host failure like the others: counted, and its process restarted if it has no replica left;</li>
 *   <li>a process that has lost every replica restarts as new JVMs from its last process checkpoint (state and
 *       request number); the replicas of each process elect their writer ({@code WriterElection}), so when it dies
 *       another live replica writes its checkpoints under a new, fenced epoch;</li>
 *   <li>storage hosts depart on their own lifetimes: the server stops (connections are refused) and everything it
 *       held is lost; an empty host takes its place on the same port a quarter of a second later, and the writers
 *       repair their checkpoints; a replica whose clock passes a departure still to come stops at its pacing window
 *       until it has happened, and a restart waits for the departures due before it resumes, so virtual time runs
 *       at most that window ahead of the storage churn;</li>
 *   <li>the ZooKeeper leader is stopped halfway through and restarted;</li>
 *   <li>now and then a process's writer is paused with SIGSTOP for longer than its election session: another replica
 *       is elected, and when the paused one resumes, its commit in flight is refused as stale.</li>
 * </ul>
 * Every child is stopped when the run ends, fails or is interrupted (a shutdown hook covers Ctrl-C), and a child whose
 * coordinator vanishes stops when its standard input ends. Single-threaded: every event is handled on the thread that
 * calls {@link #run}.
 */
final class Cluster {

    /**
     * A run across processes.
     *
     * @param tour             the physics, replication, host laws and costs
     * @param zookeeper        an ensemble to use instead of starting one
     * @param s3               S3 endpoints to use instead of starting storage hosts
     * @param bucket           the bucket on the S3 endpoints
     * @param region           the S3 region
     * @param timeout          how long the run may take
     * @param replicaJvmOptions the replica JVMs' options
     * @param logs             where children's logs go; a temporary directory, deleted after a passing run, if empty
     * @param pauses           how many times a process's writer is paused past its election session
     */
    record Config(Tour.Config tour, Optional<String> zookeeper, List<URI> s3, String bucket, String region,
                  Duration timeout, List<String> replicaJvmOptions, Optional<Path> logs, int pauses) {

        /** Copies the lists. */
        Config {
            s3 = List.copyOf(s3);
            replicaJvmOptions = List.copyOf(replicaJvmOptions);
        }
    }

    /**
     * What a run did.
     *
     * @param tour              the tour's result: outcomes, reference, failures, restarts, checkpoints
     * @param replicaJvms       replica JVMs started
     * @param failovers         ZooKeeper leader failovers
     * @param failoverNote      which servers, when there was one
     * @param unscheduled       replica JVMs that died without the coordinator killing them (host failures)
     * @param elections         writers elected (terms begun)
     * @param pauses            writers paused past their election session
     * @param staleRefusals     commits refused because the writer's epoch was stale
     * @param commitFailures    commits that failed otherwise (too few storage hosts reachable)
     * @param bytesOnS3         bytes on the storage hosts at the end
     * @param objectsOnS3       objects on the storage hosts at the end
     * @param ownEnsemble       whether the run started its ensemble
     * @param churnLagSeconds   how far, at most, a replica's clock ran past a storage departure still to come
     * @param clocksHeld        replica clock reports held until the departures due before them had happened
     */
    record Result(Tour.Result tour, int replicaJvms, int failovers,
                  String failoverNote, int unscheduled, int elections, int pauses, int staleRefusals,
                  int commitFailures, long bytesOnS3, int objectsOnS3, boolean ownEnsemble, double churnLagSeconds,
                  int clocksHeld) {
    }

    /** Seconds between two progress lines. */
    private static final int PROGRESS_TICKS = 5;
    /** How long a writer is paused: longer than its election session, so that another replica is elected. */
    private static final long PAUSE_NANOS = ReplicaCommand.ELECTION_SESSION.toNanos() + TimeUnit.SECONDS.toNanos(2);
    /**
     * How long a departed storage host stays away before an empty one takes its place (real time; in virtual time the
     * place is taken at once). Short, since every departure holds back the clocks that reached it meanwhile.
     */
    private static final long REJOIN_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final Config config;
    private final Tour.Config tour;
    private final RemdSetup setup;
    private final PrintStream progress;
    private final EventLoop events = new EventLoop();
    private final ClusterTally tally = new ClusterTally();
    private final DisruptionSchedule disruptions;
    private final SplittableRandom hostRandom;
    private final FailureObservations observations = new FailureObservations();
    private final DownloadTimeEstimator downloadTime;
    private final String run;
    private final ClusterProcess[] processes;
    private final List<ReplicaJvm> replicas = new ArrayList<>();
    /** Clock reports held back until the storage churn has caught up with them. */
    private final List<HeldClock> heldClocks = new ArrayList<>();
    /** Restarts waiting for the departures due before their resume time. */
    private final List<PendingRestart> pendingRestarts = new ArrayList<>();
    private int clocksHeld;
    /** The furthest a replica's clock ran past a departure still to come, in virtual seconds. */
    private double churnLagSeconds;
    private final StorageHosts storage;
    private final S3Credentials credentials;
    private final long deadlineMinutes;
    /** Read by the shutdown hook too. */
    private volatile Path logs;
    private boolean temporaryLogs;
    /** Read by the shutdown hook too. */
    private volatile EmbeddedZooKeeper ensemble;
    private String connectString;
    private RunSpec spec;
    /** Whether the run's description is in the ensemble, so that there is something of the run to delete. */
    private boolean published;
    private StorageChurn churn;
    private long startNanos;
    private long ticks;
    private int lastPaused = -1;

    private Cluster(Config config, PrintStream progress) {
        this.config = config;
        this.tour = config.tour();
        this.setup = tour.setup();
        this.progress = progress;
        this.hostRandom = new SplittableRandom(tour.seed());
        this.downloadTime = DownloadTimeEstimator.startingAt(tour.checkpointSeconds());
        this.run = "run-" + Long.toHexString(System.currentTimeMillis()) + "-"
                + Long.toHexString(ProcessHandle.current().pid());
        this.processes = new ClusterProcess[setup.processes()];
        for (int p = 0; p < processes.length; p++) {
            processes[p] = new ClusterProcess(p);
        }
        this.credentials = config.s3().isEmpty() ? S3Credentials.fromEnvironment(System.getenv())
                .orElse(S3Credentials.LOOPBACK) : S3Credentials.fromEnvironment(System.getenv()).orElseThrow(
                        () -> new IllegalStateException("--s3 needs the credentials in "
                                + S3Credentials.ACCESS_KEY_VARIABLE + " and " + S3Credentials.SECRET_KEY_VARIABLE));
        this.storage = new StorageHosts(tour.storageHosts(), config.s3(), config.bucket(), credentials);
        this.deadlineMinutes = config.timeout().toMinutes() + 2;
        this.disruptions = new DisruptionSchedule(setup.steps(), config.zookeeper().isEmpty(), config.pauses());
    }

    /**
     * Prepares a run.
     *
     * @param config   the configuration
     * @param progress where progress lines go
     * @return the coordinator
     */
    static Cluster of(Config config, PrintStream progress) {
        return new Cluster(config, progress);
    }

    /**
     * Runs the job across processes and compares it with the failure-free reference.
     *
     * @param reference the failure-free outcomes
     * @return what happened
     * @throws IOException          if the logs cannot be written
     * @throws InterruptedException if interrupted
     */
    Result run(List<RemdProcess.Outcome> reference) throws IOException, InterruptedException {
        temporaryLogs = config.logs().isEmpty();
        logs = temporaryLogs ? Files.createTempDirectory("volpex-cluster-")
                : Files.createDirectories(config.logs().get().resolve(run));
        Thread hook = new Thread(this::emergencyStop, "cluster-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        boolean passed = false;
        try {
            startNanos = System.nanoTime();
            startZooKeeper();
            storage.start();
            StoragePool pool = StoragePool.draw(tour.storageHosts(), tour.storageLaw(), setup.seed());
            churn = new StorageChurn(pool.hosts().stream().map(StoragePool.Host::law).toList(), hostRandom);
            spec = new RunSpec(run, setup, tour.stepSeconds(), tour.checkpointSeconds(), tour.downloadSeconds(),
                    tour.computeHosts(), tour.storageHosts(), tour.storageLaw(), storage.endpoints(), config.bucket(),
                    config.region());
            spec.publish(connectString, Duration.ofSeconds(30));
            published = true;
            storage.connect(spec);
            progress.printf("  [%5.1f s] ZooKeeper: %s%n", elapsed(), ensemble != null
                    ? "an ensemble of 3 servers in this JVM, " + connectString : "the ensemble at " + connectString);
            progress.printf("  [%5.1f s] S3: %s%n", elapsed(), storage.describe());
            progress.printf("  [%5.1f s] run %s; each replica is a JVM: java ... %s replica --zookeeper %s --run %s "
                    + "--process P%n", elapsed(), run, Main.class.getName(), connectString, run);
            for (ClusterProcess process : processes) {
                for (int r = 0; r < tour.replicas(); r++) {
                    launchReplica(process, false, r == 0, 0.0);
                }
            }
            loop();
            Result result = result(reference);
            passed = result.tour().verified();
            return result;
        } finally {
            stopAll(passed);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook runs already.
            }
        }
    }

    private double elapsed() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    // ---- services ------------------------------------------------------------------------------------------------

    private void startZooKeeper() {
        if (config.zookeeper().isPresent()) {
            connectString = config.zookeeper().get();
            return;
        }
        // A demonstration ensemble in a temporary directory: its transaction log need not reach the disk before each
        // reply (a JVM-wide setting of ZooKeeper's server, read when a server starts).
        System.setProperty("zookeeper.forceSync", "no");
        ensemble = EmbeddedZooKeeper.start(3, logs.resolve("zookeeper"));
        connectString = ensemble.connectString();
    }

    // ---- the run ---------------------------------------------------------------------------------------------------

    private void loop() throws InterruptedException {
        long deadline = startNanos + config.timeout().toNanos();
        long nextTick = System.nanoTime();
        while (!finished()) {
            events.runNext(deadline, () -> "the run did not finish within " + config.timeout().toSeconds()
                    + " s (logs in " + logs + ")");
            for (int h = 0; h < storage.size(); h++) {
                rejoinWhenDue(h);
            }
            resumeWhenDue();
            if (System.nanoTime() - nextTick >= 0) {
                nextTick += TimeUnit.SECONDS.toNanos(1);
                tick();
            }
        }
        printProgress();
    }

    private boolean finished() {
        for (ClusterProcess process : processes) {
            if (process.outcome == null) {
                return false;
            }
        }
        return !disruptions.failoverRunning() && replicas.stream().allMatch(replica -> replica.exited);
    }

    /** Once a second: the planned disruptions; every fifth, progress. */
    private void tick() {
        if (++ticks % PROGRESS_TICKS == 0) {
            printProgress();
        }
        int slowest = slowestStep();
        if (disruptions.startFailover(slowest)) {
            startFailover();
        }
        if (disruptions.pauseDue(slowest, tally.pauses())) {
            pauseAWriter();
        }
    }

    private int slowestStep() {
        return Arrays.stream(processes).mapToInt(p -> p.stepsDone(setup.steps())).min().orElse(Integer.MAX_VALUE);
    }

    private void printProgress() {
        int fastest = Arrays.stream(processes).mapToInt(p -> p.stepsDone(setup.steps())).max().orElse(0);
        progress.printf("  [%5.1f s] steps %d..%d of %d | replica JVMs %d started, %d killed | restarts %d"
                        + " | checkpoints %d | storage departures %d | ZooKeeper failovers %d%n", elapsed(),
                slowestStep(), fastest, setup.steps(), replicas.size(), observations.failures(), tally.restarts(),
                tally.checkpoints(), tally.departures(), tally.failovers());
    }

    // ---- replicas --------------------------------------------------------------------------------------------------

    /** Starts a replica JVM; {@code first} marks the first of a restart, whose restore counts the restart's kind. */
    private void launchReplica(ClusterProcess process, boolean restart, boolean first, double startVirtualSeconds) {
        double lifetime = tour.computeHosts().draw(hostRandom);
        ReplicaJvm replica = new ReplicaJvm(process, replicas.size() + 1, startVirtualSeconds, lifetime,
                restart && first);
        String name = "replica-" + replica.number + "-p" + process.index;
        List<String> arguments = new ArrayList<>(List.of("replica", "--zookeeper", connectString, "--run", run,
                "--process", Integer.toString(process.index), "--name", name, "--coordinated",
                "--start-virtual-seconds", Double.toString(startVirtualSeconds), "--deadline-minutes",
                Long.toString(deadlineMinutes)));
        if (restart) {
            arguments.add("--restart");
        }
        try {
            replica.jvm = ChildJvm.start(name, ChildJvm.commandLine(config.replicaJvmOptions(), arguments),
                    credentials.environment(), logs.resolve(name + ".log"),
                    line -> events.post(() -> onReplicaLine(replica, line)),
                    child -> events.post(() -> onReplicaExit(replica)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
        replicas.add(replica);
        process.live.add(replica);
        observations.started(replica, () -> replica.virtualSeconds - replica.startVirtualSeconds);
    }

    private void onReplicaLine(ReplicaJvm replica, String line) {
        Optional<ReplicaReport> report;
        try {
            report = ReplicaReport.parse(line);
        } catch (IllegalArgumentException e) {
            events.fail(new IllegalStateException(replica.jvm + " broke the replica protocol: " + e.getMessage(), e));
            return;
        }
        report.ifPresent(r -> onReport(replica, r));
    }

    private void onReport(ReplicaJvm replica, ReplicaReport report) {
        ClusterProcess process = replica.process;
        if (report instanceof ReplicaReport.Clock clock) {
            if (!replica.running()) {
                return; // the last lines of a replica whose host has failed: its clock stopped there
            }
            replica.virtualSeconds = clock.virtualSeconds();
            churn.advance(replica.virtualSeconds).ifPresent(this::depart);
            churnLagSeconds = Math.max(churnLagSeconds, churn.behindSeconds(replica.virtualSeconds));
            catchUp();
            if (!replica.done && replica.virtualSeconds >= replica.failsAtSeconds) {
                kill(replica);
            } else if (churn.dueBy(replica.virtualSeconds)) {
                // A departure due before this clock is still to come (the one away must rejoin first): the replica
                // stops at its pacing window until every departure due by its clock has happened, so virtual time
                // runs at most that window ahead of the departures it draws.
                heldClocks.add(new HeldClock(replica, clock.sequence()));
                clocksHeld++;
            } else {
                replica.jvm.send(new ReplicaOrder.Ack(clock.sequence()).format());
            }
        } else if (report instanceof ReplicaReport.Step step) {
            process.step = Math.max(process.step, step.completedSteps());
            replica.servedFromLog = step.servedFromLog();
            replica.duplicatePuts = step.duplicatePuts();
            replica.bytesWritten = step.bytesWritten();
            // The writer asks its scheduler after this step (and any replica may be elected): give it what every
            // failure so far says.
            observations.estimate(tour.checkpointSeconds(), downloadTime.seconds())
                    .ifPresent(e -> replica.jvm.send(new ReplicaOrder.Estimate(e).format()));
        } else if (report instanceof ReplicaReport.Checkpoint checkpoint) {
            double at = checkpoint.virtualSeconds();
            replica.virtualSeconds = Math.max(replica.virtualSeconds, at);
            tally.checkpointed(process.lastCheckpointVirtualSeconds, at, checkpoint.intervalSeconds());
            process.lastCheckpointVirtualSeconds = at;
        } else if (report instanceof ReplicaReport.Persist persist) {
            tally.persisted(persist);
        } else if (report instanceof ReplicaReport.Stale) {
            tally.refusedAsStale();
        } else if (report instanceof ReplicaReport.Elected elected) {
            tally.elected();
            replica.writer = true;
            replica.epoch = elected.epoch();
        } else if (report instanceof ReplicaReport.Demoted) {
            replica.writer = false;
        } else if (report instanceof ReplicaReport.CommitFailed) {
            tally.commitFailed();
        } else if (report instanceof ReplicaReport.Repaired repaired) {
            tally.repaired(repaired.regenerated());
        } else if (report instanceof ReplicaReport.Restored restored) {
            if (replica.firstOfRestart) {
                tally.restartedFrom(restored.origin()); // one count per restart: its first replica's
            }
        } else if (report instanceof ReplicaReport.Done done) {
            replica.done = true;
            RemdProcess.Outcome outcome = RemdProcess.outcome(RemdState.fromBytes(done.state()));
            if (process.outcome == null) {
                process.outcome = outcome;
            } else if (!process.outcome.equals(outcome)) {
                events.fail(new IllegalStateException("two replicas of process " + process.index
                        + " finished with different outcomes"));
            }
        }
    }

    private void onReplicaExit(ReplicaJvm replica) {
        replica.exited = true;
        replica.process.live.remove(replica);
        if (replica.jvm.killed()) {
            return;
        }
        if (replica.done) {
            observations.finished(replica, replica.virtualSeconds - replica.startVirtualSeconds);
            return;
        }
        // Killed from outside (an operator, the OOM killer), crashed, or exited: a host failure like the others.
        tally.diedUnscheduled();
        int status = replica.jvm.exitValue();
        progress.printf("  [%5.1f s] %s died unscheduled (%s): a host failure%n", elapsed(), replica.jvm,
                status > 128 ? "killed by signal " + (status - 128) : "exit status " + status
                        + replica.jvm.lastLogged().map(line -> ", last logged: " + line).orElse(""));
        hostFailed(replica, replica.virtualSeconds);
    }

    /** The replica's host has failed: SIGKILL; a host failure. */
    private void kill(ReplicaJvm replica) {
        replica.jvm.kill();
        hostFailed(replica, replica.failsAtSeconds);
    }

    /**
     * A replica's host failed at {@code failedAtSeconds} (virtual): its uptime is a failure observation, and a process
     * left without a replica restarts from its checkpoint on new hosts. A writer that failed needs nothing here: the
     * process's other replicas elect the next one.
     */
    private void hostFailed(ReplicaJvm replica, double failedAtSeconds) {
        ClusterProcess process = replica.process;
        process.live.remove(replica);
        observations.failed(replica, Math.max(0, failedAtSeconds - replica.startVirtualSeconds));
        if (process.outcome != null || !process.live.isEmpty()) {
            return;
        }
        tally.restarted();
        downloadTime.recordRestartDownload(tour.downloadSeconds());
        // The process resumes after its download; the departures due by then happen first (the churn is told the
        // time, since the other processes may be waiting for this one and report no clock).
        double resume = failedAtSeconds + tour.downloadSeconds();
        churn.advance(resume).ifPresent(this::depart);
        pendingRestarts.add(new PendingRestart(process, resume));
        catchUp();
    }

    /**
     * A process's writer is paused with SIGSTOP (a long garbage collection, a suspended laptop) for longer than its
     * election session: another replica is elected; the paused one resumes later and is refused if it commits.
     */
    private void pauseAWriter() {
        for (int i = 1; i <= processes.length; i++) {
            ClusterProcess process = processes[(lastPaused + i) % processes.length];
            if (process.outcome != null || process.live.size() < 2) {
                continue;
            }
            Optional<ReplicaJvm> writer = process.live.stream().filter(r -> r.writer && r.pausedUntil == 0)
                    .findFirst();
            if (writer.isPresent() && writer.get().jvm.signal("STOP")) {
                tally.paused();
                lastPaused = process.index;
                writer.get().pausedUntil = System.nanoTime() + PAUSE_NANOS;
                progress.printf("  [%5.1f s] process %d's writer, %s, paused with SIGSTOP for %d s, past its %d s "
                        + "election session%n", elapsed(), process.index, writer.get().jvm,
                        TimeUnit.NANOSECONDS.toSeconds(PAUSE_NANOS), ReplicaCommand.ELECTION_SESSION.toSeconds());
                return;
            }
        }
    }

    /** Resumes the paused replicas whose pause is over. */
    private void resumeWhenDue() {
        for (ReplicaJvm replica : replicas) {
            if (replica.pausedUntil != 0 && System.nanoTime() - replica.pausedUntil >= 0) {
                replica.pausedUntil = 0;
                if (replica.running()) {
                    replica.jvm.signal("CONT");
                    String writer = replica.process.live.stream().filter(r -> r.writer && r != replica)
                            .map(r -> r.jvm + " under epoch " + r.epoch).findFirst().orElse("not elected yet");
                    progress.printf("  [%5.1f s] %s resumed (SIGCONT); process %d's writer: %s%n", elapsed(),
                            replica.jvm, replica.process.index, writer);
                }
            }
        }
    }

    // ---- storage hosts ---------------------------------------------------------------------------------------------

    /**
     * A storage host leaves and loses everything it held; an empty one takes its place a quarter of a second later. On
     * S3 of the user's, what the run stored under the host's prefix is deleted at once, and the host counts as away
     * for the same time: the next departure waits for it, as with the run's own servers, so that departures due
     * together (virtual time jumps when a process restarts) come apart and writers can repair between them, instead
     * of emptying every host in one instant. Since departures thus take real time, replicas whose clocks pass one
     * still to come are held at their pacing window until it has happened ({@link #catchUp}).
     */
    private void depart(int index) {
        tally.departed();
        try {
            tally.lost(storage.depart(index, System.nanoTime() + REJOIN_NANOS));
        } catch (IOException e) {
            events.fail(new IllegalStateException("storage host " + index + " could not be emptied", e));
        }
    }

    /** The host away is back, empty, once its time away is over: writers repair, and the next host due may leave. */
    private void rejoinWhenDue(int index) {
        if (churn.away().orElse(-1) == index && storage.mayRejoin(index)) {
            storage.rejoin(index);
            for (ReplicaJvm replica : replicas) {
                if (replica.running()) {
                    replica.jvm.send(new ReplicaOrder.Departed(index).format());
                }
            }
            churn.rejoined().ifPresent(this::depart);
            catchUp();
        }
    }

    /**
     * Lets go on what the churn has caught up with: acknowledges held clocks (forgetting those of replicas no longer
     * running) and starts the restarts whose resume time no departure still to come precedes.
     */
    private void catchUp() {
        for (Iterator<HeldClock> i = heldClocks.iterator(); i.hasNext(); ) {
            HeldClock held = i.next();
            if (!held.replica().running()) {
                i.remove();
            } else if (!churn.dueBy(held.replica().virtualSeconds)) {
                held.replica().jvm.send(new ReplicaOrder.Ack(held.sequence()).format());
                i.remove();
            }
        }
        for (Iterator<PendingRestart> i = pendingRestarts.iterator(); i.hasNext(); ) {
            PendingRestart restart = i.next();
            if (!churn.dueBy(restart.resumeSeconds())) {
                i.remove();
                for (int r = 0; r < tour.replicas(); r++) {
                    launchReplica(restart.process(), true, r == 0, restart.resumeSeconds());
                }
            }
        }
    }

    /** A replica's clock report not acknowledged yet: storage departures due before it are still to come. */
    private record HeldClock(ReplicaJvm replica, long sequence) {
    }

    /** A process that lost its last replica, to restart at {@code resumeSeconds} once the churn has got there. */
    private record PendingRestart(ClusterProcess process, double resumeSeconds) {
    }

    /** The ZooKeeper leader fails over, on a thread of its own; the run waits for it to end. */
    private void startFailover() {
        LeaderFailover.start(ensemble, events, disruptions::failoverDeferred, note -> {
            disruptions.failoverEnded();
            tally.failedOver(note);
            progress.printf("  [%5.1f s] ZooKeeper: %s%n", elapsed(), note);
        });
    }

    // ---- the end -------------------------------------------------------------------------------------------------

    private Result result(List<RemdProcess.Outcome> reference) {
        double wall = elapsed();
        List<RemdProcess.Outcome> outcomes = new ArrayList<>();
        double virtual = 0;
        for (ClusterProcess process : processes) {
            outcomes.add(process.outcome);
        }
        long served = 0;
        long duplicates = 0;
        long written = 0;
        for (ReplicaJvm replica : replicas) {
            served += replica.servedFromLog;
            duplicates += replica.duplicatePuts;
            written += replica.bytesWritten;
            virtual = Math.max(virtual, replica.virtualSeconds);
        }
        long bytesOnS3 = 0;
        int objectsOnS3 = 0;
        for (int h = 0; h < storage.size(); h++) {
            storage.mayRejoinNow(h);
            rejoinWhenDue(h);
            long[] contents = storage.contents(h);
            objectsOnS3 += (int) contents[0];
            bytesOnS3 += contents[1];
        }
        RateEstimate rate = observations.rate();
        CommitCosts costs = tally.commitCosts();
        Tour.Result tourResult = new Tour.Result(outcomes, reference, observations.failures(), tally.restarts(),
                tally.restartsFromScratch(), tally.lostCheckpoints(), costs.durable(), tally.intervalsSeconds(),
                tally.lastIntervalSeconds(), rate.isEmpty() ? 0.0 : rate.ratePerSecond(), written, tally.departures(),
                tally.objectsLost(), tally.fragmentsRepaired(), served, duplicates, wall, virtual, costs);
        return new Result(tourResult, replicas.size(), tally.failovers(), tally.failoverNote(), tally.unscheduled(),
                tally.elections(), tally.pauses(), tally.staleRefusals(), tally.commitFailures(), bytesOnS3,
                objectsOnS3, ensemble != null, churnLagSeconds, clocksHeld);
    }

    /** Stops every child and service; cleans up what the run left on services it was given. */
    private void stopAll(boolean passed) {
        for (ReplicaJvm replica : replicas) {
            if (replica.jvm.isAlive()) {
                replica.jvm.kill();
            }
        }
        if (published && ensemble == null) {
            cleanUp();
        }
        storage.stop(progress);
        ChildJvm.destroyAll();
        if (ensemble != null) {
            ensemble.close();
        }
        if (temporaryLogs && passed) {
            try (Stream<Path> paths = Files.walk(logs)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                progress.println("  could not delete " + logs + ": " + e.getMessage());
            }
        } else if (!passed) {
            progress.println("  the children's logs are in " + logs);
        }
    }

    /** On services of the user's, leaves nothing of the run (see {@link RunSpec#deleteAll}). */
    private void cleanUp() {
        try {
            spec.deleteAll(connectString, storage.repositories());
        } catch (RuntimeException e) {
            progress.println("  could not delete everything of run " + run + " (znodes under " + spec.path()
                    + ", objects under " + run + "/ on S3): " + e.getMessage());
        }
    }

    /**
     * From the shutdown hook (Ctrl-C, or the JVM exiting mid-run): kill every child, stop the ensemble, and say where
     * the logs are.
     */
    private void emergencyStop() {
        ChildJvm.destroyAll();
        EmbeddedZooKeeper running = ensemble;
        if (running != null) {
            running.close();
        }
        // The storage hosts' servers run in this JVM: its exit closes their sockets.
        System.err.println("volpex-examples cluster: stopped; the children's logs are in " + logs);
    }
}
