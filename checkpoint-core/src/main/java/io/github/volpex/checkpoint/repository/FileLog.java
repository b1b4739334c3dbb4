package io.github.volpex.checkpoint.repository;

import java.nio.file.Path;

/**
 * What a {@link DirectoryRepository} does to its file system, told in the order it happens: a seam through which the
 * tests record the operations of a workload and rebuild every state a power loss could leave (which operations
 * reached the device depends on what was forced). Called after each operation succeeded, on the thread that made
 * it. The repository's default tells nobody.
 */
interface FileLog {

    /** Tells nobody. */
    FileLog NONE = new FileLog() {
    };

    /** A new, empty file was created. */
    default void created(Path file) {
    }

    /** {@code length} bytes of {@code bytes} from {@code offset} were written at {@code position} of the file. */
    default void wrote(Path file, long position, byte[] bytes, int offset, int length) {
    }

    /** The file's content and size were forced to the device. */
    default void forced(Path file) {
    }

    /** {@code from} was renamed to {@code to} atomically, replacing {@code to}. */
    default void renamed(Path from, Path to) {
    }

    /** The file was deleted. */
    default void deleted(Path file) {
    }

    /** The directory's entries were forced to the device. */
    default void forcedDirectory(Path directory) {
    }
}
