package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.RecoveredCheckpoint;
import io.github.volpex.erasure.IdaCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two writers of one job in two JVMs ({@link WriterMain}) on shared repositories, with epochs from ZooKeeper: the
 * first is held between its fragments and its commit point while its ZooKeeper session expires and the second takes
 * the job over; the first is then refused by the epoch check, and every commit it races against the newer writer's
 * is refused too, while the newer writer's checkpoints are all there. Child JVMs bind nothing, stop when their input
 * ends or after two minutes, and are destroyed when the test ends (their logs go to {@code target/writer-jvms}).
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class SeparateJvmWritersTest {

    private static final String JOB = "job-42";
    private final Path logs = Path.of("target", "writer-jvms");
    private final List<Writer> writers = new ArrayList<>();
    private EmbeddedZooKeeper ensemble;

    @AfterEach
    void stop() throws Exception {
        for (Writer writer : writers) {
            writer.process.destroyForcibly();
            writer.process.waitFor(30, TimeUnit.SECONDS);
        }
        Closing.all(ensemble);
    }

    @Test
    void a_writer_whose_session_expired_is_refused_and_nothing_of_the_newer_writer_is_lost(@TempDir Path shared)
            throws Exception {
        ensemble = EmbeddedZooKeeper.start(1);
        Writer old = launch("old", shared);
        long oldEpoch = Long.parseLong(old.ask("commit 1", "COMMITTED 1 ")[2]);
        old.ask("held 2", "HELD 2");

        // The old writer's session expires while it is held (a long pause, a partition): a new writer takes over.
        Sessions.expire(ensemble.connectString(), old.sessionId, old.sessionPassword);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!old.ask("expiries", "EXPIRIES ")[1].equals("1")) {
            assertTrue(System.nanoTime() - deadline < 0, "the old writer saw its session expire");
            Thread.sleep(20);
        }
        Writer taker = launch("new", shared);
        assertEquals("old-1", taker.ask("recover", "RECOVERED ")[1]);
        long newEpoch = Long.parseLong(taker.ask("commit 1", "COMMITTED 1 ")[2]);
        assertTrue(newEpoch > oldEpoch, newEpoch + " > " + oldEpoch);

        // Released, the old writer reaches its epoch check and is refused by the epoch source itself.
        old.send("release");
        assertEquals(List.of("STALE", "2", Long.toString(oldEpoch), "-1"), List.of(old.next("STALE 2 ")));

        // Both now commit as fast as they can: every commit of the old writer is refused, none of the new one's is.
        int rounds = 12;
        old.send("commits 3 " + rounds);
        taker.send("commits 2 " + rounds);
        for (int n = 0; n < rounds; n++) {
            String[] refused = old.next("STALE " + (3 + n) + " ");
            assertEquals(Long.toString(oldEpoch), refused[2]);
            assertEquals(Long.toString(newEpoch), taker.next("COMMITTED " + (2 + n) + " ")[2]);
        }
        old.close();
        taker.close();

        CheckpointStore reader = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories(shared)).build();
        RecoveredCheckpoint last = reader.recover(JOB).orElseThrow();
        assertEquals(newEpoch, last.index().epoch());
        assertArrayEquals(WriterMain.payload("new-" + (1 + rounds)), last.toByteArray());
    }

    private static List<FragmentRepository> repositories(Path shared) throws IOException {
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            repositories.add(FragmentRepository.directory("r" + i, shared.resolve("r" + i), false));
        }
        return repositories;
    }

    private Writer launch(String name, Path shared) throws Exception {
        Files.createDirectories(logs);
        Path log = logs.resolve(name + "-" + Long.toHexString(System.nanoTime()) + ".log");
        Writer writer = new Writer(ChildJvms.start(log, WriterMain.class, ensemble.connectString(), "/epochs",
                shared.toString(), JOB, name), name, log);
        writers.add(writer);
        String[] session = writer.next("SESSION ");
        writer.sessionId = Long.parseUnsignedLong(session[1], 16);
        writer.sessionPassword = HexFormat.of().parseHex(session[2]);
        return writer;
    }

    /** A writer JVM: commands to its input, answers from its output. */
    private static final class Writer {
        final Process process;
        final String name;
        final Path log;
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final OutputStream input;
        long sessionId;
        byte[] sessionPassword;

        Writer(Process process, String name, Path log) {
            this.process = process;
            this.name = name;
            this.log = log;
            this.input = process.getOutputStream();
            Thread reader = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line; (line = out.readLine()) != null; ) {
                        lines.add(line);
                    }
                } catch (IOException ended) {
                    // Destroyed.
                }
            }, "writer-" + name);
            reader.setDaemon(true);
            reader.start();
        }

        void send(String command) throws IOException {
            input.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            input.flush();
        }

        /** Waits for the next line (30 s at most) and checks how it starts; returns its words. */
        String[] next(String prefix) throws Exception {
            String line = lines.poll(30, TimeUnit.SECONDS);
            assertNotNull(line, name + " answered within 30 s (log " + log + ": " + tail() + ")");
            assertTrue(line.startsWith(prefix), name + " answered '" + line + "', expected '" + prefix + "…'");
            return line.split(" ");
        }

        String[] ask(String command, String prefix) throws Exception {
            send(command);
            return next(prefix);
        }

        /** Closes its input and waits for a clean exit. */
        void close() throws Exception {
            input.close();
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), name + " exited");
            assertEquals(0, process.exitValue(), name + " exited cleanly: " + tail());
        }

        private String tail() {
            return ChildJvms.tail(log);
        }
    }
}
