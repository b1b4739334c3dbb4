package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.testkit.DataspaceContract;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The dataspace contract, unchanged, against the ZooKeeper dataspace on an embedded single-server ensemble. Each test
 * connects a new client to a namespace of its own. The clients use ZooKeeper's Netty socket: the default NIO socket
 * sleeps 100 ms in every close, and one contract test connects and closes 200 dataspaces within its 30 s.
 */
class ZooKeeperDataspaceContractTest extends DataspaceContract {

    private static final AtomicInteger NAMESPACES = new AtomicInteger();
    private static EmbeddedZooKeeper ensemble;

    @BeforeAll
    static void startEnsemble() {
        ensemble = EmbeddedZooKeeper.start(1);
    }

    @AfterAll
    static void stopEnsemble() {
        if (ensemble != null) {
            ensemble.close();
        }
    }

    /**
     * 1,500 waiting gets, each of a process of its own: a ZooKeeper dataspace holds at most about 1,850 processes at
     * this namespace's length (a put that serves a waiting read of every process must fit one transaction).
     */
    @Override
    protected int submittedWaiters() {
        return 1_500;
    }

    @Override
    protected Dataspace create(int processCount, DataspaceOptions options) {
        ZKClientConfig netty = new ZKClientConfig();
        netty.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, ClientCnxnSocketNetty.class.getName());
        return ZooKeeperDataspace.builder(ensemble.connectString(), "/contract/" + NAMESPACES.incrementAndGet())
                .processCount(processCount)
                .options(options)
                .clientConfig(netty)
                .connect();
    }
}
