package io.github.volpex.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class OptionsTest {

    private final Options options = Options.forCommand("demo", "a demo")
            .intOption("count", 3, 1, 10, "how many")
            .doubleOption("rate", 0.5, 0.0, 1.0, "a probability")
            .choiceOption("law", "weibull", List.of("exponential", "weibull"), "lifetime law")
            .pathOption("store", "where to store")
            .textOption("server", "HOST:PORT", "where to connect")
            .intOption("port", 1, 65_535, "which port")
            .flag("quiet", "say less");

    @Test
    void defaults_apply_when_options_are_absent() {
        Options.Parsed parsed = options.parse(List.of());
        assertEquals(3, parsed.intValue("count"));
        assertEquals(0.5, parsed.doubleValue("rate"));
        assertEquals("weibull", parsed.choice("law"));
        assertTrue(parsed.path("store").isEmpty());
        assertTrue(parsed.text("server").isEmpty());
        assertTrue(parsed.intIfGiven("port").isEmpty());
        assertFalse(parsed.flag("quiet"));
    }

    @Test
    void both_value_syntaxes_and_flags_are_accepted() {
        Options.Parsed parsed = options.parse(List.of("--count", "7", "--rate=0.25", "--law", "exponential",
                "--store", "dir/x", "--server=zk:2181", "--port", "2181", "--quiet"));
        assertEquals(7, parsed.intValue("count"));
        assertEquals(0.25, parsed.doubleValue("rate"));
        assertEquals("exponential", parsed.choice("law"));
        assertEquals(Path.of("dir/x"), parsed.path("store").orElseThrow());
        assertEquals("zk:2181", parsed.text("server").orElseThrow());
        assertEquals(2181, parsed.intIfGiven("port").getAsInt());
        assertTrue(parsed.flag("quiet"));
    }

    @Test
    void every_bad_command_line_names_what_is_wrong() {
        assertMessage("--count must be in [1, 10]: 11", "--count", "11");
        assertMessage("--count must be an integer: many", "--count", "many");
        assertMessage("--rate must be in [0.0, 1.0]: NaN", "--rate", "NaN");
        assertMessage("--rate must be a number: x", "--rate=x");
        assertMessage("--law must be one of [exponential, weibull]: normal", "--law", "normal");
        assertMessage("--count needs a value N", "--count");
        assertMessage("--server needs a value HOST:PORT", "--server");
        assertMessage("--server must not be empty", "--server", " ");
        assertMessage("--port must be in [1, 65535]: 0", "--port", "0");
        assertMessage("--quiet takes no value: --quiet=yes", "--quiet=yes");
        assertMessage("unknown option --colour (see demo --help)", "--colour", "red");
        assertMessage("option --count is given twice", "--count", "1", "--count", "2");
        assertMessage("unexpected argument 'extra' (options start with --)", "extra");
    }

    private void assertMessage(String expected, String... args) {
        assertEquals(expected, assertThrows(UsageException.class, () -> options.parse(List.of(args))).getMessage());
    }

    @Test
    void declaring_an_option_twice_is_a_programming_error() {
        assertThrows(IllegalArgumentException.class, () -> Options.forCommand("x", "y").flag("a", "").flag("a", ""));
        assertThrows(IllegalArgumentException.class,
                () -> Options.forCommand("x", "y").choiceOption("c", "z", List.of("a"), ""));
    }

    private final Options withPositional = Options.forCommand("run", "runs one thing")
            .positionalChoice("what", "all", List.of("all", "one", "two"), "what to run")
            .intOption("count", 3, 1, 10, "how many");

    @Test
    void a_positional_choice_is_read_anywhere_on_the_line_or_as_an_option() {
        assertEquals("all", withPositional.parse(List.of()).choice("what"));
        assertEquals("one", withPositional.parse(List.of("one")).choice("what"));
        Options.Parsed after = withPositional.parse(List.of("--count", "4", "two"));
        assertEquals("two", after.choice("what"));
        assertEquals(4, after.intValue("count"));
        assertEquals("two", withPositional.parse(List.of("--what=two")).choice("what"));
    }

    @Test
    void a_bad_or_repeated_positional_names_what_is_wrong() {
        assertEquals("--what must be one of [all, one, two]: three",
                assertThrows(UsageException.class, () -> withPositional.parse(List.of("three"))).getMessage());
        assertEquals("unexpected argument 'two' (what is already given)",
                assertThrows(UsageException.class, () -> withPositional.parse(List.of("one", "two"))).getMessage());
        assertEquals("unexpected argument 'one' (what is already given)",
                assertThrows(UsageException.class, () -> withPositional.parse(List.of("--what", "two", "one")))
                        .getMessage());
    }

    @Test
    void help_shows_the_positional_in_the_usage_line() {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        withPositional.printHelp(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(bytes.toString(java.nio.charset.StandardCharsets.UTF_8)
                .startsWith("Usage: java -jar examples/target/volpex-examples.jar run [all|one|two] [options]"));
    }

    @Test
    void a_second_positional_is_a_programming_error() {
        assertThrows(IllegalArgumentException.class, () -> Options.forCommand("x", "y")
                .positionalChoice("a", "p", List.of("p"), "").positionalChoice("b", "q", List.of("q"), ""));
    }
}
