package io.github.volpex.dataspace;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The sequential model of the dataspace at the leading front: a table of current data by tag and, per tag, the FIFO
 * queue of reads and gets left pending. Each method is one request executed atomically; data is compared by content,
 * so values are strings here.
 *
 * <p>Besides anonymous requests (each the first request of a fresh process), the model follows the first request of
 * a few numbered process <em>slots</em>, which can be repeated and cancelled: its outcome is remembered per slot.
 */
final class DataspaceModel {

    /** What a read-type request that had to wait returns in the model: it stays pending. */
    static final String PENDING = "<pending>";
    /** What a cancelled request returns, and what cancelling a waiting one returns. */
    static final String CANCELLED = "<cancelled>";
    /** What repeating a slot's request with another tag returns. */
    static final String DIVERGED = "<diverged>";
    /** What cancelling a slot's request that was never issued returns. */
    static final String NOT_ISSUED = "<not issued>";

    /** A pending read or get; {@code slot} is -1 for an anonymous request. */
    private record Waiter(Operation operation, int slot) {
    }

    /** A slot's request: its tag and, once complete, its outcome (data or {@link #CANCELLED}). */
    private static final class SlotRequest {
        final String tag;
        String outcome;

        SlotRequest(String tag) {
            this.tag = tag;
        }
    }

    private final Map<String, String> table = new HashMap<>();
    private final Map<String, ArrayDeque<Waiter>> waiters = new HashMap<>();
    private final Map<Integer, SlotRequest> slots = new HashMap<>();

    void put(String tag, String value) {
        ArrayDeque<Waiter> queue = waiters.get(tag);
        if (queue != null) {
            Waiter waiter;
            while ((waiter = queue.pollFirst()) != null) {
                if (waiter.slot >= 0) {
                    slots.get(waiter.slot).outcome = value;
                }
                if (waiter.operation == Operation.GET) {
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
        enqueue(tag, new Waiter(Operation.READ, -1));
        return PENDING;
    }

    /** A get that may not wait: the value (removed), or {@link #PENDING} after queueing the get. */
    String getOrPend(String tag) {
        String value = table.remove(tag);
        if (value != null) {
            return value;
        }
        enqueue(tag, new Waiter(Operation.GET, -1));
        return PENDING;
    }

    /**
     * The first request of a slot's process, a get that may not wait: issued the first time, repeated after: the
     * value, {@link #PENDING}, {@link #CANCELLED}, or {@link #DIVERGED} when repeated with another tag.
     */
    String slotGetOrPend(int slot, String tag) {
        return slotReceiveOrPend(slot, Operation.GET, tag);
    }

    /**
     * The first request of a slot's process, a read or get that may not wait: issued the first time, repeated after
     * (by a trailing replica, a retry): the value, {@link #PENDING}, {@link #CANCELLED}, or {@link #DIVERGED} when
     * repeated with another tag.
     */
    String slotReceiveOrPend(int slot, Operation operation, String tag) {
        SlotRequest request = slots.get(slot);
        if (request == null) {
            request = new SlotRequest(tag);
            slots.put(slot, request);
            request.outcome = operation == Operation.GET ? table.remove(tag) : table.get(tag);
            if (request.outcome == null) {
                enqueue(tag, new Waiter(operation, slot));
                return PENDING;
            }
            return request.outcome;
        }
        if (!request.tag.equals(tag)) {
            return DIVERGED;
        }
        return request.outcome == null ? PENDING : request.outcome;
    }

    /** A slot's request as a later replica sees it: its outcome, {@link #PENDING}, or {@link #NOT_ISSUED}. */
    String slotOutcome(int slot) {
        SlotRequest request = slots.get(slot);
        if (request == null) {
            return NOT_ISSUED;
        }
        return request.outcome == null ? PENDING : request.outcome;
    }

    /** Cancels a slot's request: {@link #CANCELLED}, its value if it completed, or {@link #NOT_ISSUED}. */
    String slotCancel(int slot) {
        SlotRequest request = slots.get(slot);
        if (request == null) {
            return NOT_ISSUED;
        }
        if (request.outcome == null) {
            ArrayDeque<Waiter> queue = waiters.get(request.tag);
            for (Iterator<Waiter> it = queue.iterator(); it.hasNext(); ) {
                if (it.next().slot == slot) {
                    it.remove();
                }
            }
            request.outcome = CANCELLED;
        }
        return request.outcome;
    }

    private void enqueue(String tag, Waiter waiter) {
        waiters.computeIfAbsent(tag, t -> new ArrayDeque<>()).addLast(waiter);
    }
}
