package io.github.volpex.examples.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * How a child JVM of the tour across processes stays bounded: it halts when its standard input ends (its coordinator
 * exited, was killed, or closed it) and, whatever happens, once its deadline passes. Lines that arrive on standard
 * input before the end are commands from the coordinator.
 */
final class Lifeline {

    /** The exit status of a child that outlived its deadline. */
    static final int DEADLINE_STATUS = 4;

    private Lifeline() {
    }

    /**
     * Starts the daemon threads that watch the input and the deadline.
     *
     * @param input    the standard input, or null for a detached child (only the deadline applies)
     * @param deadline how long the JVM may live
     * @param commands receives each line of input, on the watching thread
     */
    static void watch(InputStream input, Duration deadline, Consumer<String> commands) {
        Thread timer = new Thread(() -> {
            try {
                Thread.sleep(deadline.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            System.err.println("deadline of " + deadline + " passed: halting");
            Runtime.getRuntime().halt(DEADLINE_STATUS);
        }, "lifeline-deadline");
        timer.setDaemon(true);
        timer.start();
        if (input == null) {
            return;
        }
        Thread reader = new Thread(() -> {
            int status = 0;
            try (BufferedReader in = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    commands.accept(line);
                }
            } catch (IOException e) {
                System.err.println("standard input failed: " + e);
            } catch (RuntimeException e) {
                System.err.println("a command from standard input failed: " + e);
                e.printStackTrace();
                status = 1;
            }
            Runtime.getRuntime().halt(status);
        }, "lifeline-input");
        reader.setDaemon(true);
        reader.start();
    }
}
