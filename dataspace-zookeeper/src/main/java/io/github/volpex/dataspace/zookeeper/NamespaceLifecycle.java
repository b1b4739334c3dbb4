package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.zookeeper.Records.Header;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A namespace's life: created in one transaction or checked when a client connects (completing an interrupted
 * destroy), its garbage collected, and destroyed — by a client of it, or by anyone knowing none of its settings.
 */
final class NamespaceLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(ZkDataspace.class);
    private static final byte[] EMPTY = new byte[0];

    /** What opening found: the namespace's keys, and whether this client created it (so it holds no garbage). */
    record Opened(NamespaceKeys keys, boolean created) {
    }

    private final ZkContext context;
    private final Session session;
    private final Layout layout;
    private final String namespace;

    NamespaceLifecycle(ZkContext context) {
        this.context = context;
        this.session = context.session;
        this.layout = context.layout;
        this.namespace = context.namespace;
    }

    /**
     * Creates the namespace in one transaction, or checks the one there (completing an interrupted destroy). One
     * read-only multi reads the ancestors, the namespace and its children; a namespace inside another dataspace is
     * refused. {@code namespaceId} is the id of a namespace this client creates.
     */
    Opened open(long namespaceId) {
        String during = "opening namespace " + namespace;
        long deadline = System.nanoTime() + context.connectionLossTimeout.toNanos();
        if (!session.awaitConnected(deadline)) {
            throw new ZooKeeperUnavailableException(context.connectString, context.connectionLossTimeout,
                    "connecting to namespace " + namespace);
        }
        Header wanted = Header.of(context.processCount, context.options, context.blobsInZooKeeper, namespaceId);
        List<String> ancestors = new ArrayList<>();
        for (int slash = namespace.indexOf('/', 1); slash > 0; slash = namespace.indexOf('/', slash + 1)) {
            ancestors.add(namespace.substring(0, slash));
        }
        List<String> children = List.of(layout.directories());
        List<Op> reads = new ArrayList<>();
        for (String path : ancestors) {
            reads.add(Op.getData(path));
        }
        reads.add(Op.getData(namespace));
        for (String path : children) {
            reads.add(Op.getData(path));
        }
        while (true) {
            List<OpResult> results = context.readAll(reads, false, null, during);
            List<String> missing = new ArrayList<>();
            for (int i = 0; i < ancestors.size(); i++) {
                if (results.get(i) instanceof OpResult.GetDataResult found) {
                    if (Header.isHeader(found.getData())) {
                        throw new IllegalArgumentException("namespace " + namespace + " lies inside the dataspace at "
                                + ancestors.get(i));
                    }
                } else {
                    missing.add(ancestors.get(i));
                }
            }
            if (!(results.get(ancestors.size()) instanceof OpResult.GetDataResult root)) {
                for (String ancestor : missing) {
                    Session.Result created = session.create(ancestor, Parents.MARKER, CreateMode.PERSISTENT);
                    if (!created.ok() && created.code() != Code.NODEEXISTS) {
                        context.waitIfUnknown(created, during);
                    }
                }
                NamespaceKeys keys = new NamespaceKeys(layout, namespaceId);
                List<Op> creates = new ArrayList<>();
                creates.add(Op.create(namespace, wanted.encode(), Records.OPEN_ACL, CreateMode.PERSISTENT));
                for (String path : children) {
                    creates.add(Op.create(path, EMPTY, Records.OPEN_ACL, CreateMode.PERSISTENT));
                }
                for (int k = 0; k < NamespaceKeys.GUARDS; k++) {
                    creates.add(Op.create(keys.guardPath(k), EMPTY, Records.OPEN_ACL, CreateMode.PERSISTENT));
                }
                Session.Result created = session.multi(creates);
                if (!created.ok()) {
                    context.waitIfUnknown(created, "creating namespace " + namespace);
                    continue;
                }
                LOG.info("created dataspace namespace {} ({})", namespace, wanted.describe());
                return new Opened(keys, true);
            }
            Header header = Header.decodeOrNull(root.getData(), namespace);
            if (header == null) {
                throw new IllegalStateException("namespace " + namespace + " exists and is not a Volpex dataspace ("
                        + root.getStat().getNumChildren() + " children, " + root.getData().length
                        + " bytes of data)");
            }
            if (header.destroying()) {
                LOG.info("completing the interrupted destroy of dataspace namespace {}", namespace);
                destroyer().deleteTree(header);
                continue;
            }
            if (!header.sameSettings(wanted)) {
                throw new IllegalStateException("namespace " + namespace + " holds a dataspace of "
                        + header.describe() + "; this client asked for " + wanted.describe());
            }
            for (int i = 0; i < children.size(); i++) {
                if (!(results.get(ancestors.size() + 1 + i) instanceof OpResult.GetDataResult)) {
                    throw new IllegalStateException("namespace " + namespace + " is damaged: " + children.get(i)
                            + " is missing");
                }
            }
            return new Opened(new NamespaceKeys(layout, header.namespaceId()), false);
        }
    }

    /** Removes the namespace's orphaned blobs ({@link GarbageCollector}); returns how many. */
    int collectGarbage(NamespaceKeys keys, Consumer<String> deleteBlob) {
        String during = "collecting garbage in " + namespace;
        int removed = new GarbageCollector(session, layout, context.listing, context.blobStore,
                context.blobsInZooKeeper, keys.blobPrefix(), ops -> context.readAll(ops, true, null, during),
                deleteBlob::accept).collect();
        if (removed > 0) {
            LOG.info("removed {} orphaned blobs from namespace {}", removed, namespace);
        }
        return removed;
    }

    /** Destroys the namespace this client joined: marks it destroying, then deletes it and its emptied parents. */
    void destroy() {
        String during = "destroying namespace " + namespace;
        Destroyer destroyer = destroyer();
        Session.Result root = context.readOrWait(namespace, during);
        if (root.ok()) {
            Header header = Header.decodeOrNull(root.data(), namespace);
            if (header != null) {
                destroyer.markDestroying(header);
                destroyer.deleteTree(header);
            }
        }
        destroyer.deleteParents();
    }

    /** Deletes the namespace's blobs, znodes and emptied parents ({@link Destroyer}). */
    private Destroyer destroyer() {
        return new Destroyer(session, layout, context.listing, context::waitForConnection,
                context.blobsInZooKeeper ? null : context.blobStore);
    }

    /**
     * Destroys a namespace with a session of its own, knowing none of its settings: see
     * {@link ZooKeeperDataspace.Builder#destroy()}.
     */
    static boolean destroy(ZooKeeperDataspace.Builder builder) {
        String connectString = ConnectStrings.check(builder.connectString);
        String namespace = ZooKeeperDataspace.Builder.checkPath("namespace", "/volpex/job-42", builder.namespace);
        Duration timeout = builder.connectionLossTimeout;
        String during = "destroying namespace " + namespace;
        try (Session session = new Session(connectString, (int) builder.sessionTimeout.toMillis(),
                ZkContext.clientConfig(builder), event -> { }, () -> { })) {
            Listing.ConnectionWait connection = what -> {
                if (!session.awaitConnected(System.nanoTime() + timeout.toNanos())) {
                    throw new ZooKeeperUnavailableException(connectString, timeout, what);
                }
            };
            connection.await(during);
            Layout layout = new Layout(namespace);
            Listing listing = new Listing(session, session.maxAnswerBytes(), connection);
            Session.Result root = new Destroyer(session, layout, listing, connection, null).read(namespace, during);
            boolean destroyed = false;
            if (root.ok()) {
                if (!Header.isHeader(root.data())) {
                    throw new IllegalStateException("namespace " + namespace + " exists and is not a Volpex dataspace ("
                            + root.stat().getNumChildren() + " children, " + root.data().length + " bytes of data)");
                }
                Header header;
                try {
                    header = Header.decodeOrNull(root.data(), namespace);
                } catch (NamespaceFormatException otherFormat) {
                    header = null;
                }
                if (header == null) {
                    new Destroyer(session, layout, listing, connection, null).eraseOtherFormat();
                } else {
                    if (!header.blobsInZooKeeper() && builder.blobStore == null) {
                        throw new IllegalStateException("namespace " + namespace + " keeps its large values in an "
                                + "external blob store: give it to the builder (blobStore) to destroy the namespace");
                    }
                    Destroyer destroyer = new Destroyer(session, layout, listing, connection,
                            header.blobsInZooKeeper() ? null : builder.blobStore);
                    destroyer.markDestroying(header);
                    destroyer.deleteTree(header);
                }
                destroyed = true;
            }
            new Destroyer(session, layout, listing, connection, null).deleteParents();
            return destroyed;
        }
    }
}
