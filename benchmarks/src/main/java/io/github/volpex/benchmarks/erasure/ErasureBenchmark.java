package io.github.volpex.benchmarks.erasure;

import com.backblaze.erasure.ReedSolomon;
import io.github.volpex.erasure.IdaCodec;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.io.erasurecode.ErasureCoderOptions;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawEncoder;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Encode and decode of one checkpoint, single thread, in memory, for this codec ({@code volpex*}), Backblaze's
 * JavaReedSolomon ({@code backblaze*}) and Hadoop's {@code RSRawEncoder}/{@code RSRawDecoder} ({@code hadoop*}).
 *
 * <p>Every operation covers the same data bytes ({@code size}); throughput in data bytes per second is
 * {@code size / time}. The peers work on data already split into {@code m} shards and compute only the parity (or
 * only the lost shards); this codec's {@code encodePayloads} also splits the data into its {@code m} data payloads,
 * and its {@code decodePayloads} also copies the surviving data into the output, so it does strictly more work.
 * "kLost" loses {@code min(k, m)} data fragments (the worst case for a systematic code); "oneLost" loses data
 * fragment 0.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ErasureBenchmark {

    /** {@code m:k}. */
    @Param({"6:3", "7:1", "6:2", "2:4", "6:12", "6:18"})
    public String mk;

    /** Checkpoint size in bytes. */
    @Param({"1048576", "16777216"})
    public int size;

    private int m;
    private int k;
    private int shard;
    private byte[] data;
    private byte[] out;

    private IdaCodec volpex;
    private byte[][] payloads;
    private byte[][] payloadsKLost;
    private byte[][] payloadsOneLost;

    private ReedSolomon backblaze;
    private byte[][] shards;
    private boolean[] presentKLost;
    private boolean[] presentOneLost;

    private RSRawEncoder hadoopEncoder;
    private RSRawDecoder hadoopDecoder;
    private byte[][] hadoopData;
    private byte[][] hadoopParity;
    private byte[][] hadoopKLost;
    private int[] erasedKLost;
    private byte[][] rebuiltKLost;
    private byte[][] hadoopOneLost;
    private int[] erasedOneLost;
    private byte[][] rebuiltOneLost;

    /**
     * Builds the data, the fragments and each coder's buffers.
     *
     * @throws java.io.IOException never, in practice (Hadoop's signature)
     */
    @Setup(Level.Trial)
    public void setUp() throws java.io.IOException {
        String[] parts = mk.split(":");
        m = Integer.parseInt(parts[0].trim());
        k = Integer.parseInt(parts[1].trim());
        int n = m + k;
        data = new byte[size];
        new SplittableRandom(42).nextBytes(data);
        out = new byte[size];
        shard = (size + m - 1) / m;
        int lost = Math.min(k, m);

        volpex = IdaCodec.systematic(m, k);
        payloads = new byte[n][shard];
        volpex.encodePayloads(data, 0, size, payloads);
        payloadsKLost = payloads.clone();
        for (int j = 0; j < lost; j++) {
            payloadsKLost[j] = null;
        }
        payloadsOneLost = payloads.clone();
        payloadsOneLost[0] = null;

        backblaze = ReedSolomon.create(m, k);
        shards = new byte[n][shard];
        for (int j = 0; j < m; j++) {
            System.arraycopy(payloads[j], 0, shards[j], 0, shard);
        }
        backblaze.encodeParity(shards, 0, shard);
        presentKLost = new boolean[n];
        presentOneLost = new boolean[n];
        for (int i = 0; i < n; i++) {
            presentKLost[i] = i >= lost;
            presentOneLost[i] = i != 0;
        }

        ErasureCoderOptions options = new ErasureCoderOptions(m, k);
        hadoopEncoder = new RSRawEncoder(options);
        hadoopDecoder = new RSRawDecoder(options);
        hadoopData = new byte[m][];
        for (int j = 0; j < m; j++) {
            hadoopData[j] = shards[j];
        }
        hadoopParity = new byte[k][shard];
        hadoopEncoder.encode(hadoopData, hadoopParity);
        hadoopKLost = new byte[n][];
        erasedKLost = new int[lost];
        for (int i = 0; i < n; i++) {
            hadoopKLost[i] = i < lost ? null : (i < m ? shards[i] : hadoopParity[i - m]);
        }
        for (int j = 0; j < lost; j++) {
            erasedKLost[j] = j;
        }
        rebuiltKLost = new byte[lost][shard];
        hadoopOneLost = new byte[n][];
        for (int i = 1; i < n; i++) {
            hadoopOneLost[i] = i < m ? shards[i] : hadoopParity[i - m];
        }
        erasedOneLost = new int[] {0};
        rebuiltOneLost = new byte[1][shard];
    }

    /**
     * This codec: data into all {@code n} payloads.
     *
     * @return the payloads
     */
    @Benchmark
    public byte[][] encodeVolpex() {
        volpex.encodePayloads(data, 0, size, payloads);
        return payloads;
    }

    /**
     * Backblaze: parity of {@code m} prepared shards.
     *
     * @return the shards
     */
    @Benchmark
    public byte[][] encodeBackblaze() {
        backblaze.encodeParity(shards, 0, shard);
        return shards;
    }

    /**
     * Hadoop: parity of {@code m} prepared shards.
     *
     * @return the parity
     * @throws java.io.IOException never, in practice (Hadoop's signature)
     */
    @Benchmark
    public byte[][] encodeHadoop() throws java.io.IOException {
        hadoopEncoder.encode(hadoopData, hadoopParity);
        return hadoopParity;
    }

    /**
     * This codec: the whole data from {@code m} payloads, {@code min(k, m)} data payloads lost.
     *
     * @return the data
     */
    @Benchmark
    public byte[] decodeKLostVolpex() {
        volpex.decodePayloads(payloadsKLost, out, 0, size);
        return out;
    }

    /**
     * Backblaze: the lost shards, {@code min(k, m)} data shards lost.
     *
     * @return the shards
     */
    @Benchmark
    public byte[][] decodeKLostBackblaze() {
        backblaze.decodeMissing(shards, presentKLost, 0, shard);
        return shards;
    }

    /**
     * Hadoop: the lost shards, {@code min(k, m)} data shards lost.
     *
     * @return the rebuilt shards
     * @throws java.io.IOException never, in practice (Hadoop's signature)
     */
    @Benchmark
    public byte[][] decodeKLostHadoop() throws java.io.IOException {
        hadoopDecoder.decode(hadoopKLost.clone(), erasedKLost, rebuiltKLost);
        return rebuiltKLost;
    }

    /**
     * This codec: the whole data, data payload 0 lost.
     *
     * @return the data
     */
    @Benchmark
    public byte[] decodeOneLostVolpex() {
        volpex.decodePayloads(payloadsOneLost, out, 0, size);
        return out;
    }

    /**
     * Backblaze: data shard 0 lost.
     *
     * @return the shards
     */
    @Benchmark
    public byte[][] decodeOneLostBackblaze() {
        backblaze.decodeMissing(shards, presentOneLost, 0, shard);
        return shards;
    }

    /**
     * Hadoop: data shard 0 lost.
     *
     * @return the rebuilt shard
     * @throws java.io.IOException never, in practice (Hadoop's signature)
     */
    @Benchmark
    public byte[][] decodeOneLostHadoop() throws java.io.IOException {
        hadoopDecoder.decode(hadoopOneLost.clone(), erasedOneLost, rebuiltOneLost);
        return rebuiltOneLost;
    }
}
