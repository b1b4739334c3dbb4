package io.github.volpex.benchmarks.checkpoint;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.Chunking;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.RecoveredCheckpoint;
import io.github.volpex.erasure.IdaCodec;
import java.util.ArrayList;
import java.util.List;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What differential checkpoints cost in time, beside full ones, for a 64 MiB state in 16 KiB blocks with IDA (6, 3)
 * on nine in-memory repositories and an executor of four threads: a commit after 10% of the blocks changed (a
 * differential one hashes the whole state and writes a tenth of it; a full one encodes and writes all of it), and the
 * recovery of the newest checkpoint (a differential one, after ten such commits, reads its own segment and the older
 * segments it lists; a full one reads one checkpoint). The bytes each writes are counted by
 * {@link DifferentialBytesReport}. Single-shot times.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class DifferentialCommitBenchmark {

    private static final int STATE_BYTES = 64 << 20;
    private static final int BLOCK_BYTES = Chunking.DEFAULT_BLOCK_BYTES;

    private ExecutorService executor;
    private CheckpointStore full;
    private CheckpointStore differential;
    private byte[] state;
    private SplittableRandom random;

    /** A store on nine in-memory repositories, IDA (6, 3), full or (with a chunking) differential. */
    static CheckpointStore store(ExecutorService executor, Chunking chunking) {
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            repositories.add(FragmentRepository.inMemory("memory-" + i));
        }
        CheckpointStore.Builder builder = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories)
                .executor(executor);
        return (chunking == null ? builder : builder.differential(chunking)).build();
    }

    /** Builds both stores and commits the state to each, then ten rounds of changes to the differential one. */
    @Setup(Level.Trial)
    public void start() {
        executor = Executors.newFixedThreadPool(4);
        state = new byte[STATE_BYTES];
        random = new SplittableRandom(1);
        random.nextBytes(state);
        full = store(executor, null);
        differential = store(executor, Chunking.fixed(BLOCK_BYTES));
        full.commit("job", state);
        differential.commit("job", state);
        for (int round = 0; round < 10; round++) {
            changeTenPercent();
            differential.commit("job", state);
        }
        full.commit("job", state);
    }

    /** Changes one byte in each of 10% of the blocks, chosen at random. */
    private void changeTenPercent() {
        int blocks = STATE_BYTES / BLOCK_BYTES;
        random.ints(0, blocks).distinct().limit(blocks / 10).forEach(block ->
                state[block * BLOCK_BYTES + random.nextInt(BLOCK_BYTES)] ^= (byte) (1 + random.nextInt(255)));
    }

    /** Changes 10% of the blocks before every commit shot, outside the measured time. */
    @Setup(Level.Invocation)
    public void change() {
        changeTenPercent();
    }

    /** Closes the stores and stops the executor. */
    @TearDown(Level.Trial)
    public void stop() {
        full.close();
        differential.close();
        executor.shutdownNow();
    }

    /** A full commit of the state. */
    @Benchmark
    public FragmentIndex fullCommit() {
        return full.commit("job", state);
    }

    /** A differential commit of the state, a tenth of whose blocks changed since the last one. */
    @Benchmark
    public FragmentIndex differentialCommit() {
        return differential.commit("job", state);
    }

    /** Recovery of the newest full checkpoint. */
    @Benchmark
    public RecoveredCheckpoint fullRecover() {
        return full.recover("job").orElseThrow();
    }

    /** Recovery of the newest differential checkpoint: its own segment and those it lists. */
    @Benchmark
    public RecoveredCheckpoint differentialRecover() {
        return differential.recover("job").orElseThrow();
    }
}
