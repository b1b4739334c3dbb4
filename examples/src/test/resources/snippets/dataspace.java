package snippets;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.Replica;
import java.util.Optional;

/** The dataspace tour (compiled only: its get waits for a neighbour's put, which another process makes). */
final class DataspaceSnippet {
    static Replica step(int processId, int step, byte[] rowBytes) throws InterruptedException {
        //@snippet
        return flag.isPresent() && neighbour.length > 0 ? restarted : self;
    }
}
