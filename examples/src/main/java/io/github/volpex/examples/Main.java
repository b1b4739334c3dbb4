package io.github.volpex.examples;

import java.io.PrintStream;
import java.util.List;

/**
 * The examples' command-line entry point: {@code java -jar examples/target/volpex-examples.jar [command]}.
 *
 * @since 0.1
 */
public final class Main {

    /** An example the command line knows, with whether it can run yet. */
    record Example(String name, String summary, boolean available) {
    }

    static final List<Example> EXAMPLES = List.of(
            new Example("tour", "replicated replica-exchange Monte Carlo that survives failures and restarts", false),
            new Example("sieve", "Sieve of Eratosthenes over the dataspace, 1 to 5 replicas per process", false),
            new Example("psrs", "Parallel Sorting by Regular Sampling over the dataspace", false),
            new Example("reproduce", "the papers' experiments in simulation, with charts", false));

    private Main() {
    }

    /**
     * Runs the command named by the first argument; with no argument, lists the examples.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs a command line and returns the process exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("list")) {
            printExamples(out);
            return 0;
        }
        for (Example example : EXAMPLES) {
            if (example.name().equals(args[0])) {
                err.println("volpex-examples: '" + example.name() + "' is not available in this build yet");
                return 2;
            }
        }
        err.println("volpex-examples: unknown command '" + args[0] + "'");
        printExamples(err);
        return 2;
    }

    private static void printExamples(PrintStream out) {
        out.println("Volpex for Java examples. Usage: java -jar examples/target/volpex-examples.jar <command>");
        out.println();
        for (Example example : EXAMPLES) {
            out.printf("  %-10s %s%s%n", example.name(), example.summary(), example.available() ? "" : " (coming)");
        }
    }
}
