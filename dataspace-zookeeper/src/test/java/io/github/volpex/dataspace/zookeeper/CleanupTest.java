package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.checkpoint.store.JobRunningException;
import io.github.volpex.checkpoint.store.ProcessCheckpoint;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.erasure.IdaCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cleaning a finished job up leaves nothing of it, as a raw ZooKeeper client lists the whole tree: a namespace
 * destroyed without its settings, with the parents the package created for it (and not a parent someone else made, or
 * one another namespace still uses); a job's epoch counter and checkpoints deleted in one call, refused while members
 * of its writer election live unless forced.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CleanupTest {

    private static EmbeddedZooKeeper ensemble;

    @BeforeAll
    static void start() {
        ensemble = EmbeddedZooKeeper.start(1);
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    /** Every znode of the ensemble but ZooKeeper's own, as a raw client lists them. */
    private static TreeSet<String> everything() throws Exception {
        TreeSet<String> all = new TreeSet<>();
        ZooKeeper raw = Sessions.connect(ensemble.connectString());
        try {
            List<String> pending = new ArrayList<>(List.of("/"));
            while (!pending.isEmpty()) {
                String path = pending.remove(pending.size() - 1);
                for (String child : raw.getChildren(path, false)) {
                    String full = (path.equals("/") ? "" : path) + "/" + child;
                    if (!full.equals("/zookeeper")) {
                        all.add(full);
                        pending.add(full);
                    }
                }
            }
        } finally {
            raw.close();
        }
        return all;
    }

    private static ZooKeeperDataspace dataspace(String namespace, BlobStore store) {
        ZooKeeperDataspace.Builder builder = ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                .processCount(3).options(DataspaceOptions.builder().readLogCapacity(50).build());
        if (store != null) {
            builder.blobStore(store);
        }
        return builder.connect();
    }

    /** Puts small and large values and leaves requests pending, as a job cut short would. */
    private static void use(ZooKeeperDataspace dataspace) throws InterruptedException {
        Replica p0 = dataspace.open(0);
        Replica p1 = dataspace.open(1);
        p0.put("small", new byte[] {1, 2, 3});
        p0.put("large", new byte[100_000]);
        p1.get("small");
        p1.read("large");
        assertTrue(p1.tryGet("never").isEmpty());
    }

    @Test
    void a_namespace_destroyed_without_its_settings_leaves_no_znode_and_no_parent_the_package_made() throws Exception {
        ZooKeeper raw = Sessions.connect(ensemble.connectString());
        try {
            raw.create("/users-own", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        } finally {
            raw.close();
        }
        TreeSet<String> before = everything();
        try (ZooKeeperDataspace first = dataspace("/grid/jobs/job-1", null);
             ZooKeeperDataspace second = dataspace("/grid/jobs/job-2", null);
             ZooKeeperDataspace inside = dataspace("/users-own/job-3", null)) {
            use(first);
            use(second);
            use(inside);
        }
        assertTrue(everything().size() > before.size() + 100, "the namespaces hold their buckets and records");

        assertTrue(ZooKeeperDataspace.builder(ensemble.connectString(), "/grid/jobs/job-1").destroy());
        TreeSet<String> left = everything();
        assertTrue(left.contains("/grid/jobs") && left.contains("/grid/jobs/job-2"), "job-2 still uses the parents");
        assertFalse(left.stream().anyMatch(path -> path.startsWith("/grid/jobs/job-1")), left.toString());

        assertTrue(ZooKeeperDataspace.builder(ensemble.connectString(), "/grid/jobs/job-2").destroy());
        assertTrue(ZooKeeperDataspace.builder(ensemble.connectString(), "/users-own/job-3").destroy());
        assertEquals(before, everything(), "no znode left, the user's own parent kept");
        assertFalse(ZooKeeperDataspace.builder(ensemble.connectString(), "/grid/jobs/job-1").destroy(),
                "destroying it again finds nothing");

        IllegalStateException notOurs = assertThrows(IllegalStateException.class,
                () -> ZooKeeperDataspace.builder(ensemble.connectString(), "/users-own").destroy());
        assertEquals("namespace /users-own exists and is not a Volpex dataspace (0 children, 0 bytes of data)",
                notOurs.getMessage());
    }

    @Test
    void a_client_destroying_its_namespace_deletes_the_parents_it_created(@TempDir Path blobs) throws Exception {
        TreeSet<String> before = everything();
        try (ZooKeeperDataspace dataspace = dataspace("/shared-blobs/job", BlobStore.directory(blobs))) {
            use(dataspace);
        }
        assertFalse(isEmpty(blobs), "the large value went to the directory");
        IllegalStateException needsStore = assertThrows(IllegalStateException.class,
                () -> ZooKeeperDataspace.builder(ensemble.connectString(), "/shared-blobs/job").destroy());
        assertEquals("namespace /shared-blobs/job keeps its large values in an external blob store: give it to the "
                + "builder (blobStore) to destroy the namespace", needsStore.getMessage());
        ZooKeeperDataspace again = dataspace("/shared-blobs/job", BlobStore.directory(blobs));
        again.destroy();
        assertTrue(isEmpty(blobs), "the namespace's blobs are deleted");
        assertEquals(before, everything());
    }

    private static boolean isEmpty(Path directory) throws Exception {
        try (var files = Files.walk(directory)) {
            return files.noneMatch(Files::isRegularFile);
        }
    }

    @Test
    void deleting_a_job_removes_its_counter_its_checkpoints_and_the_epoch_path_once_empty() throws Exception {
        TreeSet<String> before = everything();
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            repositories.add(FragmentRepository.inMemory("r" + i));
        }
        try (ZooKeeperEpochSource epochs = ZooKeeperEpochSource.connect(ensemble.connectString(), "/grid2/epochs")) {
            CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(3, 2), repositories).epochs(epochs)
                    .build();
            store.commit("job-a", ProcessCheckpoint.of(5, new byte[] {1}));
            store.commit("job-a", ProcessCheckpoint.of(6, new byte[] {2}));
            store.commit("job-b", ProcessCheckpoint.of(7, new byte[] {3}));
            assertTrue(everything().contains("/grid2/epochs/job-a"));

            assertTrue(store.deleteJob("job-a") > 0);
            assertFalse(everything().contains("/grid2/epochs/job-a"));
            assertTrue(everything().contains("/grid2/epochs/job-b"), "the other job keeps its counter and the path");
            for (FragmentRepository repository : repositories) {
                assertEquals(List.of(), repository.list("job-a."), repository.id());
                assertFalse(repository.list("job-b.").isEmpty(), repository.id());
            }
            assertFalse(epochs.isCurrent("job-a", 1), "no earlier writer of job-a can commit");

            // A job whose writer election has live members is refused, whole, unless forced.
            try (WriterElection writer = WriterElection.builder(ensemble.connectString(), "/grid2/epochs", "job-b")
                    .name("host-7").join()) {
                JobRunningException running = assertThrows(JobRunningException.class, () -> store.deleteJob("job-b"));
                assertEquals(List.of("host-7 (writer, epoch 1)"), running.writers());
                assertFalse(repositories.get(0).list("job-b.").isEmpty(), "nothing deleted");
                store.deleteJob("job-b", true);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (writer.role() != WriterElection.Role.CLOSED) {
                    assertTrue(System.nanoTime() - deadline < 0, "the member learns that its job was deleted");
                    Thread.sleep(10);
                }
            }
            for (FragmentRepository repository : repositories) {
                assertEquals(List.of(), repository.list(""), repository.id());
            }
        }
        assertEquals(before, everything(), "the epoch path and its parent, made by the package, are gone");
    }
}
