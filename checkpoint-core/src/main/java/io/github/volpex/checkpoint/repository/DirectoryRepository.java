package io.github.volpex.checkpoint.repository;

import io.github.volpex.checkpoint.internal.Checks;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link FragmentRepository} that keeps each value in a file of one directory.
 *
 * <p><b>Atomic writes.</b> A value is written to a temporary file in the same directory (its name starts with a dot
 * and ends with {@code .tmp}), optionally forced to the device, then moved over the target with
 * {@link StandardCopyOption#ATOMIC_MOVE}; readers see the old file or the new one, never a part.
 *
 * <p><b>Temporary files of killed writes</b> are removed without the host doing anything: a writer holds an exclusive
 * lock ({@link java.nio.channels.FileLock}) on its temporary file until it publishes or discards it, and the operating
 * system releases the lock of a process that dies. Opening a repository and every {@link #list} delete the temporary
 * files nobody holds; those of writes still running, in this process or another, are left alone. {@link #list} never
 * reports temporary files. The writes running in this process are known to it and never opened by its sweeps: on
 * POSIX systems closing any channel of a file releases every lock this process holds on it, so a sweep that merely
 * looked would leave a running write open to another process's sweep. A sweep deletes a file while it holds the
 * file's lock, and a writer, once it holds the lock of the file it has just created, checks that the file is still
 * there (another process's sweep may have taken it in the instant between the creation and the lock) and otherwise
 * starts over with a new file; so a sweep never takes a file from a running write. (Where the system deletes no open
 * file, as Windows, a sweep deletes after releasing the lock, and that instant remains.)
 *
 * <p><b>Durability.</b> With {@code fsync}, every write forces the file's content before the move and the
 * directory after it, and every delete forces the directory, so a value survives power loss once the call returns.
 * Forcing a directory is not possible on every platform (Windows); where it fails, only the file is forced.
 *
 * <p><b>File names.</b> A key maps to the file {@code "@"} followed by the key with each upper-case letter
 * {@code X} written as {@code =x}, so that keys differing only in case stay distinct on case-insensitive file
 * systems, and no key meets a reserved device name.
 *
 * <p>Thread-safe; several instances (and processes) may share a directory as long as they write different keys or
 * accept that the last writer of a key wins.
 *
 * @since 0.1
 */
public final class DirectoryRepository implements FragmentRepository {

    private static final String FILE_PREFIX = "@";
    private static final String TEMPORARY_SUFFIX = ".tmp";

    /**
     * The temporary files of the writes running in this process, by real path: registered before the file exists and
     * removed after it is gone, so that no sweep of this process ever opens one.
     */
    private static final Set<Path> RUNNING_WRITES = ConcurrentHashMap.newKeySet();
    /** Numbers this process's temporary files; with the process id, names them without randomness. */
    private static final AtomicLong TEMPORARY_FILES = new AtomicLong();

    private final String id;
    private final Path directory;
    /** The directory's real path (links resolved), under which its running writes are registered. */
    private final Path realDirectory;
    private final boolean fsync;
    /** Told of every change to the file system, for tests; {@link FileLog#NONE} otherwise. */
    private final FileLog log;

    private DirectoryRepository(String id, Path directory, Path realDirectory, boolean fsync, FileLog log) {
        this.id = id;
        this.directory = directory;
        this.realDirectory = realDirectory;
        this.fsync = fsync;
        this.log = log;
    }

    /**
     * Opens a repository on {@code directory}, creating it if needed.
     *
     * @param id        the repository's identifier
     * @param directory the directory
     * @param fsync     whether writes and deletes are forced to the device before they return
     * @return the repository
     * @throws IOException              if the directory cannot be created or is not a directory
     * @throws NullPointerException     if {@code id} or {@code directory} is null
     * @throws IllegalArgumentException if {@code id} is empty or longer than 255 bytes of UTF-8
     */
    public static DirectoryRepository open(String id, Path directory, boolean fsync) throws IOException {
        return open(id, directory, fsync, FileLog.NONE);
    }

    /** {@link #open(String, Path, boolean)}, telling {@code log} of every change it makes to the file system. */
    static DirectoryRepository open(String id, Path directory, boolean fsync, FileLog log) throws IOException {
        Checks.requireRepositoryId(id);
        Objects.requireNonNull(directory, "directory");
        Files.createDirectories(directory);
        DirectoryRepository repository = new DirectoryRepository(id, directory.toAbsolutePath(),
                directory.toRealPath(), fsync, log);
        repository.deleteTemporaryFiles();
        return repository;
    }

    @Override
    public String id() {
        return id;
    }

    /**
     * Returns the directory holding the files.
     *
     * @return the absolute path of the directory
     */
    public Path directory() {
        return directory;
    }

    /**
     * Returns whether writes and deletes are forced to the device.
     *
     * @return {@code true} if they are
     */
    public boolean fsync() {
        return fsync;
    }

    @Override
    public void put(String key, byte[] content) throws IOException {
        Objects.requireNonNull(content, "content");
        try (FragmentOutput out = create(key)) {
            out.write(content);
            out.commit();
        }
    }

    @Override
    public FragmentOutput create(String key) throws IOException {
        Path target = directory.resolve(fileName(key));
        String prefix = "." + ProcessHandle.current().pid() + "-";
        while (true) {
            Path temporary = realDirectory.resolve(prefix + TEMPORARY_FILES.incrementAndGet() + TEMPORARY_SUFFIX);
            // Registered first, so that no sweep of this process opens the file once it exists.
            RUNNING_WRITES.add(temporary);
            FileChannel channel = null;
            boolean created = false;
            try {
                channel = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                created = true;
                log.created(temporary);
                // Held until the write is published or discarded; released by the system if this process dies. Until
                // this process holds it, another process's sweep may take the file (it deletes while holding the
                // lock): then the lock is that sweep's, or the file is gone once it is ours, and a new file is made.
                if (channel.tryLock() == null || !Files.exists(temporary)) {
                    channel.close();
                    RUNNING_WRITES.remove(temporary);
                    continue;
                }
                return new FileOutput(channel, temporary, target);
            } catch (FileAlreadyExistsException e) {
                // Left by an earlier process with the same id: take the next number.
                RUNNING_WRITES.remove(temporary);
            } catch (IOException | RuntimeException e) {
                try {
                    if (channel != null) {
                        channel.close();
                    }
                    if (created && Files.deleteIfExists(temporary)) {
                        log.deleted(temporary);
                    }
                } finally {
                    RUNNING_WRITES.remove(temporary);
                }
                throw e;
            }
        }
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        try {
            return Optional.of(Files.readAllBytes(directory.resolve(fileName(key))));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<InputStream> open(String key) throws IOException {
        try {
            return Optional.of(Files.newInputStream(directory.resolve(fileName(key))));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public boolean delete(String key) throws IOException {
        Path file = directory.resolve(fileName(key));
        boolean deleted = Files.deleteIfExists(file);
        if (deleted) {
            log.deleted(file);
            if (fsync) {
                forceDirectory();
            }
        }
        return deleted;
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        Objects.requireNonNull(prefix, "prefix");
        List<String> keys = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                String key = keyOf(name);
                if (key != null && key.startsWith(prefix)) {
                    keys.add(key);
                } else if (isTemporary(name)) {
                    deleteIfAbandoned(realDirectory.resolve(name));
                }
            }
        }
        Collections.sort(keys);
        return Collections.unmodifiableList(keys);
    }

    /**
     * Deletes the temporary files that writes killed with their process left behind, as opening the repository and
     * every {@link #list} do by themselves: a temporary file is deleted when no writer holds its lock, so the files
     * of writes in progress, in this process or another, are kept. Safe to call at any time.
     *
     * @return how many files were deleted
     * @throws IOException if the directory cannot be listed
     */
    public int deleteTemporaryFiles() throws IOException {
        int deleted = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                if (isTemporary(name) && deleteIfAbandoned(realDirectory.resolve(name))) {
                    deleted++;
                }
            }
        }
        return deleted;
    }

    private static boolean isTemporary(String name) {
        return name.startsWith(".") && name.endsWith(TEMPORARY_SUFFIX);
    }

    /**
     * Deletes a temporary file if no writer holds its lock; a file that cannot be checked is left alone, and so is a
     * file of a write running in this process, which is not even opened.
     */
    private boolean deleteIfAbandoned(Path file) {
        if (RUNNING_WRITES.contains(file)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            try (FileLock lock = channel.tryLock()) {
                if (lock == null) {
                    return false;
                }
                // Deleted under the lock: a writer that locks the file after this sees it gone and starts over.
                try {
                    return Files.deleteIfExists(file);
                } catch (IOException openFilesStay) {
                    // A system that deletes no open file (Windows): deleted below, once closed.
                }
            }
        } catch (OverlappingFileLockException e) {
            // A write of this process is in progress.
            return false;
        } catch (IOException e) {
            // Gone meanwhile, or not ours to check.
            return false;
        }
        try {
            if (Files.deleteIfExists(file)) {
                log.deleted(file);
                return true;
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /** The file name of a key: {@code @} then the key with upper-case letters escaped as {@code =x}. */
    static String fileName(String key) {
        FragmentRepository.requireValidKey(key);
        StringBuilder name = new StringBuilder(FILE_PREFIX.length() + key.length() + 8).append(FILE_PREFIX);
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                name.append('=').append((char) (c - 'A' + 'a'));
            } else {
                name.append(c);
            }
        }
        return name.toString();
    }

    /** The key of a file name, or null if the file holds no value (a temporary file, something else). */
    static String keyOf(String fileName) {
        if (!fileName.startsWith(FILE_PREFIX)) {
            return null;
        }
        StringBuilder key = new StringBuilder(fileName.length());
        for (int i = FILE_PREFIX.length(); i < fileName.length(); i++) {
            char c = fileName.charAt(i);
            if (c == '=') {
                if (i + 1 >= fileName.length()) {
                    return null;
                }
                char lower = fileName.charAt(++i);
                if (lower < 'a' || lower > 'z') {
                    return null;
                }
                key.append((char) (lower - 'a' + 'A'));
            } else if (c >= 'A' && c <= 'Z') {
                return null;
            } else {
                key.append(c);
            }
        }
        String result = key.toString();
        return FragmentRepository.isValidKey(result) ? result : null;
    }

    private void forceDirectory() {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
            log.forcedDirectory(directory);
        } catch (IOException e) {
            // Some platforms cannot open or force a directory; the files themselves were forced.
        }
    }

    @Override
    public String toString() {
        return "DirectoryRepository[" + id + ", " + directory + (fsync ? ", fsync" : "") + "]";
    }

    /** Writes to a temporary file and moves it over the target on commit. */
    private final class FileOutput extends FragmentOutput {
        private final FileChannel channel;
        private final Path temporary;
        private final Path target;

        FileOutput(FileChannel channel, Path temporary, Path target) {
            this.channel = channel;
            this.temporary = temporary;
            this.target = target;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            long position = channel.position();
            ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            log.wrote(temporary, position, b, off, len);
        }

        @Override
        protected void publish() throws IOException {
            if (fsync) {
                channel.force(true);
                log.forced(temporary);
            }
            // Moved while its lock is held, so that no sweep takes it for abandoned; where an open file cannot be
            // moved (Windows), it is closed first.
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                channel.close();
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                try {
                    channel.close();
                } finally {
                    RUNNING_WRITES.remove(temporary);
                }
            }
            log.renamed(temporary, target);
            if (fsync) {
                forceDirectory();
            }
        }

        @Override
        protected void discard() throws IOException {
            try {
                channel.close();
            } finally {
                try {
                    if (Files.deleteIfExists(temporary)) {
                        log.deleted(temporary);
                    }
                } finally {
                    RUNNING_WRITES.remove(temporary);
                }
            }
        }
    }
}
