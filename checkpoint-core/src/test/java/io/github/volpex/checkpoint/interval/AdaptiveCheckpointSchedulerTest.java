package io.github.volpex.checkpoint.interval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.estimators.DownloadTimeEstimator;
import io.github.volpex.estimators.FailureRateEstimator;
import io.github.volpex.estimators.GlobalEstimate;
import io.github.volpex.estimators.PeerEstimate;
import io.github.volpex.estimators.PiggybackAggregator;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

class AdaptiveCheckpointSchedulerTest {

    private final AtomicLong nanos = new AtomicLong(123_456_789L);
    private final AtomicReference<Optional<NiHarwoodEstimate>> latest = new AtomicReference<>(Optional.empty());
    private final AdaptiveCheckpointScheduler scheduler =
            AdaptiveCheckpointScheduler.create(8, latest::get, nanos::get);

    private void advanceSeconds(double seconds) {
        nanos.addAndGet(Math.round(seconds * 1e9));
    }

    @Test
    void nothing_is_due_while_no_estimate_is_known() {
        advanceSeconds(1e6);
        assertFalse(scheduler.checkpointDue());
        assertEquals(Double.POSITIVE_INFINITY, scheduler.intervalSeconds());
        assertTrue(scheduler.currentModel().isEmpty());
    }

    @Test
    void a_checkpoint_falls_due_after_the_optimal_interval() {
        NiHarwoodEstimate estimate = new NiHarwoodEstimate(1.0 / 3600, 60.0, 120.0);
        latest.set(Optional.of(estimate));
        double interval = estimate.model(8).optimalIntervalSeconds(); // about 180.27 s
        assertEquals(interval, scheduler.intervalSeconds());
        advanceSeconds(interval - 1);
        assertFalse(scheduler.checkpointDue());
        assertEquals(1.0, scheduler.secondsUntilDue(), 1e-6);
        advanceSeconds(1);
        assertTrue(scheduler.checkpointDue());
        scheduler.checkpointCompleted();
        assertFalse(scheduler.checkpointDue());
        assertEquals(0.0, scheduler.secondsSinceCheckpoint());
    }

    @Test
    void rising_failure_estimates_bring_the_next_checkpoint_forward() {
        latest.set(Optional.of(new NiHarwoodEstimate(1.0 / 36_000, 60.0, 120.0)));
        double calm = scheduler.intervalSeconds();
        advanceSeconds(calm / 2);
        assertFalse(scheduler.checkpointDue());
        // The peers start failing ten times as often: the interval shrinks below the time already elapsed.
        latest.set(Optional.of(new NiHarwoodEstimate(1.0 / 3600, 60.0, 120.0)));
        assertTrue(scheduler.intervalSeconds() < calm / 2, () -> scheduler.intervalSeconds() + " vs " + calm);
        assertTrue(scheduler.checkpointDue());
        // The estimates settle back: no longer due.
        latest.set(Optional.of(new NiHarwoodEstimate(1.0 / 36_000, 60.0, 120.0)));
        assertFalse(scheduler.checkpointDue());
    }

    @Test
    void peers_that_never_fail_never_need_a_checkpoint() {
        latest.set(Optional.of(new NiHarwoodEstimate(0.0, 60.0, 120.0)));
        advanceSeconds(1e9);
        assertFalse(scheduler.checkpointDue());
        assertEquals(Double.POSITIVE_INFINITY, scheduler.secondsUntilDue());
    }

    @Test
    void rejects_bad_arguments() {
        assertEquals("peers must be >= 1: 0", assertThrows(IllegalArgumentException.class,
                () -> AdaptiveCheckpointScheduler.create(0, latest::get, nanos::get)).getMessage());
        assertThrows(NullPointerException.class, () -> AdaptiveCheckpointScheduler.create(1, null, nanos::get));
        assertThrows(NullPointerException.class, () -> AdaptiveCheckpointScheduler.create(1, latest::get, null));
        assertEquals("checkpointOverheadSeconds must be finite and > 0: -1.0", assertThrows(
                IllegalArgumentException.class, () -> new NiHarwoodEstimate(1e-4, -1, 0)).getMessage());
    }

    @Test
    void wired_to_a_peers_own_estimators() {
        FailureRateEstimator failures = FailureRateEstimator.cumulative();
        AtomicReference<Double> overhead = new AtomicReference<>(0.0);
        DownloadTimeEstimator download = DownloadTimeEstimator.startingAt(45.0);
        AdaptiveCheckpointScheduler local = AdaptiveCheckpointScheduler.create(4,
                NiHarwoodEstimateSource.local(failures, overhead::get, download), nanos::get);
        advanceSeconds(1e6);
        // Nothing observed and no overhead measured yet: nothing to go on.
        assertFalse(local.checkpointDue());
        overhead.set(45.0);
        assertTrue(local.currentModel().isEmpty(), "no exposure yet");
        // 5000 s watched without a failure: the one-sided 95 % bound −ln(0.05)/5000, not a rate of 0.
        failures.recordCensored(5000);
        assertEquals(-Math.log(0.05) / 5000, local.currentModel().orElseThrow().failureRatePerSecond(), 1e-15);
        failures.recordFailure(3000);
        assertEquals(NiHarwoodModel.of(4, 1.0 / 8000, 45.0, 45.0), local.currentModel().orElseThrow());
        download.recordFirstImageDownload(90.0);
        assertEquals(NiHarwoodModel.of(4, 1.0 / 8000, 45.0, 90.0), local.currentModel().orElseThrow());
        assertTrue(local.checkpointDue());
        overhead.set(0.0);
        assertTrue(local.currentModel().isEmpty(), "a free checkpoint has no optimal interval");
    }

