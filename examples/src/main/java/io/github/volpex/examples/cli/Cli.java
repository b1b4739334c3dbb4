package io.github.volpex.examples.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ExecutionException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Runs one command line of the examples: {@code java -jar examples/target/volpex-examples.jar [<command> [options]]}.
 * Each command is a picocli {@code @Command}; this class gives every one a {@code --help}, the same help layout (80
 * columns), one-line errors prefixed {@code volpex-examples <command>:}, and the exit statuses below. Not thread-safe:
 * one command line at a time per command object.
 */
public final class Cli {

    /** Exit status: the command ran and what it verified holds (or it printed help). */
    public static final int VERIFIED = 0;
    /** Exit status: the command ran and a verification failed. */
    public static final int FAILED_VERIFICATION = 1;
    /** Exit status: the command line is wrong; nothing ran. */
    public static final int BAD_COMMAND_LINE = 2;
    /** Exit status: the run could not complete (interrupted, a file system refusal, a failure). */
    public static final int COULD_NOT_COMPLETE = 3;

    /** How the examples are started, as usage lines show it. */
    static final String PROGRAM = "java -jar examples/target/volpex-examples.jar";
    /** The width help is wrapped to: an 80-column terminal. */
    static final int HELP_WIDTH = 80;

    private Cli() {
    }

    /**
     * Returns the command line of one command, with the examples' {@code --help} and help layout.
     *
     * @param command a picocli {@code @Command}
     * @return its command line
     */
    public static CommandLine of(Subcommand command) {
        CommandLine line = new CommandLine(command);
        // An argument is what it says: "@name" is a value, not a file of arguments to read.
        line.setExpandAtFiles(false);
        CommandSpec spec = line.getCommandSpec();
        spec.addOption(OptionSpec.builder("--help").usageHelp(true).description("print this help and exit")
                .build());
        // The usage line shows the command as it is started, wrapped under its first word.
        StringBuilder synopsis = new StringBuilder(PROGRAM + " " + spec.name() + " [OPTIONS]");
        spec.positionalParameters().forEach(p -> synopsis.append(" [").append(p.paramLabel()).append(']'));
        String heading = "Usage: ";
        spec.usageMessage().width(HELP_WIDTH).autoWidth(false).sortOptions(true).synopsisHeading(heading)
                .customSynopsis(String.join("%n" + " ".repeat(heading.length()),
                        wrap(synopsis.toString(), HELP_WIDTH - heading.length()))).descriptionHeading("%n")
                .parameterListHeading("%nArguments:%n").optionListHeading("%nOptions:%n")
                .longOptionsMaxWidth(26);
        return line;
    }

    /**
     * Returns a command's name, as typed on the command line.
     *
     * @param command a picocli {@code @Command}
     * @return its name
     */
    public static String name(Subcommand command) {
        return of(command).getCommandName();
    }

    /**
     * Runs the command named by the first argument ({@code tour} when there is none).
     *
     * @param commands every command, fresh (their fields receive the options)
     * @param args     the command line
     * @param out      where results, progress and help go
     * @param err      where errors go
     * @return the exit status: {@link #VERIFIED}, {@link #FAILED_VERIFICATION}, {@link #BAD_COMMAND_LINE} or
     *         {@link #COULD_NOT_COMPLETE}
     */
    public static int run(List<Subcommand> commands, String[] args, PrintStream out, PrintStream err) {
        String[] line = args.length == 0 ? new String[] {"tour"} : args;
        if (List.of("--help", "help", "list").contains(line[0])) {
            printCommands(commands, out);
            return VERIFIED;
        }
        Subcommand command = commands.stream().filter(c -> name(c).equals(line[0])).findFirst().orElse(null);
        if (command == null) {
            err.println("volpex-examples: unknown command '" + line[0] + "'");
            printCommands(commands, err);
            return BAD_COMMAND_LINE;
        }
        String prefix = "volpex-examples " + line[0] + ": ";
        CommandLine cli = of(command);
        cli.setParameterExceptionHandler((e, given) -> {
            err.println(prefix + Messages.of(e));
            return BAD_COMMAND_LINE;
        });
        cli.setExecutionStrategy(parsed -> {
            if (parsed.isUsageHelpRequested()) {
                cli.usage(out);
                return VERIFIED;
            }
            try {
                return command.run(out);
            } catch (Exception e) {
                throw new ExecutionException(cli, prefix + "failed", e);
            }
        });
        cli.setExecutionExceptionHandler((e, failed, parsed) -> failed(e, prefix, err));
        return cli.execute(Arrays.copyOfRange(line, 1, line.length));
    }

    /** Reports a run that threw, and returns its exit status. */
    private static int failed(Exception e, String prefix, PrintStream err) {
        if (e instanceof UsageException) {
            err.println(prefix + e.getMessage());
            return BAD_COMMAND_LINE;
        }
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            err.println(prefix + "interrupted");
        } else if (e instanceof IOException || e instanceof UncheckedIOException) {
            // The file system refused something mid-run: say what, in one line.
            err.println(prefix + "failed: " + e.getMessage());
        } else {
            err.println(prefix + "failed: " + e);
            e.printStackTrace(err);
        }
        return COULD_NOT_COMPLETE;
    }

    /** Lists the commands, each with the first part of its description. */
    private static void printCommands(List<Subcommand> commands, PrintStream out) {
        out.println("Volpex for Java examples.");
        out.println("Usage: " + PROGRAM + " [<command> [options]]");
        out.println("       (<command> --help for its options)");
        out.println("With no command, runs the tour.");
        out.println();
        int width = commands.stream().mapToInt(command -> name(command).length()).max().orElse(0);
        for (Subcommand command : commands) {
            String summary = String.join(" ", of(command).getCommandSpec().usageMessage().description());
            int end = summary.indexOf(':');
            List<String> lines = wrap(end > 0 ? summary.substring(0, end) : summary, HELP_WIDTH - width - 3);
            out.printf("  %-" + width + "s %s%n", name(command), lines.get(0));
            for (String rest : lines.subList(1, lines.size())) {
                out.printf("%" + (width + 3) + "s%s%n", "", rest);
            }
        }
    }

    /** Breaks text into lines of at most {@code width} characters at spaces. */
    static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.trim().split("\\s+")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        lines.add(line.toString());
        return lines;
    }
}
