package io.github.volpex.dataspace.zookeeper;

import static io.github.volpex.dataspace.zookeeper.Utf8.bytes;
import static io.github.volpex.dataspace.zookeeper.Utf8.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.ReplicaDivergenceException;
import io.github.volpex.dataspace.zookeeper.Records.Header;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input gets a clear exception or is stored faithfully, never a wrong answer: tags that collide with the znode
 * layout, values too large or impossible to store, two clients on one namespace, the leftovers of a crashed run, and
 * namespaces or options ZooKeeper cannot hold.
 */
// A hang guard only, far above the run time of a loaded machine.
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class BadInputTest {

    private static TestEnsemble ensemble;

    @TempDir
    Path directory;

    @BeforeAll
    static void start() throws Exception {
        ensemble = TestEnsemble.start(1, "/bad");
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    private static ZooKeeperDataspace connect(String namespace, int processCount) {
        return ZooKeeperDataspace.connect(ensemble.connectString(), namespace, processCount);
    }

    // ---- tags ---------------------------------------------------------------------------------------------------

    @Test
    void tags_that_collide_with_the_znode_layout_are_distinct_and_round_trip() throws Exception {
        String namespace = ensemble.freshNamespace();
        StringBuilder longest = new StringBuilder();
        for (int i = 0; i < 1024; i++) {
            longest.append((char) ('a' + i % 26));
        }
        List<String> tags = new ArrayList<>(List.of("/", "//", ".", "..", "%", "%002F", "~", "~abc", "a/b/c", "p",
                "t", "b", "0", "1", "zookeeper", "-", "_", "a b", "ünïcödé 🦊", "\uD800", "\uDC00x", "\u0001\u001F",
                "\u007F\u009F", "\uFFFF", "\u0000", longest.toString(), longest.substring(1) + "b",
                "/".repeat(201), "%".repeat(40)));
        assertEquals(tags.size(), new HashSet<>(tags).size());
        Set<String> names = new HashSet<>();
        for (String tag : tags) {
            assertTrue(names.add(TagNames.name(tag)), "distinct name for " + tag);
        }
        try (ZooKeeperDataspace dataspace = connect(namespace, 2)) {
            Replica writer = dataspace.open(0);
            for (int i = 0; i < tags.size(); i++) {
                writer.put(tags.get(i), bytes("v" + i));
            }
            Replica reader = dataspace.open(1);
            for (int i = 0; i < tags.size(); i++) {
                assertEquals("v" + i, text(reader.get(tags.get(i))), "tag #" + i);
            }
            Replica trailer = dataspace.open(1);
            for (int i = 0; i < tags.size(); i++) {
                assertEquals("v" + i, text(trailer.get(tags.get(i))), "replayed tag #" + i);
            }
            ReplicaDivergenceException divergence = assertThrows(ReplicaDivergenceException.class,
                    () -> dataspace.open(0).put(tags.get(1), bytes("v1")));
            assertEquals(tags.get(0), divergence.loggedTag());
            ReplicaDivergenceException hashed = assertThrows(ReplicaDivergenceException.class,
                    () -> dataspace.open(0, tags.indexOf(longest.toString())).put("x", bytes("v")));
            assertEquals(longest.toString(), hashed.loggedTag(), "a hashed name's tag comes from the dictionary");
            assertEquals(Operation.PUT, hashed.loggedOperation());
        }
        ensemble.inspector().check(namespace);
    }

    @Test
    void tags_beyond_the_limit_are_refused_with_the_bound() {
        try (ZooKeeperDataspace dataspace = ZooKeeperDataspace.connect(ensemble.connectString(),
                ensemble.freshNamespace(), 1, DataspaceOptions.builder().maxTagLength(10_000).build())) {
            Replica replica = dataspace.open(0);
            String huge = "é".repeat(10_000);
            replica.put(huge, bytes("v"));
            assertEquals("v", text(replica.tryGet(huge).orElseThrow()));
            assertEquals("tag length must be <= 10000 chars: 10001", assertThrows(IllegalArgumentException.class,
                    () -> replica.put(huge + "x", bytes("v"))).getMessage());
            assertEquals("tag must not be empty", assertThrows(IllegalArgumentException.class,
                    () -> replica.tryRead("")).getMessage());
            assertEquals(2, replica.requestNumber());
        }
    }

    // ---- values -------------------------------------------------------------------------------------------------

    @Test
    void an_oversized_value_is_refused_and_issues_nothing() {
        try (ZooKeeperDataspace dataspace = ZooKeeperDataspace.connect(ensemble.connectString(),
                ensemble.freshNamespace(), 1, DataspaceOptions.builder().maxDataBytes(1000).build())) {
            Replica replica = dataspace.open(0);
            assertEquals("data length must be <= 1000 bytes: 1001", assertThrows(IllegalArgumentException.class,
                    () -> replica.put("x", new byte[1001])).getMessage());
            assertEquals(0, replica.requestNumber());
            assertEquals(0, dataspace.statistics().totalRequests());
            assertEquals(0, dataspace.server().highWaterMark(0));
        }
    }

    @Test
    void a_value_the_blob_store_cannot_store_is_a_typed_error_and_leaves_nothing_visible() throws Exception {
        String namespace = ensemble.freshNamespace();
        FlakyStore store = new FlakyStore(BlobStore.directory(directory), 1);
        try (ZooKeeperDataspace dataspace = ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                .processCount(2).blobStore(store).inlineLimitBytes(0).connect()) {
            Replica writer = dataspace.open(0);
            BlobStoreException refused = assertThrows(BlobStoreException.class,
                    () -> writer.put("x", bytes("too bad")));
            assertTrue(refused.getMessage().contains("process 0, request 1 (PUT \"x\")"), refused.getMessage());
            assertTrue(refused.key().matches("[0-9a-f]+-[0-9a-f]{64}-[0-9a-f]+"), refused.key());
            assertEquals(0, writer.requestNumber());
            assertEquals(0, dataspace.server().highWaterMark(0), "nothing was issued");
            assertTrue(dataspace.open(1).tryRead("x").isEmpty(), "nothing is visible");
            NamespaceInspector.Snapshot snapshot = ensemble.inspector().check(namespace);
            assertTrue(snapshot.blobs().isEmpty(), "the failed put left no reference: " + snapshot.blobs());
            writer.put("x", bytes("fine"));
            assertEquals("fine", text(dataspace.open(1, 1).get("x")));
            assertEquals(1, ensemble.inspector().check(namespace).blobs().size());
            assertEquals(1, store.keys().size());
        }
    }

    @Test
    void a_blob_that_fails_verification_is_a_typed_error_not_wrong_data() throws Exception {
        String namespace = ensemble.freshNamespace();
        try (ZooKeeperDataspace dataspace = ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                .processCount(2).blobStore(BlobStore.directory(directory)).inlineLimitBytes(0).connect()) {
            dataspace.open(0).put("x", bytes("genuine"));
            Path blob = directory.resolve(BlobStore.directory(directory).keys().get(0));
            java.nio.file.Files.writeString(blob, "forgery");
            BlobStoreException forged = assertThrows(BlobStoreException.class, () -> dataspace.open(1).get("x"));
            assertTrue(forged.getMessage().contains("fails verification"), forged.getMessage());
            java.nio.file.Files.delete(blob);
            BlobStoreException missing = assertThrows(BlobStoreException.class, () -> dataspace.open(1).get("x"));
            assertTrue(missing.getMessage().contains("missing"), missing.getMessage());
        }
    }

    // ---- namespaces ---------------------------------------------------------------------------------------------

    @Test
    void two_clients_on_one_namespace_share_it_when_they_agree_and_are_refused_when_they_do_not() throws Exception {
        String namespace = ensemble.freshNamespace();
        try (ZooKeeperDataspace first = connect(namespace, 2); ZooKeeperDataspace second = connect(namespace, 2)) {
            first.open(0).put("x", bytes("shared"));
            assertEquals("shared", text(second.open(1).get("x")));
            assertEquals("shared", text(first.open(1).get("x")), "replayed across clients");
            IllegalStateException count = assertThrows(IllegalStateException.class, () -> connect(namespace, 3));
            assertTrue(count.getMessage().contains("holds a dataspace of 2 processes")
                    && count.getMessage().contains("asked for 3 processes"), count.getMessage());
            IllegalStateException options = assertThrows(IllegalStateException.class,
                    () -> ZooKeeperDataspace.connect(ensemble.connectString(), namespace, 2,
                            DataspaceOptions.builder().readLogCapacity(7).build()));
            assertTrue(options.getMessage().contains("readLogCapacity=1024") && options.getMessage()
                    .contains("readLogCapacity=7"), options.getMessage());
            IllegalStateException store = assertThrows(IllegalStateException.class,
                    () -> ZooKeeperDataspace.builder(ensemble.connectString(), namespace).processCount(2)
                            .blobStore(BlobStore.directory(directory)).connect());
            assertTrue(store.getMessage().contains("external blob store"), store.getMessage());
        }
        ensemble.inspector().check(namespace);
    }

    @Test
    void a_namespace_left_by_a_crashed_run_resumes_where_it_stopped() throws Exception {
        String namespace = ensemble.freshNamespace();
        ZooKeeperDataspace crashed = connect(namespace, 3);
        crashed.open(0).put("x", bytes("left over"));
        Replica waiting = crashed.open(1);
        assertThrows(io.github.volpex.dataspace.DataspaceTimeoutException.class,
                () -> waiting.get("y", Duration.ZERO));
        crashed.close();
        try (ZooKeeperDataspace resumed = connect(namespace, 3)) {
            assertEquals(1, resumed.server().highWaterMark(0));
            assertEquals(1, resumed.server().highWaterMark(1));
            assertEquals("left over", text(resumed.open(2).get("x")));
            Replica restarted = resumed.open(1);
            resumed.open(0, 1).put("y", bytes("served"));
            assertEquals("served", text(restarted.get("y")), "the pending get of the crashed run was served");
            assertTrue(resumed.open(2, 1).tryRead("y").isEmpty(), "and it took the tuple");
        }
        ensemble.inspector().check(namespace);
    }

    @Test
    void blobs_orphaned_by_a_crashed_put_are_collected_when_the_next_client_connects() throws Exception {
        String namespace = ensemble.freshNamespace();
        String key;
        try (ZkDataspace dataspace = (ZkDataspace) ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                .processCount(1).inlineLimitBytes(0).connect()) {
            dataspace.open(0).put("kept", bytes("referenced"));
            key = ensemble.inspector().onlyStoreKey(namespace);
        }
        // A put that stored its blob, then died before committing: its pin went with its session.
        ZooKeeper zooKeeper = ensemble.inspector().zooKeeper();
        String orphan = "ab".repeat(32);
        Layout layout = new Layout(namespace);
        if (zooKeeper.exists(layout.referenceBucketPath(orphan), false) == null) {
            zooKeeper.create(layout.referenceBucketPath(orphan), new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT);
        }
        String reference = zooKeeper.create(layout.referencePath(orphan), Records.encodeCount(0),
                ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        long incarnation = zooKeeper.exists(reference, false).getCzxid();
        String prefix = key.substring(0, key.indexOf('-') + 1);
        String orphanKey = prefix + orphan + "-" + Long.toHexString(incarnation);
        String strayKey = prefix + "cd".repeat(32) + "-1";
        try (ZkDataspace session = (ZkDataspace) connect(namespace, 1)) {
            // connecting collected both; store two more as if written and abandoned since
            assertEquals(null, zooKeeper.exists(reference, false));
            new ZooKeeperBlobStore(session.context().session, namespace + "/s", TimeUnit.SECONDS.toNanos(10))
                    .write(orphanKey, bytes("orphan"));
            new ZooKeeperBlobStore(session.context().session, namespace + "/s", TimeUnit.SECONDS.toNanos(10))
                    .write(strayKey, bytes("stray"));
            assertEquals(2, session.collectGarbage());
            assertEquals(0, session.collectGarbage());
            assertEquals("referenced", text(session.open(0, 1).tryRead("kept").orElseThrow()));
        }
        assertEquals(Set.of(key.substring(prefix.length())), ensemble.inspector().check(namespace).blobs().keySet());
    }

    @Test
    void a_destroy_interrupted_by_a_crash_is_completed_by_the_next_client() throws Exception {
        String namespace = ensemble.freshNamespace();
        try (ZooKeeperDataspace dataspace = connect(namespace, 2)) {
            dataspace.open(0).put("x", bytes("old run"));
        }
        ZooKeeper zooKeeper = ensemble.inspector().zooKeeper();
        Header header = Header.decodeOrNull(zooKeeper.getData(namespace, false, null), namespace);
        zooKeeper.setData(namespace, header.beingDestroyed().encode(), -1);
        zooKeeper.delete(namespace + "/p/0/1", -1); // the crash came midway
        try (ZooKeeperDataspace fresh = connect(namespace, 2)) {
            assertEquals(0, fresh.server().highWaterMark(0));
            assertTrue(fresh.open(1).tryRead("x").isEmpty(), "a new, empty dataspace");
        }
        ensemble.inspector().check(namespace);
    }

    @Test
    void destroy_removes_everything_and_other_clients_are_told() throws Exception {
        String namespace = ensemble.freshNamespace();
        ZooKeeperDataspace other = connect(namespace, 2);
        try (ZooKeeperDataspace dataspace = ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                .processCount(2).inlineLimitBytes(0).connect()) {
            dataspace.open(0).put("x", bytes("v"));
            dataspace.destroy();
            assertTrue(dataspace.isClosed());
        }
        assertEquals(null, ensemble.inspector().zooKeeper().exists(namespace, false));
        IllegalStateException gone = assertThrows(IllegalStateException.class,
                () -> other.open(1).put("y", bytes("v")));
        assertTrue(gone.getMessage().contains("no longer exists"), gone.getMessage());
        other.close();
    }

    @Test
    void namespaces_that_are_not_dataspaces_or_not_paths_are_refused() throws Exception {
        String occupied = ensemble.freshNamespace();
        ensemble.inspector().zooKeeper().create(occupied, bytes("someone else's"), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT);
        IllegalStateException foreign = assertThrows(IllegalStateException.class, () -> connect(occupied, 1));
        assertTrue(foreign.getMessage().contains("is not a Volpex dataspace"), foreign.getMessage());
        String outer = ensemble.freshNamespace();
        try (ZooKeeperDataspace dataspace = connect(outer, 1)) {
            IllegalArgumentException nested = assertThrows(IllegalArgumentException.class,
                    () -> connect(outer + "/inner", 1));
            assertEquals("namespace " + outer + "/inner lies inside the dataspace at " + outer, nested.getMessage());
            IllegalArgumentException layout = assertThrows(IllegalArgumentException.class,
                    () -> connect(outer + "/p", 1));
            assertEquals("namespace " + outer + "/p lies inside the dataspace at " + outer, layout.getMessage());
            IllegalArgumentException deeper = assertThrows(IllegalArgumentException.class,
                    () -> connect(outer + "/t/x/y", 1));
            assertEquals("namespace " + outer + "/t/x/y lies inside the dataspace at " + outer, deeper.getMessage());
            assertEquals(0, dataspace.server().highWaterMark(0));
        }
        for (String bad : List.of("", "relative", "/trailing/", "/", "/zookeeper", "/zookeeper/x", "/a//b",
                "/a/./b", "/a\u0000b")) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> connect(bad, 1),
                    bad);
            assertTrue(refused.getMessage().startsWith("namespace must"), refused.getMessage());
        }
        ensemble.inspector().zooKeeper().delete(occupied, -1);
    }

    @Test
    void a_namespace_of_another_format_is_refused_naming_its_format_and_left_as_it_is() throws Exception {
        String namespace = ensemble.freshNamespace();
        connect(namespace, 1).close();
        ZooKeeper zooKeeper = ensemble.inspector().zooKeeper();
        byte[] header = zooKeeper.getData(namespace, false, null);
        header[4] = 2; // the format byte follows the magic: format 2 kept tag records under one znode
        zooKeeper.setData(namespace, header, -1);
        NamespaceFormatException refused = assertThrows(NamespaceFormatException.class, () -> connect(namespace, 1));
        assertEquals(namespace, refused.namespace());
        assertEquals(2, refused.format());
        assertEquals(Records.HEADER_FORMAT, refused.supportedFormat());
        assertTrue(refused.getMessage().startsWith("namespace " + namespace + " holds a dataspace of format 2 "),
                refused.getMessage());
        assertTrue(refused.getMessage().contains("this library reads format 3 only and changed nothing there"),
                refused.getMessage());
        assertArrayEquals(header, zooKeeper.getData(namespace, false, null), "the header is as it was");
        assertEquals(6, zooKeeper.exists(namespace, false).getNumChildren(), "nothing was deleted");
    }

    @Test
    void a_damaged_namespace_is_refused() throws Exception {
        String namespace = ensemble.freshNamespace();
        connect(namespace, 1).close();
        ensemble.inspector().zooKeeper().delete(namespace + "/t", -1);
        IllegalStateException damaged = assertThrows(IllegalStateException.class, () -> connect(namespace, 1));
        assertEquals("namespace " + namespace + " is damaged: " + namespace + "/t is missing", damaged.getMessage());
    }

    @Test
    void options_and_settings_zookeeper_cannot_hold_are_refused_naming_the_bound() {
        String connect = ensemble.connectString();
        IllegalArgumentException capacity = assertThrows(IllegalArgumentException.class,
                () -> ZooKeeperDataspace.connect(connect, ensemble.freshNamespace(), 1,
                        DataspaceOptions.builder().readLogCapacity(65_537).build()));
        assertTrue(capacity.getMessage().startsWith("options.readLogCapacity must be <= 65536"),
                capacity.getMessage());
        IllegalArgumentException processes = assertThrows(IllegalArgumentException.class,
                () -> ZooKeeperDataspace.connect(connect, "/n", 100_000));
        assertTrue(processes.getMessage().startsWith("processCount must be <= ")
                && processes.getMessage().endsWith(": 100000"), processes.getMessage());
        ZooKeeperDataspace.Builder builder = ZooKeeperDataspace.builder(connect, "/n");
        assertEquals("processCount must be set before connect()",
                assertThrows(IllegalStateException.class, builder::connect).getMessage());
        assertEquals("processCount must be >= 1: 0",
                assertThrows(IllegalArgumentException.class, () -> builder.processCount(0)).getMessage());
        assertEquals("inlineLimitBytes must be in [0, 262144]: 262145",
                assertThrows(IllegalArgumentException.class, () -> builder.inlineLimitBytes(262_145)).getMessage());
        assertEquals("juteMaxBuffer must be in [262144, 67108864]: 1",
                assertThrows(IllegalArgumentException.class, () -> builder.juteMaxBuffer(1)).getMessage());
        assertEquals("sessionTimeout must be in [PT0.001S, PT1H]: PT0S",
                assertThrows(IllegalArgumentException.class, () -> builder.sessionTimeout(Duration.ZERO))
                        .getMessage());
        assertEquals("connectionLossTimeout", assertThrows(NullPointerException.class,
                () -> builder.connectionLossTimeout(null)).getMessage());
    }

    @Test
    void an_unreachable_ensemble_is_a_typed_error_within_the_timeout() throws IOException {
        int port;
        try (java.net.ServerSocket socket =
                new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        long start = System.nanoTime();
        ZooKeeperUnavailableException unreachable = assertThrows(ZooKeeperUnavailableException.class,
                () -> ZooKeeperDataspace.builder("127.0.0.1:" + port, "/nowhere").processCount(1)
                        .connectionLossTimeout(Duration.ofMillis(500)).connect());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20), "bounded");
        assertEquals(Duration.ofMillis(500), unreachable.waited());
        assertEquals("127.0.0.1:" + port, unreachable.connectString());
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    /** A blob store that fails its first {@code failures} writes. */
    private static final class FlakyStore implements BlobStore {
        private final BlobStore store;
        private final AtomicInteger failures;

        FlakyStore(BlobStore store, int failures) {
            this.store = store;
            this.failures = new AtomicInteger(failures);
        }

        @Override
        public void write(String key, byte[] data) throws IOException {
            if (failures.getAndDecrement() > 0) {
                throw new IOException("disk full");
            }
            store.write(key, data);
        }

        @Override
        public Optional<byte[]> read(String key) throws IOException {
            return store.read(key);
        }

        @Override
        public void delete(String key) throws IOException {
            store.delete(key);
        }

        @Override
        public List<String> keys() throws IOException {
            return store.keys();
        }
    }
}
