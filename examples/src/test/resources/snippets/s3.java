package snippets;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.repository.s3.S3Repository;
import io.github.volpex.erasure.IdaCodec;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/** Checkpoints on S3: the endpoints, credentials, pool and checkpoint are the caller's. */
final class S3Snippet {
    static void commit(List<URI> endpoints, String accessKeyId, String secretAccessKey, Executor pool,
                       InputStream checkpointStream) throws IOException {
        //@snippet
    }
}
