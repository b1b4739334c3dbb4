package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.DataspaceOptions;

/**
 * What one ZooKeeper transaction may hold, and the options whose worst case fits it. A multi is one request, which
 * ZooKeeper refuses above {@code jute.maxbuffer}; {@value #TRANSACTION_MARGIN} bytes are kept for its own headers, and
 * each operation is counted as its path, its data and {@value #OP_BYTES} bytes. The worst transaction is a put that
 * serves a waiting read of every process: it writes the put's value, each waiter's record and log entry, and
 * evicts what the read logs no longer keep. Pure arithmetic; the options are checked once, when a client connects.
 */
final class TransactionBudget {

    /** The largest read-log capacity: each retained outcome is a znode under its process's record. */
    static final int MAX_READ_LOG_CAPACITY = 65_536;
    /** The most retained outcomes per process whose value is a blob (their numbers live in the process record). */
    static final int MAX_BLOB_ENTRIES = 4_096;
    /** Bytes of every transaction kept free below jute.maxbuffer for ZooKeeper's own headers. */
    static final int TRANSACTION_MARGIN = 16 << 10;
    /** Bytes one operation of a multi costs beyond its path and data. */
    static final int OP_BYTES = 32;

    private TransactionBudget() {
    }

    /** The bytes a transaction may hold under {@code juteMaxBuffer}. */
    static int limit(int juteMaxBuffer) {
        return juteMaxBuffer - TRANSACTION_MARGIN;
    }

    /** The bytes an operation on {@code path} with {@code dataBytes} of data adds to a transaction. */
    static int opBytes(String path, int dataBytes) {
        return path.length() + dataBytes + OP_BYTES;
    }

    /** The worst-case bytes each waiter served by a put adds: its process record and log entry, written. */
    static long perWaiterBytes(String namespace) {
        return 2L * (namespace.length() + 32) + Records.PROCESS_BYTES + Records.ENTRY_BYTES + TagNames.MAX_ESCAPED
                + Records.VALUE_BLOB_BYTES + 2L * OP_BYTES + 13;
    }

    /**
     * The worst-case bytes of a put beyond its waiters: the inline value, the blob entries of a process record, room
     * for the tag record, and the tag guard's operation (its path is the namespace, "/g/" and 16 + 1 + 2 characters).
     */
    static long fixedBytes(int inlineLimitBytes, String namespace) {
        return inlineLimitBytes + 8L * MAX_BLOB_ENTRIES + 4096 + namespace.length() + 22 + OP_BYTES;
    }

    /** The worst-case bytes of one transaction of a dataspace of {@code processCount} processes. */
    static long worstCaseBytes(int processCount, int inlineLimitBytes, String namespace) {
        return processCount * perWaiterBytes(namespace) + fixedBytes(inlineLimitBytes, namespace);
    }

    /** The most processes whose worst transaction fits {@code juteMaxBuffer}. */
    static long mostProcesses(int juteMaxBuffer, int inlineLimitBytes, String namespace) {
        return (limit(juteMaxBuffer) - fixedBytes(inlineLimitBytes, namespace)) / perWaiterBytes(namespace);
    }

    /** Rejects options whose worst-case transaction would not fit one ZooKeeper request. */
    static void check(int processCount, DataspaceOptions options, int juteMaxBuffer, int inlineLimitBytes,
            String namespace) {
        if (options.readLogCapacity() > MAX_READ_LOG_CAPACITY) {
            throw new IllegalArgumentException("options.readLogCapacity must be <= " + MAX_READ_LOG_CAPACITY
                    + " for a ZooKeeper dataspace (each retained outcome is a znode): " + options.readLogCapacity());
        }
        int limit = limit(juteMaxBuffer);
        if (worstCaseBytes(processCount, inlineLimitBytes, namespace) > limit) {
            throw new IllegalArgumentException("processCount must be <= "
                    + mostProcesses(juteMaxBuffer, inlineLimitBytes, namespace) + " for a ZooKeeper dataspace at "
                    + namespace + " with jute.maxbuffer " + juteMaxBuffer + " (a put that serves every "
                    + "process's waiting read is one transaction): " + processCount);
        }
        if (2L * options.maxTagLength() + namespace.length() + 1024 > limit) {
            throw new IllegalArgumentException("options.maxTagLength must be <= "
                    + (limit - namespace.length() - 1024) / 2 + " for a ZooKeeper dataspace with jute.maxbuffer "
                    + juteMaxBuffer + ": " + options.maxTagLength());
        }
    }
}
