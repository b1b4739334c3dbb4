package io.github.volpex.benchmarks.dataspace;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.Replica;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Replicated throughput, the shape of the paper's Figs. 2–5: each thread is one logical process run by 1, 2 or 4
 * replicas in lockstep (the paper's worst case, all replicas issuing the same call at once). The first replica's call
 * executes; the others' puts are ignored as duplicates (their data is not even copied) and their gets are served from
 * the read log, each receiving its own copy. Scores are per logical operation, all replicas included; with large items
 * the copies dominate, which is where the paper's shape shows (trailing puts send nothing, every get sends the item).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(2)
public class DataspaceReplicationBenchmark {

    /** The shared dataspace. */
    @State(Scope.Benchmark)
    public static class Shared {
        final AtomicInteger nextProcess = new AtomicInteger();
        Dataspace dataspace;

        /** Creates the dataspace. */
        @Setup(Level.Trial)
        public void open() {
            dataspace = Dataspace.inProcess(DataspaceBenchmark.PROCESSES);
        }

        /** Closes the dataspace. */
        @TearDown(Level.Trial)
        public void close() {
            dataspace.close();
        }
    }

    /** One logical process per thread, run by {@link #replicas} replicas. */
    @State(Scope.Thread)
    public static class Process {
        /** Replicas per logical process. */
        @Param({"1", "2", "4"})
        public int replicas;
        /** Size of the item put and got. */
        @Param({"64", "65536"})
        public int dataBytes;
        byte[] data;
        String tag;
        Replica[] handles;

        /**
         * Takes a process id and opens its replicas.
         *
         * @param shared the shared dataspace
         */
        @Setup(Level.Trial)
        public void open(Shared shared) {
            int processId = shared.nextProcess.getAndIncrement() % DataspaceBenchmark.PROCESSES;
            tag = "tag-" + processId;
            data = new byte[dataBytes];
            handles = new Replica[replicas];
            for (int i = 0; i < replicas; i++) {
                handles[i] = shared.dataspace.open(processId);
            }
        }
    }

    /**
     * One logical put, issued by every replica.
     *
     * @param process the thread's process
     */
    @Benchmark
    public void replicatedPut(Process process) {
        for (Replica replica : process.handles) {
            replica.put(process.tag, process.data);
        }
    }

    /**
     * One logical put then one logical get, each issued by every replica.
     *
     * @param process the thread's process
     * @param sink    consumes the items received
     * @throws InterruptedException never: the item is there
     */
    @Benchmark
    public void replicatedPutGet(Process process, Blackhole sink) throws InterruptedException {
        for (Replica replica : process.handles) {
            replica.put(process.tag, process.data);
        }
        for (Replica replica : process.handles) {
            sink.consume(replica.get(process.tag));
        }
    }
}
