package io.github.volpex.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.interval.AdaptiveCheckpointScheduler;
import io.github.volpex.checkpoint.interval.NiHarwoodEstimateSource;
import io.github.volpex.checkpoint.placement.Objective;
import io.github.volpex.checkpoint.placement.RepositorySelector;
import io.github.volpex.checkpoint.placement.StorageHost;
import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.FragmentRepository;
import io.github.volpex.checkpoint.store.PlacementPolicy;
import io.github.volpex.dataspace.Dataspace;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.Replica;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.estimators.DownloadTimeEstimator;
import io.github.volpex.estimators.FailureRateEstimator;
import io.github.volpex.estimators.SurvivalFunction;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The README's "Using Volpex in your middleware" walk-through, run for real; the README must show exactly the lines
 * between the markers below.
 */
class MiddlewareGuideTest {

    @Test
    void the_walk_through_runs_and_the_readme_shows_it_verbatim() throws Exception {
        List<FragmentRepository> repositories = new ArrayList<>();
        Map<String, StorageHost> hosts = new HashMap<>();
        for (int h = 0; h < 12; h++) {
            repositories.add(FragmentRepository.inMemory("host-" + h));
            hosts.put("host-" + h, StorageHost.of("host-" + h, 1e6 * (h + 1),
                    SurvivalFunction.weibull(0.7, 3600.0 * (h + 1))));
        }
        AtomicLong virtualClock = new AtomicLong();
        byte[] energyBytes = ByteBuffer.allocate(8).putDouble(-63.5).array();

        // README:begin
        // 1. Communication: every replica of a logical process opens its own handle on the dataspace.
        Dataspace dataspace = Dataspace.inProcess(2, DataspaceOptions.builder().readLogCapacity(1 << 16).build());
        Replica leader = dataspace.open(0);
        Replica trailer = dataspace.open(0);                   // a second replica of process 0
        Replica neighbour = dataspace.open(1);

        // 2. When to checkpoint: host failures observed so far feed Ni and Harwood's optimal interval.
        FailureRateEstimator failures = FailureRateEstimator.cumulative();
        failures.recordFailure(5_400);                         // a replica's host failed after 1.5 h up
        failures.recordCensored(9_000);                        // another has been up for 2.5 h
        DownloadTimeEstimator download = DownloadTimeEstimator.startingAt(20);
        AdaptiveCheckpointScheduler scheduler = AdaptiveCheckpointScheduler.create(1,
                NiHarwoodEstimateSource.local(failures, () -> 20.0, download), virtualClock::get);

        // 3. Where to keep checkpoints: IDA (6,3) fragments on the hosts Ren's greedy selector picks.
        CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories)
                .placement(PlacementPolicy.selecting(RepositorySelector.greedy(), hosts::get,
                        () -> Objective.optimistic(4 * 3600, scheduler.intervalSeconds(), 3600)))
                .build();
        virtualClock.set(3_600_000_000_000L);                  // an hour of work later, in nanoseconds
        if (scheduler.checkpointDue()) {
            byte[] state = ByteBuffer.allocate(8).putLong(leader.requestNumber()).array();
            store.commit("process-0", state);                  // the old checkpoint stays until this one is safe
            scheduler.checkpointCompleted();
        }

        // 4. Replicas exchange data; the trailing replica receives exactly what the leader did.
        neighbour.put("energy/1/1", energyBytes);
        byte[] first = leader.get("energy/1/1");               // consumes the tuple...
        byte[] same = trailer.get("energy/1/1");               // ...and the trailing replica gets the same bytes

        // 5. Every replica of process 0 is lost: recover its checkpoint and restart at the saved request number.
        store.repair("process-0");                             // regenerates fragments lost with departed hosts
        byte[] saved = store.recover("process-0").orElseThrow().toByteArray();
        Replica restarted = dataspace.open(0, ByteBuffer.wrap(saved).getLong());
        byte[] replayed = restarted.get("energy/1/1");         // served from the read log, not consumed again
        // README:end

        assertTrue(scheduler.intervalSeconds() < 3600, "an hour should exceed the optimal interval");
        assertEquals(9, store.latestIndex("process-0").orElseThrow().n());
        assertArrayEquals(energyBytes, first);
        assertArrayEquals(energyBytes, same);
        assertArrayEquals(energyBytes, replayed);
        assertTrue(neighbour.tryRead("energy/1/1").isEmpty(), "the tuple was consumed once");
        dataspace.close();

        assertReadmeShows(snippet());
    }

    private static String snippet() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("src/test/java/io/github/volpex/examples/"
                + "MiddlewareGuideTest.java"), StandardCharsets.UTF_8);
        int begin = lines.indexOf("        // README:begin");
        int end = lines.indexOf("        // README:end");
        return lines.subList(begin + 1, end).stream()
                .map(line -> line.length() >= 8 ? line.substring(8) : line.strip())
                .collect(Collectors.joining("\n"));
    }

    private static void assertReadmeShows(String snippet) throws IOException {
        String readme = Files.readString(Path.of("../README.md"), StandardCharsets.UTF_8);
        assertTrue(readme.contains("```java\n" + snippet + "\n```"),
                "README.md must show the walk-through exactly as this test runs it:\n" + snippet);
    }
}
