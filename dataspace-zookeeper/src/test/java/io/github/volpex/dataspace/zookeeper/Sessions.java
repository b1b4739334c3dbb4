package io.github.volpex.dataspace.zookeeper;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Raw ZooKeeper clients for tests: one to read or damage znodes directly, and one that expires another client's
 * session for real, as a long pause would, by taking the session over with its id and password and closing it.
 */
final class Sessions {

    private static final int SESSION_TIMEOUT_MILLIS = 10_000;
    private static final long CONNECT_SECONDS = 30;

    private Sessions() {
    }

    /**
     * Opens a client of a new session and waits until it is connected.
     *
     * @throws AssertionError if it did not connect within 30 s (the client is closed then)
     */
    static ZooKeeper connect(String connectString) throws Exception {
        return connected(connectString, 0, null);
    }

    /**
     * Expires the session at the ensemble; its owner sees {@code Expired} when it next hears from a server.
     *
     * @throws AssertionError if the session could not be taken over within 30 s
     */
    static void expire(String connectString, long sessionId, byte[] password) throws Exception {
        connected(connectString, sessionId, password).close();
    }

    /** Returns the stat of a znode read through a new session, or null if it does not exist. */
    static org.apache.zookeeper.data.Stat exists(String connectString, String path) throws Exception {
        ZooKeeper raw = connect(connectString);
        try {
            raw.sync(path, (rc, p, ctx) -> { }, null);
            return raw.exists(path, false);
        } finally {
            raw.close();
        }
    }

    /** Expires the current session of a dataspace client: see {@link #expire(String, long, byte[])}. */
    static void expire(String connectString, ZkDataspace victim) throws Exception {
        expire(connectString, victim.context().session.sessionId(), victim.context().session.sessionPassword());
    }

    /** Opens a client (of the given session, unless {@code password} is null) and waits until it is connected. */
    private static ZooKeeper connected(String connectString, long sessionId, byte[] password) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        Watcher watcher = event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        };
        ZooKeeper zooKeeper = password == null ? new ZooKeeper(connectString, SESSION_TIMEOUT_MILLIS, watcher)
                : new ZooKeeper(connectString, SESSION_TIMEOUT_MILLIS, watcher, sessionId, password);
        if (!connected.await(CONNECT_SECONDS, TimeUnit.SECONDS)) {
            zooKeeper.close();
            throw new AssertionError(password == null ? "could not connect to " + connectString
                    : "could not take session 0x" + Long.toHexString(sessionId) + " over");
        }
        return zooKeeper;
    }
}