    @Test
    void wired_to_the_piggybacked_global_estimates() {
        PiggybackAggregator aggregator = PiggybackAggregator.create(InstantSource.fixed(Instant.EPOCH));
        AdaptiveCheckpointScheduler global =
                AdaptiveCheckpointScheduler.create(8, NiHarwoodEstimateSource.global(aggregator), nanos::get);
        assertTrue(global.currentModel().isEmpty());
        aggregator.offer(new PeerEstimate("a", 1.0 / 3600, 60.0, 120.0, Instant.EPOCH));
        aggregator.offer(new PeerEstimate("b", 1.0 / 7200, 30.0, 60.0, Instant.EPOCH));
        GlobalEstimate g = aggregator.global().orElseThrow();
        assertEquals(NiHarwoodModel.of(8, g.failureRatePerSecond(), g.overheadSeconds(), g.downloadSeconds()),
                global.currentModel().orElseThrow());
        assertEquals(g.peers(), 2);
    }

    // --- background commits: blocking overhead and latency ----------------------------------------------------

    @Test
    void a_background_commit_is_measured_as_blocking_time_and_latency() {
        latest.set(Optional.of(new NiHarwoodEstimate(1.0 / 3600, 0.2, 30.0)));
        double optimal = scheduler.intervalSeconds();
        advanceSeconds(optimal);
        CompletableFuture<String> durable = new CompletableFuture<>();
        CompletionStage<String> stage = scheduler.checkpoint(() -> {
            advanceSeconds(0.25); // the snapshot holds the job
            return durable;
        });
        assertEquals(0.25, scheduler.blockingSeconds().orElseThrow(), 1e-9);
        assertTrue(scheduler.latencySeconds().isEmpty(), "not durable yet");
        assertEquals(0.0, scheduler.secondsSinceCheckpoint(), "the interval restarts when the commit call returns");
        assertEquals(optimal, scheduler.intervalSeconds(), "no latency yet, no bound");
        advanceSeconds(10.0);
        durable.complete("index");
        assertEquals("index", stage.toCompletableFuture().getNow(null), "the commit's result passes through");
        assertEquals(10.25, scheduler.latencySeconds().orElseThrow(), 1e-9);
        // The latency beyond the hold (10 s) is below the optimal interval (~12.9 s): the optimum stands.
        assertTrue(optimal > 10.0);
        assertEquals(optimal, scheduler.intervalSeconds());
        VaidyaModel model = scheduler.latencyModel().orElseThrow();
        assertEquals(8.0 / 3600, model.failureRatePerSecond());
        assertEquals(0.25, model.overheadSeconds(), 1e-9);
        assertEquals(10.25, model.latencySeconds(), 1e-9);
        assertEquals(30.0, model.recoverySeconds());
    }

    @Test
    void a_checkpoint_is_not_due_before_the_previous_one_can_be_durable() {
        latest.set(Optional.of(new NiHarwoodEstimate(1.0 / 3600, 0.2, 30.0)));
        double optimal = scheduler.intervalSeconds();
        scheduler.recordBlocking(0.5);
        scheduler.recordLatency(600.5);
        assertEquals(600.0, scheduler.intervalSeconds());
        assertTrue(optimal < 600.0);
        advanceSeconds(optimal);
        assertFalse(scheduler.checkpointDue(), "the previous checkpoint may still be persisting");
        advanceSeconds(600.0 - optimal);
        assertTrue(scheduler.checkpointDue());
        // The Vaidya optimum is the same bound: it does not checkpoint sooner either.
        assertEquals(600.0, scheduler.latencyModel().orElseThrow().optimalIntervalSeconds());
    }

    @Property(tries = 200)
    void the_interval_is_the_optimum_or_the_persist_time_whichever_is_longer(
            @ForAll @DoubleRange(min = -7, max = -2) double log10Rate,
            @ForAll @DoubleRange(min = -3, max = 2) double log10Blocking,
            @ForAll @DoubleRange(min = -3, max = 4) double log10Persist) {
        AtomicLong clock = new AtomicLong();
        NiHarwoodEstimate estimate = new NiHarwoodEstimate(Math.pow(10, log10Rate), 0.5, 10.0);
        AdaptiveCheckpointScheduler s = AdaptiveCheckpointScheduler.create(4, () -> Optional.of(estimate), clock::get);
        double blocking = Math.pow(10, log10Blocking);
        double latency = blocking + Math.pow(10, log10Persist);
        s.recordBlocking(blocking);
        s.recordLatency(latency);
        double expected = Math.max(estimate.model(4).optimalIntervalSeconds(), latency - blocking);
        assertEquals(expected, s.intervalSeconds(), s::toString);
        assertTrue(s.latencyModel().orElseThrow().optimalIntervalSeconds() >= latency - blocking, s::toString);
    }

