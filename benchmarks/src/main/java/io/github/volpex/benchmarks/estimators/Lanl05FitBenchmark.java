package io.github.volpex.benchmarks.estimators;

import io.github.volpex.estimators.DistributionFit;
import io.github.volpex.estimators.LifetimeSample;
import io.github.volpex.estimators.TraceInterval;
import io.github.volpex.estimators.TraceReaders;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The whole LANL05 trace (43,325 rows, gzip-compressed in the estimators' test resources): decompress, read and fit
 * all four distributions to both the availability and the unavailability intervals, against its parts and against a
 * baseline reader (regular-expression split per line) that only extracts the same two numbers per row.
 * Run from the repository root, or pass {@code -p trace=PATH}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class Lanl05FitBenchmark {

    /** The gzip-compressed trace. */
    @Param("estimators/src/test/resources/fta-lanl05/event_trace.tab.gz")
    public String trace;

    private LifetimeSample up;
    private LifetimeSample down;

    /**
     * Reads the samples once for the fit-only benchmark.
     *
     * @throws IOException if the trace cannot be read
     */
    @Setup
    public void setUp() throws IOException {
        if (!Files.exists(Path.of(trace))) {
            throw new IllegalStateException("trace not found: " + Path.of(trace).toAbsolutePath()
                    + " (run from the repository root or pass -p trace=PATH)");
        }
        List<TraceInterval> intervals;
        try (Stream<TraceInterval> s = TraceReaders.fta(open())) {
            intervals = s.filter(i -> i.durationSeconds() > 0).toList();
        }
        up = intervals.stream().filter(TraceInterval::available).collect(LifetimeSample.collector());
        down = intervals.stream().filter(i -> !i.available()).collect(LifetimeSample.collector());
    }

    private BufferedReader open() {
        try {
            return new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(Path.of(trace)),
                    1 << 16), StandardCharsets.US_ASCII), 1 << 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Baseline: decompress and split every line with a regular expression, parsing the two times.
     *
     * @return a checksum
     * @throws IOException if the trace cannot be read
     */
    @Benchmark
    public double baselineSplitRead() throws IOException {
        double sum = 0;
        try (BufferedReader in = open()) {
            in.readLine();
            String line;
            while ((line = in.readLine()) != null) {
                String[] fields = line.trim().split("\\s+");
                sum += Double.parseDouble(fields[7]) - Double.parseDouble(fields[6]);
            }
        }
        return sum;
    }

    /**
     * Decompress and read the trace into the two samples.
     *
     * @return the number of availability intervals
     */
    @Benchmark
    public int read() {
        return readSamples()[0].size();
    }

    private LifetimeSample[] readSamples() {
        LifetimeSample.Builder available = LifetimeSample.builder();
        LifetimeSample.Builder unavailable = LifetimeSample.builder();
        try (Stream<TraceInterval> s = TraceReaders.fta(open())) {
            s.forEach(i -> {
                if (i.durationSeconds() > 0) {
                    (i.available() ? available : unavailable).add(i);
                }
            });
        }
        return new LifetimeSample[] {available.build(), unavailable.build()};
    }

    /**
     * Fit the four distributions to both samples, already in memory.
     *
     * @return the sum of the log-likelihoods
     */
    @Benchmark
    public double fitAllFour() {
        return fitBoth(up, down);
    }

    private static double fitBoth(LifetimeSample available, LifetimeSample unavailable) {
        double sum = 0;
        for (DistributionFit fit : DistributionFit.all(available)) {
            sum += fit.logLikelihood();
        }
        for (DistributionFit fit : DistributionFit.all(unavailable)) {
            sum += fit.logLikelihood();
        }
        return sum;
    }

    /**
     * The whole task: decompress, read and fit all four distributions to both samples.
     *
     * @return the sum of the log-likelihoods
     */
    @Benchmark
    public double readAndFitAllFour() {
        LifetimeSample[] samples = readSamples();
        return fitBoth(samples[0], samples[1]);
    }
}
