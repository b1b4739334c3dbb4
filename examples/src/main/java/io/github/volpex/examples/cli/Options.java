package io.github.volpex.examples.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * The options one command accepts: declared once, then used to parse a command line and to print {@code --help}.
 *
 * <p>Syntax: {@code --name value}, {@code --name=value} and bare {@code --flag}, plus at most one positional argument
 * (a choice, such as the experiment of {@code reproduce all}) when the command declares one. Every value is validated
 * when the
 * command line is parsed, so a command never starts with a bad option; the error names the option, the value and
 * the bound, for example {@code "--replicas must be in [1, 5]: 7"}.
 *
 * <p>Not thread-safe while options are being declared; a fully declared instance may be shared.
 */
public final class Options {

    /** One declared option. */
    private record Spec(String name, String valueName, String description, String defaultText,
                        Function<String, Object> parser, Object defaultValue) {

        boolean isFlag() {
            return valueName == null;
        }
    }

    private final String command;
    private final String summary;
    private final Map<String, Spec> specs = new LinkedHashMap<>();
    private Spec positional;

    private Options(String command, String summary) {
        this.command = command;
        this.summary = summary;
        flag("help", "print this help and exit");
    }

    /**
     * Starts the option list of a command.
     *
     * @param command the command's name, as typed on the command line
     * @param summary one line saying what the command does
     * @return an option list holding only {@code --help}
     */
    public static Options forCommand(String command, String summary) {
        return new Options(command, summary);
    }

    /**
     * Returns the command's name.
     *
     * @return the name
     */
    public String command() {
        return command;
    }

    /**
     * Returns the command's one-line summary.
     *
     * @return the summary
     */
    public String summary() {
        return summary;
    }

    /**
     * Declares a boolean flag, false unless given.
     *
     * @param name        the option name without dashes
     * @param description what it does
     * @return this
     */
    public Options flag(String name, String description) {
        return add(new Spec(name, null, description, null, value -> Boolean.TRUE, Boolean.FALSE));
    }

    /**
     * Declares an integer option in {@code [min, max]}.
     *
     * @param name         the option name without dashes
     * @param defaultValue the value when the option is absent
     * @param min          the smallest accepted value
     * @param max          the largest accepted value
     * @param description  what it sets
     * @return this
     */
    public Options intOption(String name, int defaultValue, int min, int max, String description) {
        return integral(name, defaultValue, min, max, description, value -> (int) value);
    }

    /**
     * Declares an integer option in {@code [min, max]} with no default: absent unless given (read it with
     * {@link Parsed#intIfGiven}).
     *
     * @param name        the option name without dashes
     * @param min         the smallest accepted value
     * @param max         the largest accepted value
     * @param description what it sets
     * @return this
     */
    public Options intOption(String name, int min, int max, String description) {
        return integral(name, null, min, max, description, value -> (int) value);
    }

    /**
     * Declares a long option in {@code [min, max]}.
     *
     * @param name         the option name without dashes
     * @param defaultValue the value when the option is absent
     * @param min          the smallest accepted value
     * @param max          the largest accepted value
     * @param description  what it sets
     * @return this
     */
    public Options longOption(String name, long defaultValue, long min, long max, String description) {
        return integral(name, defaultValue, min, max, description, value -> value);
    }

    /**
     * An integer option of any width: parsed as a long, checked against the bounds, then narrowed; absent unless
     * given when {@code defaultValue} is null.
     */
    private Options integral(String name, Object defaultValue, long min, long max, String description,
                             LongFunction<Object> narrow) {
        String defaultText = defaultValue == null ? null : defaultValue.toString();
        return add(new Spec(name, "N", description + " [" + min + ", " + max + "]", defaultText, text -> {
            long value = parseLong(name, text);
            if (value < min || value > max) {
                throw new UsageException("--" + name + " must be in [" + min + ", " + max + "]: " + text);
            }
            return narrow.apply(value);
        }, defaultValue));
    }

