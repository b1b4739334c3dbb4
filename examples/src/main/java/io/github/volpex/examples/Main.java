package io.github.volpex.examples;

import io.github.volpex.examples.cli.Cli;
import io.github.volpex.examples.cli.Subcommand;
import io.github.volpex.examples.cluster.ClusterCommand;
import io.github.volpex.examples.cluster.ReplicaCommand;
import io.github.volpex.examples.cluster.StorageHostCommand;
import io.github.volpex.examples.psrs.PsrsCommand;
import io.github.volpex.examples.reproduce.ReproduceCommand;
import io.github.volpex.examples.sieve.SieveCommand;
import io.github.volpex.examples.tour.TourCommand;
import java.io.PrintStream;
import java.util.List;

/**
 * The examples' command-line entry point: {@code java -jar examples/target/volpex-examples.jar [command] [options]}.
 *
 * @since 0.1
 */
public final class Main {

    private Main() {
    }

    /** Every command, fresh: picocli parses a command line into a command's fields. */
    static List<Subcommand> commands() {
        return List.of(new TourCommand(), new ClusterCommand(), new ReplicaCommand(), new StorageHostCommand(),
                new SieveCommand(), new PsrsCommand(), new ReproduceCommand());
    }

    /**
     * Runs the command named by the first argument ({@code tour} when there is none) and exits with its status (0
     * verified, 1 a verification failed, 2 a bad command line, 3 the run could not complete).
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs a command line in this JVM and returns what {@link #main} would exit with.
     *
     * @param args the command line
     * @param out  where results and progress go
     * @param err  where errors go
     * @return the exit status (see {@link #main})
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return Cli.run(commands(), args, out, err);
    }
}
