package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.TestEnvironment;
import io.github.volpex.testsupport.SearchDepth;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real crashes: a child JVM commits in a loop to directory repositories and is killed with SIGKILL at random moments;
 * after each kill, a new store in this JVM recovers the job and must hold the last checkpoint the child reported
 * committed, or a later one, byte for byte; no temporary file of the dead writer survives the repositories' reopening;
 * and the next child resumes from what was recovered, as a restarted host would.
 */
class CrashRecoveryTest {

    /** Kills per kind of store in an ordinary run; the deep search multiplies them. */
    private static final int KILLS = SearchDepth.rounds(11);

    /** The seed of the kill moments: new each run, named in every failure message. */
    private static final long SEED = Long.getLong("volpex.crash.seed", System.nanoTime());

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void recovery_after_sigkill_holds_the_last_reported_commit_or_a_later_one() throws Exception {
        SplittableRandom random = new SplittableRandom(SEED);
        String replay = " (seed " + SEED + "; replay with -Dvolpex.crash.seed=" + SEED + ")";
        for (boolean perennial : new boolean[] {false, true}) {
            List<Path> directories = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                directories.add(TestEnvironment.freshDirectory());
            }
            long next = 0;
            long lastReported = -1;
            for (int kill = 0; kill < KILLS; kill++) {
                Child child = Child.start(perennial, next, directories);
                try {
                    child.awaitLine("ready");
                    // Let it commit a few times, then kill it at a random moment of a commit.
                    long target = random.nextInt(4);
                    while (child.lastCommitted < lastReported + 1 + target) {
                        child.readLine();
                    }
                    Thread.sleep(random.nextInt(40));
                } finally {
                    child.kill();
                }
                lastReported = Math.max(lastReported, child.drainCommitted());
                CheckpointStore store = CrashingWriter.store(perennial, directories);
                for (Path directory : directories) {
                    try (Stream<Path> files = Files.list(directory)) {
                        assertTrue(files.noneMatch(f -> f.getFileName().toString().endsWith(".tmp")),
                                "a temporary file of the dead writer survived in " + directory + replay);
                    }
                }
                Optional<RecoveredCheckpoint> recovered = store.recover(CrashingWriter.JOB);
                assertTrue(recovered.isPresent(), "nothing recovered after kill " + kill + replay);
                byte[] bytes = recovered.get().toByteArray();
                long n = findNumber(bytes, lastReported);
                assertTrue(n >= lastReported, "recovered #" + n + ", older than the last reported #" + lastReported
                        + replay);
                assertArrayEquals(CrashingWriter.checkpoint(n), bytes, "checkpoint #" + n + replay);
                next = n + 1;
                lastReported = n;
            }
        }
    }

    /** Which checkpoint {@code bytes} is: one of the few numbers from {@code from} on whose bytes match. */
    private static long findNumber(byte[] bytes, long from) {
        for (long n = Math.max(0, from); n < from + 64; n++) {
            if (bytes.length == CrashingWriter.checkpoint(n).length && bytes[0] == (byte) n
                    && Arrays.equals(bytes, CrashingWriter.checkpoint(n))) {
                return n;
            }
        }
        return -1;
    }

    /** A child JVM running {@link CrashingWriter}; a thread of the test reads its output line by line. */
    private static final class Child {
        final Process process;
        final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final Thread reader;
        volatile long lastCommitted = -1;

        private Child(Process process) {
            this.process = process;
            this.reader = new Thread(this::read, "crash-child-output");
            reader.setDaemon(true);
            reader.start();
        }

        static Child start(boolean perennial, long next, List<Path> directories) throws IOException {
            List<String> command = new ArrayList<>();
            command.add(TestEnvironment.javaCommand());
            command.add("-Xmx128m");
            command.add("-XX:TieredStopAtLevel=1");
            command.add("-cp");
            command.add(TestEnvironment.childClassPath());
            command.add(CrashingWriter.class.getName());
            command.add(perennial ? "perennial" : "ephemeral");
            command.add(Long.toString(next));
            directories.forEach(d -> command.add(d.toAbsolutePath().toString()));
            return new Child(new ProcessBuilder(command).redirectErrorStream(true).start());
        }

        private void read() {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.startsWith("committed ")) {
                        lastCommitted = Long.parseLong(line.substring("committed ".length()));
                    }
                    lines.add(line);
                }
            } catch (IOException | RuntimeException e) {
                // The process was killed: what was read counts, the rest was never reported.
            }
            lines.add(EOF);
        }

        private static final String EOF = "(end of output)";

        /** The next line; fails after 60 s or if the child ended. */
        String readLine() throws InterruptedException {
            String line = lines.poll(60, TimeUnit.SECONDS);
            if (line == null || line.equals(EOF)) {
                throw new IllegalStateException("the child stopped talking; alive: " + process.isAlive());
            }
            if (!line.equals("ready") && !line.startsWith("committed ")) {
                throw new IllegalStateException("the child said: " + line);
            }
            return line;
        }

        void awaitLine(String expected) throws InterruptedException {
            while (!readLine().equals(expected)) {
                // Skip to it.
            }
        }

        /** After the kill: the last commit the child reported before it died. */
        long drainCommitted() throws InterruptedException {
            reader.join(TimeUnit.SECONDS.toMillis(30));
            return lastCommitted;
        }

        /** SIGKILL on Unix; waits until the process is gone. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the child survived SIGKILL");
            }
        }
    }
}
