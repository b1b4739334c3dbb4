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
 * replica's get (answered from the read log) beside one raw {@code getData} of a log entry. A leading replica commits
 * on the state its client remembers (one {@code multi}, with one more operation than the raw one: the tag guard's
 * {@code check} or {@code setData}); the goals are a put or a get within 1.5× the raw {@code multi} and a trailing
 * get within 1.5× the raw read.
 *
 * <p>Latency: {@code -bm sample} (p50 and p99 per operation). Throughput: {@code -bm thrpt -t 4} or {@code -t 16}
 * (each thread its own processes, tags and raw znodes, all on the one dataspace client, whose group commit sends
 * concurrent requests' transactions as one {@code multi}; the raw threads share one raw client, which pipelines its
 * requests); {@code -bm sample -t 16} gives the latency under that load. Setups that put the tuple a get takes, or open
 * the trailing replica at its position, run outside the measured time.
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

    /**
     * The ensemble, one dataspace client and one raw client, shared by the benchmark's threads, and the value size.
     * Each benchmark's thread state below depends on this state only: JMH gives a state injected into another state's
     * fixture an instance of its own.
     */
    @State(Scope.Benchmark)
    public static class Cluster {
        /** Bytes of each value. */
        @Param({"64", "4096"})
        public int size;

        final AtomicInteger nextProcess = new AtomicInteger();
        final AtomicInteger nextNode = new AtomicInteger();
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

        /** Creates a fresh raw znode path with the given children, for one thread. */
        String rawNode(String... children) throws Exception {
            String path = "/raw/" + nextNode.getAndIncrement();
            raw.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            for (String child : children) {
                raw.create(path + "/" + child, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            return path;
        }
    }

    /** A leading replica that puts, over and over, on one tag. */
    @State(Scope.Thread)
    public static class Putter {
        Replica replica;
        String tag;
        byte[] value;

        /** Opens the replica. */
        @Setup(Level.Trial)
        public void open(Cluster cluster) {
            int process = cluster.nextProcess.getAndIncrement();
            replica = cluster.dataspace.open(process);
            tag = "put-" + process;
            value = new byte[cluster.size];
        }
    }

    /** A leading replica that gets a tuple another process put outside the measured time. */
    @State(Scope.Thread)
    public static class Getter {
        Replica writer;
        Replica getter;
        String tag;
        byte[] value;

        /** Opens the writer and the getter. */
        @Setup(Level.Trial)
        public void open(Cluster cluster) {
            int process = cluster.nextProcess.getAndAdd(2);
            writer = cluster.dataspace.open(process);
            getter = cluster.dataspace.open(process + 1);
            tag = "get-" + process;
            value = new byte[cluster.size];
        }

        /** Puts the tuple the next get takes. */
        @Setup(Level.Invocation)
        public void put() {
            writer.put(tag, value);
        }
    }

    /** A trailing replica, opened at its next position in its leader's read log outside the measured time. */
    @State(Scope.Thread)
    public static class Trailer {
        Cluster cluster;
        int process;
        int request;
        Replica replica;

        /** Runs the leader: {@code TRAIL} gets of tuples another process put. */
        @Setup(Level.Trial)
        public void lead(Cluster cluster) throws InterruptedException {
            this.cluster = cluster;
            int writerProcess = cluster.nextProcess.getAndAdd(2);
            process = writerProcess + 1;
            Replica writer = cluster.dataspace.open(writerProcess);
            Replica leader = cluster.dataspace.open(process);
            byte[] value = new byte[cluster.size];
            for (int i = 0; i < TRAIL; i++) {
                writer.put(tag(i), value);
                leader.get(tag(i));
            }
        }

        String tag(int i) {
            return "trail-" + process + "-" + i;
        }

        /** Opens the trailing replica before its next request. */
        @Setup(Level.Invocation)
        public void open() {
            request = (request + 1) % TRAIL;
            replica = cluster.dataspace.open(process, request);
        }
    }

    /** Raw znodes shaped like a process record, its log entries and a tag record. */
    @State(Scope.Thread)
    public static class RawPutter {
        String process;
        String tag;
        byte[] record = new byte[PROCESS_RECORD];
        byte[] entry = new byte[ENTRY + 6];
        byte[] tagRecord;
        long request;

        /** Creates the znodes. */
        @Setup(Level.Trial)
        public void create(Cluster cluster) throws Exception {
            String root = cluster.rawNode("p", "t");
            process = root + "/p";
            tag = root + "/t";
            tagRecord = new byte[TAG_RECORD + 5 + cluster.size];
        }
    }

    /** Raw znodes for a get: the tag node to delete is created outside the measured time. */
    @State(Scope.Thread)
    public static class RawGetter {
        ZooKeeper raw;
        String process;
        String tag;
        byte[] record = new byte[PROCESS_RECORD];
        byte[] entry;
        byte[] tagRecord;
        long request;

        /** Creates the znodes. */
        @Setup(Level.Trial)
        public void create(Cluster cluster) throws Exception {
            raw = cluster.raw;
            String root = cluster.rawNode("g");
            process = root + "/g";
            tag = root + "/tg";
            entry = new byte[ENTRY + 6 + 5 + cluster.size];
            tagRecord = new byte[TAG_RECORD + 5 + cluster.size];
        }

        /** Creates the tag node the next transaction deletes. */
        @Setup(Level.Invocation)
        public void put() throws Exception {
            raw.create(tag, tagRecord, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
    }

    /** A raw znode the size of a get's log entry. */
    @State(Scope.Thread)
    public static class RawReader {
        String entry;

        /** Creates it. */
        @Setup(Level.Trial)
        public void create(Cluster cluster) throws Exception {
            entry = cluster.rawNode() + "/entry";
            cluster.raw.create(entry, new byte[ENTRY + 6 + 5 + cluster.size], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT);
        }
    }

    /** Raw: the transaction shape of a leading put (set tag, delete evicted entry, create entry, set process). */
    @Benchmark
    public Object rawPutTransaction(Cluster cluster, RawPutter raw) throws Exception {
        return cluster.raw.multi(logged(Op.setData(raw.tag, raw.tagRecord, -1), raw.process, raw.request++,
                raw.entry, raw.record));
    }

    /** A put by the leading replica (the tag is present: its value is overwritten). */
    @Benchmark
    public void put(Putter putter) {
        putter.replica.put(putter.tag, putter.value);
    }

    /** Raw: the transaction shape of a leading get of a present tuple (delete tag, the rest as a put). */
    @Benchmark
    public Object rawGetTransaction(RawGetter raw) throws Exception {
        return raw.raw.multi(logged(Op.delete(raw.tag, -1), raw.process, raw.request++, raw.entry, raw.record));
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
    public byte[] get(Getter getter) throws InterruptedException {
        return getter.getter.get(getter.tag);
    }

    /** Raw: one read of a znode the size of a get's log entry. */
    @Benchmark
    public byte[] rawRead(Cluster cluster, RawReader reader) throws Exception {
        return cluster.raw.getData(reader.entry, false, null);
    }

    /** A trailing replica's get, answered from the leader's read log. */
    @Benchmark
    public byte[] trailingGet(Trailer trailer) throws InterruptedException {
        return trailer.replica.get(trailer.tag(trailer.request));
    }
}