    /**
     * Declares a floating-point option in {@code [min, max]} (NaN and infinities are rejected).
     *
     * @param name         the option name without dashes
     * @param defaultValue the value when the option is absent
     * @param min          the smallest accepted value
     * @param max          the largest accepted value
     * @param description  what it sets, with its unit
     * @return this
     */
    public Options doubleOption(String name, double defaultValue, double min, double max, String description) {
        return add(new Spec(name, "X", description + " [" + min + ", " + max + "]", Double.toString(defaultValue),
                text -> {
                    double value;
                    try {
                        value = Double.parseDouble(text);
                    } catch (NumberFormatException e) {
                        throw new UsageException("--" + name + " must be a number: " + text);
                    }
                    if (!(value >= min && value <= max)) {
                        throw new UsageException("--" + name + " must be in [" + min + ", " + max + "]: " + text);
                    }
                    return value;
                }, defaultValue));
    }

    /**
     * Declares an option whose value is one of fixed choices.
     *
     * @param name         the option name without dashes
     * @param defaultValue the value when the option is absent; one of {@code choices}
     * @param choices      the accepted values
     * @param description  what it selects
     * @return this
     */
    public Options choiceOption(String name, String defaultValue, List<String> choices, String description) {
        List<String> accepted = List.copyOf(choices);
        if (!accepted.contains(defaultValue)) {
            throw new IllegalArgumentException("default of --" + name + " must be one of " + accepted + ": "
                    + defaultValue);
        }
        return add(new Spec(name, String.join("|", accepted), description, defaultValue, text -> {
            if (!accepted.contains(text)) {
                throw new UsageException("--" + name + " must be one of " + accepted + ": " + text);
            }
            return text;
        }, defaultValue));
    }

    /**
     * Declares the command's one positional argument, a choice: the first argument that does not start with
     * {@code --}. Read it with {@link Parsed#choice(String)}.
     *
     * @param name         the argument's name, as shown in the usage line
     * @param defaultValue the value when the argument is absent; one of {@code choices}
     * @param choices      the accepted values
     * @param description  what it selects
     * @return this
     * @throws IllegalArgumentException if a positional argument is already declared, the name is taken by an
     *                                  option, or {@code defaultValue} is not a choice
     */
    public Options positionalChoice(String name, String defaultValue, List<String> choices, String description) {
        if (positional != null) {
            throw new IllegalArgumentException("a command takes one positional argument; already declared: "
                    + positional.name());
        }
        choiceOption(name, defaultValue, choices, description);
        positional = specs.get(name);
        return this;
    }

    /**
     * Declares an optional directory or file option, absent unless given.
     *
     * @param name        the option name without dashes
     * @param description what the path is for
     * @return this
     */
    public Options pathOption(String name, String description) {
        return add(new Spec(name, "PATH", description, null, text -> {
            if (text.isEmpty()) {
                throw new UsageException("--" + name + " must not be empty");
            }
            try {
                return Path.of(text);
            } catch (InvalidPathException e) {
                throw new UsageException("--" + name + " is not a valid path: " + text);
            }
        }, null));
    }

    /**
     * Declares an optional text option, absent unless given (the command checks its form).
     *
     * @param name        the option name without dashes
     * @param valueName   what the value is, for the help (such as {@code HOST:PORT})
     * @param description what it sets
     * @return this
     */
    public Options textOption(String name, String valueName, String description) {
        return add(new Spec(name, valueName, description, null, text -> {
            if (text.isBlank()) {
                throw new UsageException("--" + name + " must not be empty");
            }
            return text;
        }, null));
    }

    /**
     * Declares an optional output directory, absent unless given: the path must be a directory, or creatable where
     * nothing is yet, so that a command never starts work it cannot save. The command creates it with
     * {@link #prepareDirectory}.
     *
     * @param name        the option name without dashes
     * @param description what the directory is for
     * @return this
     */
    public Options directoryOption(String name, String description) {
        return add(new Spec(name, "DIR", description, null, text -> {
            if (text.isEmpty()) {
                throw new UsageException("--" + name + " must not be empty");
            }
            Path path;
            try {
                path = Path.of(text);
            } catch (InvalidPathException e) {
                throw new UsageException("--" + name + " is not a valid path: " + text);
            }
            checkDirectory(name, path);
            return path;
        }, null));
    }

