package snippets;

import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.zookeeper.BlobStore;
import io.github.volpex.dataspace.zookeeper.EmbeddedZooKeeper;
import io.github.volpex.dataspace.zookeeper.ZooKeeperDataspace;
import java.nio.file.Path;
import java.time.Duration;

/** The ZooKeeper dataspace's builder (compiled only: the dataspace module's own tests run it). */
final class ZookeeperBuilderSnippet {
    static void connect(Path sharedDirectory, byte[] bytes) throws Exception {
        //@snippet
    }
}
