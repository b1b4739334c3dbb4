package io.github.volpex.benchmarks.s3;

import io.github.volpex.benchmarks.checkpoint.AsyncCommitBenchmark;
import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.Chunking;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.store.RecoveredCheckpoint;
import io.github.volpex.erasure.IdaCodec;
import java.util.SplittableRandom;
import java.util.concurrent.CompletionStage;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The ways to commit a checkpoint on nine S3 endpoints (S3Proxy on loopback, in memory, IDA (6, 3), an executor of
 * nine threads), each beside the others in one run: a full synchronous commit; what an asynchronous commit keeps the
 * caller (the persist is waited for after each shot, outside the measured time), beside one in-memory copy of the same
 * bytes; a differential commit (16 KiB blocks) after 10% of the blocks changed, and one of a state that did not change;
 * the recovery of the newest full and of the newest differential checkpoint (after ten rounds of changes, so that it
 * lists older segments). The bytes the differential commits write are counted by {@link S3DifferentialBytesReport}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 2, jvmArgsAppend = {"-Xmx8g"})
public class S3CommitModesBenchmark {

    private static final int BLOCK_BYTES = Chunking.DEFAULT_BLOCK_BYTES;

    /** The state's size in MiB. */
    @Param("256")
    public int stateMiB;

    /** The differential store's space bound ({@code CheckpointStore.Builder.maxSpaceAmplification}). */
    @Param("2")
    public double maxSpaceAmplification;

    private S3Endpoints endpoints;
    private ExecutorService io;
    private CheckpointStore full;
    private CheckpointStore differential;
    private byte[] state;
    private byte[] unchanged;
    private SplittableRandom random;

    /**
     * Starts the servers, builds a full and a differential store on them, and commits what the recoveries and the
     * commits start from (the differential checkpoints only for the differential rows).
     *
     * @param params which benchmark runs
     * @throws Exception if a server does not start or a commit fails
     */
    @Setup(Level.Trial)
    public void start(BenchmarkParams params) throws Exception {
        state = new byte[stateMiB << 20];
        random = new SplittableRandom(1);
        random.nextBytes(state);
        unchanged = state.clone();
        io = Executors.newFixedThreadPool(9);
        endpoints = S3Endpoints.start(9, -1, io);
        full = CheckpointStore.perennial(IdaCodec.systematic(6, 3), endpoints.repositories()).executor(io).build();
        differential = CheckpointStore.perennial(IdaCodec.systematic(6, 3), endpoints.repositories()).executor(io)
                .differential(Chunking.fixed(BLOCK_BYTES)).maxSpaceAmplification(maxSpaceAmplification).build();
        if (!params.getBenchmark().contains("differential")) {
            full.commit("full", state);
            return;
        }
        differential.commit("unchanged", unchanged);
        differential.commit("differential", state);
        for (int round = 0; round < 10; round++) {
            changeTenPercent();
            differential.commit("differential", state);
        }
    }

    /** Changes one byte in each of 10% of the blocks, chosen at random. */
    private void changeTenPercent() {
        int blocks = state.length / BLOCK_BYTES;
        random.ints(0, blocks).distinct().limit(blocks / 10).forEach(block ->
                state[block * BLOCK_BYTES + random.nextInt(BLOCK_BYTES)] ^= (byte) (1 + random.nextInt(255)));
    }

    /** Changes 10% of the blocks before every shot, outside the measured time. */
    @Setup(Level.Invocation)
    public void change() {
        changeTenPercent();
    }

    /**
     * Closes the stores, the executor and the servers.
     *
     * @throws Exception if a server does not stop
     */
    @TearDown(Level.Trial)
    public void stop() throws Exception {
        full.close();
        differential.close();
        io.shutdownNow();
        endpoints.close();
    }

    /** The floor of a snapshot that copies: one copy of the bytes into a new array. */
    @Benchmark
    public byte[] copy() {
        return state.clone();
    }

    /** A full synchronous commit: everything up to durability, and the clean-up. */
    @Benchmark
    public FragmentIndex fullCommit() {
        return full.commit("full", state);
    }

    /** What the caller of an asynchronous (full) commit waits for: the snapshot and the hand-over to the executor. */
    @Benchmark
    public CompletionStage<FragmentIndex> asyncCommit(AsyncCommitBenchmark.Persist persist) {
        CompletionStage<FragmentIndex> stage = full.commitAsync("async", state);
        persist.await(stage);
        return stage;
    }

    /** A differential commit of the state, a tenth of whose blocks changed since the last one. */
    @Benchmark
    public FragmentIndex differentialCommit() {
        return differential.commit("differential", state);
    }

    /** A differential commit of a state that did not change since the last one. */
    @Benchmark
    public FragmentIndex differentialUnchanged() {
        return differential.commit("unchanged", unchanged);
    }

    /** Recovery of the newest full checkpoint. */
    @Benchmark
    public RecoveredCheckpoint fullRecover() {
        return full.recover("full").orElseThrow();
    }

    /** Recovery of the newest differential checkpoint: its own segment and those it lists. */
    @Benchmark
    public RecoveredCheckpoint differentialRecover() {
        return differential.recover("differential").orElseThrow();
    }
}
