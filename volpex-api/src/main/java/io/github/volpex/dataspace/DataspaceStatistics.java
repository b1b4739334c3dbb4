package io.github.volpex.dataspace;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * A snapshot of a dataspace's counters.
 *
 * @param requestsByOperation every request handled, by kind, including duplicates and failed requests; every kind is
 *                            a key
 * @param duplicatesIgnored   puts (and single-assignment puts) ignored because another replica had already issued them
 * @param servedFromLog       reads, gets and try-ops answered from the read log instead of the dataspace table
 * @param joinedPending       requests that found the same request still pending and shared its result
 * @param evictions           read-log entries evicted to respect the capacity or the byte budget
 * @param evictedRequests     requests refused with {@link ReadLogEvictedException}
 * @param maxReplicaLag       the largest lag seen, in requests, between a replica repeating a request and its
 *                            process's high-water mark
 * @since 0.1
 */
public record DataspaceStatistics(Map<Operation, Long> requestsByOperation, long duplicatesIgnored,
        long servedFromLog, long joinedPending, long evictions, long evictedRequests, long maxReplicaLag) {

    /**
     * Validates and copies the counters.
     *
     * @param requestsByOperation every request handled, by kind; every kind must be a key
     * @param duplicatesIgnored   puts ignored as duplicates, {@code ≥ 0}
     * @param servedFromLog       results served from the read log, {@code ≥ 0}
     * @param joinedPending       requests that shared a pending request's result, {@code ≥ 0}
     * @param evictions           read-log entries evicted, {@code ≥ 0}
     * @param evictedRequests     requests refused because their entry was evicted, {@code ≥ 0}
     * @param maxReplicaLag       the largest replica lag in requests, {@code ≥ 0}
     * @throws NullPointerException     if the map is null or holds null
     * @throws IllegalArgumentException if a kind is missing or a counter is negative
     */
    public DataspaceStatistics {
        Objects.requireNonNull(requestsByOperation, "requestsByOperation");
        EnumMap<Operation, Long> copy = new EnumMap<>(Operation.class);
        for (Operation operation : Operation.values()) {
            Long count = requestsByOperation.get(operation);
            if (count == null) {
                throw new IllegalArgumentException("requestsByOperation must count every operation; missing: "
                        + operation);
            }
            requireNonNegative("requestsByOperation[" + operation + "]", count);
            copy.put(operation, count);
        }
        requestsByOperation = Map.copyOf(copy);
        requireNonNegative("duplicatesIgnored", duplicatesIgnored);
        requireNonNegative("servedFromLog", servedFromLog);
        requireNonNegative("joinedPending", joinedPending);
        requireNonNegative("evictions", evictions);
        requireNonNegative("evictedRequests", evictedRequests);
        requireNonNegative("maxReplicaLag", maxReplicaLag);
    }

    private static void requireNonNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be >= 0: " + value);
        }
    }

    /**
     * Returns the number of requests of one kind handled.
     *
     * @param operation the kind
     * @return the count
     * @throws NullPointerException if {@code operation} is null
     */
    public long requests(Operation operation) {
        return requestsByOperation.get(Objects.requireNonNull(operation, "operation"));
    }

    /**
     * Returns the number of requests of every kind handled.
     *
     * @return the total count
     */
    public long totalRequests() {
        long total = 0;
        for (long count : requestsByOperation.values()) {
            total += count;
        }
        return total;
    }
}
