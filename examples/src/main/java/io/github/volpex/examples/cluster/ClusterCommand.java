package io.github.volpex.examples.cluster;

import io.github.volpex.examples.cli.OptionChecks;
import io.github.volpex.examples.cli.Subcommand;
import io.github.volpex.examples.cli.UsageException;
import io.github.volpex.examples.remd.RemdProcess;
import io.github.volpex.examples.tour.Tour;
import io.github.volpex.examples.tour.TourCommand;
import io.github.volpex.examples.tour.TourOptions;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cluster}: the tour across processes. Every replica of every logical process is a JVM of its own, the
 * dataspace and the checkpoint epochs live in a ZooKeeper ensemble, checkpoints on S3 storage hosts; replicas are
 * killed with SIGKILL, the ZooKeeper leader fails over, storage hosts lose their data — and the outcome is verified
 * bit for bit against the failure-free run, as in the {@code tour}.
 */
@Command(name = "cluster", defaultValueProvider = ClusterCommand.Defaults.class, description = "The tour across "
        + "processes: every replica of every logical process is a JVM of its own, sharing the dataspace through a "
        + "3-server ZooKeeper ensemble and keeping IDA (6,3) process checkpoints on S3 storage hosts (S3Proxy servers "
        + "in the coordinator's JVM); the replicas of each process "
        + "elect the one that writes its checkpoints under a fenced epoch. Replicas are killed with SIGKILL on their "
        + "hosts' lifetimes (and may be killed or paused from outside: a host failure like the others) and restart "
        + "from their checkpoints, writers are paused past their election session, the ZooKeeper leader is stopped "
        + "and restarted, storage hosts lose their data; the result is verified against a failure-free run, bit for "
        + "bit. Everything binds to loopback and stops with the command.")
public final class ClusterCommand implements Subcommand {

    /** The bucket the tour's storage hosts serve. */
    static final String DEFAULT_BUCKET = "volpex-tour";
    /**
     * The replica JVMs' options: a small heap, the serial collector, and the client compiler only — a replica's work
     * is short, and much of it is loading and compiling the ZooKeeper and S3 clients, which C2 would compile again.
     */
    static final String DEFAULT_REPLICA_JVM_OPTIONS = "-Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 "
            + "-XX:-UsePerfData";

    /** The storage pool: 10 hosts living about 12 h. */
    static final class Defaults extends TourOptions.Defaults {
        Defaults() {
            super(10, 12.0);
        }
    }

    @Spec
    private CommandSpec spec;

    @Mixin
    private TourOptions options;

    private int processes;
    private String zookeeper;
    private String s3;
    private String s3Bucket;
    private String s3Region = "us-east-1";
    private int pauses;
    private double timeoutMinutes;
    private String replicaJvmOptions = DEFAULT_REPLICA_JVM_OPTIONS;
    private Path logs;

    @Option(names = "--processes", paramLabel = "N", defaultValue = "8",
            description = "logical processes, one temperature each [2, 32] (default ${DEFAULT-VALUE})")
    void processes(int value) {
        processes = OptionChecks.inRange(spec, "--processes", value, 2, 32);
    }

    @Option(names = "--zookeeper", paramLabel = "HOST:PORT,...", description = "use this ZooKeeper ensemble instead "
            + "of starting one (then no failover is injected)")
    void zookeeper(String value) {
        zookeeper = OptionChecks.notBlank(spec, "--zookeeper", value);
    }

