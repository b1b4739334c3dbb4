package io.github.volpex.dataspace;

/**
 * A trailing replica asked for the outcome of a request whose read-log entry has already been evicted: the replica
 * lags its process's leading replica by more than the read log retains, and cannot be served without re-executing the
 * request, which would break the single-run semantics. The replica cannot continue; restart it from a newer checkpoint
 * or let it die, and consider a larger {@link DataspaceOptions#readLogCapacity()}.
 *
 * @since 0.1
 */
public final class ReadLogEvictedException extends DataspaceException {

    private static final long serialVersionUID = 1L;

    /** The oldest request number the read log held. */
    private final long oldestRetained;
    /** The process's high-water mark. */
    private final long highWaterMark;

    /**
     * Creates the exception. The dataspace raises it; the constructor is public so that an adapter, or a client on the
     * far side of a transport, can raise the same failure with the same facts.
     *
     * @param processId      the process
     * @param requestNumber  the request whose outcome was needed
     * @param oldestRetained the oldest request number the process's read log still holds
     * @param highWaterMark  the highest request number the process has issued
     * @throws IllegalArgumentException if {@code processId < 0} or {@code requestNumber < 1}
     */
    public ReadLogEvictedException(int processId, long requestNumber, long oldestRetained, long highWaterMark) {
        super("read log of process " + processId + " no longer holds request " + requestNumber
                + ": it retains requests " + oldestRetained + " to " + highWaterMark
                + " (the replica lags by " + (highWaterMark - requestNumber) + " requests)",
                processId, requestNumber);
        this.oldestRetained = oldestRetained;
        this.highWaterMark = highWaterMark;
    }

    /**
     * Returns the oldest request number the process's read log still held when the request arrived.
     *
     * @return the oldest retained request number
     */
    public long oldestRetained() {
        return oldestRetained;
    }

    /**
     * Returns the highest request number the process had issued when the request arrived.
     *
     * @return the process's high-water mark
     */
    public long highWaterMark() {
        return highWaterMark;
    }
}
