package io.github.volpex.examples.tour;

import io.github.volpex.examples.cli.Command;
import io.github.volpex.examples.cli.Options;
import io.github.volpex.examples.cli.UsageException;
import io.github.volpex.examples.remd.RemdProcess;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * {@code cluster}: the tour across processes. Every replica of every logical process is a JVM of its own, the
 * dataspace and the checkpoint epochs live in a ZooKeeper ensemble, checkpoints on S3 storage hosts; replicas are
 * killed with SIGKILL, the ZooKeeper leader fails over, storage hosts lose their data — and the outcome is verified
 * bit for bit against the failure-free run, as in the {@code tour}.
 */
public final class ClusterCommand implements Command {

    /** The bucket the tour's storage hosts serve. */
    static final String DEFAULT_BUCKET = "volpex-tour";
    /**
     * The replica JVMs' options: a small heap, the serial collector, and the client compiler only — a replica's work
     * is short, and much of it is loading and compiling the ZooKeeper and S3 clients, which C2 would compile again.
     */
    static final String DEFAULT_REPLICA_JVM_OPTIONS = "-Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 "
            + "-XX:-UsePerfData";

    @Override
    public Options options() {
        Options options = Options.forCommand("cluster", "The tour across processes: every replica of every "
                + "logical process is a JVM of its own, sharing the dataspace through a 3-server ZooKeeper "
                + "ensemble and keeping IDA (6,3) process checkpoints on S3 storage hosts (S3Proxy servers in the "
                + "coordinator's JVM); the replicas of each process elect the one that writes its checkpoints under "
                + "a fenced epoch. Replicas are killed with SIGKILL on their hosts' lifetimes (and may be killed or "
                + "paused from outside: a host failure like the others) and restart from their checkpoints, writers "
                + "are paused past their election session, the ZooKeeper leader is stopped and restarted, storage "
                + "hosts lose their data; the result is verified against a failure-free run, bit for bit. "
                + "Everything binds to loopback and stops with the command.");
        return TourCommand.runOptions(options, 10, 12.0)
                .intOption("processes", 8, 2, 32, "logical processes, one temperature each")
                .textOption("zookeeper", "HOST:PORT,...", "use this ZooKeeper ensemble instead of starting one "
                        + "(then no failover is injected)")
                .textOption("s3", "URL,...", "use these S3 endpoints instead of starting storage hosts: storage "
                        + "host i keeps its objects under <run>/storage-NN/ on endpoint i mod count, and a departure "
                        + "deletes them; credentials from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
                .textOption("s3-bucket", "NAME", "the bucket, which must exist on --s3 (default " + DEFAULT_BUCKET
                        + ")")
                .textOption("s3-region", "NAME", "the region of --s3 (default us-east-1)")
                .intOption("pauses", 2, 0, 10, "times a process's writer is paused (SIGSTOP) for longer than its "
                        + "election session, so that another replica is elected, then resumed (its commit in flight "
                        + "is refused as stale)")
                .doubleOption("timeout-minutes", 10.0, 0.5, 1_440.0, "give up after this long")
                .textOption("replica-jvm-options", "OPTIONS", "options of the replica JVMs, separated by spaces "
                        + "(default \"" + DEFAULT_REPLICA_JVM_OPTIONS + "\")")
                .directoryOption("logs", "keep the child JVMs' logs in a directory under this one (by default "
                        + "they go to a temporary directory, deleted after a passing run)");
    }

    @Override
    public int run(Options.Parsed options, PrintStream out) throws Exception {
        Tour.Config config = TourCommand.config(options, options.intValue("processes"), Optional.empty());
        List<URI> s3 = endpoints(options.text("s3"));
        String bucket = options.text("s3-bucket").orElse(DEFAULT_BUCKET);
        if (options.text("s3-bucket").isPresent() && s3.isEmpty()) {
            throw new UsageException("--s3-bucket needs --s3");
        }
        if (!s3.isEmpty() && S3Credentials.fromEnvironment(System.getenv()).isEmpty()) {
            throw new UsageException("--s3 needs the credentials in " + S3Credentials.ACCESS_KEY_VARIABLE + " and "
                    + S3Credentials.SECRET_KEY_VARIABLE);
        }
        Optional<String> zookeeper = options.text("zookeeper").map(String::trim);
        List<String> jvmOptions = Arrays.asList(options.text("replica-jvm-options")
                .orElse(DEFAULT_REPLICA_JVM_OPTIONS).trim().split("\\s+"));
        Optional<Path> logs = options.path("logs").map(dir -> Options.prepareDirectory("logs", dir));
        Cluster.Config cluster = new Cluster.Config(config, zookeeper, s3, bucket,
                options.text("s3-region").orElse("us-east-1"),
                Duration.ofMillis((long) (options.doubleValue("timeout-minutes") * 60_000)), jvmOptions, logs,
                options.intValue("pauses"));

        TourCommand.printHeader(config, s3.isEmpty() ? "on S3Proxy storage hosts"
                : "on S3 at " + s3 + ", bucket " + bucket, out);
        List<RemdProcess.Outcome> reference = Tour.of(config, out).timedReference();
        out.println("Replicated run across JVMs:");
        Cluster.Result result = Cluster.of(cluster, out).run(reference);
        out.println();
        TourCommand.printHistory(result.tour().reference().get(0), config.setup(), out);
        TourCommand.printSummary(result.tour(), config, Cluster.summaryRows(result), out);
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
}
