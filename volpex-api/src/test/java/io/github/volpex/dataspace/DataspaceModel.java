package io.github.volpex.dataspace;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The sequential model of the dataspace at the leading front: a table of current data by tag and, per tag, the FIFO
 * queue of reads and gets left pending. Each method is one request executed atomically; data is compared by content,
 * so values are strings here.
 */
final class DataspaceModel {

    /** What a read-type request that had to wait returns in the model: it stays pending. */
    static final String PENDING = "<pending>";

    private final Map<String, String> table = new HashMap<>();
    private final Map<String, ArrayDeque<Operation>> waiters = new HashMap<>();

    void put(String tag, String value) {
        ArrayDeque<Operation> queue = waiters.get(tag);
        if (queue != null) {
            Operation waiter;
            while ((waiter = queue.pollFirst()) != null) {
                if (waiter == Operation.GET) {
                    return;
                }
            }
        }
        table.put(tag, value);
    }

    boolean putIfAbsent(String tag, String value) {
        if (table.containsKey(tag)) {
            return false;
        }
        put(tag, value);
        return true;
    }

    /** A try-read: the value, or null if absent. */
    String tryRead(String tag) {
        return table.get(tag);
    }

    /** A try-get: the value, or null if absent. */
    String tryGet(String tag) {
        return table.remove(tag);
    }

    /** A read that may not wait: the value, or {@link #PENDING} after queueing the read. */
    String readOrPend(String tag) {
        String value = table.get(tag);
        if (value != null) {
            return value;
        }
        waiters.computeIfAbsent(tag, t -> new ArrayDeque<>()).addLast(Operation.READ);
        return PENDING;
    }

    /** A get that may not wait: the value (removed), or {@link #PENDING} after queueing the get. */
    String getOrPend(String tag) {
        String value = table.remove(tag);
        if (value != null) {
            return value;
        }
        waiters.computeIfAbsent(tag, t -> new ArrayDeque<>()).addLast(Operation.GET);
        return PENDING;
    }
}
