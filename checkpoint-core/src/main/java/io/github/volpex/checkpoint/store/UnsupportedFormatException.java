package io.github.volpex.checkpoint.store;

import java.util.List;
import java.util.Objects;

/**
 * Thrown when stored bytes carry a format version this release does not read: a {@link FragmentIndex} or the block
 * manifest of a differential checkpoint written by a newer release. The bytes may be intact; this reader cannot tell.
 * Upgrade the reader; do not delete what it refuses. As a {@link CorruptIndexException}, a store skips such an index
 * copy and reads another, and reports it when no copy can be read.
 *
 * @since 0.1
 */
public final class UnsupportedFormatException extends CorruptIndexException {

    private static final long serialVersionUID = 1L;

    /** The format, such as {@code "index"} or {@code "block manifest"}. */
    private final String format;
    /** The version found. */
    private final int version;
    /** The versions this reader reads. */
    private final List<Integer> supportedVersions;

    /**
     * Creates the exception.
     *
     * @param format            what was being read, such as {@code "index"} or {@code "block manifest"}
     * @param version           the version found
     * @param supportedVersions the versions this reader reads
     * @throws NullPointerException if {@code format} or {@code supportedVersions} is null
     * @since 0.1
     */
    public UnsupportedFormatException(String format, int version, List<Integer> supportedVersions) {
        super(Objects.requireNonNull(format, "format") + " format version must be one of " + supportedVersions + ": "
                + version, null);
        this.format = format;
        this.version = version;
        this.supportedVersions = List.copyOf(supportedVersions);
    }

    /**
     * Returns what was being read.
     *
     * @return the format's name, such as {@code "index"} or {@code "block manifest"}
     * @since 0.1
     */
    public String format() {
        return format;
    }

    /**
     * Returns the version the bytes carry.
     *
     * @return the version found
     * @since 0.1
     */
    public int version() {
        return version;
    }

    /**
     * Returns the versions this reader reads.
     *
     * @return an unmodifiable list, ascending
     * @since 0.1
     */
    public List<Integer> supportedVersions() {
        return supportedVersions;
    }
}
