package io.github.volpex.dataspace.zookeeper;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.zookeeper.WatchedEvent;

/**
 * Who waits for which read-log entry: the callers registered for each entry's path — blocked threads and submitted
 * requests — which a watch event on that path wakes, and which a change of the connection or closing wakes all; and
 * the submitted requests that wait, so that closing fails them. Made before the session whose events it receives.
 * Thread-safe; waking never blocks.
 */
final class WaitRegistry {

    /** What a watch event on a read-log entry's path, or a change of the connection, wakes. */
    interface Waker {
        /** Called on ZooKeeper's event thread (or the closing thread): must not block. */
        void wake();
    }

    private final ConcurrentHashMap<String, Set<Waker>> waiting = new ConcurrentHashMap<>();
    /** The submitted requests that wait, so that closing fails them. */
    private final Set<Waiting.AsyncWait> asyncWaits = ConcurrentHashMap.newKeySet();

    void register(String path, Waker waker) {
        waiting.computeIfAbsent(path, p -> ConcurrentHashMap.newKeySet()).add(waker);
    }

    /** Deregisters a waker; harmless if it is not registered. */
    void deregister(String path, Waker waker) {
        waiting.computeIfPresent(path, (p, wakers) -> {
            wakers.remove(waker);
            return wakers.isEmpty() ? null : wakers;
        });
    }

    /** Wakes the callers registered for the path of a watch event (an event without a path wakes none). */
    void onNodeEvent(WatchedEvent event) {
        String path = event.getPath();
        Set<Waker> wakers = path == null ? null : waiting.get(path);
        if (wakers != null) {
            wakers.forEach(Waker::wake);
        }
    }

    /** Wakes every waiting caller: the connection changed or the dataspace closed, so they read again. */
    void wakeAll() {
        for (Set<Waker> wakers : waiting.values()) {
            wakers.forEach(Waker::wake);
        }
    }

    /** How many paths have a registered caller. */
    int paths() {
        return waiting.size();
    }

    void addAsync(Waiting.AsyncWait wait) {
        asyncWaits.add(wait);
    }

    void removeAsync(Waiting.AsyncWait wait) {
        asyncWaits.remove(wait);
    }

    /** Runs {@code action} on each submitted request that waits (closing fails them). */
    void forEachAsync(Consumer<Waiting.AsyncWait> action) {
        asyncWaits.forEach(action);
    }
}