    @Option(names = "--s3", paramLabel = "URL,...", description = "use these S3 endpoints instead of starting storage "
            + "hosts: storage host i keeps its objects under <run>/storage-NN/ on endpoint i mod count, and a "
            + "departure deletes them; credentials from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
    void s3(String value) {
        s3 = OptionChecks.notBlank(spec, "--s3", value);
    }

    @Option(names = "--s3-bucket", paramLabel = "NAME", description = "the bucket, which must exist on --s3 (default "
            + DEFAULT_BUCKET + ")")
    void s3Bucket(String value) {
        s3Bucket = OptionChecks.notBlank(spec, "--s3-bucket", value);
    }

    @Option(names = "--s3-region", paramLabel = "NAME", description = "the region of --s3 (default us-east-1)")
    void s3Region(String value) {
        s3Region = OptionChecks.notBlank(spec, "--s3-region", value);
    }

    @Option(names = "--pauses", paramLabel = "N", defaultValue = "2", description = "times a process's writer is "
            + "paused (SIGSTOP) for longer than its election session, so that another replica is elected, then "
            + "resumed (its commit in flight is refused as stale) [0, 10] (default ${DEFAULT-VALUE})")
    void pauses(int value) {
        pauses = OptionChecks.inRange(spec, "--pauses", value, 0, 10);
    }

    @Option(names = "--timeout-minutes", paramLabel = "X", defaultValue = "10.0",
            description = "give up after this long [0.5, 1440.0] (default ${DEFAULT-VALUE})")
    void timeoutMinutes(double value) {
        timeoutMinutes = OptionChecks.inRange(spec, "--timeout-minutes", value, 0.5, 1_440.0);
    }

    @Option(names = "--replica-jvm-options", paramLabel = "OPTIONS", description = "options of the replica JVMs, "
            + "separated by spaces (default \"" + DEFAULT_REPLICA_JVM_OPTIONS + "\")")
    void replicaJvmOptions(String value) {
        replicaJvmOptions = OptionChecks.notBlank(spec, "--replica-jvm-options", value);
    }

    @Option(names = "--logs", paramLabel = "DIR", description = "keep the child JVMs' logs in a directory under this "
            + "one (by default they go to a temporary directory, deleted after a passing run)")
    void logs(Path value) {
        logs = OptionChecks.directory(spec, "--logs", value);
    }

    @Override
    public int run(PrintStream out) throws Exception {
        Tour.Config config = options.config(processes, Optional.empty());
        List<URI> endpoints = endpoints(Optional.ofNullable(s3));
        String bucket = Optional.ofNullable(s3Bucket).orElse(DEFAULT_BUCKET);
        if (s3Bucket != null && endpoints.isEmpty()) {
            throw new UsageException("--s3-bucket needs --s3");
        }
        if (!endpoints.isEmpty() && S3Credentials.fromEnvironment(System.getenv()).isEmpty()) {
            throw new UsageException("--s3 needs the credentials in " + S3Credentials.ACCESS_KEY_VARIABLE + " and "
                    + S3Credentials.SECRET_KEY_VARIABLE);
        }
        List<String> jvmOptions = Arrays.asList(replicaJvmOptions.trim().split("\\s+"));
        Optional<Path> logDirectory = Optional.ofNullable(logs)
                .map(dir -> OptionChecks.prepareDirectory("--logs", dir));
        Cluster.Config cluster = new Cluster.Config(config, Optional.ofNullable(zookeeper).map(String::trim),
                endpoints, bucket, s3Region, Duration.ofMillis((long) (timeoutMinutes * 60_000)), jvmOptions,
                logDirectory, pauses);

        TourCommand.printHeader(config, ReplicaCommand.COMMITS, endpoints.isEmpty() ? "on S3Proxy storage hosts"
                : "on S3 at " + endpoints + ", bucket " + bucket, out);
        List<RemdProcess.Outcome> reference = Tour.of(config, out).timedReference();
        out.println("Replicated run across JVMs:");
        Cluster.Result result = Cluster.of(cluster, out).run(reference);
        out.println();
        TourCommand.printHistory(result.tour().reference().get(0), config.setup(), out);
        TourCommand.printSummary(result.tour(), config, summaryRows(result), out);
        return result.tour().verified() ? 0 : 1;
    }

    /** Parses {@code --s3}: comma-separated http or https URLs with a host. */
    static List<URI> endpoints(Optional<String> text) {
        List<URI> endpoints = new ArrayList<>();
        if (text.isEmpty()) {
            return endpoints;
        }
        for (String part : text.get().split(",")) {
            String candidate = part.trim();
            try {
                URI uri = new URI(candidate);
                if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                    throw new URISyntaxException(candidate, "not an http or https URL with a host");
                }
                endpoints.add(uri);
            } catch (URISyntaxException e) {
                throw new UsageException("--s3 must be http or https URLs separated by commas: " + candidate);
            }
        }
        return endpoints;
    }

    /** The summary rows this mode adds to the tour's. */
    static List<String[]> summaryRows(Cluster.Result result) {
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
        rows.add(new String[] {"storage churn paced", String.format("%d clock reports held until the departures "
                + "due by them had happened; clocks at most %.1f s (virtual) past a departure still to come",
                result.clocksHeld(), result.churnLagSeconds())});
        rows.add(new String[] {"bytes on S3", String.format("%,d written; %,d in %d objects at the end",
                tour.bytesStored(), result.bytesOnS3(), result.objectsOnS3())});
        return rows;
    }
}
