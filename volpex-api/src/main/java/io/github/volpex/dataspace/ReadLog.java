package io.github.volpex.dataspace;

/**
 * One process's read log: the outcomes of its most recent requests, in request order, in a ring buffer that grows on
 * demand up to the capacity. Not thread-safe: guarded by its process's lock. Its fields lie between padding (before,
 * from {@link PaddedBefore}; after, from the subclass {@link #create} returns), since every request of its process
 * writes them.
 */
abstract class ReadLog extends PaddedBefore {

    private static final int INITIAL_SLOTS = 16;

    private final int capacity;
    private final long budgetBytes;
    private Outcome[] ring;
    private int head;
    private int size;
    /** The request number held at {@code ring[head]}; the next expected request number when empty. */
    private long first = 1;
    private long bytes;

    private ReadLog(int capacity, long budgetBytesOrNegative) {
        this.capacity = capacity;
        this.budgetBytes = budgetBytesOrNegative;
        this.ring = new Outcome[Math.min(capacity, INITIAL_SLOTS)];
    }

    /** Creates an empty log of at most {@code capacity} outcomes and, unless negative, {@code budgetBytes} of data. */
    static ReadLog create(int capacity, long budgetBytesOrNegative) {
        return new Padded(capacity, budgetBytesOrNegative);
    }

    /**
     * Appends the outcome of the next request, evicting the oldest as the limits require (never the newest).
     *
     * @return the number of entries evicted
     */
    int append(long requestNumber, Outcome outcome) {
        assert requestNumber == first + size : "read log must stay contiguous";
        int evicted = 0;
        if (size == capacity) {
            evictOldest();
            evicted++;
        } else if (size == ring.length) {
            grow();
        }
        int slot = head + size;
        if (slot >= ring.length) {
            slot -= ring.length;
        }
        ring[slot] = outcome;
        size++;
        bytes += outcome.bytes();
        if (budgetBytes >= 0) {
            while (bytes > budgetBytes && size > 1) {
                evictOldest();
                evicted++;
            }
        }
        return evicted;
    }

    /** Returns the outcome of a request, or null if it is not (or no longer) held. */
    Outcome get(long requestNumber) {
        long offset = requestNumber - first;
        if (offset < 0 || offset >= size) {
            return null;
        }
        int slot = head + (int) offset;
        if (slot >= ring.length) {
            slot -= ring.length;
        }
        return ring[slot];
    }

    /** The oldest request number held; the next request number expected when the log is empty. */
    long oldest() {
        return first;
    }

    private void evictOldest() {
        bytes -= ring[head].bytes();
        ring[head] = null;
        head++;
        if (head == ring.length) {
            head = 0;
        }
        size--;
        first++;
    }

    private void grow() {
        int length = (int) Math.min(capacity, 2L * ring.length);
        Outcome[] bigger = new Outcome[length];
        for (int i = 0; i < size; i++) {
            int slot = head + i;
            bigger[i] = ring[slot >= ring.length ? slot - ring.length : slot];
        }
        ring = bigger;
        head = 0;
    }

    /** The log with sixty-four bytes of padding after its fields. */
    private static final class Padded extends ReadLog {
        long q00;
        long q01;
        long q02;
        long q03;
        long q04;
        long q05;
        long q06;
        long q07;

        Padded(int capacity, long budgetBytesOrNegative) {
            super(capacity, budgetBytesOrNegative);
        }
    }
}
