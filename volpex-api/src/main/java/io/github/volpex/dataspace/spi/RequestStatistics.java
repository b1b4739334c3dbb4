package io.github.volpex.dataspace.spi;

import io.github.volpex.dataspace.DataspaceStatistics;
import io.github.volpex.dataspace.Operation;
import java.util.EnumMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters behind {@link io.github.volpex.dataspace.Dataspace#statistics()}: an implementation adds to them as it
 * handles requests (or sums its own per-process counters into a fresh instance) and takes a
 * {@linkplain #snapshot() snapshot}. What each counter means is documented on {@link DataspaceStatistics}.
 *
 * <p>Thread-safe: every method may be called from any thread, without blocking; a snapshot taken while other threads
 * add may read the counters at slightly different moments.
 *
 * @since 0.1
 */
public final class RequestStatistics {

    private final LongAdder[] requests = new LongAdder[Operation.values().length];
    private final LongAdder duplicatesIgnored = new LongAdder();
    private final LongAdder servedFromLog = new LongAdder();
    private final LongAdder joinedPending = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private final LongAdder evictedRequests = new LongAdder();
    private final AtomicLong maxReplicaLag = new AtomicLong();

    /** Creates counters that are all zero. */
    public RequestStatistics() {
        for (int i = 0; i < requests.length; i++) {
            requests[i] = new LongAdder();
        }
    }

    /**
     * Adds requests of one kind handled.
     *
     * @param operation the kind
     * @param count     how many, {@code ≥ 0}
     * @throws NullPointerException     if {@code operation} is null
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public void addRequests(Operation operation, long count) {
        requests[operation.ordinal()].add(nonNegative("count", count));
    }

    /**
     * Adds puts ignored as duplicates.
     *
     * @param count how many, {@code ≥ 0}
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public void addDuplicatesIgnored(long count) {
        duplicatesIgnored.add(nonNegative("count", count));
    }

    /**
     * Adds requests answered from the read log.
     *
     * @param count how many, {@code ≥ 0}
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public void addServedFromLog(long count) {
        servedFromLog.add(nonNegative("count", count));
    }

    /**
     * Adds requests that joined a pending request.
     *
     * @param count how many, {@code ≥ 0}
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public void addJoinedPending(long count) {
        joinedPending.add(nonNegative("count", count));
    }

    /**
     * Adds read-log entries evicted.
     *
     * @param count how many, {@code ≥ 0}
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public void addEvictions(long count) {
        evictions.add(nonNegative("count", count));
    }

    /**
     * Adds requests refused because their read-log entry was evicted.
     *
     * @param count how many, {@code ≥ 0}
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public void addEvictedRequests(long count) {
        evictedRequests.add(nonNegative("count", count));
    }

    /**
     * Records the lag, in requests, of a replica repeating a request behind its process's high-water mark; the
     * statistics keep the largest.
     *
     * @param lag the lag in requests, {@code ≥ 0}
     * @throws IllegalArgumentException if {@code lag} is negative
     */
    public void recordReplicaLag(long lag) {
        maxReplicaLag.accumulateAndGet(nonNegative("lag", lag), Math::max);
    }

    /**
     * Returns the counters as they are now.
     *
     * @return a snapshot
     */
    public DataspaceStatistics snapshot() {
        EnumMap<Operation, Long> byOperation = new EnumMap<>(Operation.class);
        for (Operation operation : Operation.values()) {
            byOperation.put(operation, requests[operation.ordinal()].sum());
        }
        return new DataspaceStatistics(byOperation, duplicatesIgnored.sum(), servedFromLog.sum(),
                joinedPending.sum(), evictions.sum(), evictedRequests.sum(), maxReplicaLag.get());
    }

    private static long nonNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be >= 0: " + value);
        }
        return value;
    }
}
