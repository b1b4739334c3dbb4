package io.github.volpex.estimators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The checkpoint overhead V (eq. 2 as DESIGN.md §3.1 reads it) and the download time T_d (§3.1.3). */
class CheckpointCostsTest {

    @Test
    void overhead_is_the_mean_of_the_cpu_and_message_estimates() {
        // 10 minutes each run, 5 checkpoints: CPU 0.9 → 0.81 (10% lost), messages 10,000 → 8,500 (15% lost).
        CheckpointOverhead v = CheckpointOverhead.measure(0.9, 0.81, 10_000, 8_500, 600, 5);
        assertEquals(0.1 * 120, v.cpuBasedSeconds(), 1e-12);
        assertEquals(0.15 * 120, v.messageBasedSeconds(), 1e-12);
        assertEquals(15.0, v.seconds(), 1e-12);
        // Printed eq. 2 would give (P1−P2)(M1−M2)t / (2 P1 M1 y) = 0.1·0.15·600/(2·5) = 0.9 s: not a time.
    }

    @Test
    void noise_that_makes_a_ratio_negative_counts_as_zero_overhead() {
        CheckpointOverhead v = CheckpointOverhead.measure(50, 55, 1000, 900, 60, 1);
        assertEquals(0.0, v.cpuBasedSeconds());
        assertEquals(6.0, v.messageBasedSeconds(), 1e-12);
        assertEquals(3.0, v.seconds(), 1e-12);
    }

    @Test
    void overhead_arguments_are_checked() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CheckpointOverhead.measure(0, 0, 1, 1, 1, 1));
        assertEquals("cpuWithout must be finite and > 0: 0.0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CheckpointOverhead.measure(1, 1, 0, 1, 1, 1));
        assertEquals("messagesWithout must be > 0: 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CheckpointOverhead.measure(1, 1, 1, -1, 1, 1));
        assertEquals("messagesWith must be >= 0: -1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CheckpointOverhead.measure(1, 1, 1, 1, 1, 0));
        assertEquals("checkpoints must be >= 1: 0", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CheckpointOverhead.measure(1, Double.NaN, 1, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> CheckpointOverhead.measure(1, 1, 1, 1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new CheckpointOverhead(-1, 0));
    }

    @Test
    void download_time_starts_at_v_then_follows_the_first_image_then_each_restart() {
        DownloadTimeEstimator td = DownloadTimeEstimator.startingAt(20);
        assertEquals(20, td.seconds());
        assertEquals(DownloadTimeEstimator.Source.OVERHEAD, td.source());
        td.updateOverhead(25);
        assertEquals(25, td.seconds());
        td.recordFirstImageDownload(50);
        assertEquals(50, td.seconds());
        assertEquals(DownloadTimeEstimator.Source.FIRST_IMAGE, td.source());
        td.updateOverhead(30);
        td.recordFirstImageDownload(70);
        assertEquals(50, td.seconds());
        td.recordRestartDownload(80);
        assertEquals(80, td.seconds());
        assertEquals(DownloadTimeEstimator.Source.RESTART, td.source());
        td.recordRestartDownload(40);
        assertEquals(40, td.seconds());
        td.recordFirstImageDownload(10);
        assertEquals(40, td.seconds());
        assertEquals("DownloadTimeEstimator[seconds=40.0, source=RESTART]", td.toString());
    }

    @Test
    void download_time_rejects_bad_measurements_and_keeps_its_value() {
        DownloadTimeEstimator td = DownloadTimeEstimator.startingAt(20);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> td.recordRestartDownload(Double.NaN));
        assertEquals("downloadSeconds must be finite and >= 0: NaN", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> td.recordFirstImageDownload(-1));
        assertThrows(IllegalArgumentException.class, () -> DownloadTimeEstimator.startingAt(Double.POSITIVE_INFINITY));
        assertEquals(20, td.seconds());
        assertEquals(DownloadTimeEstimator.Source.OVERHEAD, td.source());
    }
}
