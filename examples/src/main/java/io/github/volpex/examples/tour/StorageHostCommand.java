package io.github.volpex.examples.tour;

import io.github.volpex.examples.cli.Command;
import io.github.volpex.examples.cli.Options;
import io.github.volpex.examples.cli.UsageException;
import java.io.PrintStream;
import java.time.Duration;

/**
 * {@code storage-host}: one volatile storage host of the tour across processes, an S3Proxy server whose objects live
 * in its memory only, so that everything it held is gone when it stops. Prints {@code @ready <port>} once it serves;
 * stops when its standard input ends (unless detached) and at its deadline.
 */
public final class StorageHostCommand implements Command {

    /** The line a storage host prints once it serves. */
    static final String READY = "@ready";

    @Override
    public Options options() {
        return Options.forCommand("storage-host", "A storage host of the tour across processes: an S3 server "
                        + "(S3Proxy) keeping its objects in memory, so that they are lost when it stops; serves one "
                        + "bucket with the credentials of AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY — when they "
                        + "are unset, the tour's own: access key " + S3Credentials.LOOPBACK.accessKeyId()
                        + ", secret " + S3Credentials.LOOPBACK.secretAccessKey() + ", which the cluster command and "
                        + "its replicas use too — prints '@ready <port>' and stops when its standard input ends. "
                        + "The cluster command runs its own in its JVM; start these on other machines and give them "
                        + "to it with --s3.")
                .intOption("port", 0, 0, 65_535, "the port to serve on, 0 for any free one")
                .textOption("address", "IP", "the address to bind (default 127.0.0.1: this machine only)")
                .textOption("bucket", "NAME", "the bucket to create (default " + ClusterCommand.DEFAULT_BUCKET + ")")
                .doubleOption("deadline-minutes", 60.0, 0.05, 10_080.0, "stop after this long whatever happens")
                .flag("detached", "ignore standard input: stop only at the deadline");
    }

    @Override
    public int run(Options.Parsed options, PrintStream out) throws Exception {
        String address = options.text("address").orElse("127.0.0.1");
        String bucket = options.text("bucket").orElse(ClusterCommand.DEFAULT_BUCKET);
        if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
            throw new UsageException("--bucket must be an S3 bucket name (3 to 63 lowercase letters, digits, dots "
                    + "and dashes): " + bucket);
        }
        Duration deadline = Duration.ofMillis((long) (options.doubleValue("deadline-minutes") * 60_000));
        Lifeline.watch(options.flag("detached") ? null : System.in, deadline, line -> { });
        S3Credentials credentials = S3Credentials.fromEnvironment(System.getenv()).orElse(S3Credentials.LOOPBACK);
        S3Server server = S3Server.start(address, options.intValue("port"), bucket, credentials);
        out.println(READY + " " + server.port());
        out.flush();
        // Serve until the lifeline halts the JVM.
        Thread.sleep(deadline.toMillis() + 60_000);
        return 0;
    }
}
