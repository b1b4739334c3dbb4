package io.github.volpex.dataspace.zookeeper;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/** Expires ZooKeeper sessions for real: another client takes a session over with its id and password, and closes it. */
final class Sessions {

    private Sessions() {
    }

    /**
     * Expires the session at the ensemble; its owner sees {@code Expired} when it next hears from a server.
     *
     * @throws IllegalStateException if the session could not be taken over within 30 s
     */
    static void expire(String connectString, long sessionId, byte[] password) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper thief = new ZooKeeper(connectString, 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, sessionId, password);
        try {
            if (!connected.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("could not take session 0x" + Long.toHexString(sessionId) + " over");
            }
        } finally {
            thief.close();
        }
    }
}
