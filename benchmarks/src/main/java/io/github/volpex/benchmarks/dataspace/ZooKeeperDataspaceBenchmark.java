package io.github.volpex.benchmarks.dataspace;

import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.zookeeper.EmbeddedZooKeeper;
import io.github.volpex.dataspace.zookeeper.ZooKeeperDataspace;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
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

/**
 * The ZooKeeper dataspace on a 3-server ensemble on loopback (in the benchmark's JVM, transaction logs synced to disk)
 * beside the raw ZooKeeper cost of the same work: a put and a get (tuple present) by the leading replica beside one raw
 * {@code multi} of the same operations and sizes as the transaction the dataspace commits (set the process record,
 * create the log entry, delete the entry the full log evicts, then set or delete the tag record), and a trailing
 * replica's get (answered from the read log) beside one raw {@code getData} of a log entry. The dataspace adds one
 * read-only {@code multi} before each commit; the goals are a put or a get within 1.5× the raw {@code multi} and a
 * trailing get within 1.5× the raw read.
 *
 * <p>Latency: {@code -bm sample} (p50 and p99 per operation). Throughput: {@code -bm thrpt -t 4} (each thread its own
 * processes, tags and raw znodes). Setups that put the tuple a get takes, or open the trailing replica at its position,
 * run outside the measured time.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ZooKeeperDataspaceBenchmark {

    static final int PROCESSES = 64;
    /** The dataspace's default read-log capacity: the raw baseline keeps as many entries and deletes as it goes. */
    static final int LOG = 1024;
    /** Requests a trailing replica replays, from the leader's log. */
    static final int TRAIL = 256;
    /** Bytes of a process record and of a log entry's fixed part, as the dataspace encodes them. */
    static final int PROCESS_RECORD = 30;
    static final int ENTRY = 40;
    static final int TAG_RECORD = 11;

    /** The ensemble, one dataspace client and one raw client, shared by the benchmark's threads. */
    @State(Scope.Benchmark)
    public static class Cluster {
        final AtomicInteger threads = new AtomicInteger();
        EmbeddedZooKeeper ensemble;
        ZooKeeperDataspace dataspace;
        ZooKeeper raw;

        /** Starts the ensemble and connects both clients. */
        @Setup(Level.Trial)
        public void start() throws Exception {
            ensemble = EmbeddedZooKeeper.start(3);
            dataspace = ZooKeeperDataspace.connect(ensemble.connectString(), "/bench", PROCESSES);
            CountDownLatch connected = new CountDownLatch(1);
            raw = new ZooKeeper(ensemble.connectString(), 10_000, event -> {
                if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    connected.countDown();
                }
            });
            if (!connected.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the raw client did not connect");
            }
            raw.create("/raw", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }

        /** Closes the clients and stops the ensemble. */
        @TearDown(Level.Trial)
        public void stop() throws Exception {
            dataspace.close();
            raw.close();
            ensemble.close();
        }
    }

    /** One thread's processes, tags and raw znodes. */
    @State(Scope.Thread)
    public static class Client {
        /** Bytes of each value. */
        @Param({"64", "4096"})
        public int size;

        int thread;
        byte[] value;
        Replica putter;
        Replica writer;
        Replica getter;
        int trailingProcess;
        String rawPath;
        byte[] rawProcess;
        byte[] rawPutEntry;
        byte[] rawGetEntry;
        byte[] rawTag;
        long rawPuts;
        long rawGets;

        /** Opens the replicas, creates the raw znodes, and runs the leader that the trailing replica replays. */
        @Setup(Level.Trial)
        public void open(Cluster cluster) throws Exception {
            thread = cluster.threads.getAndIncrement();
            int base = 4 * thread;
            value = new byte[size];
            putter = cluster.dataspace.open(base);
            writer = cluster.dataspace.open(base + 1);
            getter = cluster.dataspace.open(base + 2);
            trailingProcess = base + 3;
            rawPath = "/raw/" + thread;
            rawProcess = new byte[PROCESS_RECORD];
            rawPutEntry = new byte[ENTRY + 6];
            rawGetEntry = new byte[ENTRY + 6 + 5 + size];
            rawTag = new byte[TAG_RECORD + 5 + size];
            for (String node : List.of(rawPath, rawPath + "/p", rawPath + "/g", rawPath + "/t")) {
                cluster.raw.create(node, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            cluster.raw.create(rawPath + "/entry", rawGetEntry, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            Replica leader = cluster.dataspace.open(trailingProcess);
            for (int i = 0; i < TRAIL; i++) {
                writer.put(trailTag(i), value);
                leader.get(trailTag(i));
            }
        }

        String putTag() {
            return "put-" + thread;
        }

        String getTag() {
            return "get-" + thread;
        }

        String trailTag(int request) {
            return "trail-" + thread + "-" + request;
        }
    }

    /** The tuple the next get takes, put outside the measured time. */
    @State(Scope.Thread)
    public static class Tuple {
        /** Puts it. */
        @Setup(Level.Invocation)
        public void put(Client client) {
            client.writer.put(client.getTag(), client.value);
        }
    }

    /** The tag znode the next raw get transaction deletes, created outside the measured time. */
    @State(Scope.Thread)
    public static class RawTuple {
        /** Creates it. */
        @Setup(Level.Invocation)
        public void create(Cluster cluster, Client client) throws Exception {
            cluster.raw.create(client.rawPath + "/tg", client.rawTag, ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT);
        }
    }

    /** A trailing replica, opened at its next position in the leader's log outside the measured time. */
    @State(Scope.Thread)
    public static class Trailing {
        int request;
        Replica replica;

        /** Opens it. */
        @Setup(Level.Invocation)
        public void open(Cluster cluster, Client client) {
            request = (request + 1) % TRAIL;
            replica = cluster.dataspace.open(client.trailingProcess, request);
        }
    }

    /** Raw: the transaction shape of a leading put (set tag, delete evicted entry, create entry, set process). */
    @Benchmark
    public Object rawPutTransaction(Cluster cluster, Client client) throws Exception {
        return cluster.raw.multi(logged(Op.setData(client.rawPath + "/t", client.rawTag, -1), client.rawPath + "/p",
                client.rawPuts++, client.rawPutEntry, client.rawProcess));
    }

    /** A put by the leading replica (the tag is present: its value is overwritten). */
    @Benchmark
    public void put(Client client) {
        client.putter.put(client.putTag(), client.value);
    }

    /** Raw: the transaction shape of a leading get of a present tuple (delete tag, the rest as a put). */
    @Benchmark
    public Object rawGetTransaction(Cluster cluster, Client client, RawTuple tuple) throws Exception {
        return cluster.raw.multi(logged(Op.delete(client.rawPath + "/tg", -1), client.rawPath + "/g",
                client.rawGets++, client.rawGetEntry, client.rawProcess));
    }

    /** A tag operation, then what every leading request adds: evict, log and advance the process record. */
    private static List<Op> logged(Op tag, String process, long request, byte[] entry, byte[] record) {
        List<Op> ops = new ArrayList<>(4);
        ops.add(tag);
        if (request >= LOG) {
            ops.add(Op.delete(process + "/" + (request - LOG), -1));
        }
        ops.add(Op.create(process + "/" + request, entry, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
        ops.add(Op.setData(process, record, -1));
        return ops;
    }

    /** A get by the leading replica; the tuple is present. */
    @Benchmark
    public byte[] get(Client client, Tuple tuple) throws InterruptedException {
        return client.getter.get(client.getTag());
    }

    /** Raw: one read of a znode the size of a get's log entry. */
    @Benchmark
    public byte[] rawRead(Cluster cluster, Client client) throws Exception {
        return cluster.raw.getData(client.rawPath + "/entry", false, null);
    }

    /** A trailing replica's get, answered from the leader's read log. */
    @Benchmark
    public byte[] trailingGet(Client client, Trailing trailing) throws InterruptedException {
        return trailing.replica.get(client.trailTag(trailing.request));
    }
}
