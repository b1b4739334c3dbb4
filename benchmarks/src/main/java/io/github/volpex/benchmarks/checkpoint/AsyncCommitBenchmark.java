package io.github.volpex.benchmarks.checkpoint;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import java.util.ArrayList;
import java.util.List;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a 256 MiB checkpoint costs the calling thread: an asynchronous commit (the snapshot; the persist runs on the
 * store's executor and is waited for outside the measurement) beside a synchronous commit of the same bytes, and
 * beside one in-memory copy of them, the floor an asynchronous commit that copies can reach. IDA (6, 3) on nine
 * in-memory repositories, an executor of four threads: the repositories cost no network, so the synchronous commit
 * here is the encoding and the protocol, a lower bound of what it costs on real endpoints.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g"})
public class AsyncCommitBenchmark {

    private static final int CHECKPOINT_BYTES = 256 << 20;

    private ExecutorService executor;
    private CheckpointStore store;
    private byte[] checkpoint;

    /** The stage of the last asynchronous commit, waited for after each shot, outside the measured time. */
    @State(Scope.Thread)
    public static class Persist {
        CompletionStage<FragmentIndex> stage;

        /**
         * Keeps {@code stage} to wait for after the shot.
         *
         * @param stage the stage of the shot's asynchronous commit
         */
        public void await(CompletionStage<FragmentIndex> stage) {
            this.stage = stage;
        }

        /** Waits until the shot's persist is durable, so that no persist runs during the next shot. */
        @TearDown(Level.Invocation)
        public void awaitDurable() {
            if (stage != null) {
                stage.toCompletableFuture().join();
                stage = null;
            }
        }
    }

    /** Builds the store on nine in-memory repositories and the checkpoint's bytes. */
    @Setup(Level.Trial)
    public void start() {
        checkpoint = new byte[CHECKPOINT_BYTES];
        new SplittableRandom(1).nextBytes(checkpoint);
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            repositories.add(FragmentRepository.inMemory("memory-" + i));
        }
        executor = Executors.newFixedThreadPool(4);
        store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories).executor(executor).build();
    }

    /** Closes the store and stops the executor. */
    @TearDown(Level.Trial)
    public void stop() {
        store.close();
        executor.shutdownNow();
    }

    /** The floor: one copy of the bytes into a new array. */
    @Benchmark
    public byte[] copy() {
        return checkpoint.clone();
    }

    /** What the caller of an asynchronous commit waits for: the snapshot and the hand-over to the executor. */
    @Benchmark
    public CompletionStage<FragmentIndex> asyncCommit(Persist persist) {
        CompletionStage<FragmentIndex> stage = store.commitAsync("job", checkpoint);
        persist.await(stage);
        return stage;
    }

    /** What the caller of a synchronous commit waits for: everything up to durability, and the clean-up. */
    @Benchmark
    public FragmentIndex syncCommit() {
        return store.commit("job", checkpoint);
    }
}