    /** Checks, without creating anything, that {@code path} is a directory or could be created as one. */
    private static void checkDirectory(String name, Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        if (Files.exists(absolute)) {
            if (!Files.isDirectory(absolute)) {
                throw new UsageException("--" + name + " must be a directory: " + path + " is a file");
            }
            if (!Files.isWritable(absolute)) {
                throw new UsageException("--" + name + " must be a writable directory: " + path + " is not writable");
            }
            return;
        }
        for (Path parent = absolute.getParent(); parent != null; parent = parent.getParent()) {
            if (Files.exists(parent)) {
                if (!Files.isDirectory(parent)) {
                    throw new UsageException("--" + name + " cannot be created: " + path + " lies under " + parent
                            + ", a file");
                }
                if (!Files.isWritable(parent)) {
                    throw new UsageException("--" + name + " cannot be created: " + parent + " is not writable");
                }
                return;
            }
        }
    }

    /**
     * Creates a directory given with {@link #directoryOption} (and its parents), turning any failure into a one-line
     * usage error that names the option and the path.
     *
     * @param name the option name without dashes
     * @param path the directory
     * @return {@code path}
     * @throws UsageException if the directory cannot be created or written
     */
    public static Path prepareDirectory(String name, Path path) {
        try {
            Files.createDirectories(path);
        } catch (FileAlreadyExistsException e) {
            throw new UsageException("--" + name + " must be a directory: " + path + " is a file");
        } catch (IOException | SecurityException e) {
            throw new UsageException("--" + name + " cannot be created: " + path + " (" + reason(e) + ")");
        }
        if (!Files.isWritable(path)) {
            throw new UsageException("--" + name + " must be a writable directory: " + path + " is not writable");
        }
        return path;
    }

    /** A short reason for an I/O failure: the operating system's words where it gave some. */
    private static String reason(Exception e) {
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    private Options add(Spec spec) {
        if (specs.putIfAbsent(spec.name(), spec) != null) {
            throw new IllegalArgumentException("option --" + spec.name() + " is declared twice");
        }
        return this;
    }

    private static long parseLong(String name, String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be an integer: " + text);
        }
    }

