package io.github.volpex.benchmarks.erasure;

import com.backblaze.erasure.ReedSolomon;
import io.github.volpex.erasure.IdaCodec;
import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.io.erasurecode.ErasureCoderOptions;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawEncoder;
import org.apache.hadoop.io.erasurecode.rawcoder.XORRawDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.XORRawEncoder;
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
 * One parity fragment over seven data fragments ({@code m = 7, k = 1}), single thread, in memory: this codec's
 * {@code xor(7)} ({@code *Xor}) and {@code systematic(7, 1)} ({@code *Systematic}, the Cauchy row, ISA-L-compatible)
 * beside Backblaze's JavaReedSolomon (7, 1), Hadoop's {@code XORRawEncoder}/{@code XORRawDecoder}
 * ({@code *HadoopXor}) and Hadoop's {@code RSRawEncoder}/{@code RSRawDecoder} (7, 1) ({@code *HadoopRs}).
 *
 * <p>Every operation covers the same data bytes ({@code size}); throughput in data bytes per second is
 * {@code size / time}. As in {@link ErasureBenchmark}, the peers get data already split into shards and compute only
 * the parity (or only the lost shard); this codec's {@code encodePayloads} also copies the data into its seven data
 * payloads, and its {@code decodePayloads} also copies the six surviving data cells into the output. "oneLost" loses
 * data fragment 0.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SingleParityBenchmark {

    private static final int M = 7;

    /** Checkpoint size in bytes. */
    @Param({"1048576", "16777216"})
    public int size;

    private byte[] data;
    private byte[] out;
    private int shard;

    private IdaCodec xor;
    private byte[][] xorPayloads;
    private byte[][] xorOneLost;

    private IdaCodec systematic;
    private byte[][] systematicPayloads;
    private byte[][] systematicOneLost;

    private ReedSolomon backblaze;
    private byte[][] shards;
    private boolean[] presentOneLost;

    private final int[] erasedOneLost = {0};
    private byte[][] dataShards;

    private XORRawEncoder hadoopXorEncoder;
    private XORRawDecoder hadoopXorDecoder;
    private byte[][] hadoopXorParity;
    private byte[][] hadoopXorOneLost;
    private byte[][] hadoopXorRebuilt;

    private RSRawEncoder hadoopRsEncoder;
    private RSRawDecoder hadoopRsDecoder;
    private byte[][] hadoopRsParity;
    private byte[][] hadoopRsOneLost;
    private byte[][] hadoopRsRebuilt;

    /**
     * Builds the data, the fragments and each coder's buffers.
     *
     * @throws IOException never, in practice (Hadoop's signature)
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        data = new byte[size];
        new SplittableRandom(42).nextBytes(data);
        out = new byte[size];
        shard = (size + M - 1) / M;

        xor = IdaCodec.xor(M);
        xorPayloads = new byte[M + 1][shard];
        xor.encodePayloads(data, 0, size, xorPayloads);
        xorOneLost = xorPayloads.clone();
        xorOneLost[0] = null;

        systematic = IdaCodec.systematic(M, 1);
        systematicPayloads = new byte[M + 1][shard];
        systematic.encodePayloads(data, 0, size, systematicPayloads);
        systematicOneLost = systematicPayloads.clone();
        systematicOneLost[0] = null;

        backblaze = ReedSolomon.create(M, 1);
        shards = new byte[M + 1][shard];
        for (int j = 0; j < M; j++) {
            System.arraycopy(xorPayloads[j], 0, shards[j], 0, shard);
        }
        backblaze.encodeParity(shards, 0, shard);
        presentOneLost = new boolean[M + 1];
        for (int i = 1; i <= M; i++) {
            presentOneLost[i] = true;
        }

        dataShards = new byte[M][];
        System.arraycopy(shards, 0, dataShards, 0, M);
        ErasureCoderOptions options = new ErasureCoderOptions(M, 1);

        hadoopXorEncoder = new XORRawEncoder(options);
        hadoopXorDecoder = new XORRawDecoder(options);
        hadoopXorParity = new byte[1][shard];
        hadoopXorEncoder.encode(dataShards, hadoopXorParity);
        hadoopXorOneLost = withParity(hadoopXorParity[0]);
        hadoopXorRebuilt = new byte[1][shard];

        hadoopRsEncoder = new RSRawEncoder(options);
        hadoopRsDecoder = new RSRawDecoder(options);
        hadoopRsParity = new byte[1][shard];
        hadoopRsEncoder.encode(dataShards, hadoopRsParity);
        hadoopRsOneLost = withParity(hadoopRsParity[0]);
        hadoopRsRebuilt = new byte[1][shard];

        if (!Arrays.equals(hadoopXorParity[0], xorPayloads[M])
                || !Arrays.equals(hadoopRsParity[0], systematicPayloads[M])) {
            throw new IllegalStateException("the coders disagree on the parity");
        }
    }

    /** Hadoop's decoder inputs: data shards 1 … 6 and the parity, shard 0 erased. */
    private byte[][] withParity(byte[] parity) {
        byte[][] inputs = new byte[M + 1][];
        for (int j = 1; j < M; j++) {
            inputs[j] = dataShards[j];
        }
        inputs[M] = parity;
        return inputs;
    }

    /**
     * This codec, XOR layout: data into all eight payloads.
     *
     * @return the payloads
     */
    @Benchmark
    public byte[][] encodeXor() {
        xor.encodePayloads(data, 0, size, xorPayloads);
        return xorPayloads;
    }

    /**
     * This codec, systematic (Cauchy) layout: data into all eight payloads.
     *
     * @return the payloads
     */
    @Benchmark
    public byte[][] encodeSystematic() {
        systematic.encodePayloads(data, 0, size, systematicPayloads);
        return systematicPayloads;
    }

    /**
     * Backblaze: parity of seven prepared shards.
     *
     * @return the shards
     */
    @Benchmark
    public byte[][] encodeBackblaze() {
        backblaze.encodeParity(shards, 0, shard);
        return shards;
    }

    /**
     * Hadoop XOR: parity of seven prepared shards.
     *
     * @return the parity
     * @throws IOException never, in practice (Hadoop's signature)
     */
    @Benchmark
    public byte[][] encodeHadoopXor() throws IOException {
        hadoopXorEncoder.encode(dataShards, hadoopXorParity);
        return hadoopXorParity;
    }

    /**
     * Hadoop Reed–Solomon: parity of seven prepared shards.
     *
     * @return the parity
     * @throws IOException never, in practice (Hadoop's signature)
     */
    @Benchmark
    public byte[][] encodeHadoopRs() throws IOException {
        hadoopRsEncoder.encode(dataShards, hadoopRsParity);
        return hadoopRsParity;
    }

    /**
     * This codec, XOR layout: the whole data, data payload 0 lost.
     *
     * @return the data
     */
    @Benchmark
    public byte[] decodeOneLostXor() {
        xor.decodePayloads(xorOneLost, out, 0, size);
        return out;
    }

    /**
     * This codec, systematic layout: the whole data, data payload 0 lost.
     *
     * @return the data
     */
    @Benchmark
    public byte[] decodeOneLostSystematic() {
        systematic.decodePayloads(systematicOneLost, out, 0, size);
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
     * Hadoop XOR: data shard 0 lost.
     *
     * @return the rebuilt shard
     * @throws IOException never, in practice (Hadoop's signature)
     */
    @Benchmark
    public byte[][] decodeOneLostHadoopXor() throws IOException {
        hadoopXorDecoder.decode(hadoopXorOneLost.clone(), erasedOneLost, hadoopXorRebuilt);
        return hadoopXorRebuilt;
    }

    /**
     * Hadoop Reed–Solomon: data shard 0 lost.
     *
     * @return the rebuilt shard
     * @throws IOException never, in practice (Hadoop's signature)
     */
    @Benchmark
    public byte[][] decodeOneLostHadoopRs() throws IOException {
        hadoopRsDecoder.decode(hadoopRsOneLost.clone(), erasedOneLost, hadoopRsRebuilt);
        return hadoopRsRebuilt;
    }
}
