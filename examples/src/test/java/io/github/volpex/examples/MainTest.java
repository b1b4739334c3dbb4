package io.github.volpex.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.examples.cli.Cli;
import io.github.volpex.examples.cli.Subcommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Model.OptionSpec;

class MainTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    int run(String... args) {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void tour_end_to_end_passes_and_prints_its_summary() {
        assertEquals(0, run("tour", "--steps", "12", "--sweeps", "40", "--beads", "12", "--scale-hours", "1"), err());
        assertTrue(out().contains("verdict: PASS"), out());
        assertTrue(out().contains("checkpoints committed"), out());
        assertTrue(out().matches("(?s).*\\R  job held by commit calls +\\d+\\.\\d{3} s measured; full synchronous "
                + "commits: \\d+\\.\\d{3} s, measured on a shadow store\\R.*"), out());
        assertTrue(out().matches("(?s).*\\R  bytes written by commits +[\\d,]+ measured; full commits: [\\d,]+, "
                + "measured on a shadow store\\R.*"), out());
        assertTrue(out().contains("Temperatures (K) held by each process"), out());
    }

    @Test
    void help_lists_every_command() {
        assertEquals(0, run("--help"));
        for (Subcommand command : Main.commands()) {
            assertTrue(out().contains(Cli.name(command)), out());
        }
    }

    @Test
    void every_command_has_help_naming_each_of_its_options() {
        for (Subcommand command : Main.commands()) {
            out.reset();
            assertEquals(0, run(Cli.name(command), "--help"));
            assertTrue(out().startsWith("Usage: java -jar examples/target/volpex-examples.jar "
                    + Cli.name(command)), out());
            assertTrue(out().contains("--help"), out());
        }
    }

    @Test
    void an_unknown_command_fails_and_names_it() {
        assertEquals(2, run("nonsense"));
        assertTrue(err().contains("unknown command 'nonsense'"), err());
    }

    @Test
    void a_bad_option_value_fails_before_running_and_names_option_value_and_bound() {
        assertEquals(2, run("sieve", "--max-replicas", "7"));
        assertTrue(err().contains("--max-replicas must be in [1, 5]: 7"), err());
        assertEquals("", out());
    }

    @Test
    void an_unknown_option_fails_and_points_to_help() {
        assertEquals(2, run("psrs", "--nonsense"));
        assertTrue(err().contains("unknown option --nonsense (see psrs --help)"), err());
    }

    @Test
    void an_infeasible_sieve_is_a_usage_error() {
        assertEquals(2, run("sieve", "--limit", "100", "--processes", "64"));
        assertTrue(err().contains("processes must be <="), err());
    }

    @Test
    void sieve_end_to_end_passes_with_every_replication_degree() {
        assertEquals(0, run("sieve", "--limit", "200000", "--processes", "4", "--max-replicas", "3"), err());
        assertTrue(out().contains("a sequential sieve counts 17,984 primes"), out());
        assertTrue(out().contains("verdict: PASS"), out());
        assertEquals(3, out().lines().filter(line -> line.endsWith("correct")).count(), out());
    }

    @Test
    void psrs_end_to_end_passes_with_every_replication_degree() {
        assertEquals(0, run("psrs", "--keys", "100000", "--processes", "4", "--max-replicas", "3", "--seed", "7"),
                err());
        assertTrue(out().contains("verdict: PASS"), out());
        assertEquals(3, out().lines().filter(line -> line.endsWith("correct")).count(), out());
    }

    @Test
    void an_unknown_option_names_the_command_once() {
        assertEquals(2, run("tour", "--bogus"));
        assertEquals("volpex-examples tour: unknown option --bogus (see tour --help)" + System.lineSeparator(), err());
    }

    /** Help fits an 80-column terminal: long descriptions wrap under their column, long option names get a line. */
    @Test
    void help_lines_fit_eighty_columns_and_keep_every_word() {
        assertEquals(0, run("--help"));
        for (Subcommand command : Main.commands()) {
            assertEquals(0, run(Cli.name(command), "--help"));
        }
        for (String line : out().lines().toList()) {
            assertTrue(line.length() <= 80, () -> line.length() + " columns: " + line);
        }
        String words = String.join(" ", out().split("\\s+"));
        assertTrue(words.contains("seed of the physics and of the host pool [-9223372036854775808,"
                + " 9223372036854775807] (default 2009)"), words);
    }

