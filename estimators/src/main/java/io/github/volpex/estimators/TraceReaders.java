package io.github.volpex.estimators;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Streaming readers of the two availability-trace formats: the Failure Trace Archive's {@code event_trace.tab} and
 * hourly 0/1 availability matrices. Each returns a lazy {@link Stream} of {@link TraceInterval}s that reads one line
 * at a time, so a multi-million-row trace is never held in memory; close the stream (try-with-resources) to close
 * the reader.
 *
 * <p>Errors in the data surface while the stream is consumed, as {@link TraceFormatException} with the line number;
 * I/O errors as {@link UncheckedIOException}. The streams are sequential and not thread-safe.
 *
 * @since 0.1
 */
public final class TraceReaders {

    /** The columns of the Failure Trace Archive's tab format. */
    static final List<String> FTA_COLUMNS = List.of("event_id", "component_id", "node_id", "platform_id",
            "node_name", "event_type", "event_start_time", "event_stop_time", "event_end_reason");

    private TraceReaders() {
    }

    /**
     * Reads a Failure Trace Archive event trace ({@code event_trace.tab}): a header line naming the columns (any
     * subset of {@code event_id component_id node_id platform_id node_name event_type event_start_time
     * event_stop_time event_end_reason}, in any order, separated by tabs or spaces, with at least {@code node_id},
     * {@code event_type}, {@code event_start_time} and {@code event_stop_time}), then one event per line.
     * {@code event_type} 1 is an availability interval and 0 an unavailability one; times are Unix epoch seconds.
     * Nodes are keyed by {@code node_id} ({@code node_name} is not reliable in the published traces).
     *
     * <p>The format records neither censoring nor truncation, and the FTA's own fits treat every interval as
     * complete: every interval is returned complete (see {@link #fta(Reader, double, double)} to mark the ones the
     * observation window cuts). Zero-length intervals are returned as they are (the FTA's fits leave them out: filter
     * on {@code durationSeconds() > 0}).
     *
     * @param in the trace text; read lazily and closed when the stream is closed
     * @return the intervals, in file order
     * @throws NullPointerException if {@code in} is null
     */
    public static Stream<TraceInterval> fta(Reader in) {
        return fta(in, Double.POSITIVE_INFINITY);
    }

    /**
     * Reads a Failure Trace Archive event trace as {@link #fta(Reader)} does, marking as censored every interval
     * that ends at or after {@code observationEndSeconds}: the ones the end of the observation cut short.
     *
     * @param in                    the trace text; read lazily and closed when the stream is closed
     * @param observationEndSeconds the end of the observation, in Unix epoch seconds; {@code +∞} for none
     * @return the intervals, in file order
     * @throws NullPointerException     if {@code in} is null
     * @throws IllegalArgumentException if {@code observationEndSeconds} is NaN
     */
    public static Stream<TraceInterval> fta(Reader in, double observationEndSeconds) {
        return fta(in, Double.NEGATIVE_INFINITY, observationEndSeconds);
    }

    /**
     * Reads a Failure Trace Archive event trace as {@link #fta(Reader)} does, marking the intervals the observation
     * window cuts: every interval that starts at or before {@code observationStartSeconds} is
     * {@linkplain TraceInterval#leftTruncated() left-truncated} (it may have begun earlier: the trace shows only its
     * end), and every interval that ends at or after {@code observationEndSeconds} is censored.
     *
     * @param in                      the trace text; read lazily and closed when the stream is closed
     * @param observationStartSeconds the start of the observation, in Unix epoch seconds; {@code −∞} for none
     * @param observationEndSeconds   the end of the observation, in Unix epoch seconds; {@code +∞} for none
     * @return the intervals, in file order
     * @throws NullPointerException     if {@code in} is null
     * @throws IllegalArgumentException if a bound is NaN, or {@code observationEndSeconds < observationStartSeconds}
     */
    public static Stream<TraceInterval> fta(Reader in, double observationStartSeconds, double observationEndSeconds) {
        Objects.requireNonNull(in, "in");
        if (Double.isNaN(observationStartSeconds)) {
            throw new IllegalArgumentException("observationStartSeconds must not be NaN: NaN");
        }
        if (Double.isNaN(observationEndSeconds)) {
            throw new IllegalArgumentException("observationEndSeconds must not be NaN: NaN");
        }
        if (observationEndSeconds < observationStartSeconds) {
            throw new IllegalArgumentException("observationEndSeconds must be >= observationStartSeconds ("
                    + observationStartSeconds + "): " + observationEndSeconds);
        }
        return stream(new FtaParser(in, observationStartSeconds, observationEndSeconds), in);
    }

