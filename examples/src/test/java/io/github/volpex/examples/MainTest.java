package io.github.volpex.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MainTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void no_arguments_lists_every_example() {
        assertEquals(0, run());
        String listing = out.toString(StandardCharsets.UTF_8);
        for (Main.Example example : Main.EXAMPLES) {
            assertTrue(listing.contains(example.name()), listing);
        }
    }

    @Test
    void an_unknown_command_fails_and_names_it() {
        assertEquals(2, run("nonsense"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown command 'nonsense'"));
    }
}
