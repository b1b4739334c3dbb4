package io.github.volpex.examples.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Checks of option values, called from the options' setters while picocli parses a command line, so that a command
 * never starts with a bad value: each failure is a {@link ParameterException} naming the option, the value and the
 * bound, for example {@code "--replicas must be in [1, 5]: 7"}. Stateless; thread-safe.
 */
public final class OptionChecks {

    private OptionChecks() {
    }

    /**
     * Checks an integer option.
     *
     * @param spec   the command being parsed
     * @param option the option, with its dashes
     * @param value  the value given
     * @param min    the smallest accepted value
     * @param max    the largest accepted value
     * @return {@code value}
     * @throws ParameterException if {@code value} is outside {@code [min, max]}
     */
    public static int inRange(CommandSpec spec, String option, int value, int min, int max) {
        return (int) inRange(spec, option, (long) value, min, max);
    }

    /**
     * Checks a long option.
     *
     * @param spec   the command being parsed
     * @param option the option, with its dashes
     * @param value  the value given
     * @param min    the smallest accepted value
     * @param max    the largest accepted value
     * @return {@code value}
     * @throws ParameterException if {@code value} is outside {@code [min, max]}
     */
    public static long inRange(CommandSpec spec, String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw fail(spec, option + " must be in [" + min + ", " + max + "]: " + value);
        }
        return value;
    }

    /**
     * Checks a floating-point option; NaN is outside every range.
     *
     * @param spec   the command being parsed
     * @param option the option, with its dashes
     * @param value  the value given
     * @param min    the smallest accepted value
     * @param max    the largest accepted value
     * @return {@code value}
     * @throws ParameterException if {@code value} is NaN or outside {@code [min, max]}
     */
    public static double inRange(CommandSpec spec, String option, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            throw fail(spec, option + " must be in [" + min + ", " + max + "]: " + value);
        }
        return value;
    }

    /**
     * Checks an option whose value is one of fixed choices.
     *
     * @param spec    the command being parsed
     * @param option  the option, with its dashes
     * @param value   the value given
     * @param choices the accepted values
     * @return {@code value}
     * @throws ParameterException if {@code value} is not one of {@code choices}
     */
    public static String oneOf(CommandSpec spec, String option, String value, List<String> choices) {
        if (!choices.contains(value)) {
            throw fail(spec, option + " must be one of " + choices + ": " + value);
        }
        return value;
    }

    /**
     * Checks a text option (the command checks its form).
     *
     * @param spec   the command being parsed
     * @param option the option, with its dashes
     * @param value  the value given
     * @return {@code value}
     * @throws ParameterException if {@code value} is blank
     */
    public static String notBlank(CommandSpec spec, String option, String value) {
        if (value.isBlank()) {
            throw fail(spec, option + " must not be empty");
        }
        return value;
    }

    /**
     * Checks a path option.
     *
     * @param spec   the command being parsed
     * @param option the option, with its dashes
     * @param value  the path given
     * @return {@code value}
     * @throws ParameterException if the path is empty
     */
    public static Path path(CommandSpec spec, String option, Path value) {
        if (value.toString().isEmpty()) {
            throw fail(spec, option + " must not be empty");
        }
        return value;
    }

    /**
     * Checks, without creating anything, that an output directory option names a writable directory or one that
     * could be created, so that a command never starts work it cannot save; the command creates it with
     * {@link #prepareDirectory}.
     *
     * @param spec   the command being parsed
     * @param option the option, with its dashes
     * @param value  the path given
     * @return {@code value}
     * @throws ParameterException if the path is empty, a file, lies under a file, or cannot be written
     */
    public static Path directory(CommandSpec spec, String option, Path value) {
        Path path = path(spec, option, value);
        Path absolute = path.toAbsolutePath().normalize();
        if (Files.exists(absolute)) {
            if (!Files.isDirectory(absolute)) {
                throw fail(spec, option + " must be a directory: " + path + " is a file");
            }
            if (!Files.isWritable(absolute)) {
                throw fail(spec, option + " must be a writable directory: " + path + " is not writable");
            }
            return path;
        }
        for (Path parent = absolute.getParent(); parent != null; parent = parent.getParent()) {
            if (Files.exists(parent)) {
                if (!Files.isDirectory(parent)) {
                    throw fail(spec, option + " cannot be created: " + path + " lies under " + parent + ", a file");
                }
                if (!Files.isWritable(parent)) {
                    throw fail(spec, option + " cannot be created: " + parent + " is not writable");
                }
                return path;
            }
        }
        return path;
    }

    /**
     * Creates a directory given with a {@link #directory} option (and its parents), turning any failure into a
     * one-line usage error that names the option and the path.
     *
     * @param option the option, with its dashes
     * @param path   the directory
     * @return {@code path}
     * @throws UsageException if the directory cannot be created or written
     */
    public static Path prepareDirectory(String option, Path path) {
        try {
            Files.createDirectories(path);
        } catch (FileAlreadyExistsException e) {
            throw new UsageException(option + " must be a directory: " + path + " is a file");
        } catch (IOException | SecurityException e) {
            throw new UsageException(option + " cannot be created: " + path + " (" + reason(e) + ")");
        }
        if (!Files.isWritable(path)) {
            throw new UsageException(option + " must be a writable directory: " + path + " is not writable");
        }
        return path;
    }

    /** A short reason for an I/O failure: the operating system's words where it gave some. */
    private static String reason(Exception e) {
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    private static ParameterException fail(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
