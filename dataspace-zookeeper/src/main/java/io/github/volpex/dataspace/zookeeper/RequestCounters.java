package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.DataspaceStatistics;
import io.github.volpex.dataspace.spi.RequestStatistics;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a client counts: the dataspace statistics (each request once, by kind and first category), and for tests of
 * the protocol the commits whose reply was lost and that a later read found applied, and the commits sent on a
 * remembered state. Thread-safe.
 */
final class RequestCounters {

    /** The category a request counts in besides its kind, the first time it is counted. */
    enum Category {
        DUPLICATE_IGNORED, SERVED_FROM_LOG, JOINED_PENDING, EVICTED_REQUEST
    }

    private final RequestStatistics statistics = new RequestStatistics();
    /** Commits whose reply was lost and that a later read found applied. */
    final LongAdder recoveredCommits = new LongAdder();
    /** Commits sent on a remembered state without reading first, and those that applied. */
    final LongAdder triedUnread = new LongAdder();
    final LongAdder committedUnread = new LongAdder();

    /** Counts the request once, in its first category (null: none beyond its kind). */
    void count(Call call, Category category) {
        if (!call.counted) {
            call.counted = true;
            statistics.addRequests(call.operation, 1);
            if (category != null) {
                switch (category) {
                    case DUPLICATE_IGNORED -> statistics.addDuplicatesIgnored(1);
                    case SERVED_FROM_LOG -> statistics.addServedFromLog(1);
                    case JOINED_PENDING -> statistics.addJoinedPending(1);
                    case EVICTED_REQUEST -> statistics.addEvictedRequests(1);
                    default -> throw new AssertionError(category);
                }
            }
        }
    }

    void recordLag(long lag) {
        statistics.recordReplicaLag(lag);
    }

    void addEvictions(long evictions) {
        statistics.addEvictions(evictions);
    }

    DataspaceStatistics statistics() {
        return statistics.snapshot();
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
