package io.github.volpex.dataspace.zookeeper;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.KeeperException.Code;

/**
 * Lists a znode's children in one ZooKeeper call, and never waits forever for a listing that cannot succeed. A client
 * refuses an answer as large as its {@code jute.maxbuffer} by dropping its connection, so such a listing fails as a
 * connection loss would, every time. After a connection loss the znode's number of children tells which it was: if
 * even names of one byte would not fit, or names as long as the directory allows would not and the listing failed
 * twice so, it throws {@link ListingTooLargeException}; otherwise the connection was lost for real, and it waits for
 * the connection and lists again.
 *
 * <p>Thread-safe.
 */
final class Listing {

    /** Waits for the connection on behalf of {@code during}; throws when it does not come back in time. */
    @FunctionalInterface
    interface ConnectionWait {
        void await(String during);
    }

    private final Session session;
    private final long limitBytes;
    private final ConnectionWait connection;

    /**
     * @param limitBytes the client's limit on an answer (its {@code jute.maxbuffer}): an answer of this size or more
     *                   fails
     */
    Listing(Session session, long limitBytes, ConnectionWait connection) {
        this.session = session;
        this.limitBytes = limitBytes;
        this.connection = connection;
    }

    long limitBytes() {
        return limitBytes;
    }

    /**
     * Lists several znodes at once, pipelined: returns the children of each, or null for one that does not exist. A
     * listing that fails as a connection loss would is repeated on its own, as {@link #children(String, int, String)}
     * does.
     *
     * @throws ListingTooLargeException if the children of one of them cannot be listed in one answer
     * @throws IllegalStateException    if ZooKeeper refuses a listing for another reason
     */
    List<List<String>> children(List<String> paths, int maxNameBytes, String during) {
        List<CompletableFuture<Session.Result>> answers = new ArrayList<>(paths.size());
        for (String path : paths) {
            answers.add(session.getChildrenAsync(path));
        }
        List<List<String>> children = new ArrayList<>(paths.size());
        for (int i = 0; i < paths.size(); i++) {
            Session.Result listed = session.await(answers.get(i));
            if (listed.ok()) {
                children.add(listed.children());
            } else if (listed.code() == Code.NONODE) {
                children.add(null);
            } else if (listed.unknown()) {
                children.add(children(paths.get(i), maxNameBytes, during)); // a loss, or an answer too large
            } else {
                throw new IllegalStateException("ZooKeeper refused to list " + paths.get(i) + " while " + during
                        + ": " + listed.code());
            }
        }
        return children;
    }

    /**
     * Returns the children of {@code path}, whose names are at most {@code maxNameBytes} bytes long, or null if the
     * znode does not exist.
     *
     * @throws ListingTooLargeException if the children cannot be listed in one answer
     * @throws IllegalStateException    if ZooKeeper refuses the listing for another reason
     */
    List<String> children(String path, int maxNameBytes, String during) {
        boolean suspect = false;
        while (true) {
            Session.Result listed = session.getChildren(path);
            if (listed.ok()) {
                return listed.children();
            }
            if (listed.code() == Code.NONODE) {
                return null;
            }
            if (!listed.unknown()) {
                throw new IllegalStateException("ZooKeeper refused to list " + path + " while " + during + ": "
                        + listed.code());
            }
            connection.await(during);
            Session.Result stat;
            while ((stat = session.exists(path)).unknown()) {
                connection.await(during);
            }
            if (stat.code() == Code.NONODE) {
                return null;
            }
            if (!stat.ok()) {
                throw new IllegalStateException("ZooKeeper refused to read " + path + " while " + during + ": "
                        + stat.code());
            }
            int children = stat.stat().getNumChildren();
            long needed = Layout.listingBytes(children, maxNameBytes) + 1;
            if (Layout.listingBytes(children, 1) >= limitBytes || needed > limitBytes && suspect) {
                throw new ListingTooLargeException(path, children, limitBytes, Math.max(needed, limitBytes + 1));
            }
            suspect = needed > limitBytes;
        }
    }
}
