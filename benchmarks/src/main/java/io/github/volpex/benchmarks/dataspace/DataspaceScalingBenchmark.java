package io.github.volpex.benchmarks.dataspace;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.Replica;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Throughput under contention: 4 logical processes × 2 replicas, each process on its own tag, spread over 1, 2 or 4
 * threads (JMH's {@code -t}): the 8 replicas are cut into as many contiguous blocks as there are threads, so both
 * replicas of a process always run on the same thread, in turn (one leads, the other replays from the read log).
 * Each operation is one replica's put and get of a 64-byte item. A {@link ConcurrentHashMap} put+remove on the same
 * tags, spread the same way, is the baseline. With a dataspace that serialises everything the throughput falls as
 * threads are added; with per-process and per-tag state it should grow with the cores.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DataspaceScalingBenchmark {

    static final int PROCESSES = 4;
    static final int REPLICAS = 2;
    static final int DATA_BYTES = 64;

    /** The dataspace and the map all threads share. */
    @State(Scope.Benchmark)
    public static class Shared {
        final AtomicInteger nextThread = new AtomicInteger();
        final ConcurrentHashMap<String, byte[]> map = new ConcurrentHashMap<>();
        Dataspace dataspace;
        int threads;

        /**
         * Creates the dataspace.
         *
         * @param params the run's parameters (its thread count)
         */
        @Setup(Level.Trial)
        public void open(BenchmarkParams params) {
            threads = params.getThreads();
            if (threads < 1 || (PROCESSES * REPLICAS) % threads != 0 || threads > PROCESSES) {
                throw new IllegalArgumentException("threads must be 1, 2 or 4: " + threads);
            }
            dataspace = Dataspace.inProcess(PROCESSES);
        }

        /** Closes the dataspace. */
        @TearDown(Level.Trial)
        public void close() {
            dataspace.close();
        }
    }

    /** One thread's block of replicas, visited in turn. */
    @State(Scope.Thread)
    public static class Slice {
        final byte[] data = new byte[DATA_BYTES];
        Replica[] replicas;
        String[] tags;
        int next;

        /**
         * Opens this thread's replicas.
         *
         * @param shared the shared dataspace
         */
        @Setup(Level.Trial)
        public void open(Shared shared) {
            int thread = shared.nextThread.getAndIncrement();
            int total = PROCESSES * REPLICAS;
            List<Replica> mine = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (int i = 0; i < total; i++) {
                if (i * shared.threads / total == thread) {
                    int process = i / REPLICAS;
                    mine.add(shared.dataspace.open(process));
                    names.add("tag-" + process);
                }
            }
            replicas = mine.toArray(new Replica[0]);
            tags = names.toArray(new String[0]);
        }

        int advance() {
            int i = next;
            next = i + 1 == replicas.length ? 0 : i + 1;
            return i;
        }
    }

    /**
     * One replica's put and get, the replicas of this thread in turn.
     *
     * @param slice the thread's replicas
     * @return the item received
     * @throws InterruptedException never: the item is there
     */
    @Benchmark
    public byte[] replicaPutGet(Slice slice) throws InterruptedException {
        int i = slice.advance();
        Replica replica = slice.replicas[i];
        replica.put(slice.tags[i], slice.data);
        return replica.get(slice.tags[i]);
    }

    /**
     * Baseline: a put and a remove in a {@link ConcurrentHashMap} on the same tags.
     *
     * @param shared the shared map
     * @param slice  the thread's tags
     * @return the removed item
     */
    @Benchmark
    public byte[] baselineMapPutRemove(Shared shared, Slice slice) {
        int i = slice.advance();
        shared.map.put(slice.tags[i], slice.data);
        return shared.map.remove(slice.tags[i]);
    }
}
