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
            .flag("quiet", "say less");

    @Test
    void defaults_apply_when_options_are_absent() {
        Options.Parsed parsed = options.parse(List.of());
        assertEquals(3, parsed.intValue("count"));
        assertEquals(0.5, parsed.doubleValue("rate"));
        assertEquals("weibull", parsed.choice("law"));
        assertTrue(parsed.path("store").isEmpty());
        assertFalse(parsed.flag("quiet"));
    }

    @Test
    void both_value_syntaxes_and_flags_are_accepted() {
        Options.Parsed parsed = options.parse(List.of("--count", "7", "--rate=0.25", "--law", "exponential",
                "--store", "dir/x", "--quiet"));
        assertEquals(7, parsed.intValue("count"));
        assertEquals(0.25, parsed.doubleValue("rate"));
        assertEquals("exponential", parsed.choice("law"));
        assertEquals(Path.of("dir/x"), parsed.path("store").orElseThrow());
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
        assertMessage("--quiet takes no value: --quiet=yes", "--quiet=yes");
        assertMessage("demo: unknown option --colour (see demo --help)", "--colour", "red");
        assertMessage("demo: option --count is given twice", "--count", "1", "--count", "2");
        assertMessage("demo: unexpected argument 'extra' (options start with --)", "extra");
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
}
