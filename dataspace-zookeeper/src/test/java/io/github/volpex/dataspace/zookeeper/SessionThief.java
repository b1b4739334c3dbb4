package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/** Expires a client's session on the ensemble, as a long pause would: another client takes it over and closes it. */
final class SessionThief {

    private SessionThief() {
    }

    /** Takes the victim's current session over from {@code connectString} (at most 30 s) and closes it. */
    static void expire(String connectString, ZkDataspace victim) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper thief = new ZooKeeper(connectString, 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, victim.session().sessionId(), victim.session().sessionPassword());
        try {
            assertTrue(connected.await(30, TimeUnit.SECONDS), "took the session over");
        } finally {
            thief.close();
        }
    }
}
