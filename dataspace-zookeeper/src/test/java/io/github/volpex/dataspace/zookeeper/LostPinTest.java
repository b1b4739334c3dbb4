package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Replica;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A put pins its blob with an ephemeral znode while it stores it. When its session expires meanwhile, the pin goes
 * with it, and a client that connects then collects garbage: the unpinned, unreferenced blob reference and the blob
 * are deleted under the put. The put must notice on whatever path it next plans, pin and store its value again, and
 * commit — leaving exactly one stored blob, the referenced one.
 */
// A hang guard only, far above the run time of a loaded machine.
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LostPinTest {

    private static TestEnsemble ensemble;

    @TempDir
    Path directory;

    @BeforeAll
    static void start() throws Exception {
        ensemble = TestEnsemble.start(1, "/pins");
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    /** A directory store whose first write waits, once started, until the test lets it go on. */
    private static final class HoldingStore implements BlobStore {
        final BlobStore store;
        final CountDownLatch writing = new CountDownLatch(1);
        final CountDownLatch resume = new CountDownLatch(1);

        HoldingStore(BlobStore store) {
            this.store = store;
        }

        @Override
        public void write(String key, byte[] data) throws IOException {
            if (writing.getCount() > 0) {
                writing.countDown();
                try {
                    assertTrue(resume.await(120, TimeUnit.SECONDS), "the test resumed the write");
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new IOException(ex);
                }
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

    @Test
    void a_put_whose_pin_vanished_and_was_collected_while_it_stored_its_blob_pins_and_stores_it_again()
            throws Exception {
        held(true);
    }

    @Test
    void a_put_whose_pin_vanished_while_it_stored_its_blob_pins_it_again() throws Exception {
        held(false);
    }

    /** One put held in its blob write while its session expires and, if {@code collect}, another client connects. */
    private void held(boolean collect) throws Exception {
        String namespace = ensemble.freshNamespace();
        BlobStore shared = BlobStore.directory(directory.resolve(namespace.substring(1).replace('/', '-')));
        HoldingStore holding = new HoldingStore(shared);
        byte[] value = new byte[40_000];
        new SplittableRandom(namespace.hashCode()).nextBytes(value);
        try (ZkDataspace writer = (ZkDataspace) ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                .processCount(2).blobStore(holding).inlineLimitBytes(0).connect()) {
            Replica replica = writer.open(0);
            CompletableFuture<Void> put = CompletableFuture.runAsync(() -> replica.put("x", value));
            assertTrue(holding.writing.await(60, TimeUnit.SECONDS), "the put stores its blob");
            int expiries = writer.context().session.expiries();
            Sessions.expire(ensemble.connectString(), writer);
            if (collect) {
                // Connecting collects garbage: the reference the expired session pinned is unreferenced now.
                ZooKeeperDataspace.builder(ensemble.connectString(), namespace).processCount(2).blobStore(shared)
                        .inlineLimitBytes(0).connect().close();
            }
            holding.resume.countDown();
            put.get(120, TimeUnit.SECONDS);
            assertTrue(writer.context().session.expiries() > expiries, "the put's session expired");
            try (ZooKeeperDataspace reader = ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                    .processCount(2).blobStore(shared).inlineLimitBytes(0).connect()) {
                assertEquals(1, reader.server().highWaterMark(0), "the put completed");
                assertArrayEquals(value, reader.open(1).get("x"));
                assertArrayEquals(value, reader.open(1).get("x"), "a trailing replica, from the read log");
                assertEquals(0, reader.collectGarbage(), "the put left no orphan");
            }
            NamespaceInspector.Snapshot snapshot = ensemble.inspector().check(namespace);
            assertEquals(1, snapshot.blobs().size(), "one referenced blob: " + snapshot.blobs());
            String referenced = snapshot.blobs().keySet().iterator().next();
            assertEquals(List.of(shared.keys().get(0).substring(shared.keys().get(0).indexOf('-') + 1)),
                    List.of(referenced), "the store holds the referenced blob only: " + shared.keys());
            assertEquals(1, shared.keys().size(), "the store holds the referenced blob only: " + shared.keys());
        }
    }
}
