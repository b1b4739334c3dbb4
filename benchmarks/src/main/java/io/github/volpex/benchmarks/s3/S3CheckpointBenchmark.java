package io.github.volpex.benchmarks.s3;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.erasure.IdaCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A checkpoint committed and recovered by the store with IDA (6, 3) on nine S3 endpoints (S3Proxy on loopback, one
 * per endpoint, in memory), beside one plain {@code PutObject} and {@code GetObject} of the same bytes on one endpoint
 * through the same SDK and HTTP client. {@code megabytesPerSecond} puts every endpoint behind a {@link ThrottledRelay}
 * that limits each connection to that many MB (10<sup>6</sup> bytes) per second in each direction, the plain
 * transfers' endpoint included; 0 (the default) connects to the servers directly, where the two cores are the limit.
 * Divide the size by the time for MiB/s; the ratio to the plain transfer is what dispersal gains or costs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 3, jvmArgsAppend = {"-Xmx6g"})
public class S3CheckpointBenchmark {

    /** The checkpoint's size in MiB. */
    @Param("256")
    public int checkpointMiB;

    /** The rate of every connection to an endpoint, each direction, in MB/s; 0 for no relay and no limit. */
    @Param("0")
    public int megabytesPerSecond;

    /**
     * Whether the repositories upload a fragment's parts on the store's executor while the next part is filled
     * ({@code S3Repository.Builder.uploadExecutor}), or on the writing thread.
     */
    @Param("true")
    public boolean overlapParts;

    private S3Endpoints endpoints;
    private ExecutorService io;
    private CheckpointStore store;
    private S3Client plain;
    private byte[] checkpoint;
    private FragmentIndex committed;

    /**
     * Starts the nine servers (and relays), builds the store and the plain client, and stores what the recover and
     * get benchmarks read.
     *
     * @throws Exception if a server does not start or a first transfer fails
     */
    @Setup(Level.Trial)
    public void start() throws Exception {
        checkpoint = new byte[checkpointMiB << 20];
        new SplittableRandom(1).nextBytes(checkpoint);
        io = Executors.newFixedThreadPool(9);
        endpoints = S3Endpoints.start(9, megabytesPerSecond == 0 ? -1 : megabytesPerSecond * 1_000_000L,
                overlapParts ? io : null);
        store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), endpoints.repositories()).executor(io).build();
        plain = endpoints.plainClient(0);
        committed = store.commit("recover-me", checkpoint);
        plain.putObject(b -> b.bucket(S3Endpoints.BUCKET).key("get-me"), RequestBody.fromBytes(checkpoint));
    }

    /**
     * Closes the store, the clients, the executor, the relays and the servers.
     *
     * @throws Exception if a server does not stop
     */
    @TearDown(Level.Trial)
    public void stop() throws Exception {
        store.close();
        io.shutdownNow();
        endpoints.close();
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
        return plain.putObject(b -> b.bucket(S3Endpoints.BUCKET).key("plain"), RequestBody.fromBytes(checkpoint));
    }

    /** The baseline: one GetObject of the same bytes from one endpoint, read to the end. */
    @Benchmark
    public long plainGet() throws IOException {
        try (InputStream in = plain.getObject(b -> b.bucket(S3Endpoints.BUCKET).key("get-me"))) {
            return in.transferTo(OutputStream.nullOutputStream());
        }
    }
}
