package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.DataspaceStatistics;
import io.github.volpex.dataspace.Operation;
import java.util.EnumMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a client counts: the dataspace statistics (each request once, by kind and first category), and for tests of
 * the protocol the commits whose reply was lost and that a later read found applied, and the commits sent on a
 * remembered state. Thread-safe.
 */
final class RequestCounters {

    private final LongAdder[] requests = new LongAdder[Operation.values().length];
    final LongAdder duplicatesIgnored = new LongAdder();
    final LongAdder servedFromLog = new LongAdder();
    final LongAdder joinedPending = new LongAdder();
    final LongAdder evictions = new LongAdder();
    final LongAdder evictedRequests = new LongAdder();
    private final AtomicLong maxReplicaLag = new AtomicLong();
    /** Commits whose reply was lost and that a later read found applied. */
    final LongAdder recoveredCommits = new LongAdder();
    /** Commits sent on a remembered state without reading first, and those that applied. */
    final LongAdder triedUnread = new LongAdder();
    final LongAdder committedUnread = new LongAdder();

    RequestCounters() {
        for (int i = 0; i < requests.length; i++) {
            requests[i] = new LongAdder();
        }
    }

    /** Counts the request once, in its first category (null: none beyond its kind). */
    void count(Call call, LongAdder category) {
        if (!call.counted) {
            call.counted = true;
            requests[call.operation.ordinal()].increment();
            if (category != null) {
                category.increment();
            }
        }
    }

    void recordLag(long lag) {
        maxReplicaLag.accumulateAndGet(lag, Math::max);
    }

    DataspaceStatistics statistics() {
        EnumMap<Operation, Long> byOperation = new EnumMap<>(Operation.class);
        for (Operation operation : Operation.values()) {
            byOperation.put(operation, requests[operation.ordinal()].sum());
        }
        return new DataspaceStatistics(byOperation, duplicatesIgnored.sum(), servedFromLog.sum(),
                joinedPending.sum(), evictions.sum(), evictedRequests.sum(), maxReplicaLag.get());
    }

    long recoveredCommits() {
        return recoveredCommits.sum();
    }

    long triedUnread() {
        return triedUnread.sum();
    }

    long committedUnread() {
        return committedUnread.sum();
    }
}
