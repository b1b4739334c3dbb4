package snippets;

import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.zookeeper.ZooKeeperDataspace;

/** One replica on one host (dataspace-zookeeper's AcrossMachinesExampleTest runs the same lines on two). */
final class ZookeeperConnectSnippet {
    static void replica(int processId, long savedRequestNumber, int step, byte[] row) throws InterruptedException {
        //@snippet
    }
}
