package io.github.volpex.benchmarks.dataspace;

import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.DataspaceServer;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.Reply;
import io.github.volpex.dataspace.Request;
import java.util.concurrent.CompletableFuture;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One put and one get of a 64-byte item by the leading replica, the same pair replayed by a trailing replica from
 * the read log, and a get that waits (submitted) until another process's put serves it, against a
 * {@link ConcurrentHashMap} put+remove of the same item as the baseline. Two threads, each its
 * own logical process and tag. {@link #harnessOverhead} takes the same states and returns the same item without any
 * map or dataspace call: what JMH's loop, the state arguments and the result sink cost by themselves, to be taken off
 * every figure before comparing them ({@link DataspaceContentionReport} does).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(2)
public class DataspaceBenchmark {

    static final int PROCESSES = 64;
    static final int DATA_BYTES = 64;
    /** Pairs the leader runs ahead of the trailing replica; the trailer replays them in a loop. */
    static final int WINDOW_PAIRS = 512;

    /** The structures shared by both threads. */
    @State(Scope.Benchmark)
    public static class Shared {
        final AtomicInteger nextProcess = new AtomicInteger();
        final ConcurrentHashMap<String, byte[]> map = new ConcurrentHashMap<>();
        Dataspace dataspace;

        /** Creates the dataspace. */
        @Setup(Level.Trial)
        public void open() {
            dataspace = Dataspace.inProcess(PROCESSES,
                    DataspaceOptions.builder().readLogCapacity(4 * WINDOW_PAIRS).build());
        }

        /** Closes the dataspace. */
        @TearDown(Level.Trial)
        public void close() {
            dataspace.close();
        }
    }

    /** One logical process per thread: its tag, data, leading replica and trailing replica. */
    @State(Scope.Thread)
    public static class Process {
        final byte[] data = new byte[DATA_BYTES];
        String tag;
        int processId;
        Replica leader;
        Replica trailer;
        long windowStart;
        int replayed;

        /**
         * Takes a process id, opens its leading replica and runs it {@link #WINDOW_PAIRS} pairs ahead of the trailer.
         *
         * @param shared the shared dataspace
         * @throws InterruptedException never: the data is always there
         */
        @Setup(Level.Trial)
        public void open(Shared shared) throws InterruptedException {
            processId = shared.nextProcess.getAndIncrement() % PROCESSES;
            tag = "tag-" + processId;
            leader = shared.dataspace.open(processId);
            windowStart = leader.requestNumber();
            for (int i = 0; i < WINDOW_PAIRS; i++) {
                leader.put(tag, data);
                leader.get(tag);
            }
            trailer = shared.dataspace.open(processId, windowStart);
        }

        /** Restarts the trailer at the start of the window once it has replayed it all. */
        void rewindIfNeeded(Shared shared) {
            if (++replayed == WINDOW_PAIRS) {
                replayed = 0;
                trailer = shared.dataspace.open(processId, windowStart);
            }
        }
    }

    /** Per thread, two more processes: one whose gets wait on the thread's tag, one whose puts serve them. */
    @State(Scope.Thread)
    public static class Served {
        final byte[] data = new byte[DATA_BYTES];
        String tag;
        int waiter;
        int putter;
        long waiterRequests;
        long putterRequests;

        /**
         * Takes two process ids.
         *
         * @param shared the shared dataspace
         */
        @Setup(Level.Trial)
        public void open(Shared shared) {
            waiter = shared.nextProcess.getAndIncrement() % PROCESSES;
            putter = shared.nextProcess.getAndIncrement() % PROCESSES;
            tag = "served-" + waiter;
        }
    }

    /**
     * The harness alone: the baseline's state arguments and result, with no map call.
     *
     * @param shared  the shared map (read, as the baseline reads it)
     * @param process the thread's key and data
     * @return the thread's item
     */
    @Benchmark
    public byte[] harnessOverhead(Shared shared, Process process) {
        return shared.map == null ? null : process.data;
    }

    /**
     * Baseline: put and remove the item in a {@link ConcurrentHashMap} under the thread's own key.
     *
     * @param shared  the shared map
     * @param process the thread's key and data
     * @return the removed item
     */
    @Benchmark
    public byte[] baselineConcurrentHashMapPutRemove(Shared shared, Process process) {
        shared.map.put(process.tag, process.data);
        return shared.map.remove(process.tag);
    }

    /**
     * A put and a get by the leading replica: both execute against the dataspace table and are logged.
     *
     * @param process the thread's process
     * @return the item received
     * @throws InterruptedException never: the item is there
     */
    @Benchmark
    public byte[] leadingPutGet(Process process) throws InterruptedException {
        process.leader.put(process.tag, process.data);
        return process.leader.get(process.tag);
    }

    /**
     * A get submitted while its tag is empty, so that it waits in the tag's queue, then a put of another process that
     * serves it inside its step; the get's future completes once the put's step is over.
     *
     * @param shared the shared dataspace
     * @param served the thread's two processes
     * @return the get's reply
     * @throws InterruptedException never: the put does not wait
     */
    @Benchmark
    public Reply waitingGetServedByPut(Shared shared, Served served) throws InterruptedException {
        DataspaceServer server = shared.dataspace.server();
        CompletableFuture<Reply> get = server.submit(Request.get(served.waiter, ++served.waiterRequests, served.tag));
        server.handle(Request.put(served.putter, ++served.putterRequests, served.tag, served.data));
        return get.join();
    }

    /**
     * The same pair replayed by a trailing replica: the put is ignored as a duplicate and the get is served from the
     * read log.
     *
     * @param shared  the shared dataspace
     * @param process the thread's process
     * @return the item received
     * @throws InterruptedException never: the item is in the log
     */
    @Benchmark
    public byte[] trailingPutGetFromLog(Shared shared, Process process) throws InterruptedException {
        process.trailer.put(process.tag, process.data);
        byte[] received = process.trailer.get(process.tag);
        process.rewindIfNeeded(shared);
        return received;
    }
}