    @Test
    void a_failed_or_superseded_commit_records_no_latency() {
        scheduler.recordLatency(12.0);
        CompletableFuture<Void> failing = new CompletableFuture<>();
        CompletionStage<Void> stage = scheduler.checkpoint(() -> failing);
        IllegalStateException superseded = new IllegalStateException("superseded");
        failing.completeExceptionally(superseded);
        assertEquals(12.0, scheduler.latencySeconds().orElseThrow());
        CompletionException failure = assertThrows(CompletionException.class, stage.toCompletableFuture()::join);
        assertSame(superseded, failure.getCause(), "the commit's failure passes through");
    }

    @Test
    void a_commit_that_throws_records_nothing_and_restarts_nothing() {
        advanceSeconds(100.0);
        IllegalStateException closed = new IllegalStateException("store closed");
        assertSame(closed, assertThrows(IllegalStateException.class, () -> scheduler.checkpoint(() -> {
            throw closed;
        })));
        assertEquals(100.0, scheduler.secondsSinceCheckpoint(), 1e-9);
        assertTrue(scheduler.blockingSeconds().isEmpty());
        assertEquals("commit", assertThrows(NullPointerException.class, () -> scheduler.checkpoint(null))
                .getMessage());
        assertThrows(NullPointerException.class, () -> scheduler.checkpoint(() -> null));
    }

    @Test
    void the_latency_is_recorded_by_the_thread_that_completes_the_stage() throws Exception {
        CompletableFuture<Integer> durable = new CompletableFuture<>();
        scheduler.checkpoint(() -> durable);
        Thread persister = new Thread(() -> {
            advanceSeconds(3.0);
            durable.complete(1);
        });
        persister.start();
        persister.join(10_000);
        assertFalse(persister.isAlive());
        assertEquals(3.0, scheduler.latencySeconds().orElseThrow(), 1e-9);
    }

    @Test
    void the_latency_model_needs_estimates_and_both_measurements() {
        assertTrue(scheduler.latencyModel().isEmpty());
        scheduler.recordBlocking(2.0);
        scheduler.recordLatency(1.0); // from an older, faster commit: L is taken as at least C
        assertTrue(scheduler.latencyModel().isEmpty(), "no estimates yet");
        latest.set(Optional.of(new NiHarwoodEstimate(1e-4, 1.0, 7.0)));
        assertEquals(VaidyaModel.of(8e-4, 2.0, 2.0, 7.0), scheduler.latencyModel().orElseThrow());
        assertEquals(latest.get().orElseThrow().model(8).optimalIntervalSeconds(), scheduler.intervalSeconds());
        scheduler.recordBlocking(0.0);
        assertTrue(scheduler.latencyModel().isEmpty(), "C = 0 has no Vaidya optimum");
    }

    @Test
    void measurements_are_validated() {
        assertEquals("blockingSeconds must be finite and >= 0: -1.0",
                assertThrows(IllegalArgumentException.class, () -> scheduler.recordBlocking(-1.0)).getMessage());
        assertEquals("latencySeconds must be finite and >= 0: NaN",
                assertThrows(IllegalArgumentException.class, () -> scheduler.recordLatency(Double.NaN)).getMessage());
        assertEquals("latencySeconds must be finite and >= 0: Infinity",
                assertThrows(IllegalArgumentException.class,
                        () -> scheduler.recordLatency(Double.POSITIVE_INFINITY)).getMessage());
    }

    @Test
    void measures_a_store_commit_from_the_stage_it_returns() throws Exception {
        // A clock that moves 1 ms at every reading: the measurements are orderings, not timings.
        AtomicLong ticks = new AtomicLong();
        LongSupplier clock = () -> ticks.addAndGet(1_000_000L);
        latest.set(Optional.of(new NiHarwoodEstimate(1.0 / 3600, 0.2, 30.0)));
        AdaptiveCheckpointScheduler measured = AdaptiveCheckpointScheduler.create(8, latest::get, clock);
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            repositories.add(FragmentRepository.inMemory("r" + i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(2, 2), repositories).executor(pool)
                .build()) {
            byte[] state = new byte[4096];
            new SplittableRandom(7).nextBytes(state);
            CompletionStage<FragmentIndex> stage = measured.checkpoint(() -> store.commitAsync("job", state));
            FragmentIndex index = stage.toCompletableFuture().get(60, TimeUnit.SECONDS);
            assertEquals(index, store.recover("job").orElseThrow().index());
            double blocking = measured.blockingSeconds().orElseThrow();
            // The stage returned completes after the latency is recorded: it spans the call and the persist.
            double latency = measured.latencySeconds().orElseThrow();
            assertTrue(blocking > 0 && latency > blocking, () -> blocking + " / " + latency);
            assertEquals(VaidyaModel.of(8.0 / 3600, blocking, latency, 30.0), measured.latencyModel().orElseThrow());
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        }
    }
}
