package snippets;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.ProcessCheckpoint;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.zookeeper.WriterElection;
import io.github.volpex.erasure.IdaCodec;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;

/** A replica that joins its process's writer election (the host name, log, repositories and state are given). */
final class WriterElectionSnippet {
    static void replica(String hostName, Logger log, List<FragmentRepository> repositories, Replica replica,
                        byte[] state) throws Exception {
        //@snippet
    }
}
