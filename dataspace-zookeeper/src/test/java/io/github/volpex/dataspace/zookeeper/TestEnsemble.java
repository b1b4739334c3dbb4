package io.github.volpex.dataspace.zookeeper;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The embedded ensemble one test class shares: its servers, a {@link NamespaceInspector} on them, and a fresh
 * namespace for each case. Start it in the class's before-all (or jqwik before-container) method and close it in the
 * matching after method; closing stops the inspector, then the servers.
 */
final class TestEnsemble implements AutoCloseable {

    private final EmbeddedZooKeeper servers;
    private final NamespaceInspector inspector;
    private final String root;
    private final AtomicInteger namespaces = new AtomicInteger();

    private TestEnsemble(EmbeddedZooKeeper servers, NamespaceInspector inspector, String root) {
        this.servers = servers;
        this.inspector = inspector;
        this.root = root;
    }

    /**
     * Starts {@code servers} servers on loopback and connects an inspector to them; fresh namespaces lie under
     * {@code root}. Nothing stays running if the inspector cannot connect.
     */
    static TestEnsemble start(int servers, String root) throws Exception {
        EmbeddedZooKeeper started = EmbeddedZooKeeper.start(servers);
        try {
            return new TestEnsemble(started, NamespaceInspector.connect(started.connectString()), root);
        } catch (Exception | Error ex) {
            try {
                started.close();
            } catch (RuntimeException stopping) {
                ex.addSuppressed(stopping);
            }
            throw ex;
        }
    }

    /** The servers, to stop, restart or find the leader. */
    EmbeddedZooKeeper servers() {
        return servers;
    }

    /** The connect string of every server. */
    String connectString() {
        return servers.connectString();
    }

    /** The inspector connected to the servers. */
    NamespaceInspector inspector() {
        return inspector;
    }

    /** A namespace no earlier case of this class used: {@code root/1}, {@code root/2}, … */
    String freshNamespace() {
        return root + "/" + namespaces.incrementAndGet();
    }

    @Override
    public void close() {
        try {
            inspector.close();
        } finally {
            servers.close();
        }
    }
}
