package io.github.volpex.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.examples.cli.Command;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MainTest {

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
        assertTrue(out().contains("Temperatures (K) held by each process"), out());
    }

    @Test
    void help_lists_every_command() {
        assertEquals(0, run("--help"));
        for (Command command : Main.COMMANDS) {
            assertTrue(out().contains(command.options().command()), out());
        }
    }

    @Test
    void every_command_has_help_naming_each_of_its_options() {
        for (Command command : Main.COMMANDS) {
            out.reset();
            assertEquals(0, run(command.options().command(), "--help"));
            assertTrue(out().startsWith("Usage: java -jar examples/target/volpex-examples.jar "
                    + command.options().command()), out());
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
}
