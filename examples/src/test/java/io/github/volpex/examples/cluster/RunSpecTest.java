package io.github.volpex.examples.cluster;

import io.github.volpex.dataspace.zookeeper.EmbeddedZooKeeper;
import io.github.volpex.examples.remd.RemdSetup;
import io.github.volpex.examples.tour.LifetimeLaw;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunSpecTest {

    private static RunSpec spec(String run) {
        return new RunSpec(run, new RemdSetup(3, 270, 340, 12, 10, 200, -7), 300, 20, 50,
                LifetimeLaw.weibull(0.7, 1800.5), 11, LifetimeLaw.weibull(0.7, 0.1 + 1080), List.of(
                        URI.create("http://127.0.0.1:9000"), URI.create("https://s3.example.org")), "bucket-1",
                "eu-west-3");
    }

    @Test
    void a_run_description_survives_its_text_form_exactly() {
        RunSpec spec = spec("run-1");
        assertEquals(spec, RunSpec.fromBytes(spec.toBytes()));
        assertEquals("/volpex-tour/run-1/dataspace", spec.namespace());
        assertEquals("/volpex-tour/run-1/epochs", spec.epochsPath());
        assertEquals("run-1/storage-03/", spec.keyPrefix(3));
        assertEquals(URI.create("https://s3.example.org"), spec.endpoint(3));
        assertEquals(spec.pool().hosts(), RunSpec.fromBytes(spec.toBytes()).pool().hosts(),
                "every JVM of a run derives the same storage pool");
    }

    @Test
    void bad_run_names_and_foreign_data_are_refused_with_the_reason() {
        assertThrows(IllegalArgumentException.class, () -> spec("run/1"));
        assertThrows(IllegalArgumentException.class, () -> spec(""));
        IllegalStateException foreign = assertThrows(IllegalStateException.class,
                () -> RunSpec.fromBytes("run=x\nprocesses=3\n".getBytes(StandardCharsets.UTF_8)));
        assertTrue(foreign.getMessage().startsWith("not the description of a tour run: no "), foreign.getMessage());
    }

    @Test
    void a_run_is_published_read_back_and_deleted_with_everything_under_it() {
        try (EmbeddedZooKeeper ensemble = EmbeddedZooKeeper.start(1)) {
            RunSpec spec = spec("run-2");
            spec.publish(ensemble.connectString(), Duration.ofSeconds(30));
            assertEquals(spec, RunSpec.read(ensemble.connectString(), "run-2", Duration.ofSeconds(30)));
            IllegalStateException missing = assertThrows(IllegalStateException.class,
                    () -> RunSpec.read(ensemble.connectString(), "run-3", Duration.ofSeconds(30)));
            assertTrue(missing.getMessage().contains("has no tour run run-3"), missing.getMessage());
            assertEquals(List.of("run-2"), runs(ensemble.connectString()));
            spec.delete(ensemble.connectString(), Duration.ofSeconds(30));
            assertEquals(List.of(), runs(ensemble.connectString()));
        }
    }

    /** The runs an ensemble holds (the children of {@code /volpex-tour}). */
    static List<String> runs(String connectString) {
        CountDownLatch connected = new CountDownLatch(1);
        try {
            ZooKeeper zk = new ZooKeeper(connectString, 10_000, event -> {
                if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    connected.countDown();
                }
            });
            try {
                assertTrue(connected.await(30, TimeUnit.SECONDS), "connected to " + connectString);
                return zk.getChildren(RunSpec.ROOT, false);
            } catch (KeeperException.NoNodeException none) {
                return List.of();
            } finally {
                zk.close();
            }
        } catch (Exception e) {
            throw new AssertionError("cannot list the runs at " + connectString, e);
        }
    }
}
