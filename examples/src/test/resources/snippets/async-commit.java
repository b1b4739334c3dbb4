package snippets;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.FragmentIndex;
import java.util.concurrent.CompletionStage;

/** An asynchronous commit: the store and the state are the caller's. */
final class AsyncCommitSnippet {
    static void commit(CheckpointStore store, byte[] state) {
        //@snippet
    }
}
