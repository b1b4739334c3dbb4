package io.github.volpex.examples.tour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.examples.remd.RemdProcess;
import io.github.volpex.examples.remd.RemdSetup;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

// A hang guard only, far above the run time of a loaded machine.
@Timeout(600)
class TourTest {

    private static Tour.Config volatileConfig(int replicas, Optional<Path> directory) {
        // Hosts live about an hour while the job needs 2 h of sampling: replicas die, processes restart.
        return new Tour.Config(new RemdSetup(8, 270, 340, 12, 24, 40, 11), replicas, 300,
                LifetimeLaw.weibull(0.7, 3600), 12, LifetimeLaw.weibull(0.7, 3600), 20, 50, directory, 3);
    }

    private static Tour.Result run(Tour.Config config) throws Exception {
        return Tour.of(config, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                .run(Duration.ofSeconds(100));
    }

    @Test
    void a_run_with_failures_restarts_and_storage_departures_reproduces_the_failure_free_run() throws Exception {
        Tour.Result result = run(volatileConfig(2, Optional.empty()));
        assertTrue(result.replicaFailures() > 0, "no replica failed");
        assertTrue(result.restarts() > 0, "no process lost every replica");
        assertTrue(result.checkpoints() > 0, "no checkpoint");
        assertTrue(result.storageDepartures() > 0, "no storage host departed");
        assertTrue(result.servedFromLog() > 0, "no request was replayed from the read log");
        assertTrue(result.fragmentsRepaired() > 0, "no fragment was repaired");
        assertEquals(result.reference(), result.outcomes());
        assertTrue(result.verified());
        assertCommitCostsAreSane(result);
    }

    /**
     * The costs the summary reports: every checkpoint taken was decided (the store closed with a bounded wait),
     * none failed on storage that only loses hosts between commits, and the figures add up — the durable commits
     * wrote at least their index copies and at most what the storage hosts took in all, the shadow store's full
     * commits wrote at least the index copies of every checkpoint taken, and both kinds of commit held a thread.
     */
    static void assertCommitCostsAreSane(Tour.Result result) {
        CommitCosts costs = result.commits();
        String context = costs.toString();
        assertEquals(result.checkpoints(), costs.durable(), context);
        assertEquals(Tour.COMMITS, costs.kind());
        assertTrue(costs.durable() > 0, context);
        assertEquals(0, costs.undecided(), context);
        assertEquals(0, costs.failed(), context);
        assertEquals(0, costs.abandoned(), context);
        int n = StoragePool.DATA_FRAGMENTS + StoragePool.PARITY_FRAGMENTS;
        // An index copy of nine fragments is over 400 bytes (41 per fragment, the header and the CRC).
        assertTrue(costs.bytesWritten() >= (long) costs.durable() * n * 400, context);
        assertTrue(costs.bytesWritten() <= result.bytesStored(), context + " beyond " + result.bytesStored());
        assertTrue(costs.fullBytes() >= (long) costs.taken() * n * 400, context);
        assertTrue(costs.blockingSeconds() > 0 && costs.fullSeconds() > 0, context);
    }

    @Test
    void unreplicated_processes_restart_at_every_failure_and_still_reproduce_the_run() throws Exception {
        Tour.Result result = run(volatileConfig(1, Optional.empty()));
        assertEquals(result.replicaFailures(), result.restarts());
        assertTrue(result.restarts() > 0);
        assertTrue(result.verified());
        assertCommitCostsAreSane(result);
    }

    @Test
    void repositories_in_a_directory_hold_the_fragments(@TempDir Path directory) throws Exception {
        Tour.Result result = run(volatileConfig(2, Optional.of(directory)));
        assertTrue(result.verified());
        try (Stream<Path> files = Files.walk(directory)) {
            assertTrue(files.filter(Files::isRegularFile).count() >= 9, "fragments were not written to disk");
        }
    }

    @Test
    void the_verdict_compares_every_process_bit_for_bit() {
        RemdProcess.Outcome a = new RemdProcess.Outcome(0, 1, Double.doubleToRawLongBits(-1.0), 7, List.of());
        RemdProcess.Outcome b = new RemdProcess.Outcome(0, 1, Double.doubleToRawLongBits(-1.0 + 1e-16), 7, List.of());
        assertNotEquals(a, b);
        Tour.Result differs = new Tour.Result(List.of(b), List.of(a), 0, 0, 0, 0, 0, List.of(), 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, CommitCosts.NONE);
        assertTrue(!differs.verified());
    }

    @Test
    void the_lifetime_law_draws_with_its_mean() {
        LifetimeLaw law = LifetimeLaw.weibull(0.7, 3600);
        java.util.SplittableRandom random = new java.util.SplittableRandom(1);
        double sum = 0;
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            sum += law.draw(random);
        }
        // Weibull(0.7) has coefficient of variation 1.46: the sample mean is within 1.5% with overwhelming odds.
        assertEquals(law.meanSeconds(), sum / n, 0.015 * law.meanSeconds());
        assertEquals(3600, LifetimeLaw.exponential(3600).meanSeconds(), 1e-9);
    }
}
