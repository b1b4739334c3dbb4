package io.github.volpex.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** The command line's typed options, their checks, the wording of every parse error and the exit statuses. */
class CliTest {

    /** A command with one option of each kind. */
    @Command(name = "demo", description = "a demo")
    static final class Demo implements Subcommand {
        @Spec
        CommandSpec spec;
        int count;
        double rate;
        String law;
        Path store;
        String server;
        Integer port;
        @Option(names = "--quiet", description = "say less")
        boolean quiet;
        int status;

        @Option(names = "--count", paramLabel = "N", defaultValue = "3", description = "how many [1, 10]")
        void count(int value) {
            count = OptionChecks.inRange(spec, "--count", value, 1, 10);
        }

        @Option(names = "--rate", paramLabel = "X", defaultValue = "0.5", description = "a probability [0.0, 1.0]")
        void rate(double value) {
            rate = OptionChecks.inRange(spec, "--rate", value, 0.0, 1.0);
        }

        @Option(names = "--law", paramLabel = "exponential|weibull", defaultValue = "weibull")
        void law(String value) {
            law = OptionChecks.oneOf(spec, "--law", value, List.of("exponential", "weibull"));
        }

        @Option(names = "--store", paramLabel = "PATH")
        void store(Path value) {
            store = OptionChecks.path(spec, "--store", value);
        }

        @Option(names = "--server", paramLabel = "HOST:PORT")
        void server(String value) {
            server = OptionChecks.notBlank(spec, "--server", value);
        }

        @Option(names = "--port", paramLabel = "N")
        void port(int value) {
            port = OptionChecks.inRange(spec, "--port", value, 1, 65_535);
        }

        @Override
        public int run(PrintStream out) {
            if ("refused".equals(server)) {
                throw new UsageException("--server refused");
            }
            return status;
        }
    }

    /** A command with a positional choice. */
    @Command(name = "run", description = "runs one thing")
    static final class WithPositional implements Subcommand {
        @Spec
        CommandSpec spec;
        String what;
        @Option(names = "--count", paramLabel = "N", defaultValue = "3")
        int count;

        @Parameters(arity = "0..1", paramLabel = "what", defaultValue = "all")
        void what(String value) {
            what = OptionChecks.oneOf(spec, "what", value, List.of("all", "one", "two"));
        }