    /**
     * Reads an hourly (or any fixed-period) 0/1 availability matrix: one line per node (node ids 0, 1, 2, … in line
     * order; blank lines are skipped and take no id), one value per sample separated by tabs or spaces, {@code 1} if
     * the node answered (up), {@code 0} if not (down). Each maximal run of equal values becomes one interval from
     * {@code j·period} to {@code (j + n)·period}. The first run of each line is
     * {@linkplain TraceInterval#leftTruncated() left-truncated}: the trace does not show where it began, but its end,
     * unless the line ends there, is a real change of state. The last run is censored: the trace does not show where
     * it ends. A line of one run is both.
     *
     * @param in           the matrix text; read lazily and closed when the stream is closed
     * @param samplePeriod the time between samples, {@code > 0} (one hour for the Microsoft desktop trace)
     * @return the intervals, node by node and in time order within a node
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code samplePeriod} is not positive
     */
    public static Stream<TraceInterval> availabilityMatrix(Reader in, Duration samplePeriod) {
        Objects.requireNonNull(in, "in");
        double periodSeconds = Checks.positiveNanos("samplePeriod", samplePeriod) / 1e9;
        return stream(new MatrixParser(in, periodSeconds), in);
    }

    private static Stream<TraceInterval> stream(Spliterator<TraceInterval> parser, Reader in) {
        return StreamSupport.stream(parser, false).onClose(() -> {
            try {
                in.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Splits a line on spaces and tabs into {@code tokens}; returns the token count. */
    static int tokenize(String line, List<String> tokens) {
        tokens.clear();
        int n = line.length();
        int i = 0;
        while (i < n) {
            while (i < n && isBlank(line.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < n && !isBlank(line.charAt(i))) {
                i++;
            }
            if (i > start) {
                tokens.add(line.substring(start, i));
            }
        }
        return tokens.size();
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0x0B;
    }

    /** Reads lines, counting them; shared by both parsers. */
    private abstract static class LineParser extends Spliterators.AbstractSpliterator<TraceInterval> {

        private final BufferedReader reader;
        long lineNumber;

        LineParser(Reader in) {
            super(Long.MAX_VALUE, Spliterator.ORDERED | Spliterator.NONNULL);
            this.reader = in instanceof BufferedReader buffered ? buffered : new BufferedReader(in, 1 << 16);
        }

        /** Returns the next line that is not blank, or null at the end. */
        String nextLine() {
            try {
                String line;
                do {
                    line = reader.readLine();
                    if (line == null) {
                        return null;
                    }
                    lineNumber++;
                } while (line.isBlank());
                return line;
            } catch (IOException e) {
                throw new UncheckedIOException("reading line " + (lineNumber + 1), e);
            }
        }

        TraceFormatException error(String problem) {
            return new TraceFormatException(lineNumber, problem);
        }
    }

    private static final class FtaParser extends LineParser {

        private final double observationStartSeconds;
        private final double observationEndSeconds;
        private final List<String> tokens = new ArrayList<>(16);
        private int columnCount = -1;
        private int nodeColumn;
        private int typeColumn;
        private int startColumn;
        private int stopColumn;

        FtaParser(Reader in, double observationStartSeconds, double observationEndSeconds) {
            super(in);
            this.observationStartSeconds = observationStartSeconds;
            this.observationEndSeconds = observationEndSeconds;
        }

        private void readHeader() {
            String header = nextLine();
            if (header == null) {
                throw new TraceFormatException(Math.max(1, lineNumber), "empty trace: no header line");
            }
            columnCount = tokenize(header, tokens);
            nodeColumn = -1;
            typeColumn = -1;
            startColumn = -1;
            stopColumn = -1;
            for (int i = 0; i < columnCount; i++) {
                String name = tokens.get(i);
                if (!FTA_COLUMNS.contains(name)) {
                    throw error("unknown column '" + name + "' (column " + (i + 1) + "); the FTA columns are "
                            + String.join(" ", FTA_COLUMNS));
                }
                if (tokens.subList(0, i).contains(name)) {
                    throw error("duplicate column '" + name + "' (column " + (i + 1) + ")");
                }
                switch (name) {
                    case "node_id" -> nodeColumn = i;
                    case "event_type" -> typeColumn = i;
                    case "event_start_time" -> startColumn = i;
                    case "event_stop_time" -> stopColumn = i;
                    default -> {
                        // Known but not needed.
                    }
                }
            }
            List<String> missing = new ArrayList<>();
            if (nodeColumn < 0) {
                missing.add("node_id");
            }
            if (typeColumn < 0) {
                missing.add("event_type");
            }
            if (startColumn < 0) {
                missing.add("event_start_time");
            }
            if (stopColumn < 0) {
                missing.add("event_stop_time");
            }
            if (!missing.isEmpty()) {
                throw error("missing required column(s) " + String.join(", ", missing));
            }
        }

        @Override
        public boolean tryAdvance(Consumer<? super TraceInterval> action) {
            if (columnCount < 0) {
                readHeader();
            }
            String line = nextLine();
            if (line == null) {
                return false;
            }
            int n = tokenize(line, tokens);
            if (n != columnCount) {
                throw error("expected " + columnCount + " fields, found " + n + ": '" + line.strip() + "'");
            }
            long node = parseLong("node_id", tokens.get(nodeColumn));
            String type = tokens.get(typeColumn);
            boolean available;
            if (type.equals("1")) {
                available = true;
            } else if (type.equals("0")) {
                available = false;
            } else {
                throw error("event_type must be 0 or 1: '" + type + "'");
            }
            double start = parseTime("event_start_time", tokens.get(startColumn));
            double stop = parseTime("event_stop_time", tokens.get(stopColumn));
            if (stop < start) {
                throw error("event_stop_time must be >= event_start_time (" + tokens.get(startColumn) + "): "
                        + tokens.get(stopColumn));
            }
            action.accept(new TraceInterval(node, available, start, stop, stop >= observationEndSeconds,
                    start <= observationStartSeconds));
            return true;
        }

        private long parseLong(String column, String token) {
            try {
                return Long.parseLong(token);
            } catch (NumberFormatException e) {
                throw error(column + " must be an integer: '" + token + "'");
            }
        }

        private double parseTime(String column, String token) {
            double value;
            try {
                value = Double.parseDouble(token);
            } catch (NumberFormatException e) {
                throw error(column + " must be a number of seconds: '" + token + "'");
            }
            if (!Double.isFinite(value)) {
                throw error(column + " must be finite: '" + token + "'");
            }
            return value;
        }
    }

    private static final class MatrixParser extends LineParser {

        private final double periodSeconds;
        private final ArrayDeque<TraceInterval> pending = new ArrayDeque<>();
        private long nodeId;

        MatrixParser(Reader in, double periodSeconds) {
            super(in);
            this.periodSeconds = periodSeconds;
        }

        @Override
        public boolean tryAdvance(Consumer<? super TraceInterval> action) {
            if (pending.isEmpty()) {
                String line = nextLine();
                if (line == null) {
                    return false;
                }
                parseLine(line, nodeId++);
            }
            action.accept(pending.poll());
            return true;
        }

        /** Turns one line into its runs, appended to {@code pending}. */
        private void parseLine(String line, long node) {
            int n = line.length();
            int i = 0;
            int sample = 0;
            int runStart = 0;
            int runValue = -1;
            while (i < n) {
                char c = line.charAt(i);
                if (isBlank(c)) {
                    i++;
                    continue;
                }
                int end = i;
                while (end < n && !isBlank(line.charAt(end))) {
                    end++;
                }
                int value;
                if (end == i + 1 && (c == '0' || c == '1')) {
                    value = c - '0';
                } else {
                    throw error("sample " + (sample + 1) + " must be 0 or 1: '" + line.substring(i, end) + "'");
                }
                if (value != runValue) {
                    if (runValue >= 0) {
                        pending.add(new TraceInterval(node, runValue == 1, runStart * periodSeconds,
                                sample * periodSeconds, false, runStart == 0));
                    }
                    runStart = sample;
                    runValue = value;
                }
                sample++;
                i = end;
            }
            pending.add(new TraceInterval(node, runValue == 1, runStart * periodSeconds, sample * periodSeconds,
                    true, runStart == 0));
        }
    }
}
