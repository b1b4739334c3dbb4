package io.github.volpex.examples;

import io.github.volpex.examples.cli.Command;
import io.github.volpex.examples.cli.Options;
import io.github.volpex.examples.cli.UsageException;
import io.github.volpex.examples.psrs.PsrsCommand;
import io.github.volpex.examples.reproduce.ReproduceCommand;
import io.github.volpex.examples.sieve.SieveCommand;
import io.github.volpex.examples.tour.ClusterCommand;
import io.github.volpex.examples.tour.ReplicaCommand;
import io.github.volpex.examples.tour.StorageHostCommand;
import io.github.volpex.examples.tour.TourCommand;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

/**
 * The examples' command-line entry point: {@code java -jar examples/target/volpex-examples.jar [command] [options]}.
 *
 * @since 0.1
 */
public final class Main {

    static final List<Command> COMMANDS = List.of(new TourCommand(), new ClusterCommand(), new ReplicaCommand(),
            new StorageHostCommand(), new SieveCommand(), new PsrsCommand(), new ReproduceCommand());

    private Main() {
    }

    /**
     * Runs the command named by the first argument ({@code tour} when there is none) and exits with its status (0 verified, 1 a verification failed,
     * 2 a bad command line, 3 the run could not complete).
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
        if (args.length == 0) {
            return run(new String[] {"tour"}, out, err);
        }
        if (args[0].equals("--help") || args[0].equals("help") || args[0].equals("list")) {
            printCommands(out);
            return 0;
        }
        Command command = COMMANDS.stream().filter(c -> c.options().command().equals(args[0])).findFirst()
                .orElse(null);
        if (command == null) {
            err.println("volpex-examples: unknown command '" + args[0] + "'");
            printCommands(err);
            return 2;
        }
        Options options = command.options();
        Options.Parsed parsed;
        try {
            parsed = options.parse(Arrays.asList(args).subList(1, args.length));
        } catch (UsageException e) {
            err.println("volpex-examples " + options.command() + ": " + e.getMessage());
            return 2;
        }
        if (parsed.flag("help")) {
            options.printHelp(out);
            return 0;
        }
        try {
            return command.run(parsed, out);
        } catch (UsageException e) {
            err.println("volpex-examples " + options.command() + ": " + e.getMessage());
            return 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("volpex-examples " + options.command() + ": interrupted");
            return 3;
        } catch (IOException | UncheckedIOException e) {
            // The file system refused something mid-run: say what, in one line.
            err.println("volpex-examples " + options.command() + ": failed: " + e.getMessage());
            return 3;
        } catch (Exception e) {
            err.println("volpex-examples " + options.command() + ": failed: " + e);
            e.printStackTrace(err);
            return 3;
        }
    }

    private static void printCommands(PrintStream out) {
        out.println("Volpex for Java examples.");
        out.println("Usage: java -jar examples/target/volpex-examples.jar [<command> [options]]");
        out.println("       (<command> --help for its options)");
        out.println("With no command, runs the tour.");
        out.println();
        int width = COMMANDS.stream().mapToInt(command -> command.options().command().length()).max().orElse(0);
        for (Command command : COMMANDS) {
            Options options = command.options();
            String summary = options.summary();
            int end = summary.indexOf(':');
            List<String> lines = Options.wrap(end > 0 ? summary.substring(0, end) : summary, 80 - width - 3);
            out.printf("  %-" + width + "s %s%n", options.command(), lines.get(0));
            for (String line : lines.subList(1, lines.size())) {
                out.printf("%" + (width + 3) + "s%s%n", "", line);
            }
        }
    }
}
