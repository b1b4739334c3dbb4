package snippets;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.StaleWriterException;
import io.github.volpex.dataspace.zookeeper.ZooKeeperEpochSource;
import io.github.volpex.erasure.IdaCodec;
import java.util.List;

/** Fenced epochs without an election (ZooKeeperEpochSourceTest runs the same lines against an ensemble). */
final class EpochSourceSnippet {
    static void commit(List<FragmentRepository> repositories, byte[] state) {
        //@snippet
    }
}
