package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.zookeeper.Records.Header;
import io.github.volpex.dataspace.zookeeper.Records.ProcessRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.KeeperException.Code;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes a namespace — a client's {@code destroy()}, the completion of a destroy cut short, and
 * {@link ZooKeeperDataspace.Builder#destroy()}, which needs none of the namespace's settings — and then the parents
 * above it that the package created and that are left empty ({@link Parents}). A namespace of the current format is
 * marked "destroying" first, so every client's commit fails from the deletion of its guards on and the next client
 * to connect finishes a destroy cut short; one of another format, which no client of this version uses, is simply
 * erased.
 */
final class Destroyer {

    private static final Logger LOG = LoggerFactory.getLogger(Destroyer.class);

    private final Session session;
    private final Layout layout;
    private final Listing listing;
    private final Listing.ConnectionWait connection;
    /** The external blob store, or null when blobs live in ZooKeeper (or the namespace says so). */
    private final BlobStore externalStore;

    Destroyer(Session session, Layout layout, Listing listing, Listing.ConnectionWait connection,
              BlobStore externalStore) {
        this.session = session;
        this.layout = layout;
        this.listing = listing;
        this.connection = connection;
        this.externalStore = externalStore;
    }

    /**
     * Deletes the namespace's blobs from an external store, then every znode under the namespace and the namespace
     * itself: the tag guards first, so that every other client's commit fails from then on; then each process's read
     * log by the numbers its record names (a log is never listed whole); then the rest, bucket by bucket
     * ({@link Eraser}). The header must be marked "destroying" already.
     */
    void deleteTree(Header header) {
        String during = "destroying namespace " + layout.namespace;
        if (!header.blobsInZooKeeper()) {
            String prefix = Long.toHexString(header.namespaceId()) + "-";
            try {
                for (String key : externalStore.keys()) {
                    if (key.startsWith(prefix)) {
                        externalStore.delete(key);
                    }
                }
            } catch (IOException ex) {
                throw new BlobStoreException(prefix + "*", "deleting the namespace's blobs failed", ex);
            }
        }
        Eraser eraser = new Eraser(session, listing, connection);
        eraser.erase(List.of(layout.guards), Layout.MAX_TAG_NAME, during);
        deleteLogs(during);
        eraser.erase(List.of(layout.processes, layout.tags, layout.dictionary, layout.references, layout.store),
                Layout.MAX_TAG_NAME, during);
        eraser.erase(List.of(layout.namespace), Layout.MAX_TAG_NAME, during);
        LOG.info("destroyed dataspace namespace {}: {} znodes deleted", layout.namespace, eraser.deleted());
    }

    /** Erases a namespace of another format, whose layout this version does not read: the whole tree. */
    void eraseOtherFormat() {
        Eraser eraser = new Eraser(session, listing, connection);
        eraser.erase(List.of(layout.namespace), Layout.MAX_TAG_NAME, "erasing namespace " + layout.namespace);
        LOG.info("erased dataspace namespace {} of another format: {} znodes deleted", layout.namespace,
                eraser.deleted());
    }

    /** Deletes the parents above the namespace that the package created, as far as they are empty. */
    int deleteParents() {
        return Parents.deleteEmpty(session, layout.namespace, false, connection,
                "deleting the parents of namespace " + layout.namespace);
    }

    /** Deletes the read-log entries of every process, pipelined, from the window its record names. */
    private void deleteLogs(String during) {
        List<String> processes = listing.children(layout.processes, 10, during);
        for (String process : processes == null ? List.<String>of() : processes) {
            Session.Result read = read(layout.processes + "/" + process, during);
            if (!read.ok()) {
                continue;
            }
            ProcessRecord record;
            try {
                record = ProcessRecord.decode(read.data());
            } catch (IllegalStateException corrupt) {
                continue; // the eraser lists what is left
            }
            List<CompletableFuture<Session.Result>> deletes = new ArrayList<>(Eraser.BATCH);
            for (long entry = record.oldest; entry <= record.issued; entry++) {
                deletes.add(session.deleteAsync(layout.processes + "/" + process + "/" + entry, -1));
                if (deletes.size() == Eraser.BATCH || entry == record.issued) {
                    for (CompletableFuture<Session.Result> delete : deletes) {
                        session.await(delete); // any entry left (a lost reply) goes with the eraser's listing
                    }
                    deletes.clear();
                }
            }
        }
    }

    /** Reads a node, waiting through connection losses; NONODE is an answer. */
    Session.Result read(String path, String during) {
        while (true) {
            Session.Result result = session.getData(path);
            if (!result.unknown()) {
                if (!result.ok() && result.code() != Code.NONODE) {
                    throw new IllegalStateException("ZooKeeper refused a request while " + during + ": "
                            + result.code());
                }
                return result;
            }
            connection.await(during);
        }
    }

    /** Marks the header "destroying", waiting through connection losses. */
    void markDestroying(Header header) {
        String during = "destroying namespace " + layout.namespace;
        while (session.setData(layout.namespace, header.beingDestroyed().encode(), -1).unknown()) {
            connection.await(during);
        }
    }
}
