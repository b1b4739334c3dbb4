package io.github.volpex.estimators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class TraceReadersTest {

    private static final String HEADER = "event_id  component_id node_id  platform_id   node_name     event_type   "
            + "event_start_time     event_stop_time  event_end_reason\n";

    private static List<TraceInterval> fta(String text) {
        try (Stream<TraceInterval> s = TraceReaders.fta(new StringReader(text))) {
            return s.collect(Collectors.toList());
        }
    }

    private static List<TraceInterval> matrix(String text) {
        try (Stream<TraceInterval> s = TraceReaders.availabilityMatrix(new StringReader(text), Duration.ofHours(1))) {
            return s.collect(Collectors.toList());
        }
    }

    @Test
    void reads_fta_rows_with_mixed_tabs_and_spaces() {
        List<TraceInterval> intervals = fta(HEADER
                + "    0\t       0\t     655\t    3\t       10.000\t         0\t   \t\t1099755300\t   \t\t1099906200\t"
                + "       \t8000\n"
                + "    1\t       0\t     655\t    3\t       10.000\t         1\t   \t\t1099906200\t   \t\t1112096400\t"
                + "       \t4022\r\n"
                + "\n"
                + "0 0 581 3 9.970 1 1112963460 1112963460 0\n");
        assertEquals(List.of(
                new TraceInterval(655, false, 1099755300, 1099906200, false, false),
                new TraceInterval(655, true, 1099906200, 1112096400, false, false),
                new TraceInterval(581, true, 1112963460, 1112963460, false, false)), intervals);
        assertEquals(150_900, intervals.get(0).durationSeconds());
    }

    @Test
    void columns_may_come_in_any_order_and_only_four_are_required() {
        List<TraceInterval> intervals = fta("event_stop_time event_start_time event_type node_id\n20 10 1 7\n");
        assertEquals(List.of(new TraceInterval(7, true, 10, 20, false, false)), intervals);
    }

    @Test
    void marks_intervals_cut_by_the_end_of_the_observation_as_censored() {
        try (Stream<TraceInterval> s = TraceReaders.fta(new StringReader(HEADER
                + "0 0 1 3 1.0 1 0 100 0\n1 0 1 3 1.0 0 100 150 8000\n"), 150)) {
            assertEquals(List.of(false, true), s.map(TraceInterval::censored).collect(Collectors.toList()));
        }
    }

    @Test
    void unknown_missing_and_duplicate_columns_are_rejected_on_line_one() {
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> fta("node_id event_type event_start_time event_stop_time colour\n"));
        assertEquals(1, e.lineNumber());
        assertEquals("line 1: unknown column 'colour' (column 5); the FTA columns are event_id component_id node_id "
                + "platform_id node_name event_type event_start_time event_stop_time event_end_reason", e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> fta("node_id event_type\n"));
        assertEquals("line 1: missing required column(s) event_start_time, event_stop_time", e.getMessage());
        e = assertThrows(TraceFormatException.class,
                () -> fta("node_id node_id event_type event_start_time event_stop_time\n"));
        assertEquals("line 1: duplicate column 'node_id' (column 2)", e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> fta(""));
        assertEquals("line 1: empty trace: no header line", e.getMessage());
    }

    @Test
    void malformed_lines_are_reported_with_their_line_number() {
        String good = "0 0 1 3 1.0 1 0 100 0\n";
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> fta(HEADER + good + "\n" + "1 0 1 3 1.0 1 100 200\n"));
        assertEquals(4, e.lineNumber());
        assertEquals("line 4: expected 9 fields, found 8: '1 0 1 3 1.0 1 100 200'", e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> fta(HEADER + "0 0 x 3 1.0 1 0 100 0\n"));
        assertEquals("line 2: node_id must be an integer: 'x'", e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> fta(HEADER + "0 0 1 3 1.0 2 0 100 0\n"));
        assertEquals("line 2: event_type must be 0 or 1: '2'", e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> fta(HEADER + "0 0 1 3 1.0 1 0 NULL 0\n"));
        assertEquals("line 2: event_stop_time must be a number of seconds: 'NULL'", e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> fta(HEADER + good + "0 0 1 3 1.0 1 200 100 0\n"));
        assertEquals("line 3: event_stop_time must be >= event_start_time (200): 100", e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> fta(HEADER + "0 0 1 3 1.0 1 0 Infinity 0\n"));
        assertEquals("line 2: event_stop_time must be finite: 'Infinity'", e.getMessage());
    }

    @Test
    void the_stream_is_lazy_and_closing_it_closes_the_reader() {
        AtomicBoolean closed = new AtomicBoolean();
        Reader in = new StringReader(HEADER + "0 0 1 3 1.0 1 0 100 0\n" + "garbage\n") {
            @Override
            public void close() {
                closed.set(true);
                super.close();
            }
        };
        try (Stream<TraceInterval> s = TraceReaders.fta(in)) {
            // The malformed third line is never reached.
            assertEquals(1, s.limit(1).count());
        }
        assertTrue(closed.get());
    }

    @Test
    void matrix_runs_become_intervals_with_the_edges_censored() {
        List<TraceInterval> intervals = matrix("1\t1\t0\t0\t0\t1\t1\n\n0 0 0\n1\t0\t1\n");
        double h = 3600;
        assertEquals(List.of(
                new TraceInterval(0, true, 0, 2 * h, false, true),
                new TraceInterval(0, false, 2 * h, 5 * h, false, false),
                new TraceInterval(0, true, 5 * h, 7 * h, true, false),
                new TraceInterval(1, false, 0, 3 * h, true, true),
                new TraceInterval(2, true, 0, h, false, true),
                new TraceInterval(2, false, h, 2 * h, false, false),
                new TraceInterval(2, true, 2 * h, 3 * h, true, false)), intervals);
    }

    /**
     * The first run of a line ends with a real change of state that the trace shows: only its start is unknown.
     * Counting it as censored would drop that failure; it is left-truncated instead, and censored only when the line
     * has no other run.
     */
    @Test
    void matrix_first_runs_are_left_truncated_and_end_in_an_event() {
        List<TraceInterval> intervals = matrix("1 1 1 0 1\n0 1 1\n1 1\n");
        assertEquals(List.of(true, false, false, true, false, true),
                intervals.stream().map(TraceInterval::leftTruncated).collect(Collectors.toList()));
        assertEquals(List.of(false, false, true, false, true, true),
                intervals.stream().map(TraceInterval::censored).collect(Collectors.toList()));
        LifetimeSample up = intervals.stream().filter(TraceInterval::available).collect(LifetimeSample.collector());
        // Up runs: 3 h ended by a failure (start unknown), 1 h censored, 2 h censored, 2 h truncated and censored.
        assertEquals(4, up.size());
        assertEquals(1, up.failureCount());
        assertEquals(2, up.leftTruncatedCount());
        assertTrue(up.isFailure(0) && up.isLeftTruncated(0));
        assertTrue(!up.isFailure(3) && up.isLeftTruncated(3));
    }

    @Test
    void fta_marks_the_intervals_the_observation_window_cuts() {
        try (Stream<TraceInterval> s = TraceReaders.fta(new StringReader(HEADER
                + "0 0 1 3 1.0 1 100 200 0\n1 0 1 3 1.0 0 200 250 8000\n2 0 1 3 1.0 1 250 400 0\n"
                + "0 0 2 3 1.0 1 50 400 0\n"), 100, 400)) {
            List<TraceInterval> intervals = s.collect(Collectors.toList());
            assertEquals(List.of(true, false, false, true),
                    intervals.stream().map(TraceInterval::leftTruncated).collect(Collectors.toList()));
            assertEquals(List.of(false, false, true, true),
                    intervals.stream().map(TraceInterval::censored).collect(Collectors.toList()));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TraceReaders.fta(new StringReader(HEADER), 10, 5));
        assertEquals("observationEndSeconds must be >= observationStartSeconds (10.0): 5.0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> TraceReaders.fta(new StringReader(HEADER), Double.NaN, 5));
        assertEquals("observationStartSeconds must not be NaN: NaN", e.getMessage());
    }

    @Test
    void matrix_values_other_than_zero_and_one_are_rejected_with_line_and_sample() {
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> matrix("1 1\n1 2 0\n"));
        assertEquals("line 2: sample 2 must be 0 or 1: '2'", e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> matrix("1 10\n"));
        assertEquals("line 1: sample 2 must be 0 or 1: '10'", e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> TraceReaders.availabilityMatrix(new StringReader(""), Duration.ZERO));
        assertThrows(NullPointerException.class, () -> TraceReaders.fta(null));
    }

    @Test
    void lanl05_streams_in_file_order() {
        try (Stream<TraceInterval> s = TraceReaders.fta(Lanl05.open())) {
            TraceInterval first = s.findFirst().orElseThrow();
            assertEquals(new TraceInterval(655, false, 1099755300, 1099906200, false, false), first);
        }
    }

    /** The Microsoft desktop chunk beside the clone, or an assumption failure naming it. */
    private static List<TraceInterval> microsoft99() throws IOException {
        Path path = Path.of("../../shared/data/microsoft99-ping-subset/PingData00.txt");
        Assumptions.assumeTrue(Files.exists(path),
                "../../shared/data/microsoft99-ping-subset/PingData00.txt is absent (it may not be redistributed)");
        try (Reader in = Files.newBufferedReader(path, StandardCharsets.US_ASCII);
             Stream<TraceInterval> s = TraceReaders.availabilityMatrix(in, Duration.ofHours(1))) {
            return s.collect(Collectors.toList());
        }
    }

    /**
     * The Microsoft desktop trace (Bolosky et al. 2000) is unlicensed for redistribution and never committed: this
     * test runs only where {@code ../shared/data} holds a copy. The FTA's fits for the whole trace (51,000 hosts) are
     * a mean of 67.01 h and Weibull 0.55 / 35.30 h; this 1,000-host chunk, fitted the same way (every availability
     * run as complete), gives a similar shape and shorter runs: mean 31.05 h, Weibull 0.596 / 16.76 h, the values an
     * independent computation (numpy/scipy) gives on the same file.
     */
    @Test
    void microsoft99_chunk_is_read_and_fitted() throws IOException {
        List<TraceInterval> intervals = microsoft99();
        assertEquals(1000, intervals.stream().mapToLong(TraceInterval::nodeId).distinct().count());
        // Every node's runs add up to its 840 hours.
        assertEquals(1000 * 840 * 3600.0, intervals.stream().mapToDouble(TraceInterval::durationSeconds).sum(), 1e-3);
        LifetimeSample up = intervals.stream().filter(TraceInterval::available).collect(LifetimeSample.collector());
        assertEquals(16_440, up.size());
        LifetimeSample asComplete = LifetimeSample.ofFailures(up.toSecondsArray());
        assertEquals(31.046411192214112, DistributionFit.exponential(asComplete).meanSeconds() / 3600, 1e-9);
        WeibullFit weibull = DistributionFit.weibull(asComplete);
        assertEquals(0.596176212190582, weibull.shape(), 1e-9);
        assertEquals(16.759345910964225, weibull.scaleSeconds() / 3600, 1e-8);
        assertEquals(0.55, weibull.shape(), 0.05);
    }

    /**
     * Of the 16,440 availability runs of the chunk, 497 start with the trace; 442 of them end inside it, in a real
     * failure. Counted, they give 15,836 failures over 510,403 host-hours (computed independently with numpy): an
     * exponential mean of 32.2306 h, with the time-truncated 95% interval [31.732, 32.738] h. Counting those runs as
     * censored, as the reader once did, dropped the 442 failures and moved the mean to 33.156 h, outside that
     * interval.
     */
    @Test
    void microsoft99_first_runs_count_their_failures() throws IOException {
        LifetimeSample up = microsoft99().stream().filter(TraceInterval::available)
                .collect(LifetimeSample.collector());
        assertEquals(497, up.leftTruncatedCount());
        assertEquals(15_836, up.failureCount());
        assertEquals(510_403 * 3600.0, up.totalSeconds(), 1e-3);
        RateEstimate estimate = RateEstimate.of(up);
        assertEquals(32.230550644102046, estimate.meanTimeToFailureSeconds() / 3600, 1e-9);
        assertEquals(estimate.meanTimeToFailureSeconds(), DistributionFit.exponential(up).meanSeconds(), 1e-6);
        MeanTimeInterval mtbf = estimate.timeTruncatedConfidenceInterval(0.95).meanTimeToFailure();
        assertEquals(31.73240690058678, mtbf.lowerSeconds() / 3600, 1e-6);
        assertEquals(32.73848851110348, mtbf.upperSeconds() / 3600, 1e-6);
        assertTrue(mtbf.contains(estimate.meanTimeToFailureSeconds()));
        assertTrue(!mtbf.contains(33.155969858386385 * 3600), "the old reading lies outside the interval");
    }

    /**
     * The two-parameter fits of the chunk's availability runs with the first runs as remaining lives (the
     * equilibrium likelihood of the class description), against an independent maximization with scipy
     * (Nelder–Mead on the same likelihood, in hours).
     */
    @Test
    void microsoft99_fits_with_left_truncation_match_an_independent_computation() throws IOException {
        LifetimeSample up = microsoft99().stream().filter(TraceInterval::available)
                .collect(LifetimeSample.collector());
        WeibullFit weibull = DistributionFit.weibull(up);
        assertEquals(0.5727174034648894, weibull.shape(), 1e-6);
        assertEquals(16.5941067012201, weibull.scaleSeconds() / 3600, 1e-4);
        LogNormalFit logNormal = DistributionFit.logNormal(up);
        assertEquals(2.0219528882165454, logNormal.meanLog() - Math.log(3600), 1e-6);
        assertEquals(1.4926445461988613, logNormal.sdLog(), 1e-6);
        GammaFit gamma = DistributionFit.gamma(up);
        assertEquals(0.4386896967622141, gamma.shape(), 1e-6);
        assertEquals(74.8568570915746, gamma.scaleSeconds() / 3600, 1e-3);
        // The likelihoods in hours; every failure's density term is per hour, 3600 times the density per second.
        double perHour = up.failureCount() * Math.log(3600);
        assertEquals(-63272.63382867467, weibull.logLikelihood() + perHour, 1e-6);
        assertEquals(-59966.48847948306, logNormal.logLikelihood() + perHour, 1e-6);
        assertEquals(-65744.13991654139, gamma.logLikelihood() + perHour, 1e-6);
    }
}
