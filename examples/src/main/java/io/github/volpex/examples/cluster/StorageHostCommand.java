package io.github.volpex.examples.cluster;

import io.github.volpex.examples.cli.OptionChecks;
import io.github.volpex.examples.cli.Subcommand;
import io.github.volpex.examples.cli.UsageException;
import java.io.PrintStream;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code storage-host}: one volatile storage host of the tour across processes, an S3Proxy server whose objects live
 * in its memory only, so that everything it held is gone when it stops. Prints {@code @ready <port>} once it serves;
 * stops when its standard input ends (unless detached) and at its deadline.
 */
@Command(name = "storage-host", description = "A storage host of the tour across processes: an S3 server "
        + "(S3Proxy) keeping its objects in memory, so that they are lost when it stops; serves one bucket with the "
        + "credentials of AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY — when they are unset, the tour's own: access "
        + "key " + S3Credentials.LOOPBACK_ACCESS_KEY + ", secret " + S3Credentials.LOOPBACK_SECRET_KEY + ", which "
        + "the cluster command and its replicas use too — prints '@ready <port>' and stops when its standard input "
        + "ends. The cluster command runs its own in its JVM; start these on other machines and give them to it with "
        + "--s3.")
public final class StorageHostCommand implements Subcommand {

    /** The line a storage host prints once it serves. */
    static final String READY = "@ready";

    @Spec
    private CommandSpec spec;

    private int port;
    private String address = "127.0.0.1";
    private String bucket = ClusterCommand.DEFAULT_BUCKET;
    private double deadlineMinutes;

    @Option(names = "--detached", description = "ignore standard input: stop only at the deadline")
    private boolean detached;

    @Option(names = "--port", paramLabel = "N", defaultValue = "0",
            description = "the port to serve on, 0 for any free one [0, 65535] (default ${DEFAULT-VALUE})")
    void port(int value) {
        port = OptionChecks.inRange(spec, "--port", value, 0, 65_535);
    }

    @Option(names = "--address", paramLabel = "IP",
            description = "the address to bind (default 127.0.0.1: this machine only)")
    void address(String value) {
        address = OptionChecks.notBlank(spec, "--address", value);
    }

    @Option(names = "--bucket", paramLabel = "NAME",
            description = "the bucket to create (default " + ClusterCommand.DEFAULT_BUCKET + ")")
    void bucket(String value) {
        bucket = OptionChecks.notBlank(spec, "--bucket", value);
    }

    @Option(names = "--deadline-minutes", paramLabel = "X", defaultValue = "60.0",
            description = "stop after this long whatever happens [0.05, 10080.0] (default ${DEFAULT-VALUE})")
    void deadlineMinutes(double value) {
        deadlineMinutes = OptionChecks.inRange(spec, "--deadline-minutes", value, 0.05, 10_080.0);
    }

    @Override
    public int run(PrintStream out) throws Exception {
        if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
            throw new UsageException("--bucket must be an S3 bucket name (3 to 63 lowercase letters, digits, dots "
                    + "and dashes): " + bucket);
        }
        Duration deadline = Duration.ofMillis((long) (deadlineMinutes * 60_000));
        Lifeline.watch(detached ? null : System.in, deadline, line -> { });
        S3Credentials credentials = S3Credentials.fromEnvironment(System.getenv()).orElse(S3Credentials.LOOPBACK);
        S3Server server = S3Server.start(address, port, bucket, credentials);
        out.println(READY + " " + server.port());
        out.flush();
        // Serve until the lifeline halts the JVM.
        Thread.sleep(deadline.toMillis() + 60_000);
        return 0;
    }
}