        @Override
        public int run(PrintStream out) {
            return Cli.VERIFIED;
        }
    }

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(Subcommand command, String... args) {
        String[] line = new String[args.length + 1];
        line[0] = Cli.name(command);
        System.arraycopy(args, 0, line, 1, args.length);
        return Cli.run(List.of(command), line, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private Demo parse(String... args) {
        Demo demo = new Demo();
        assertEquals(Cli.VERIFIED, run(demo, args), err());
        return demo;
    }

    @Test
    void defaults_apply_when_options_are_absent() {
        Demo parsed = parse();
        assertEquals(3, parsed.count);
        assertEquals(0.5, parsed.rate);
        assertEquals("weibull", parsed.law);
        assertNull(parsed.store);
        assertNull(parsed.server);
        assertNull(parsed.port);
        assertFalse(parsed.quiet);
    }

    @Test
    void both_value_syntaxes_and_flags_are_accepted() {
        Demo parsed = parse("--count", "7", "--rate=0.25", "--law", "exponential", "--store", "dir/x",
                "--server=zk:2181", "--port", "2181", "--quiet");
        assertEquals(7, parsed.count);
        assertEquals(0.25, parsed.rate);
        assertEquals("exponential", parsed.law);
        assertEquals(Path.of("dir/x"), parsed.store);
        assertEquals("zk:2181", parsed.server);
        assertEquals(2181, parsed.port);
        assertTrue(parsed.quiet);
    }

    @Test
    void an_argument_starting_with_an_at_sign_is_a_value_not_a_file_to_read(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("arguments"), "--count\n9\n");
        Demo parsed = parse("--server", "@" + file);
        assertEquals("@" + file, parsed.server);
        assertEquals(3, parsed.count, "the file was not read");
    }

    @Test
    void every_bad_command_line_names_what_is_wrong_in_one_line() {
        assertMessage("--count must be in [1, 10]: 11", "--count", "11");
        assertMessage("--count must be an integer: many", "--count", "many");
        assertMessage("--rate must be in [0.0, 1.0]: NaN", "--rate", "NaN");
        assertMessage("--rate must be a number: x", "--rate=x");
        assertMessage("--law must be one of [exponential, weibull]: normal", "--law", "normal");
        assertMessage("--count needs a value N", "--count");
        assertMessage("--server needs a value HOST:PORT", "--server");
        assertMessage("--server must not be empty", "--server", " ");
        assertMessage("--store must not be empty", "--store", "");
        assertMessage("--port must be in [1, 65535]: 0", "--port", "0");
        assertMessage("--quiet takes no value: --quiet=yes", "--quiet=yes");
        assertMessage("unknown option --colour (see demo --help)", "--colour", "red");
        assertMessage("unknown option --colour (see demo --help)", "--colour=red");
        assertMessage("option --count is given twice", "--count", "1", "--count", "2");
        assertMessage("unexpected argument 'extra' (options start with --)", "extra");
    }

    private void assertMessage(String expected, String... args) {
        err.reset();
        assertEquals(Cli.BAD_COMMAND_LINE, run(new Demo(), args), String.join(" ", args));
        assertEquals("volpex-examples demo: " + expected + System.lineSeparator(), err());
        assertEquals(0, out.size(), "nothing ran");
    }

    @Test
    void a_positional_choice_is_read_anywhere_on_the_line() {
        WithPositional none = new WithPositional();
        assertEquals(Cli.VERIFIED, run(none));
        assertEquals("all", none.what);
        WithPositional one = new WithPositional();
        assertEquals(Cli.VERIFIED, run(one, "one"));
        assertEquals("one", one.what);
        WithPositional after = new WithPositional();
        assertEquals(Cli.VERIFIED, run(after, "--count", "4", "two"));
        assertEquals("two", after.what);
        assertEquals(4, after.count);
    }

    @Test
    void a_bad_or_repeated_positional_names_what_is_wrong() {
        assertEquals(Cli.BAD_COMMAND_LINE, run(new WithPositional(), "three"));
        assertEquals(Cli.BAD_COMMAND_LINE, run(new WithPositional(), "one", "two"));
        assertEquals("volpex-examples run: what must be one of [all, one, two]: three" + System.lineSeparator()
                + "volpex-examples run: unexpected argument 'two' (what is already given)" + System.lineSeparator(),
                err());
    }

    @Test
    void help_shows_the_command_as_it_is_started_and_every_option() {
        assertEquals(Cli.VERIFIED, run(new Demo(), "--help"));
        String help = out.toString(StandardCharsets.UTF_8);
        assertTrue(help.startsWith("Usage: java -jar examples/target/volpex-examples.jar demo [OPTIONS]"), help);
        for (String option : List.of("--count=N", "--rate=X", "--law=exponential|weibull", "--store=PATH",
                "--server=HOST:PORT", "--port=N", "--quiet", "--help")) {
            assertTrue(help.contains(option), option + " in " + help);
        }
    }

    @Test
    void exit_statuses_tell_a_verified_run_a_failed_verification_and_a_refused_command_line_apart() {
        Demo failing = new Demo();
        failing.status = Cli.FAILED_VERIFICATION;
        assertEquals(Cli.FAILED_VERIFICATION, run(failing));
        assertEquals(Cli.BAD_COMMAND_LINE, run(new Demo(), "--server", "refused"));
        assertEquals("volpex-examples demo: --server refused" + System.lineSeparator(), err());
    }
}
