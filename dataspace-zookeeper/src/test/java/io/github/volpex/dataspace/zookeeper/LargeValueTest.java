package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.DataspaceTimeoutException;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.dataspace.zookeeper.Records.Value;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values far beyond ZooKeeper's 1 MiB request limit, through the default store (chunks in the ensemble) and a
 * directory store: stored once, served to the leading and trailing replicas byte for byte, and deleted once no tuple
 * or read-log entry refers to them. A value that would make a transaction too large inline goes to the blob store.
 */
// A hang guard only, far above the run time of a loaded machine.
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class LargeValueTest {

    private static final int MIB = 1 << 20;
    private static TestEnsemble ensemble;

    @TempDir
    Path directory;

    @BeforeAll
    static void start() throws Exception {
        ensemble = TestEnsemble.start(1, "/large");
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    private static byte[] random(int length, long seed) {
        byte[] data = new byte[length];
        new SplittableRandom(seed).nextBytes(data);
        return data;
    }

    @Test
    void a_64_MiB_value_round_trips_through_the_ensemble_and_is_deleted_when_evicted() throws Exception {
        String namespace = ensemble.freshNamespace();
        byte[] value = random(64 * MIB, 64);
        try (ZooKeeperDataspace dataspace = ZooKeeperDataspace.connect(ensemble.connectString(), namespace, 2,
                DataspaceOptions.builder().readLogCapacity(2).build())) {
            Replica writer = dataspace.open(0);
            writer.put("big", value);
            Replica leader = dataspace.open(1);
            assertArrayEquals(value, leader.read("big"));
            assertArrayEquals(value, leader.get("big"));
            assertArrayEquals(value, dataspace.open(1).read("big"), "a trailing replica, from the log");
            NamespaceInspector.Snapshot snapshot = ensemble.inspector().check(namespace);
            assertEquals(List.of(2L), new ArrayList<>(snapshot.blobs().values()), "stored once, logged twice");
            String key = ensemble.inspector().onlyStoreKey(namespace);
            assertEquals(128, ensemble.inspector().zooKeeper().getChildren(NamespaceInspector.storePath(namespace,
                    key), false).size(),
                    "chunks of 512 KiB");
            leader.put("small-1", new byte[1]);
            leader.put("small-2", new byte[1]);
            snapshot = ensemble.inspector().check(namespace);
            assertTrue(snapshot.blobs().isEmpty(), "evicted from the log: no reference, no blob");
            assertEquals(null, ensemble.inspector().zooKeeper().exists(NamespaceInspector.storePath(namespace, key),
                    false), "the blob is deleted");
        }
    }

    @Test
    void a_64_MiB_value_round_trips_through_a_directory_store() throws Exception {
        String namespace = ensemble.freshNamespace();
        byte[] value = random(64 * MIB, 65);
        BlobStore store = BlobStore.directory(directory);
        try (ZooKeeperDataspace dataspace = ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                .processCount(3).blobStore(store).connect()) {
            dataspace.open(0).put("big", value);
            assertEquals(1, store.keys().size());
            assertArrayEquals(value, dataspace.open(1).get("big"));
            assertArrayEquals(value, dataspace.open(1).get("big"));
            assertTrue(dataspace.open(2).tryGet("big").isEmpty(), "consumed once");
            ensemble.inspector().check(namespace);
            dataspace.destroy();
        }
        assertTrue(store.keys().isEmpty(), "destroy deleted the namespace's blobs");
    }

    @Test
    void a_put_serving_many_waiting_reads_stores_its_value_once_as_a_blob() throws Exception {
        String namespace = ensemble.freshNamespace();
        int readers = 40;
        byte[] value = random(15 << 10, 15);
        try (ZooKeeperDataspace dataspace = ZooKeeperDataspace.connect(ensemble.connectString(), namespace,
                readers + 1)) {
            for (int reader = 1; reader <= readers; reader++) {
                Replica replica = dataspace.open(reader);
                assertThrows(DataspaceTimeoutException.class, () -> replica.read("x", Duration.ZERO));
            }
            dataspace.open(0).put("x", value);
            Value stored = ensemble.inspector().check(namespace).value("x");
            assertTrue(stored.isBlob(), "41 inline copies of 15 KiB would exceed one transaction");
            assertEquals(List.of((long) readers + 1),
                    new ArrayList<>(ensemble.inspector().check(namespace).blobs().values()));
            List<CompletableFuture<byte[]>> reads = new ArrayList<>();
            for (int reader = 1; reader <= readers; reader++) {
                Replica replica = dataspace.open(reader);
                reads.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return replica.read("x", Duration.ofSeconds(30));
                    } catch (InterruptedException ex) {
                        throw new IllegalStateException(ex);
                    }
                }));
            }
            for (CompletableFuture<byte[]> read : reads) {
                assertArrayEquals(value, read.get(60, TimeUnit.SECONDS));
            }
        }
    }
}
