package io.github.volpex.dataspace.zookeeper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Child JVMs of the tests: the running JDK and the test class path, a small heap, a quick start, and the standard
 * error in a log file. The caller destroys them.
 */
final class ChildJvms {

    private ChildJvms() {
    }

    /** Starts {@code main} with {@code args}; its standard error goes to {@code log}. */
    static Process start(Path log, Class<?> main, String... args) throws IOException {
        return start("warn", log, main, args);
    }

    /** Starts {@code main} with {@code args}, logging at {@code logLevel}; its standard error goes to {@code log}. */
    static Process start(String logLevel, Path log, Class<?> main, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx96m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=" + logLevel, "-cp", System.getProperty("java.class.path"),
                main.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(log.toFile()).start();
    }

    /** In a child: halts the JVM with status 3 after {@code millis}, whatever happens (a daemon thread). */
    static void haltAfter(long millis) {
        Thread deadline = new Thread(() -> {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException ignored) {
                return;
            }
            Runtime.getRuntime().halt(3);
        }, "deadline");
        deadline.setDaemon(true);
        deadline.start();
    }

    /** Returns the last 2,000 chars of a child's log, for a failure message. */
    static String tail(Path log) {
        try {
            String text = Files.readString(log);
            return text.substring(Math.max(0, text.length() - 2000));
        } catch (IOException ex) {
            return "(no log)";
        }
    }
}
