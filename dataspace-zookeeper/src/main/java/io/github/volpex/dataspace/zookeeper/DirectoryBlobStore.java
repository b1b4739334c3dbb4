package io.github.volpex.dataspace.zookeeper;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** {@link BlobStore#directory(Path)}: one file per key, written to a temporary file and moved into place. */
final class DirectoryBlobStore implements BlobStore {

    private static final String TEMPORARY = ".part-";

    private final Path directory;

    DirectoryBlobStore(Path directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    private Path file(String key) {
        if (!key.matches("[0-9a-f-]{1,100}")) {
            throw new IllegalArgumentException("key must match [0-9a-f-]{1,100}: " + key);
        }
        return directory.resolve(key);
    }

    @Override
    public void write(String key, byte[] data) throws IOException {
        Path target = file(key);
        Files.createDirectories(directory);
        Path temporary = Files.createTempFile(directory, TEMPORARY, "");
        try {
            Files.write(temporary, data);
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    @Override
    public Optional<byte[]> read(String key) throws IOException {
        try {
            return Optional.of(Files.readAllBytes(file(key)));
        } catch (NoSuchFileException absent) {
            return Optional.empty();
        }
    }

    @Override
    public void delete(String key) throws IOException {
        Files.deleteIfExists(file(key));
    }

    @Override
    public List<String> keys() throws IOException {
        List<String> keys = new ArrayList<>();
        if (!Files.isDirectory(directory)) {
            return keys;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                if (!name.startsWith(TEMPORARY)) {
                    keys.add(name);
                }
            }
        }
        return keys;
    }

    @Override
    public String toString() {
        return "BlobStore.directory(" + directory + ")";
    }
}
