package io.github.volpex.benchmarks.s3;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.repository.s3.S3Repository;
import io.github.volpex.erasure.IdaCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A 256 MiB checkpoint committed and recovered by the store with IDA (6, 3) on nine S3 endpoints (S3Proxy on
 * loopback, one per endpoint, in memory), beside one plain {@code PutObject} and {@code GetObject} of the same bytes
 * on one endpoint through the same SDK and HTTP client. Divide 256 by the time for MiB/s; the ratio to the plain
 * transfer is the cost of dispersal and of the commit protocol.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 3, jvmArgsAppend = {"-Xmx6g"})
public class S3CheckpointBenchmark {

    private static final int CHECKPOINT_BYTES = 256 << 20;
    private static final String BUCKET = "checkpoints";

    private final List<BlobStore> blobStores = new ArrayList<>();
    private final List<S3Proxy> servers = new ArrayList<>();
    private final List<S3Repository> repositories = new ArrayList<>();
    private ExecutorService io;
    private CheckpointStore store;
    private S3Client plain;
    private byte[] checkpoint;
    private FragmentIndex committed;

    /**
     * Starts the nine servers, builds the store and the plain client, and stores what the recover and get benchmarks
     * read.
     *
     * @throws Exception if a server does not start or a first transfer fails
     */
    @Setup(Level.Trial)
    public void start() throws Exception {
        checkpoint = new byte[CHECKPOINT_BYTES];
        new SplittableRandom(1).nextBytes(checkpoint);
        for (int i = 0; i < 9; i++) {
            BlobStore blobs = BlobStores.create("transient", new Properties());
            blobs.createContainer(BUCKET);
            S3Proxy server = S3Proxy.builder().blobStore(blobs).endpoint(URI.create("http://127.0.0.1:0"))
                    .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, "access", "secret").stopTimeout(0).build();
            server.start();
            while (!"STARTED".equals(server.getState())) {
                Thread.sleep(1);
            }
            blobStores.add(blobs);
            servers.add(server);
            repositories.add(S3Repository.builder(BUCKET).endpoint(endpoint(server)).pathStyle(true)
                    .credentials("access", "secret").id("s3-" + i).build());
        }
        io = Executors.newFixedThreadPool(9);
        store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories).executor(io).build();
        plain = S3Client.builder().endpointOverride(endpoint(servers.get(0))).region(Region.US_EAST_1)
                .forcePathStyle(true).httpClientBuilder(Apache5HttpClient.builder())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("access", "secret")))
                .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofMinutes(5))).build();
        committed = store.commit("recover-me", checkpoint);
        plain.putObject(b -> b.bucket(BUCKET).key("get-me"), RequestBody.fromBytes(checkpoint));
    }

    private static URI endpoint(S3Proxy server) {
        return URI.create("http://127.0.0.1:" + server.getPort());
    }

    /**
     * Closes the clients, the executor and the servers.
     *
     * @throws Exception if a server does not stop
     */
    @TearDown(Level.Trial)
    public void stop() throws Exception {
        plain.close();
        repositories.forEach(S3Repository::close);
        io.shutdownNow();
        for (S3Proxy server : servers) {
            server.stop();
        }
        blobStores.forEach(BlobStore::close);
    }

    /** Commit with IDA (6, 3) to nine endpoints: stream, fragments, index copies, markers, deletion of the last. */
    @Benchmark
    public FragmentIndex storeCommit() {
        return store.commit("job", checkpoint);
    }

    /** Streaming recovery of the committed checkpoint: six of nine fragments, in lockstep, verified. */
    @Benchmark
    public long storeRecover() throws IOException {
        return store.recoverTo(committed, OutputStream.nullOutputStream());
    }

    /** The baseline: one PutObject of the same bytes to one endpoint. */
    @Benchmark
    public Object plainPut() {
        return plain.putObject(b -> b.bucket(BUCKET).key("plain"), RequestBody.fromBytes(checkpoint));
    }

    /** The baseline: one GetObject of the same bytes from one endpoint, read to the end. */
    @Benchmark
    public long plainGet() throws IOException {
        try (InputStream in = plain.getObject(b -> b.bucket(BUCKET).key("get-me"))) {
            return in.transferTo(OutputStream.nullOutputStream());
        }
    }
}
