package io.github.volpex.dataspace.zookeeper;

import static io.github.volpex.dataspace.zookeeper.Utf8.bytes;
import static io.github.volpex.dataspace.zookeeper.Utf8.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Replica;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ensemble goes away and comes back: a call made meanwhile fails with {@link ZooKeeperUnavailableException} once
 * the connection-loss timeout has passed, and its retry takes effect once; a get waiting for data through the outage
 * receives it afterwards.
 */
// A hang guard only, far above the run time of a loaded machine.
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class UnavailableEnsembleTest {

    private EmbeddedZooKeeper ensemble;

    @BeforeEach
    void start() {
        ensemble = EmbeddedZooKeeper.start(1);
    }

    @AfterEach
    void stop() {
        ensemble.close();
    }

    private ZooKeeperDataspace connect(Duration connectionLossTimeout) {
        return ZooKeeperDataspace.builder(ensemble.connectString(), "/outage").processCount(2)
                .connectionLossTimeout(connectionLossTimeout).connect();
    }

    @Test
    void a_call_during_an_outage_fails_in_time_and_its_retry_applies_once() throws Exception {
        try (ZooKeeperDataspace dataspace = connect(Duration.ofSeconds(1))) {
            Replica writer = dataspace.open(0);
            writer.put("x", bytes("before"));
            ensemble.stop(0);
            long start = System.nanoTime();
            ZooKeeperUnavailableException unavailable = assertThrows(ZooKeeperUnavailableException.class,
                    () -> writer.put("x", bytes("during")));
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30), "bounded by the timeout");
            assertTrue(unavailable.getMessage().contains("process 0, request 2 (PUT \"x\")"),
                    unavailable.getMessage());
            assertEquals(1, writer.requestNumber(), "the request number did not advance");
            ensemble.restart(0);
            // Retried as the exception advises, until the client has reconnected to the restarted server (on a loaded
            // machine that may take longer than the 1 s timeout); however many retries fail, the put applies once.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (true) {
                try {
                    writer.put("x", bytes("during"));
                    break;
                } catch (ZooKeeperUnavailableException stillDown) {
                    assertTrue(System.nanoTime() - deadline < 0, "the restarted server stayed unreachable");
                }
            }
            assertEquals(2, writer.requestNumber());
            Replica reader = dataspace.open(1);
            assertEquals("during", text(reader.get("x")));
            assertTrue(reader.tryGet("x").isEmpty(), "one tuple: the retry applied once");
        }
    }

    @Test
    void a_get_waiting_through_a_server_restart_receives_the_value() throws Exception {
        try (ZooKeeperDataspace waiting = connect(Duration.ofSeconds(60));
                ZooKeeperDataspace writing = connect(Duration.ofSeconds(60))) {
            Replica getter = waiting.open(1);
            CompletableFuture<byte[]> get = CompletableFuture.supplyAsync(() -> {
                try {
                    return getter.get("x", Duration.ofSeconds(60));
                } catch (InterruptedException ex) {
                    throw new IllegalStateException(ex);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (waiting.statistics().totalRequests() == 0) {
                assertTrue(System.nanoTime() - deadline < 0, "the get became pending");
                Thread.sleep(5);
            }
            ensemble.stop(0);
            ensemble.restart(0);
            writing.open(0).put("x", bytes("after the restart"));
            assertEquals("after the restart", text(get.get(60, TimeUnit.SECONDS)));
        }
    }
}
