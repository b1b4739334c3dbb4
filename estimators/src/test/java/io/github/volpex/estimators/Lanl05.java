package io.github.volpex.estimators;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/** The vendored LANL05 trace (see {@code src/test/resources/fta-lanl05/README.md}), read once per test run. */
final class Lanl05 {

    private static List<TraceInterval> intervals;

    private Lanl05() {
    }

    static Reader open() {
        InputStream in = Lanl05.class.getResourceAsStream("/fta-lanl05/event_trace.tab.gz");
        if (in == null) {
            throw new IllegalStateException("test resource /fta-lanl05/event_trace.tab.gz is missing");
        }
        try {
            return new InputStreamReader(new GZIPInputStream(in, 1 << 16), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static synchronized List<TraceInterval> intervals() {
        if (intervals == null) {
            try (Stream<TraceInterval> s = TraceReaders.fta(open())) {
                intervals = s.collect(Collectors.toUnmodifiableList());
            }
        }
        return intervals;
    }

    /** The durations of one state, in seconds, zero-length ones left out as the FTA does. */
    static LifetimeSample durations(boolean available) {
        return intervals().stream().filter(i -> i.available() == available && i.durationSeconds() > 0)
                .collect(LifetimeSample.collector());
    }
}
