package io.github.volpex.examples.tour;

import io.github.volpex.checkpoint.interval.NiHarwoodEstimate;
import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.FragmentRepository;
import io.github.volpex.checkpoint.store.s3.S3Repository;
import io.github.volpex.dataspace.zookeeper.EmbeddedZooKeeper;
import io.github.volpex.dataspace.zookeeper.ZooKeeperDataspace;
import io.github.volpex.dataspace.zookeeper.ZooKeeperEpochSource;
import io.github.volpex.estimators.DownloadTimeEstimator;
import io.github.volpex.estimators.RateEstimate;
import io.github.volpex.examples.Main;
import io.github.volpex.examples.remd.RemdProcess;
import io.github.volpex.examples.remd.RemdSetup;
import io.github.volpex.examples.remd.RemdState;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
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
 *       held is lost; an empty host takes its place on the same port a second later, and the writers repair their
 *       checkpoints;</li>
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
     */
    record Result(Tour.Result tour, int replicaJvms, int failovers,
                  String failoverNote, int unscheduled, int elections, int pauses, int staleRefusals,
                  int commitFailures, long bytesOnS3, int objectsOnS3, boolean ownEnsemble) {
    }

    /** Seconds between two progress lines. */
    private static final int PROGRESS_TICKS = 5;
    /** How long a writer is paused: longer than its election session, so that another replica is elected. */
    private static final long PAUSE_NANOS = ReplicaCommand.ELECTION_SESSION.toNanos() + TimeUnit.SECONDS.toNanos(2);
    /** How long a departed storage host stays away before an empty one takes its place. */
    private static final long REJOIN_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Config config;
    private final Tour.Config tour;
    private final RemdSetup setup;
    private final PrintStream progress;
    private final BlockingQueue<Runnable> events = new LinkedBlockingQueue<>();
    private final SplittableRandom hostRandom;
    private final FailureObservations observations = new FailureObservations();
    private final DownloadTimeEstimator downloadTime;
    private final String run;
    private final ProcessState[] processes;
    private final List<ReplicaJvm> replicas = new ArrayList<>();
    private final StorageHost[] storage;
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
    private RuntimeException failure;
    private long startNanos;
    private double globalVirtualSeconds;
    private long ticks;

    // What happened.
    private int restarts;
    private int restartsFromScratch;
    private int lostCheckpoints;
    private int checkpoints;
    private final List<Double> intervals = new ArrayList<>();
    private double lastIntervalSeconds = Double.POSITIVE_INFINITY;
    private int departures;
    private long objectsLost;
    private int fragmentsRepaired;
    private int failovers;
    private boolean failoverStarted;
    /** A failover is under way on its thread: the run waits for it to end. */
    private boolean failoverRunning;
    private String failoverNote = "";
    private int unscheduled;
    private int elections;
    private int pauses;
    private int lastPaused = -1;
    private int staleRefusals;
    private int commitFailures;

    private Cluster(Config config, PrintStream progress) {
        this.config = config;
        this.tour = config.tour();
        this.setup = tour.setup();
        this.progress = progress;
        this.hostRandom = new SplittableRandom(tour.seed());
        this.downloadTime = DownloadTimeEstimator.startingAt(tour.checkpointSeconds());
        this.run = "run-" + Long.toHexString(System.currentTimeMillis()) + "-"
                + Long.toHexString(ProcessHandle.current().pid());
        this.processes = new ProcessState[setup.processes()];
        for (int p = 0; p < processes.length; p++) {
            processes[p] = new ProcessState(p);
        }
        this.storage = new StorageHost[tour.storageHosts()];
        this.credentials = config.s3().isEmpty() ? S3Credentials.fromEnvironment(System.getenv())
                .orElse(S3Credentials.LOOPBACK) : S3Credentials.fromEnvironment(System.getenv()).orElseThrow(
                        () -> new IllegalStateException("--s3 needs the credentials in "
                                + S3Credentials.ACCESS_KEY_VARIABLE + " and " + S3Credentials.SECRET_KEY_VARIABLE));
        this.deadlineMinutes = config.timeout().toMinutes() + 2;
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
            startStorage();
            spec = new RunSpec(run, setup, tour.stepSeconds(), tour.checkpointSeconds(), tour.downloadSeconds(),
                    tour.computeHosts(), tour.storageHosts(), tour.storageLaw(), endpoints(), config.bucket(),
                    config.region());
            spec.publish(connectString, Duration.ofSeconds(30));
            published = true;
            for (StorageHost host : storage) {
                host.connect();
            }
            progress.printf("  [%5.1f s] ZooKeeper: %s%n", elapsed(), ensemble != null
                    ? "an ensemble of 3 servers in this JVM, " + connectString : "the ensemble at " + connectString);
            progress.printf("  [%5.1f s] S3: %s%n", elapsed(), config.s3().isEmpty() ? storage.length
                    + " storage hosts (S3Proxy) in this JVM on 127.0.0.1, ports " + ports()
                    : storage.length + " storage hosts on " + config.s3());
            progress.printf("  [%5.1f s] run %s; each replica is a JVM: java ... %s replica --zookeeper %s --run %s "
                    + "--process P%n", elapsed(), run, Main.class.getName(), connectString, run);
            for (ProcessState process : processes) {
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

    private void startStorage() {
        for (int h = 0; h < storage.length; h++) {
            storage[h] = new StorageHost(h);
            if (config.s3().isEmpty()) {
                storage[h].server = S3Server.start("127.0.0.1", 0, config.bucket(), credentials);
            }
        }
        StoragePool pool = StoragePool.draw(tour.storageHosts(), tour.storageLaw(), setup.seed());
        for (int h = 0; h < storage.length; h++) {
            storage[h].law = pool.hosts().get(h).law();
            storage[h].failsAt = storage[h].law.draw(hostRandom);
        }
    }

    private String ports() {
        StringBuilder ports = new StringBuilder();
        for (StorageHost host : storage) {
            ports.append(ports.length() == 0 ? "" : " ").append(host.server.port());
        }
        return ports.toString();
    }

    private List<URI> endpoints() {
        if (!config.s3().isEmpty()) {
            return config.s3();
        }
        List<URI> endpoints = new ArrayList<>();
        for (StorageHost host : storage) {
            endpoints.add(host.server.endpoint());
        }
        return endpoints;
    }

    /** Waits for the next event (until {@code deadlineNanos}) and handles it; fails the run if a child did. */
    private void handleNextEvent(long deadlineNanos) throws InterruptedException {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw new IllegalStateException("the run did not finish within " + config.timeout().toSeconds()
                    + " s (logs in " + logs + ")");
        }
        Runnable event = events.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)), TimeUnit.NANOSECONDS);
        if (event != null) {
            event.run();
        }
        if (failure != null) {
            throw failure;
        }
    }

    // ---- the run ---------------------------------------------------------------------------------------------------

    private void loop() throws InterruptedException {
        long deadline = startNanos + config.timeout().toNanos();
        long nextTick = System.nanoTime();
        while (!finished()) {
            handleNextEvent(deadline);
            for (StorageHost host : storage) {
                host.rejoinWhenDue();
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
        for (ProcessState process : processes) {
            if (process.outcome == null) {
                return false;
            }
        }
        return !failoverRunning && replicas.stream().allMatch(replica -> replica.exited);
    }

    /** Once a second: the planned disruptions; every fifth, progress. */
    private void tick() {
        if (++ticks % PROGRESS_TICKS == 0) {
            printProgress();
        }
        int slowest = slowestStep();
        if (ensemble != null && !failoverStarted && slowest >= setup.steps() / 2) {
            failoverStarted = true;
            failoverRunning = true;
            startFailover();
        }
        if (pauses < config.pauses() && slowest >= (pauses + 1) * setup.steps() / (config.pauses() + 1)) {
            pauseAWriter();
        }
    }

    private int slowestStep() {
        int slowest = Integer.MAX_VALUE;
        for (ProcessState process : processes) {
            slowest = Math.min(slowest, process.outcome != null ? setup.steps() : process.step);
        }
        return slowest;
    }

    private void printProgress() {
        int fastest = 0;
        for (ProcessState process : processes) {
            fastest = Math.max(fastest, process.outcome != null ? setup.steps() : process.step);
        }
        progress.printf("  [%5.1f s] steps %d..%d of %d | replica JVMs %d started, %d killed | restarts %d"
                        + " | checkpoints %d | storage departures %d | ZooKeeper failovers %d%n", elapsed(),
                slowestStep(), fastest, setup.steps(), replicas.size(), observations.failures(), restarts,
                checkpoints, departures, failovers);
    }

    // ---- replicas --------------------------------------------------------------------------------------------------

    /** Starts a replica JVM; {@code first} marks the first of a restart, whose restore counts the restart's kind. */
    private void launchReplica(ProcessState process, boolean restart, boolean first, double startVirtualSeconds) {
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
                    line -> events.add(() -> onReplicaLine(replica, line)),
                    child -> events.add(() -> onReplicaExit(replica)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
        replicas.add(replica);
        process.live.add(replica);
        observations.started(replica, () -> replica.virtualSeconds - replica.startVirtualSeconds);
    }

    private void onReplicaLine(ReplicaJvm replica, String line) {
        String[] words = line.split(" ");
        ProcessState process = replica.process;
        switch (words[0]) {
            case ReplicaCommand.CLOCK -> {
                replica.virtualSeconds = Double.parseDouble(words[1]);
                if (!replica.done && !replica.jvm.killed() && replica.virtualSeconds >= replica.failsAtSeconds) {
                    kill(replica);
                } else {
                    replica.jvm.send(ReplicaCommand.ACK + " " + words[3]);
                }
                advanceStorage(replica.virtualSeconds);
            }
            case ReplicaCommand.STEP -> {
                process.step = Math.max(process.step, Integer.parseInt(words[1]));
                replica.servedFromLog = Long.parseLong(words[2]);
                replica.duplicatePuts = Long.parseLong(words[3]);
                replica.bytesWritten = Long.parseLong(words[4]);
                // The writer asks its scheduler after this step (and any replica may be elected): give it what every
                // failure so far says.
                Optional<NiHarwoodEstimate> estimate = observations.estimate(tour.checkpointSeconds(),
                        downloadTime.seconds());
                estimate.ifPresent(e -> replica.jvm.send(ReplicaCommand.ESTIMATE + " " + e.failureRatePerSecond()
                        + " " + e.checkpointOverheadSeconds() + " " + e.downloadSeconds()));
            }
            case ReplicaCommand.CHECKPOINT -> {
                checkpoints++;
                double at = Double.parseDouble(words[2]);
                replica.virtualSeconds = Math.max(replica.virtualSeconds, at);
                if (process.lastCheckpointVirtualSeconds >= 0 && at > process.lastCheckpointVirtualSeconds) {
                    intervals.add(at - process.lastCheckpointVirtualSeconds);
                }
                process.lastCheckpointVirtualSeconds = at;
                lastIntervalSeconds = Double.parseDouble(words[3]);
            }
            case ReplicaCommand.STALE -> staleRefusals++;
            case ReplicaCommand.ELECTED -> {
                elections++;
                replica.writer = true;
                replica.epoch = Long.parseLong(words[1]);
            }
            case ReplicaCommand.DEMOTED -> replica.writer = false;
            case ReplicaCommand.COMMIT_FAILED -> commitFailures++;
            case ReplicaCommand.REPAIRED -> fragmentsRepaired += Integer.parseInt(words[1]);
            case ReplicaCommand.RESTORED -> {
                if (replica.firstOfRestart) {
                    // One count per restart: its first replica's.
                    if (!words[1].equals("checkpoint")) {
                        restartsFromScratch++;
                    }
                    if (words[1].equals("lost")) {
                        lostCheckpoints++;
                    }
                }
            }
            case ReplicaCommand.DONE -> {
                replica.done = true;
                RemdState state = RemdState.fromBytes(Base64.getDecoder().decode(words[1]));
                RemdProcess.Outcome outcome = RemdProcess.outcome(state);
                if (process.outcome == null) {
                    process.outcome = outcome;
                } else if (!process.outcome.equals(outcome)) {
                    failure = new IllegalStateException("two replicas of process " + process.index
                            + " finished with different outcomes");
                }
            }
            default -> {
                // Human-readable lines.
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
        unscheduled++;
        int status = replica.jvm.exitValue();
        progress.printf("  [%5.1f s] %s died unscheduled (%s): a host failure%n", elapsed(), replica.jvm,
                status > 128 ? "killed by signal " + (status - 128) : "exit status " + status
                        + lastLine(replica.jvm.tail(2000)));
        hostFailed(replica, replica.virtualSeconds);
    }

    /** ", last logged: ..." with the last non-empty line of a log, or nothing. */
    private static String lastLine(String log) {
        String[] lines = log.strip().split("\n");
        String last = lines.length == 0 ? "" : lines[lines.length - 1].strip();
        return last.isEmpty() ? "" : ", last logged: " + (last.length() > 160 ? last.substring(0, 160) + "…" : last);
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
        ProcessState process = replica.process;
        process.live.remove(replica);
        observations.failed(replica, Math.max(0, failedAtSeconds - replica.startVirtualSeconds));
        if (process.outcome != null || !process.live.isEmpty()) {
            return;
        }
        restarts++;
        downloadTime.recordRestartDownload(tour.downloadSeconds());
        double resume = failedAtSeconds + tour.downloadSeconds();
        for (int r = 0; r < tour.replicas(); r++) {
            launchReplica(process, true, r == 0, resume);
        }
    }

    /**
     * A process's writer is paused with SIGSTOP (a long garbage collection, a suspended laptop) for longer than its
     * election session: another replica is elected; the paused one resumes later and is refused if it commits.
     */
    private void pauseAWriter() {
        for (int i = 1; i <= processes.length; i++) {
            ProcessState process = processes[(lastPaused + i) % processes.length];
            if (process.outcome != null || process.live.size() < 2) {
                continue;
            }
            Optional<ReplicaJvm> writer = process.live.stream().filter(r -> r.writer && r.pausedUntil == 0)
                    .findFirst();
            if (writer.isPresent() && writer.get().jvm.signal("STOP")) {
                pauses++;
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
     * Storage hosts whose lifetime has passed depart, in the order they fail, one at a time: the next leaves once the
     * empty host that replaces the last one serves (as a pool that keeps its size would), so that at most one of the
     * hosts is away at any time.
     */
    private void advanceStorage(double virtualSeconds) {
        globalVirtualSeconds = Math.max(globalVirtualSeconds, virtualSeconds);
        StorageHost next = null;
        for (StorageHost host : storage) {
            if (host.departing) {
                return;
            }
            if (next == null || host.failsAt < next.failsAt) {
                next = host;
            }
        }
        if (next != null && next.failsAt <= globalVirtualSeconds) {
            next.depart();
        }
    }

    private void broadcastDeparture(StorageHost host) {
        for (ReplicaJvm replica : replicas) {
            if (replica.running()) {
                replica.jvm.send(ReplicaCommand.DEPARTED + " " + host.index);
            }
        }
    }

    // ---- ZooKeeper -------------------------------------------------------------------------------------------------

    /** Stops the leader, waits for another to lead, and starts the old one again: on a thread of its own. */
    private void startFailover() {
        Thread thread = new Thread(() -> {
            try {
                int leader = ensemble.leader();
                if (leader < 0) {
                    events.add(() -> {
                        failoverStarted = false; // mid-election: try again later
                        failoverRunning = false;
                    });
                    return;
                }
                ensemble.stop(leader);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                int next;
                while ((next = ensemble.leader()) < 0 && System.nanoTime() - deadline < 0) {
                    Thread.sleep(20);
                }
                ensemble.restart(leader);
                int elected = next;
                events.add(() -> {
                    failoverRunning = false;
                    failovers++;
                    failoverNote = "leader server " + (leader + 1) + " stopped, server " + (elected + 1)
                            + " elected, server " + (leader + 1) + " restarted";
                    progress.printf("  [%5.1f s] ZooKeeper: %s%n", elapsed(), failoverNote);
                });
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                events.add(() -> failure = new IllegalStateException("the ZooKeeper failover was interrupted", e));
            } catch (RuntimeException e) {
                events.add(() -> failure = new IllegalStateException("the ZooKeeper failover failed", e));
            }
        }, "zookeeper-failover");
        thread.setDaemon(true);
        thread.start();
    }

    // ---- the end -------------------------------------------------------------------------------------------------

    private Result result(List<RemdProcess.Outcome> reference) {
        double wall = elapsed();
        List<RemdProcess.Outcome> outcomes = new ArrayList<>();
        double virtual = 0;
        for (ProcessState process : processes) {
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
        for (StorageHost host : storage) {
            host.rejoinAtNanos = System.nanoTime();
            host.rejoinWhenDue();
            try {
                for (String key : host.repository.list("")) {
                    objectsOnS3++;
                    bytesOnS3 += host.repository.get(key).map(bytes -> bytes.length).orElse(0);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list storage host " + host.index, e);
            }
        }
        RateEstimate rate = observations.rate();
        Tour.Result tourResult = new Tour.Result(outcomes, reference, observations.failures(), restarts,
                restartsFromScratch, lostCheckpoints, checkpoints, List.copyOf(intervals), lastIntervalSeconds,
                rate.isEmpty() ? 0.0 : rate.ratePerSecond(), written, departures, objectsLost, fragmentsRepaired,
                served, duplicates, wall, virtual);
        return new Result(tourResult, replicas.size(), failovers, failoverNote, unscheduled, elections, pauses,
                staleRefusals, commitFailures, bytesOnS3, objectsOnS3, ensemble != null);
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
        for (StorageHost host : storage) {
            if (host != null) {
                host.stop();
            }
        }
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

    /**
     * On services of the user's, leaves nothing of the run: every process's job deleted — its checkpoints on every
     * storage host, of every epoch, and its epoch counter, forced, since the replicas were just killed and their
     * election sessions may not have expired yet — then the dataspace, destroyed without its settings, and the run's
     * description. A storage host's own clean-up removes whatever else the run left under its prefix.
     */
    private void cleanUp() {
        List<FragmentRepository> repositories = new ArrayList<>();
        for (StorageHost host : storage) {
            if (host != null && host.repository != null) {
                repositories.add(host.repository);
            }
        }
        try (ZooKeeperEpochSource epochs = ZooKeeperEpochSource.connect(connectString, spec.epochsPath())) {
            if (repositories.size() == storage.length) {
                CheckpointStore store = spec.pool().store(repositories, () -> StoragePool.objective(1, 1, 1, 0))
                        .epochs(epochs).build();
                for (ProcessState process : processes) {
                    store.deleteJob(RunSpec.jobId(process.index), true);
                }
            }
            ZooKeeperDataspace.builder(connectString, spec.namespace()).destroy();
            spec.delete(connectString, Duration.ofSeconds(30));
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

    // ---- state -----------------------------------------------------------------------------------------------------

    /** One logical process. */
    private static final class ProcessState {
        final int index;
        final List<ReplicaJvm> live = new ArrayList<>();
        int step;
        double lastCheckpointVirtualSeconds = -1;
        RemdProcess.Outcome outcome;

        ProcessState(int index) {
            this.index = index;
        }
    }

    /** One replica JVM and what it reported. */
    private static final class ReplicaJvm {
        final ProcessState process;
        final int number;
        final double startVirtualSeconds;
        final double failsAtSeconds;
        /** The first replica of a restart: its restore counts the restart's kind. */
        final boolean firstOfRestart;
        ChildJvm jvm;
        /** Whether it said last that it is its process's writer, and under which epoch. */
        boolean writer;
        long epoch = -1;
        /** When a pause the coordinator began ends ({@link System#nanoTime()}), or 0. */
        long pausedUntil;
        double virtualSeconds;
        boolean done;
        boolean exited;
        long servedFromLog;
        long duplicatePuts;
        long bytesWritten;

        ReplicaJvm(ProcessState process, int number, double startVirtualSeconds, double lifetimeSeconds,
                   boolean firstOfRestart) {
            this.process = process;
            this.number = number;
            this.startVirtualSeconds = startVirtualSeconds;
            this.failsAtSeconds = startVirtualSeconds + lifetimeSeconds;
            this.virtualSeconds = startVirtualSeconds;
            this.firstOfRestart = firstOfRestart;
        }

        boolean running() {
            return jvm != null && !exited && !jvm.killed();
        }
    }

    /** One storage host: its server (when the run started it), its law and when it fails next. */
    private final class StorageHost {
        final int index;
        S3Server server;
        LifetimeLaw law;
        double failsAt;
        boolean departing;
        long rejoinAtNanos;
        VolatileRepository repository;
        S3Repository client;

        StorageHost(int index) {
            this.index = index;
        }

        /** The coordinator's own view of the host, for departures and the final count. */
        void connect() {
            client = spec.repository(index, credentials);
            repository = new VolatileRepository(client);
        }

        /**
         * The host leaves and loses everything it held; an empty one takes its place a second later. On S3 of the
         * user's, what the run stored under the host's prefix is deleted at once, and the host counts as away for the
         * same second: the next departure waits for it, as with the run's own servers, so that departures due
         * together (virtual time jumps when a process restarts) come a second apart and writers can repair between
         * them, instead of emptying every host in one instant.
         */
        void depart() {
            departing = true;
            departures++;
            failsAt += law.draw(hostRandom);
            try {
                if (server != null) {
                    objectsLost += repository.list("").size();
                    server.depart();
                } else {
                    objectsLost += repository.depart();
                }
                rejoinAtNanos = System.nanoTime() + REJOIN_NANOS;
            } catch (IOException e) {
                failure = new IllegalStateException("storage host " + index + " could not be emptied", e);
            }
        }

        void rejoinWhenDue() {
            if (departing && System.nanoTime() - rejoinAtNanos >= 0) {
                if (server != null) {
                    server.rejoin();
                }
                rejoined();
            }
        }

        private void rejoined() {
            departing = false;
            broadcastDeparture(this);
            advanceStorage(globalVirtualSeconds);
        }

        /** Stops the host's server, or, on S3 of the user's (no server of the run's), deletes what the run stored. */
        void stop() {
            if (client != null) {
                if (server == null) {
                    try {
                        repository.depart();
                    } catch (IOException e) {
                        progress.println("  could not delete the run's objects on " + spec.endpoint(index) + ": "
                                + e.getMessage());
                    }
                }
                client.close();
            }
            if (server != null) {
                server.close();
            }
        }
    }

    /** The summary rows this mode adds to the tour's. */
    static List<String[]> summaryRows(Result result) {
        Tour.Result tour = result.tour();
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"replica JVMs", String.format("%d started, %d killed with SIGKILL on their hosts' "
                + "lifetimes, %d died unscheduled (host failures)", result.replicaJvms(),
                tour.replicaFailures() - result.unscheduled(), result.unscheduled())});
        rows.add(new String[] {"ZooKeeper failovers", result.ownEnsemble() ? result.failovers()
                + (result.failoverNote().isEmpty() ? "" : " (" + result.failoverNote() + ")")
                : "0 (an ensemble of yours: none injected)"});
        rows.add(new String[] {"writers elected", String.format("%d (%d paused past their session); stale "
                + "commits refused: %d; other failed commits: %d", result.elections(), result.pauses(),
                result.staleRefusals(), result.commitFailures())});
        rows.add(new String[] {"bytes on S3", String.format("%,d written; %,d in %d objects at the end",
                tour.bytesStored(), result.bytesOnS3(), result.objectsOnS3())});
        return rows;
    }
}
