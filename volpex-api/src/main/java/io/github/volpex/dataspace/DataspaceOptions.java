package io.github.volpex.dataspace;

/**
 * The limits of a dataspace.
 *
 * @param readLogCapacity the entries each logical process's read log retains for trailing replicas; {@code ≥ 1}
 * @param maxTagLength    the longest tag accepted, in chars; {@code ≥ 1}
 * @param maxDataBytes    the largest data item accepted, in bytes; {@code ≥ 0}
 * @since 0.1
 */
public record DataspaceOptions(int readLogCapacity, int maxTagLength, int maxDataBytes) {

    /**
     * Validates the limits.
     *
     * @param readLogCapacity the entries each logical process's read log retains; {@code ≥ 1}
     * @param maxTagLength    the longest tag accepted, in chars; {@code ≥ 1}
     * @param maxDataBytes    the largest data item accepted, in bytes; {@code ≥ 0}
     * @throws IllegalArgumentException if a limit is out of range
     */
    public DataspaceOptions {
        if (readLogCapacity < 1) {
            throw new IllegalArgumentException("readLogCapacity must be >= 1: " + readLogCapacity);
        }
        if (maxTagLength < 1) {
            throw new IllegalArgumentException("maxTagLength must be >= 1: " + maxTagLength);
        }
        if (maxDataBytes < 0) {
            throw new IllegalArgumentException("maxDataBytes must be >= 0: " + maxDataBytes);
        }
    }

    /**
     * Returns the defaults: 1,024 log entries per process, tags up to 1,024 chars, data up to 64 MiB.
     *
     * @return the default options
     */
    public static DataspaceOptions defaults() {
        return new DataspaceOptions(1024, 1024, 64 << 20);
    }
}
