package io.github.volpex.examples.cluster;

import java.util.Arrays;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Reads the fields of one line of the replica protocol ({@link ReplicaReport}, {@link ReplicaOrder}) in order, and
 * checks field values; every failure quotes the whole line. Not thread-safe: one line at a time.
 */
final class Fields {

    /** The longest free-text field a report carries, in characters. */
    static final int MAX_TEXT = 300;

    private final String line;
    private final String[] words;
    private int next = 1;

    /**
     * Splits a line at single spaces.
     *
     * @param line the line
     */
    Fields(String line) {
        this.line = line;
        this.words = line.split(" ", -1);
    }

    /** The first word: the kind of message. */
    String word() {
        return words[0];
    }

    private String field(String what) {
        if (next >= words.length) {
            throw malformed("missing " + what);
        }
        return words[next++];
    }

    /** The next field, a non-negative int. */
    int integer() {
        long value = count();
        if (value > Integer.MAX_VALUE) {
            throw malformed("not an int: " + value);
        }
        return (int) value;
    }

    /** The next field, a non-negative long. */
    long count() {
        String text = field("a count");
        try {
            long value = Long.parseLong(text);
            if (value < 0 || text.startsWith("+")) {
                throw malformed("not a count: " + text);
            }
            return value;
        } catch (NumberFormatException e) {
            throw malformed("not a count: " + text);
        }
    }

    /** The next field, an epoch or -1 for none. */
    long epoch() {
        String text = field("an epoch");
        if (text.equals("-1")) {
            return -1;
        }
        next--;
        return count();
    }

    /** The next field, a number as {@link Double#toString} writes it. */
    double real() {
        String text = field("a number");
        try {
            double value = Double.parseDouble(text);
            if (!Double.toString(value).equals(text)) {
                throw malformed("not a number as written by Double.toString: " + text);
            }
            return value;
        } catch (NumberFormatException e) {
            throw malformed("not a number: " + text);
        }
    }

    /** The next field, where a replica's state came from. */
    ReplicaReport.Origin restoredFrom() {
        String text = field("an origin");
        for (ReplicaReport.Origin origin : ReplicaReport.Origin.values()) {
            if (origin.word().equals(text)) {
                return origin;
            }
        }
        throw malformed("not an origin (start, scratch, checkpoint or lost): " + text);
    }

    /** The next field, what became of an asynchronous commit. */
    ReplicaReport.Outcome persisted() {
        String text = field("an outcome");
        for (ReplicaReport.Outcome outcome : ReplicaReport.Outcome.values()) {
            if (outcome.word().equals(text)) {
                return outcome;
            }
        }
        throw malformed("not an outcome (durable, superseded, failed or abandoned): " + text);
    }

    /** The rest of the line, which must not be empty. */
    String rest() {
        return optionalRest().orElseThrow(() -> malformed("missing text"));
    }

    /** The rest of the line, if there is any. */
    Optional<String> optionalRest() {
        if (next >= words.length) {
            return Optional.empty();
        }
        String rest = String.join(" ", Arrays.asList(words).subList(next, words.length));
        next = words.length;
        return Optional.of(rest);
    }

    /** Checks that every field was read. */
    private void end() {
        if (next < words.length) {
            throw malformed("unexpected field " + words[next]);
        }
    }

    /**
     * Builds the message of a line, turning a field the message refuses into the line's failure.
     *
     * @param message builds the message from the fields
     * @return the message
     * @throws IllegalArgumentException quoting the line, if a field is missing, malformed or refused
     */
    <T> T build(Supplier<T> message) {
        try {
            T built = message.get();
            end();
            return built;
        } catch (Malformed e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw malformed(e.getMessage());
        }
    }

    Malformed malformed(String problem) {
        return new Malformed("malformed " + words[0] + " line (" + problem + "): '" + line + "'");
    }

    /** A line that is not a message of the protocol. */
    static final class Malformed extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message);
        }
    }

    /** Checks a count field. */
    static void nonNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be >= 0: " + value);
        }
    }

    /** Checks an epoch field: an epoch, or -1 for none. */
    static void epoch(String name, long value) {
        if (value < -1) {
            throw new IllegalArgumentException(name + " must be >= -1 (-1: none): " + value);
        }
    }

    /** Checks a time field: finite and not negative. */
    static void seconds(String name, double value) {
        if (!(value >= 0 && value < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException(name + " must be finite and >= 0: " + value);
        }
    }

    /** Checks a free-text field: one line, not blank, without surrounding or doubled spaces, short. */
    static void text(String name, String value) {
        if (value.isEmpty() || !oneLine(value).equals(value)) {
            throw new IllegalArgumentException(name + " must be one line of single-spaced text, at most " + MAX_TEXT
                    + " characters: '" + value + "'");
        }
    }

    /**
     * Makes any message fit a free-text field: line breaks and runs of white space become single spaces, it is
     * trimmed and cut to {@link #MAX_TEXT} characters, and an empty one becomes {@code (no message)}.
     *
     * @param message any text, or null
     * @return text that {@link #text} accepts
     */
    static String oneLine(String message) {
        String text = String.valueOf(message).replaceAll("\\s+", " ").strip();
        if (text.length() > MAX_TEXT) {
            text = text.substring(0, MAX_TEXT - 1).strip() + "…";
        }
        return text.isEmpty() ? "(no message)" : text;
    }
}
