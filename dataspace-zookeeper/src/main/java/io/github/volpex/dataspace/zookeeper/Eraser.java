package io.github.volpex.dataspace.zookeeper;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.KeeperException.Code;

/**
 * Deletes znodes with everything below them, in time proportional to their number and without ever listing more than
 * one znode's children at once: each znode is deleted optimistically, and only one that still has children
 * ({@code NOTEMPTY}) is listed ({@link Listing}, so a listing that cannot succeed fails typed instead of looping) and
 * emptied first. Deletes of siblings are pipelined, {@value #BATCH} at a time, and listings {@value #LISTINGS} at
 * a time. Interrupted at any point — a crash, a connection that does not come back — it leaves a tree that is merely
 * smaller, and running it again finishes the work: nothing it does depends on what an earlier run did. Znodes that
 * others create meanwhile are deleted too, when they appear under a znode being deleted.
 *
 * <p>Thread-safe; each call runs on its caller's thread.
 */
final class Eraser {

    /** Deletes in flight at once. */
    static final int BATCH = 1_000;
    /** Listings in flight at once (each answer may be up to {@code jute.maxbuffer} large; most are small). */
    static final int LISTINGS = 64;

    private final Session session;
    private final Listing listing;
    private final Listing.ConnectionWait connection;
    private long deleted;

    Eraser(Session session, Listing listing, Listing.ConnectionWait connection) {
        this.session = session;
        this.listing = listing;
        this.connection = connection;
    }

    /** Znodes this eraser deleted so far (for reports and tests). */
    synchronized long deleted() {
        return deleted;
    }

    private synchronized void count(long more) {
        deleted += more;
    }

    /**
     * Deletes each path and everything below it; a path that does not exist is skipped.
     *
     * @param maxNameBytes the longest child name expected anywhere below (it tells a lost connection from an answer
     *                     too large to list; see {@link Listing})
     * @throws ListingTooLargeException      if a znode below has more children than one answer can list
     * @throws ZooKeeperUnavailableException (or whatever the connection wait throws) if the ensemble stays unreachable
     */
    void erase(List<String> paths, int maxNameBytes, String during) {
        for (int from = 0; from < paths.size(); from += BATCH) {
            eraseBatch(paths.subList(from, Math.min(paths.size(), from + BATCH)), maxNameBytes, during);
        }
    }

    private void eraseBatch(List<String> paths, int maxNameBytes, String during) {
        List<String> remaining = paths;
        while (!remaining.isEmpty()) {
            List<CompletableFuture<Session.Result>> deletes = new ArrayList<>(remaining.size());
            for (String path : remaining) {
                deletes.add(session.deleteAsync(path, -1));
            }
            List<String> notEmpty = new ArrayList<>();
            List<String> again = new ArrayList<>();
            int done = 0;
            for (int i = 0; i < remaining.size(); i++) {
                Session.Result result = session.await(deletes.get(i));
                if (result.ok()) {
                    done++;
                } else if (result.code() == Code.NOTEMPTY) {
                    notEmpty.add(remaining.get(i));
                } else if (result.unknown()) {
                    again.add(remaining.get(i));
                } else if (result.code() != Code.NONODE) {
                    throw new IllegalStateException("ZooKeeper refused to delete " + remaining.get(i) + " while "
                            + during + ": " + result.code());
                }
            }
            count(done);
            if (!again.isEmpty()) {
                connection.await(during);
            }
            emptyAll(notEmpty, maxNameBytes, during);
            again.addAll(notEmpty);
            remaining = again;
        }
    }

    /** Deletes everything below each path (the paths themselves stay). */
    private void emptyAll(List<String> parents, int maxNameBytes, String during) {
        for (int from = 0; from < parents.size(); from += LISTINGS) {
            emptySome(parents.subList(from, Math.min(parents.size(), from + LISTINGS)), maxNameBytes, during);
        }
    }

    /** Lists the parents' children, then erases all of them together (pipelined across parents). */
    private void emptySome(List<String> parents, int maxNameBytes, String during) {
        List<List<String>> listed = listing.children(parents, maxNameBytes, during);
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < parents.size(); i++) {
            for (String child : listed.get(i) == null ? List.<String>of() : listed.get(i)) {
                paths.add(parents.get(i) + "/" + child);
            }
        }
        erase(paths, maxNameBytes, during);
    }
}
