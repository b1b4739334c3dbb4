package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.Replica;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The first lines of docs/across-machines.md, run by two clients (two hosts) against an embedded 3-server ensemble:
 * each runs one process, and they exchange rows through the ensemble. The guide must show the same calls.
 */
// A hang guard only, far above the run time of a loaded machine.
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class AcrossMachinesExampleTest {

    @Test
    void two_hosts_exchange_rows_through_one_ensemble() throws Exception {
        try (EmbeddedZooKeeper ensemble = EmbeddedZooKeeper.start(3)) {
            String connectString = ensemble.connectString();
            CompletableFuture<byte[]> host1 = CompletableFuture.supplyAsync(() -> host(connectString, 0, 1));
            CompletableFuture<byte[]> host2 = CompletableFuture.supplyAsync(() -> host(connectString, 1, 1));
            assertArrayEquals(row(1, 0), host1.get(60, TimeUnit.SECONDS), "host 1 received process 1's row");
            assertArrayEquals(row(0, 0), host2.get(60, TimeUnit.SECONDS), "host 2 received process 0's row");
        }
        String guide = Files.readString(Path.of("..", "docs", "across-machines.md"));
        for (String line : new String[] {"ZooKeeperDataspace dataspace = ZooKeeperDataspace.connect(",
                "8, DataspaceOptions.defaults())) {",
                "Replica replica = dataspace.open(processId, savedRequestNumber);",
                "replica.put(\"row-\" + step, row);", "byte[] neighbour = replica.get(\"row-\" + (step - 1));"}) {
            assertTrue(guide.contains(line), "docs/across-machines.md shows: " + line);
        }
    }

    /** One host's replica of {@code processId}: puts its row of the step, gets its neighbour's row of the last. */
    private static byte[] host(String connectString, int processId, int step) {
        long savedRequestNumber = 0;
        try (ZooKeeperDataspace dataspace = ZooKeeperDataspace.connect(connectString, "/volpex/job-42", 8,
                DataspaceOptions.defaults())) {
            Replica replica = dataspace.open(processId, savedRequestNumber);
            replica.put("row-" + (step - 1) + "/" + processId, row(processId, step - 1));
            return replica.get("row-" + (step - 1) + "/" + (1 - processId));
        } catch (InterruptedException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static byte[] row(int processId, int step) {
        return ("row of process " + processId + " at step " + step).getBytes(StandardCharsets.UTF_8);
    }
}