    /**
     * Parses a command line (the arguments after the command's name).
     *
     * @param args the arguments
     * @return the values of every declared option (defaults where absent)
     * @throws UsageException if an option is unknown, repeated, lacks its value or has a bad value
     */
    public Parsed parse(List<String> args) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Spec spec : specs.values()) {
            values.put(spec.name(), spec.defaultValue());
        }
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (positional != null && !arg.startsWith("--")) {
                if (seen.contains(positional.name())) {
                    throw new UsageException("unexpected argument '" + arg + "' (" + positional.name()
                            + " is already given)");
                }
                seen.add(positional.name());
                values.put(positional.name(), positional.parser().apply(arg));
                continue;
            }
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new UsageException("unexpected argument '" + arg + "' (options start with --)");
            }
            String name = arg.substring(2);
            String inline = null;
            int equals = name.indexOf('=');
            if (equals >= 0) {
                inline = name.substring(equals + 1);
                name = name.substring(0, equals);
            }
            Spec spec = specs.get(name);
            if (spec == null) {
                throw new UsageException("unknown option --" + name + " (see " + command + " --help)");
            }
            if (seen.contains(name)) {
                throw new UsageException("option --" + name + " is given twice");
            }
            seen.add(name);
            String text;
            if (spec.isFlag()) {
                if (inline != null) {
                    throw new UsageException("--" + name + " takes no value: " + arg);
                }
                text = "";
            } else if (inline != null) {
                text = inline;
            } else if (i + 1 < args.size()) {
                text = args.get(++i);
            } else {
                throw new UsageException("--" + name + " needs a value " + spec.valueName());
            }
            values.put(name, spec.parser().apply(text));
        }
        return new Parsed(command, Collections.unmodifiableMap(values));
    }

    /** The width help is wrapped to: an 80-column terminal. */
    static final int HELP_WIDTH = 80;
    /** Where option descriptions start. */
    private static final int DESCRIPTION_COLUMN = 29;

    /**
     * Prints the command's usage: its summary and every option with its default, wrapped to 80 columns.
     *
     * @param out where to print
     */
    public void printHelp(PrintStream out) {
        String usage = "Usage: java -jar examples/target/volpex-examples.jar " + command;
        if (positional != null) {
            String choices = " [" + positional.valueName() + "]";
            usage += usage.length() + choices.length() + " [options]".length() <= HELP_WIDTH ? choices
                    : " [<" + positional.name() + ">]";
        }
        List<String> usageLines = wrap(usage + " [options]", HELP_WIDTH);
        out.println(usageLines.get(0));
        if (usageLines.size() > 1) {
            String rest = String.join(" ", usageLines.subList(1, usageLines.size()));
            for (String line : wrap(rest, HELP_WIDTH - 7)) {
                out.println("       " + line);
            }
        }
        out.println();
        for (String line : wrap(summary, HELP_WIDTH)) {
            out.println(line);
        }
        out.println();
        out.println("Options:");
        String indent = " ".repeat(DESCRIPTION_COLUMN);
        for (Spec spec : specs.values()) {
            String left = "  --" + spec.name() + (spec.isFlag() ? "" : " " + spec.valueName());
            String right = spec.description() + (spec.defaultText() == null ? "" : " (default " + spec.defaultText()
                    + ")");
            List<String> lines = wrap(right, HELP_WIDTH - DESCRIPTION_COLUMN);
            if (left.length() < DESCRIPTION_COLUMN) {
                out.println(left + " ".repeat(DESCRIPTION_COLUMN - left.length()) + lines.get(0));
                lines = lines.subList(1, lines.size());
            } else {
                out.println(left);
            }
            for (String line : lines) {
                out.println(indent + line);
            }
        }
    }

    /**
     * Breaks text into lines of at most {@code width} characters at spaces; a word longer than the width stands on a
     * line of its own.
     *
     * @param text  the text
     * @param width the most characters a line holds
     * @return the lines, at least one
     */
    public static List<String> wrap(String text, int width) {
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

    /** The values of one parsed command line; immutable. */
    public static final class Parsed {

        private final String command;
        private final Map<String, Object> values;

        private Parsed(String command, Map<String, Object> values) {
            this.command = command;
            this.values = values;
        }

        private Object value(String name) {
            if (!values.containsKey(name)) {
                throw new IllegalArgumentException(command + " declares no option --" + name);
            }
            return values.get(name);
        }

        /**
         * Returns whether a flag was given.
         *
         * @param name the flag's name
         * @return true if given
         */
        public boolean flag(String name) {
            return (Boolean) value(name);
        }

        /**
         * Returns an integer option.
         *
         * @param name the option's name
         * @return its value
         */
        public int intValue(String name) {
            return (Integer) value(name);
        }

        /**
         * Returns an integer option declared without a default, empty when absent.
         *
         * @param name the option's name
         * @return its value
         */
        public OptionalInt intIfGiven(String name) {
            Object value = value(name);
            return value == null ? OptionalInt.empty() : OptionalInt.of((Integer) value);
        }

        /**
         * Returns a long option.
         *
         * @param name the option's name
         * @return its value
         */
        public long longValue(String name) {
            return (Long) value(name);
        }

        /**
         * Returns a floating-point option.
         *
         * @param name the option's name
         * @return its value
         */
        public double doubleValue(String name) {
            return (Double) value(name);
        }

        /**
         * Returns a choice option.
         *
         * @param name the option's name
         * @return its value
         */
        public String choice(String name) {
            return (String) value(name);
        }

        /**
         * Returns a text option, empty when absent.
         *
         * @param name the option's name
         * @return its value
         */
        public Optional<String> text(String name) {
            return Optional.ofNullable((String) value(name));
        }

        /**
         * Returns a path option, empty when absent.
         *
         * @param name the option's name
         * @return its value
         */
        public Optional<Path> path(String name) {
            return Optional.ofNullable((Path) value(name));
        }
    }
}
