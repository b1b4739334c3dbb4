package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.junit.jupiter.api.Test;

/** The wait registry alone: a watch event wakes the callers of its path only, a change of connection wakes all. */
class WaitRegistryTest {

    private static final class Counting implements WaitRegistry.Waker {
        final AtomicInteger wakes = new AtomicInteger();

        @Override
        public void wake() {
            wakes.incrementAndGet();
        }
    }

    private static WatchedEvent created(String path) {
        return new WatchedEvent(EventType.NodeCreated, KeeperState.SyncConnected, path);
    }

    @Test
    void an_event_wakes_the_callers_registered_for_its_path_and_no_other() {
        WaitRegistry registry = new WaitRegistry();
        Counting first = new Counting();
        Counting second = new Counting();
        Counting elsewhere = new Counting();
        registry.register("/job/p/0/3", first);
        registry.register("/job/p/0/3", second);
        registry.register("/job/p/1/3", elsewhere);
        registry.onNodeEvent(created("/job/p/0/3"));
        assertEquals(1, first.wakes.get());
        assertEquals(1, second.wakes.get());
        assertEquals(0, elsewhere.wakes.get());
        registry.onNodeEvent(new WatchedEvent(EventType.None, KeeperState.Disconnected, null));
        assertEquals(0, elsewhere.wakes.get(), "an event without a path wakes no one");
        registry.wakeAll();
        assertEquals(2, first.wakes.get());
        assertEquals(1, elsewhere.wakes.get());
    }

    @Test
    void deregistering_the_last_caller_of_a_path_forgets_the_path() {
        WaitRegistry registry = new WaitRegistry();
        Counting first = new Counting();
        Counting second = new Counting();
        registry.register("/p", first);
        registry.register("/p", second);
        registry.deregister("/p", first);
        assertEquals(1, registry.paths());
        registry.onNodeEvent(created("/p"));
        assertEquals(0, first.wakes.get());
        assertEquals(1, second.wakes.get());
        registry.deregister("/p", second);
        registry.deregister("/p", second);
        registry.deregister("/q", second);
        assertEquals(0, registry.paths(), "harmless when not registered");
    }
}
