package io.github.volpex.examples.cluster;

import io.github.volpex.examples.Main;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A child JVM of the tour across processes: started from this JVM's class path with one command of the examples'
 * {@link Main}, its standard input kept open as its lifeline (a child stops when it ends, so children never outlive a
 * coordinator that dies), its standard output read line by line on a daemon thread, its standard error written to a
 * log file. Every running child is registered, so that {@link #destroyAll()} — from a shutdown hook, say — stops them
 * all. Thread-safe.
 */
final class ChildJvm {

    private static final Set<ChildJvm> RUNNING = ConcurrentHashMap.newKeySet();

    private final String name;
    private final Process process;
    private final Path log;
    private final OutputStream input;
    private volatile boolean killed;

    private ChildJvm(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.input = process.getOutputStream();
    }

    /**
     * The command line of a child: this JVM's {@code java}, the options, this JVM's class path, {@link Main} and the
     * command's arguments.
     */
    static List<String> commandLine(List<String> jvmOptions, List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Main.class.getName());
        command.addAll(arguments);
        return command;
    }

    /**
     * Starts a child.
     *
     * @param name        a short name for logs and messages
     * @param commandLine the command line ({@link #commandLine})
     * @param environment variables added to this JVM's environment
     * @param log         where its standard error goes
     * @param lines       receives every line of its standard output, on the reader thread
     * @param exited      runs on the reader thread once the child has exited and its output is read
     * @return the running child
     * @throws IOException if it could not be started
     */
    static ChildJvm start(String name, List<String> commandLine, Map<String, String> environment, Path log,
                          Consumer<String> lines, Consumer<ChildJvm> exited) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(commandLine);
        builder.environment().putAll(environment);
        builder.redirectError(log.toFile());
        ChildJvm child = new ChildJvm(name, builder.start(), log);
        RUNNING.add(child);
        Thread reader = new Thread(() -> child.read(lines, exited), "child-" + name);
        reader.setDaemon(true);
        reader.start();
        return child;
    }

    private void read(Consumer<String> lines, Consumer<ChildJvm> exited) {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                lines.accept(line);
            }
        } catch (IOException ended) {
            // Killed while a line was on its way.
        }
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        RUNNING.remove(this);
        exited.accept(this);
    }

    Path log() {
        return log;
    }

    /** The child's name, as given to {@link #start}. */
    String name() {
        return name;
    }

    /** The child's process id. */
    long pid() {
        return process.pid();
    }

    /** The children running now, in no order (for tests that kill some from outside). */
    static List<ChildJvm> running() {
        return List.copyOf(RUNNING);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Whether {@link #kill()} was called. */
    boolean killed() {
        return killed;
    }

    /** The exit status; only once the child has exited. */
    int exitValue() {
        return process.exitValue();
    }

    /** Sends one line to the child's standard input; nothing happens if it has gone. */
    synchronized void send(String line) {
        try {
            input.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            input.flush();
        } catch (IOException gone) {
            // The child exited or was killed: nothing listens any more.
        }
    }

    /** Kills the child at once, wherever it is: SIGKILL. */
    void kill() {
        killed = true;
        process.destroyForcibly();
    }

    /**
     * Sends a POSIX signal to the child ({@code STOP} pauses it, {@code CONT} resumes it) with the system's
     * {@code kill} command.
     *
     * @return whether the signal was delivered (false where there is no {@code kill}, or the child is gone)
     */
    boolean signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The end of the child's log, for an error message. */
    String tail(int chars) {
        try {
            String text = Files.readString(log);
            return text.substring(Math.max(0, text.length() - chars));
        } catch (IOException e) {
            return "(no log at " + log + ")";
        }
    }

    /** The last non-empty line of the child's log (cut to 160 characters), if there is one. */
    Optional<String> lastLogged() {
        String[] lines = tail(2000).strip().split("\n");
        String last = lines.length == 0 ? "" : lines[lines.length - 1].strip();
        return last.isEmpty() ? Optional.empty()
                : Optional.of(last.length() > 160 ? last.substring(0, 160) + "…" : last);
    }

    /** Kills every child still running and waits for each (at most 10 s in all). */
    static void destroyAll() {
        List<ChildJvm> running = new ArrayList<>(RUNNING);
        for (ChildJvm child : running) {
            child.kill();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (ChildJvm child : running) {
            try {
                child.process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ")";
    }
}
