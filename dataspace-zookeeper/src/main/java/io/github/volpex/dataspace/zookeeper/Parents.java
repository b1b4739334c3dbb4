package io.github.volpex.dataspace.zookeeper;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;

/**
 * The parent znodes this package creates above the paths it is given — a namespace's ({@code /volpex} above
 * {@code /volpex/job-42}), an epoch path and its own ancestors — and removes again. Each one it creates holds
 * {@link #MARKER} as its data, so that clean-up ({@code destroy}, deleting a job's epochs) deletes the parents that
 * this package made and that nothing uses any more, and never a parent someone else made (an empty one included).
 * A parent is deleted only while it has no child, at the version read, so a client that is creating something under
 * it at that moment either keeps it (the delete fails) or finds it gone and creates it again (every creator here
 * retries on {@code NONODE}).
 */
final class Parents {

    /** The data of a parent this package created: "VPZP" and format 1. */
    static final byte[] MARKER = {0x56, 0x50, 0x5A, 0x50, 1};

    private Parents() {
    }

    /** The ancestors of {@code path} below the root, the highest first: {@code /a/b/c} gives {@code /a, /a/b}. */
    static List<String> ancestors(String path) {
        List<String> ancestors = new ArrayList<>();
        for (int slash = path.indexOf('/', 1); slash > 0; slash = path.indexOf('/', slash + 1)) {
            ancestors.add(path.substring(0, slash));
        }
        return ancestors;
    }

    /**
     * Creates the missing ancestors of {@code path} and, if {@code withPath}, {@code path} itself, each marked as
     * this package's. Waits through unknown outcomes with {@code connection}.
     *
     * @throws IllegalStateException if ZooKeeper refuses a create otherwise
     */
    static void create(Session session, String path, boolean withPath, Listing.ConnectionWait connection,
                       String during) {
        List<String> paths = ancestors(path);
        if (withPath) {
            paths.add(path);
        }
        for (String parent : paths) {
            while (true) {
                Session.Result created = session.create(parent, MARKER, CreateMode.PERSISTENT);
                if (created.ok() || created.code() == Code.NODEEXISTS) {
                    break;
                }
                if (!created.unknown()) {
                    throw new IllegalStateException("ZooKeeper refused to create " + parent + " while " + during
                            + ": " + created.code());
                }
                connection.await(during);
            }
        }
    }

    /**
     * Deletes {@code from} (when {@code withFrom}) and then its ancestors, deepest first, as long as each is a parent
     * this package created and has no child; stops at the first that is not.
     *
     * @return how many were deleted
     */
    static int deleteEmpty(Session session, String from, boolean withFrom, Listing.ConnectionWait connection,
                           String during) {
        List<String> paths = ancestors(from);
        if (withFrom) {
            paths.add(from);
        }
        int deleted = 0;
        for (int i = paths.size() - 1; i >= 0; i--) {
            String parent = paths.get(i);
            while (true) {
                Session.Result read = session.getData(parent);
                if (read.unknown()) {
                    connection.await(during);
                    continue;
                }
                if (read.code() == Code.NONODE) {
                    break; // gone already: look further up
                }
                if (!read.ok() || !Arrays.equals(MARKER, read.data()) || read.stat().getNumChildren() > 0) {
                    return deleted; // not ours, or in use
                }
                Session.Result removed = session.delete(parent, read.stat().getVersion());
                if (removed.unknown()) {
                    connection.await(during);
                    continue; // read again: it is gone, or still there
                }
                if (removed.ok()) {
                    deleted++;
                    break;
                }
                if (removed.code() == Code.NONODE) {
                    break;
                }
                return deleted; // a child appeared, or the data changed: in use
            }
        }
        return deleted;
    }
}
