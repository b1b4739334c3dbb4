package io.github.volpex.checkpoint.repository;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/** What the directory repository adds to the repository contract (which the testkit runs against it). */
class DirectoryRepositoryTest {

    private static List<String> files(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void keeps_values_across_instances() throws IOException {
        Path dir = TestEnvironment.freshDirectory();
        DirectoryRepository first = DirectoryRepository.open("disk", dir, true);
        first.put("job.1.f0", new byte[] {1, 2, 3});
        DirectoryRepository second = DirectoryRepository.open("disk", dir, false);
        assertArrayEquals(new byte[] {1, 2, 3}, second.get("job.1.f0").orElseThrow());
        assertEquals(List.of("job.1.f0"), second.list(""));
        assertTrue(second.fsync() != first.fsync());
        assertEquals(dir.toAbsolutePath(), second.directory());
    }

    @Test
    void escapes_upper_case_letters_in_file_names() throws IOException {
        Path dir = TestEnvironment.freshDirectory();
        DirectoryRepository repo = DirectoryRepository.open("disk", dir, false);
        repo.put("Job-A.1.f0", new byte[] {1});
        repo.put("job-a.1.f0", new byte[] {2});
        assertEquals(List.of("@=job-=a.1.f0", "@job-a.1.f0"), files(dir));
        assertArrayEquals(new byte[] {1}, repo.get("Job-A.1.f0").orElseThrow());
    }

    @Property(tries = 300)
    void file_names_map_back_to_their_keys(
            @ForAll @StringLength(min = 1, max = 120) @CharRange(from = 'a', to = 'z') @CharRange(from = 'A', to = 'Z')
            @CharRange(from = '0', to = '9') @Chars({'.', '_', '-'}) String key) {
        if (FragmentRepository.isValidKey(key)) {
            String name = DirectoryRepository.fileName(key);
            assertEquals(key, DirectoryRepository.keyOf(name));
            assertTrue(name.length() <= 241, name);
        }
    }

    @Test
    void ignores_files_that_hold_no_value() {
        assertNull(DirectoryRepository.keyOf(".123.tmp"));
        assertNull(DirectoryRepository.keyOf("readme.txt"));
        assertNull(DirectoryRepository.keyOf("@Upper"));
        assertNull(DirectoryRepository.keyOf("@a="));
        assertNull(DirectoryRepository.keyOf("@a=1"));
        assertNull(DirectoryRepository.keyOf("@.hidden"));
        assertEquals("aB", DirectoryRepository.keyOf("@a=b"));
    }

    @Test
    void temporary_files_of_killed_writes_go_by_themselves_and_those_of_running_writes_stay() throws IOException {
        Path dir = TestEnvironment.freshDirectory();
        DirectoryRepository repo = DirectoryRepository.open("disk", dir, false);
        repo.put("kept", new byte[] {7});
        // What a write killed with its process leaves: a temporary file nobody holds.
        Files.write(dir.resolve(".12345.tmp"), new byte[] {1, 2});
        Files.writeString(dir.resolve("notes.txt"), "not a value");
        // A write in progress in this process.
        FragmentOutput running = repo.create("running");
        running.write(new byte[] {1, 2, 3});
        assertEquals(4, files(dir).size());
        assertEquals(List.of("kept"), repo.list(""));
        assertEquals(3, files(dir).size(), "the killed write's file is gone, the running one's stays");
        assertTrue(files(dir).contains("notes.txt"));
        Files.write(dir.resolve(".67890.tmp"), new byte[] {3});
        DirectoryRepository.open("disk", dir, false);
        assertEquals(3, files(dir).size(), "opening sweeps too");
        assertEquals(0, repo.deleteTemporaryFiles());
        running.commit();
        assertArrayEquals(new byte[] {1, 2, 3}, repo.get("running").orElseThrow());
        assertEquals(List.of("@kept", "@running", "notes.txt"), files(dir));
        FragmentOutput abandoned = repo.create("abandoned");
        abandoned.write(new byte[] {9});
        abandoned.close();
        assertEquals(List.of("@kept", "@running", "notes.txt"), files(dir));
    }

    @Test
    void refuses_a_path_that_is_a_file() throws IOException {
        Path file = TestEnvironment.freshDirectory().resolve("plain");
        Files.writeString(file, "x");
        assertThrows(IOException.class, () -> DirectoryRepository.open("disk", file, false));
        assertFalse(Files.isDirectory(file));
    }

    @Test
    void writes_never_fail_while_listings_of_this_process_sweep_the_directory() throws Exception {
        DirectoryRepository repository = DirectoryRepository.open("disk", TestEnvironment.freshDirectory(), false);
        int writers = 4;
        int writesEach = 400;
        ExecutorService pool = Executors.newFixedThreadPool(writers + 2);
        AtomicBoolean done = new AtomicBoolean();
        try {
            List<Future<?>> sweeps = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                boolean list = i == 0;
                sweeps.add(pool.submit(() -> {
                    while (!done.get()) {
                        if (list) {
                            repository.list("");
                        } else {
                            repository.deleteTemporaryFiles();
                        }
                    }
                    return null;
                }));
            }
            List<Future<?>> writes = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                writes.add(pool.submit(() -> {
                    for (int k = 0; k < writesEach; k++) {
                        repository.put("w" + writer + "k" + k, new byte[] {(byte) writer, (byte) k});
                    }
                    return null;
                }));
            }
            for (Future<?> write : writes) {
                write.get(120, TimeUnit.SECONDS);
            }
            done.set(true);
            for (Future<?> sweep : sweeps) {
                sweep.get(120, TimeUnit.SECONDS);
            }
        } finally {
            done.set(true);
            pool.shutdownNow();
        }
        assertEquals(writers * writesEach, repository.list("w").size());
        for (int w = 0; w < writers; w++) {
            assertArrayEquals(new byte[] {(byte) w, (byte) 7}, repository.get("w" + w + "k7").orElseThrow());
        }
    }

    @Test
    void a_sweep_of_this_process_leaves_a_running_write_locked_against_other_processes() throws Exception {
        Path directory = TestEnvironment.freshDirectory();
        DirectoryRepository repository = DirectoryRepository.open("disk", directory, false);
        try (FragmentOutput out = repository.create("running")) {
            out.write(new byte[] {1, 2, 3});
            // This process looks at the running write's temporary file; that must not release its lock, which on
            // POSIX systems any close of the file by this process would.
            assertEquals(0, repository.deleteTemporaryFiles());
            repository.list("");
            // Another process opens the repository, which deletes the temporary files nobody holds.
            assertEquals("swept 0", sweepInAnotherProcess(directory));
            out.commit();
        }
        assertArrayEquals(new byte[] {1, 2, 3}, repository.get("running").orElseThrow());
    }

    @Test
    void writes_never_fail_while_another_process_sweeps_the_directory() throws Exception {
        Path directory = TestEnvironment.freshDirectory();
        DirectoryRepository repository = DirectoryRepository.open("disk", directory, false);
        List<String> command = List.of(TestEnvironment.javaCommand(), "-Xmx64m", "-XX:TieredStopAtLevel=1",
                "-cp", TestEnvironment.childClassPath(), LoopingSweeper.class.getName(),
                directory.toAbsolutePath().toString());
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            assertEquals("sweeping", in.readLine());
            int writes = 3_000;
            for (int k = 0; k < writes; k++) {
                repository.put("k" + k, new byte[] {(byte) k});
            }
            child.getOutputStream().close(); // the sweeper stops
            assertTrue(in.readLine().startsWith("swept "), "the sweeper ended");
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the sweeping child did not end");
            assertEquals(writes, repository.list("k").size());
            assertArrayEquals(new byte[] {(byte) 2_999}, repository.get("k2999").orElseThrow());
        } finally {
            child.destroyForcibly();
        }
    }

    /**
     * A child that sweeps the directory of a repository over and over until its standard input ends, then prints how
     * many temporary files it deleted.
     */
    public static final class LoopingSweeper {
        private LoopingSweeper() {
        }

        /**
         * Runs the child.
         *
         * @param args the directory
         * @throws IOException if the directory cannot be opened or listed
         */
        public static void main(String[] args) throws IOException {
            DirectoryRepository repository = DirectoryRepository.open("disk", Path.of(args[0]), false);
            AtomicBoolean ended = new AtomicBoolean();
            Thread watcher = new Thread(() -> {
                try {
                    while (System.in.read() >= 0) {
                        // Nothing is sent: only the end counts.
                    }
                } catch (IOException closed) {
                    // Ended all the same.
                }
                ended.set(true);
            });
            watcher.setDaemon(true);
            watcher.start();
            System.out.println("sweeping");
            long swept = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!ended.get() && System.nanoTime() - deadline < 0) {
                swept += repository.deleteTemporaryFiles();
            }
            System.out.println("swept " + swept);
        }
    }

    /** Opens the repository on {@code directory} in a child JVM and returns what its sweep deleted. */
    private static String sweepInAnotherProcess(Path directory) throws Exception {
        List<String> command = List.of(TestEnvironment.javaCommand(), "-Xmx64m", "-XX:TieredStopAtLevel=1",
                "-cp", TestEnvironment.childClassPath(), Sweeper.class.getName(),
                directory.toAbsolutePath().toString());
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output;
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                output = in.readLine();
            }
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the sweeping child did not end");
            return output;
        } finally {
            child.destroyForcibly();
        }
    }

    /**
     * The child of {@link #sweepInAnotherProcess}: opens the repository, which sweeps the directory, sweeps it once
     * more, and prints how many temporary files the two sweeps deleted.
     */
    public static final class Sweeper {
        private Sweeper() {
        }

        /**
         * Runs the child.
         *
         * @param args the directory
         * @throws IOException if the directory cannot be opened or listed
         */
        public static void main(String[] args) throws IOException {
            Path directory = Path.of(args[0]);
            long before = temporaryFiles(directory);
            DirectoryRepository.open("disk", directory, false).deleteTemporaryFiles();
            System.out.println("swept " + (before - temporaryFiles(directory)));
        }

        /** The temporary files of unpublished writes: named {@code .…tmp}. */
        private static long temporaryFiles(Path directory) throws IOException {
            try (Stream<Path> files = Files.list(directory)) {
                return files.map(file -> file.getFileName().toString())
                        .filter(name -> name.startsWith(".") && name.endsWith(".tmp")).count();
            }
        }
    }
}
