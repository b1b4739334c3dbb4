package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/** What the directory repository adds to the repository contract (which the testkit runs against it). */
class DirectoryRepositoryTest {

    /** A fresh directory below {@code target/}, which {@code mvn clean} removes. */
    static Path freshDirectory() throws IOException {
        Path root = Path.of("target", "test-repositories");
        Files.createDirectories(root);
        return Files.createTempDirectory(root, "repo");
    }

    private static List<String> files(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void keeps_values_across_instances() throws IOException {
        Path dir = freshDirectory();
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
        Path dir = freshDirectory();
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
    void temporary_files_of_interrupted_writes_are_not_listed_and_can_be_removed() throws IOException {
        Path dir = freshDirectory();
        DirectoryRepository repo = DirectoryRepository.open("disk", dir, false);
        repo.put("kept", new byte[] {7});
        FragmentOutput interrupted = repo.create("lost");
        interrupted.write(new byte[] {1, 2, 3});
        // A crash now would leave the temporary file: the writer is never closed.
        Files.writeString(dir.resolve("notes.txt"), "not a value");
        assertEquals(List.of("kept"), repo.list(""));
        assertEquals(3, files(dir).size());
        assertEquals(1, repo.deleteTemporaryFiles());
        assertEquals(List.of("@kept", "notes.txt"), files(dir));
        assertTrue(repo.get("lost").isEmpty());
        assertThrows(IOException.class, interrupted::commit);
    }

    @Test
    void refuses_a_path_that_is_a_file() throws IOException {
        Path file = freshDirectory().resolve("plain");
        Files.writeString(file, "x");
        assertThrows(IOException.class, () -> DirectoryRepository.open("disk", file, false));
        assertFalse(Files.isDirectory(file));
    }
}
