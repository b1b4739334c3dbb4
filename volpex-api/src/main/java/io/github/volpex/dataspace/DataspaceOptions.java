package io.github.volpex.dataspace;

import io.github.volpex.dataspace.spi.RequestChecks;
import io.github.volpex.dataspace.spi.WaitLimit;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The limits a dataspace enforces: how far back each process's read log reaches, and how long tags and how large data
 * items may be.
 *
 * <p>The read log keeps, for every logical process, the outcome of its most recent requests so that a trailing replica
 * (or one restarted from a checkpoint) receives exactly what the leading replica received. It holds at most
 * {@link #readLogCapacity()} requests per process and, when a {@linkplain #readLogBudgetBytes() byte budget} is set,
 * evicts the oldest outcomes once the data they hold exceeds it (the newest outcome is always kept).
 *
 * <p>Instances are immutable and thread-safe. Build one with {@link #builder()} or take the {@link #defaults()}.
 *
 * @since 0.1
 */
public final class DataspaceOptions {

    /** The default read-log capacity: 1,024 requests per process. */
    public static final int DEFAULT_READ_LOG_CAPACITY = 1024;
    /** The default longest tag: 1,024 chars. */
    public static final int DEFAULT_MAX_TAG_LENGTH = 1024;
    /** The default largest data item: 64 MiB. */
    public static final int DEFAULT_MAX_DATA_BYTES = 64 << 20;
    /** Timeouts of this many seconds or more wait without a bound ({@link WaitLimit#of(Duration)}). */
    public static final long UNBOUNDED_TIMEOUT_SECONDS = Long.MAX_VALUE / 1_000_000_000L - 1;

    private static final DataspaceOptions DEFAULTS = builder().build();

    private final int readLogCapacity;
    private final long readLogBudgetBytes;
    private final int maxTagLength;
    private final int maxDataBytes;

    private DataspaceOptions(Builder builder) {
        this.readLogCapacity = builder.readLogCapacity;
        this.readLogBudgetBytes = builder.readLogBudgetBytes;
        this.maxTagLength = builder.maxTagLength;
        this.maxDataBytes = builder.maxDataBytes;
    }

    /**
     * Returns the defaults: a read log of {@value #DEFAULT_READ_LOG_CAPACITY} requests per process with no byte budget,
     * tags up to {@value #DEFAULT_MAX_TAG_LENGTH} chars and data up to 64 MiB.
     *
     * @return the default options
     */
    public static DataspaceOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Returns a builder initialised with the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the number of requests whose outcomes each process's read log retains; a replica may trail the leading
     * replica of its process by up to this many requests and still be served.
     *
     * @return the capacity in requests per process, {@code ≥ 1}
     */
    public int readLogCapacity() {
        return readLogCapacity;
    }

    /**
     * Returns the budget, in bytes of data, of each process's read log, if one is set.
     *
     * @return the budget in bytes per process ({@code ≥ 0}), or empty when only the capacity in requests limits the log
     */
    public OptionalLong readLogBudgetBytes() {
        return readLogBudgetBytes < 0 ? OptionalLong.empty() : OptionalLong.of(readLogBudgetBytes);
    }

    /**
     * Returns the longest tag accepted.
     *
     * @return the maximum tag length in chars, {@code ≥ 1}
     */
    public int maxTagLength() {
        return maxTagLength;
    }

    /**
     * Returns the largest data item accepted.
     *
     * @return the maximum data size in bytes, {@code ≥ 0}
     */
    public int maxDataBytes() {
        return maxDataBytes;
    }

    /**
     * Checks a tag against these limits, as every dataspace does before it issues a request.
     *
     * @param tag the tag
     * @return the tag
     * @throws NullPointerException     if {@code tag} is null
     * @throws IllegalArgumentException if the tag is empty or longer than {@link #maxTagLength()}
     */
    public String checkTag(String tag) {
        Objects.requireNonNull(tag, "tag");
        if (tag.isEmpty()) {
            throw new IllegalArgumentException("tag must not be empty");
        }
        if (tag.length() > maxTagLength) {
            throw new IllegalArgumentException("tag length must be <= " + maxTagLength + " chars: " + tag.length());
        }
        return tag;
    }

    /**
     * Checks a put's data against these limits, as every dataspace does before it issues a request.
     *
     * @param data the data
     * @return the data (not copied)
     * @throws NullPointerException     if {@code data} is null
     * @throws IllegalArgumentException if the data is larger than {@link #maxDataBytes()}
     */
    public byte[] checkData(byte[] data) {
        Objects.requireNonNull(data, "data");
        if (data.length > maxDataBytes) {
            throw new IllegalArgumentException("data length must be <= " + maxDataBytes + " bytes: " + data.length);
        }
        return data;
    }

    /**
     * Checks a process id against a dataspace's process count, as every dataspace does before it issues a request.
     *
     * @param processId    the process id
     * @param processCount the dataspace's number of processes
     * @return the process id
     * @throws IllegalArgumentException if {@code processId} is outside {@code [0, processCount)}
     * @deprecated a check for implementers of a dataspace, not a property of the options: use
     *             {@link RequestChecks#checkProcessId(int, int)}, which this calls
     */
    @Deprecated(since = "0.1", forRemoval = true)
    public static int checkProcessId(int processId, int processCount) {
        return RequestChecks.checkProcessId(processId, processCount);
    }

    /**
     * Checks the timeout of a blocking call, as every dataspace does, and says whether it bounds the wait: a timeout
     * of {@value #UNBOUNDED_TIMEOUT_SECONDS} seconds or more (the longest wait a {@code long} of nanoseconds counts,
     * about 292 years) waits without a bound.
     *
     * @param timeout the timeout
     * @return the timeout, or {@code null} if it is so long that the wait has no bound
     * @throws NullPointerException     if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @deprecated a check for implementers of a dataspace, and "no bound" should not be null: use
     *             {@link WaitLimit#of(Duration)}, which this calls
     */
    @Deprecated(since = "0.1", forRemoval = true)
    public static Duration checkTimeout(Duration timeout) {
        WaitLimit wait = WaitLimit.of(timeout);
        return wait.isBounded() ? wait.duration() : null;
    }

    /** Budget as stored: negative when unset. */
    long budgetOrNegative() {
        return readLogBudgetBytes;
    }

    /**
     * Returns a builder initialised with these options.
     *
     * @return a new builder holding these settings
     */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.readLogCapacity = readLogCapacity;
        builder.readLogBudgetBytes = readLogBudgetBytes;
        builder.maxTagLength = maxTagLength;
        builder.maxDataBytes = maxDataBytes;
        return builder;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DataspaceOptions
                && ((DataspaceOptions) other).readLogCapacity == readLogCapacity
                && ((DataspaceOptions) other).readLogBudgetBytes == readLogBudgetBytes
                && ((DataspaceOptions) other).maxTagLength == maxTagLength
                && ((DataspaceOptions) other).maxDataBytes == maxDataBytes;
    }

    @Override
    public int hashCode() {
        return Objects.hash(readLogCapacity, readLogBudgetBytes, maxTagLength, maxDataBytes);
    }

    @Override
    public String toString() {
        return "DataspaceOptions[readLogCapacity=" + readLogCapacity
                + ", readLogBudgetBytes=" + (readLogBudgetBytes < 0 ? "none" : Long.toString(readLogBudgetBytes))
                + ", maxTagLength=" + maxTagLength
                + ", maxDataBytes=" + maxDataBytes + "]";
    }

    /**
     * Collects the settings of a {@link DataspaceOptions}; every setter checks its argument at once.
     *
     * <p>Not thread-safe; use one builder per thread.
     *
     * @since 0.1
     */
    public static final class Builder {

        private int readLogCapacity = DEFAULT_READ_LOG_CAPACITY;
        private long readLogBudgetBytes = -1;
        private int maxTagLength = DEFAULT_MAX_TAG_LENGTH;
        private int maxDataBytes = DEFAULT_MAX_DATA_BYTES;

        private Builder() {
        }

        /**
         * Sets the number of requests whose outcomes each process's read log retains.
         *
         * @param requests the capacity in requests per process, {@code ≥ 1}
         * @return this builder
         * @throws IllegalArgumentException if {@code requests < 1}
         */
        public Builder readLogCapacity(int requests) {
            if (requests < 1) {
                throw new IllegalArgumentException("readLogCapacity must be >= 1: " + requests);
            }
            this.readLogCapacity = requests;
            return this;
        }

        /**
         * Sets a budget on the data bytes each process's read log retains; the oldest outcomes are evicted beyond it,
         * but the newest outcome is always kept, so a single item larger than the budget is still served.
         *
         * @param bytes the budget in bytes per process, {@code ≥ 0}
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes < 0}
         */
        public Builder readLogBudgetBytes(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("readLogBudgetBytes must be >= 0: " + bytes);
            }
            this.readLogBudgetBytes = bytes;
            return this;
        }

        /**
         * Removes the byte budget, so that only the capacity in requests limits the read log (the default).
         *
         * @return this builder
         */
        public Builder noReadLogBudget() {
            this.readLogBudgetBytes = -1;
            return this;
        }

        /**
         * Sets the longest tag accepted.
         *
         * @param chars the maximum tag length in chars, {@code ≥ 1}
         * @return this builder
         * @throws IllegalArgumentException if {@code chars < 1}
         */
        public Builder maxTagLength(int chars) {
            if (chars < 1) {
                throw new IllegalArgumentException("maxTagLength must be >= 1: " + chars);
            }
            this.maxTagLength = chars;
            return this;
        }

        /**
         * Sets the largest data item accepted.
         *
         * @param bytes the maximum data size in bytes, {@code ≥ 0}
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes < 0}
         */
        public Builder maxDataBytes(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("maxDataBytes must be >= 0: " + bytes);
            }
            this.maxDataBytes = bytes;
            return this;
        }

        /**
         * Returns the options collected so far.
         *
         * @return immutable options
         */
        public DataspaceOptions build() {
            return new DataspaceOptions(this);
        }
    }
}