    /**
     * Every range a command's help states is the range it enforces: a value one past either end is refused before
     * anything runs, with that same range in the message.
     */
    @Test
    void every_range_the_help_states_is_the_range_enforced() {
        Pattern stated = Pattern.compile("\\[(-?[0-9.E]+), (-?[0-9.E]+)\\]");
        int refused = 0;
        for (Subcommand command : Main.commands()) {
            for (OptionSpec option : Cli.of(command).getCommandSpec().options()) {
                Matcher range = stated.matcher(String.join(" ", option.description()));
                if (!range.find()) {
                    continue;
                }
                for (String outside : outside(option.type(), range.group(1), range.group(2))) {
                    String[] args = {Cli.name(command), option.longestName(), outside};
                    String message = errOf(args);
                    assertTrue(message.contains(option.longestName() + " must be in [" + range.group(1) + ", "
                            + range.group(2) + "]: "), String.join(" ", args) + ": " + message);
                    refused++;
                }
            }
        }
        assertTrue(refused >= 40, "ranges checked: " + refused);
    }

    /** Values just outside {@code [min, max]} that the option's type can hold. */
    private static List<String> outside(Class<?> type, String min, String max) {
        List<String> values = new ArrayList<>();
        if (type == double.class) {
            values.add(Double.toString(Double.parseDouble(min) - 1));
            values.add(Double.toString(Double.parseDouble(max) * 2 + 1));
            return values;
        }
        BigInteger limit = type == int.class ? BigInteger.valueOf(Integer.MAX_VALUE)
                : BigInteger.valueOf(Long.MAX_VALUE);
        for (BigInteger value : List.of(new BigInteger(min).subtract(BigInteger.ONE),
                new BigInteger(max).add(BigInteger.ONE))) {
            if (value.abs().compareTo(limit) <= 0) {
                values.add(value.toString());
            }
        }
        return values;
    }

    /**
     * A bad --store or --out is a one-line error before any work: a regular file, a directory that cannot be created
     * under a file, or under a file system that refuses it.
     */
    @Test
    void bad_output_paths_fail_in_one_line_before_any_work() throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "not a directory");
        List<String[]> commands = List.of(
                new String[] {"tour", "--store", file.toString()},
                new String[] {"tour", "--store", file.resolve("below").toString()},
                new String[] {"reproduce", "kanna", "--quick", "--out", file.toString()},
                new String[] {"reproduce", "kanna", "--quick", "--out", file.resolve("below").toString()});
        for (String[] args : commands) {
            out.reset();
            err.reset();
            assertEquals(2, run(args), () -> String.join(" ", args) + ": " + err());
            assertEquals("", out(), "no work started");
            assertEquals(1, err().lines().count(), err());
            assertTrue(err().startsWith("volpex-examples " + args[0] + ": --"), err());
            assertTrue(err().contains(file.toString()), err());
        }
        assertEquals("volpex-examples tour: --store must be a directory: " + file + " is a file"
                + System.lineSeparator(), errOf("tour", "--store", file.toString()));
        if (Files.isDirectory(Path.of("/proc/self"))) {
            // Linux: /proc exists and looks writable to root, yet nothing can be created in it.
            String message = errOf("tour", "--store", "/proc/nope");
            assertEquals(1, message.lines().count(), message);
            assertTrue(message.startsWith("volpex-examples tour: --store cannot be created: /proc/nope"), message);
        }
    }

    private String errOf(String... args) {
        out.reset();
        err.reset();
        assertEquals(2, run(args));
        assertEquals("", out());
        return err();
    }

    /**
     * Each run keeps its repositories in a directory of its own under --store, so a second run never recovers the
     * first run's checkpoints (its processes' request numbers would not match its dataspace).
     */
    @Test
    void runs_sharing_a_store_directory_are_independent() throws IOException {
        String[] args = {"tour", "--steps", "6", "--sweeps", "40", "--beads", "8", "--scale-hours", "0.5", "--store",
                dir.toString()};
        assertEquals(0, run(args), err());
        assertTrue(out().contains("repositories in " + dir.resolve("run-1")), out());
        out.reset();
        assertEquals(0, run(args), err());
        assertTrue(out().contains("repositories in " + dir.resolve("run-2")), out());
        assertTrue(out().contains("verdict: PASS"), out());
        try (var runs = Files.list(dir)) {
            assertEquals(List.of("run-1", "run-2"), runs.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }
}
