package io.github.volpex.examples.cluster;

import java.util.Base64;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@code --coordinated} replica tells its coordinator: one line on its standard output per report, a word
 * starting with {@code @} and the report's fields separated by single spaces ({@code @clock 1234.5 3 17}). Lines that
 * do not start with {@code @} are for people and carry no report. {@link #format} and {@link #parse} are each other's
 * inverse; floating-point fields are written as {@link Double#toString} writes them, so they read back exactly.
 * Immutable values.
 */
sealed interface ReplicaReport {

    /**
     * Returns the line that carries this report.
     *
     * @return one line, without its line break
     */
    String format();

    /**
     * Reads a line a replica wrote.
     *
     * @param line one line, without its line break
     * @return the report, or empty if the line is for people (does not start with {@code @})
     * @throws IllegalArgumentException if the line starts with {@code @} but is not a report: an unknown word, a
     *                                  missing, extra or malformed field; the message quotes the line
     */
    static Optional<ReplicaReport> parse(String line) {
        if (!line.startsWith("@")) {
            return Optional.empty();
        }
        Fields fields = new Fields(line);
        return Optional.of(fields.build(() -> switch (fields.word()) {
            case Restored.WORD -> new Restored(fields.restoredFrom(), fields.integer(), fields.count());
            case Clock.WORD -> new Clock(fields.real(), fields.integer(), fields.count());
            case Step.WORD -> new Step(fields.integer(), fields.count(), fields.count(), fields.count());
            case Checkpoint.WORD -> new Checkpoint(fields.integer(), fields.real(), fields.real());
            case Persist.WORD -> new Persist(fields.persisted(), fields.real(), fields.real(), fields.count(),
                    fields.count());
            case Stale.WORD -> new Stale(fields.epoch());
            case CommitFailed.WORD -> new CommitFailed(fields.rest());
            case Repaired.WORD -> new Repaired(fields.integer(), fields.optionalRest());
            case Elected.WORD -> new Elected(fields.count());
            case Demoted.WORD -> new Demoted(fields.epoch());
            case Done.WORD -> new Done(fields.rest());
            default -> throw new Fields.Malformed("unknown replica report " + fields.word() + ": '" + line + "'");
        }));
    }

    /** Where a replica's state came from when it started. */
    enum Origin {
        /** The process's first start, from its initial state. */
        START,
        /** A restart before the process's first checkpoint: from the initial state. */
        SCRATCH,
        /** A restart from the process's last checkpoint. */
        CHECKPOINT,
        /** A restart from the initial state because the checkpoint was lost with its storage hosts. */
        LOST;

        String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The replica has its starting state.
     *
     * @param origin        where the state came from
     * @param steps         the steps the state has completed, {@code >= 0}
     * @param requestNumber the dataspace request number the replica resumes at, {@code >= 0}
     */
    record Restored(Origin origin, int steps, long requestNumber) implements ReplicaReport {
        static final String WORD = "@restored";

        /** Checks the fields. */
        public Restored {
            Objects.requireNonNull(origin, "origin");
            Fields.nonNegative("steps", steps);
            Fields.nonNegative("requestNumber", requestNumber);
        }

        @Override
        public String format() {
            return WORD + " " + origin.word() + " " + steps + " " + requestNumber;
        }
    }

    /**
     * The replica's virtual clock before a part of a step; the coordinator acknowledges {@code sequence}.
     *
     * @param virtualSeconds the replica's virtual time, seconds, finite and {@code >= 0}
     * @param step           the step under way, {@code >= 0}
     * @param sequence       the number of this clock report, counted from 1
     */
    record Clock(double virtualSeconds, int step, long sequence) implements ReplicaReport {
        static final String WORD = "@clock";

        /** Checks the fields. */
        public Clock {
            Fields.seconds("virtualSeconds", virtualSeconds);
            Fields.nonNegative("step", step);
            Fields.nonNegative("sequence", sequence);
        }

        @Override
        public String format() {
            return WORD + " " + virtualSeconds + " " + step + " " + sequence;
        }
    }

    /**
     * A step is complete.
     *
     * @param completedSteps the steps completed, {@code >= 0}
     * @param servedFromLog  requests this replica's dataspace served from the read log so far
     * @param duplicatePuts  duplicate puts it ignored so far
     * @param bytesWritten   checkpoint bytes it stored so far
     */
    record Step(int completedSteps, long servedFromLog, long duplicatePuts, long bytesWritten)
            implements ReplicaReport {
        static final String WORD = "@step";

        /** Checks the fields. */
        public Step {
            Fields.nonNegative("completedSteps", completedSteps);
            Fields.nonNegative("servedFromLog", servedFromLog);
            Fields.nonNegative("duplicatePuts", duplicatePuts);
            Fields.nonNegative("bytesWritten", bytesWritten);
        }

        @Override
        public String format() {
            return WORD + " " + completedSteps + " " + servedFromLog + " " + duplicatePuts + " " + bytesWritten;
        }
    }

    /**
     * The replica, as its process's writer, committed a process checkpoint.
     *
     * @param completedSteps  the steps the checkpoint holds
     * @param virtualSeconds  the replica's virtual time after the commit, seconds
     * @param intervalSeconds the checkpoint interval the scheduler used, seconds (not NaN)
     */
    record Checkpoint(int completedSteps, double virtualSeconds, double intervalSeconds) implements ReplicaReport {
        static final String WORD = "@checkpoint";

        /** Checks the fields. */
        public Checkpoint {
            Fields.nonNegative("completedSteps", completedSteps);
            Fields.seconds("virtualSeconds", virtualSeconds);
            if (Double.isNaN(intervalSeconds)) {
                throw new IllegalArgumentException("intervalSeconds must be a number: NaN");
            }
        }

        @Override
        public String format() {
            return WORD + " " + completedSteps + " " + virtualSeconds + " " + intervalSeconds;
        }
    }

    /** What became of an asynchronous commit. */
    enum Outcome {
        /** Its stage completed: the checkpoint is durable. */
        DURABLE,
        /** A newer commit of the process replaced it before it started. */
        SUPERSEDED,
        /** It failed (its writer was stale, or too few storage hosts took it). */
        FAILED,
        /** The store closed before it was decided. */
        ABANDONED;

        String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * An asynchronous commit the replica took as its process's writer was decided: what it cost the replica, and what
     * a full synchronous commit of the same checkpoint would have written.
     *
     * @param outcome         what became of it
     * @param blockingSeconds measured: real seconds the commit call held the replica, finite and {@code >= 0}
     * @param latencySeconds  measured: real seconds from the call until the checkpoint was durable (0 unless durable)
     * @param bytesWritten    measured: the bytes the commit wrote until durable (0 unless durable)
     * @param fullBytes       derived: the bytes a full commit of the same checkpoint writes (0 unless durable)
     */
    record Persist(Outcome outcome, double blockingSeconds, double latencySeconds, long bytesWritten, long fullBytes)
            implements ReplicaReport {
        static final String WORD = "@persist";

        /** Checks the fields. */
        public Persist {
            Objects.requireNonNull(outcome, "outcome");
            Fields.seconds("blockingSeconds", blockingSeconds);
            Fields.seconds("latencySeconds", latencySeconds);
            Fields.nonNegative("bytesWritten", bytesWritten);
            Fields.nonNegative("fullBytes", fullBytes);
        }

        @Override
        public String format() {
            return WORD + " " + outcome.word() + " " + blockingSeconds + " " + latencySeconds + " " + bytesWritten + " "
                    + fullBytes;
        }
    }

    /**
     * A commit was refused because another replica was elected under a newer epoch.
     *
     * @param epoch the stale epoch the replica wrote under, or -1 if it had none
     */
    record Stale(long epoch) implements ReplicaReport {
        static final String WORD = "@stale";

        /** Checks the field. */
        public Stale {
            Fields.epoch("epoch", epoch);
        }

        @Override
        public String format() {
            return WORD + " " + epoch;
        }
    }

    /**
     * A commit failed otherwise (too few storage hosts took the fragments).
     *
     * @param reason what failed: one line, not blank, without surrounding spaces (see {@link Fields#oneLine})
     */
    record CommitFailed(String reason) implements ReplicaReport {
        static final String WORD = "@commit-failed";

        /** Checks the field. */
        public CommitFailed {
            Fields.text("reason", reason);
        }

        @Override
        public String format() {
            return WORD + " " + reason;
        }
    }

    /**
     * The writer repaired its process's checkpoint after storage hosts departed.
     *
     * @param regenerated the fragments regenerated, {@code >= 0}
     * @param failure     why the repair failed, if it did: one line, not blank, without surrounding spaces
     */
    record Repaired(int regenerated, Optional<String> failure) implements ReplicaReport {
        static final String WORD = "@repaired";

        /** Checks the fields. */
        public Repaired {
            Fields.nonNegative("regenerated", regenerated);
            failure.ifPresent(text -> Fields.text("failure", text));
        }

        @Override
        public String format() {
            return WORD + " " + regenerated + failure.map(text -> " " + text).orElse("");
        }
    }

    /**
     * The election made the replica its process's writer.
     *
     * @param epoch the epoch of its term
     */
    record Elected(long epoch) implements ReplicaReport {
        static final String WORD = "@writer";

        /** Checks the field. */
        public Elected {
            Fields.nonNegative("epoch", epoch);
        }

        @Override
        public String format() {
            return WORD + " " + epoch;
        }
    }

    /**
     * The replica is no longer its process's writer.
     *
     * @param epoch the epoch of the term that ended, or -1 when none did
     */
    record Demoted(long epoch) implements ReplicaReport {
        static final String WORD = "@candidate";

        /** Checks the field. */
        public Demoted {
            Fields.epoch("epoch", epoch);
        }

        @Override
        public String format() {
            return WORD + " " + epoch;
        }
    }

    /**
     * The replica finished its process; its final state, as {@code RemdState.toBytes} wrote it, in Base64.
     *
     * @param stateBase64 the final state (a record never holds an array: the text compares by value)
     */
    record Done(String stateBase64) implements ReplicaReport {
        static final String WORD = "@done";

        /** Checks the field. */
        public Done {
            try {
                Base64.getDecoder().decode(stateBase64);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("stateBase64 must be Base64: " + e.getMessage(), e);
            }
            if (stateBase64.isEmpty()) {
                throw new IllegalArgumentException("stateBase64 must not be empty");
            }
        }

        /**
         * Returns the report of a final state.
         *
         * @param state the state's bytes
         * @return the report
         */
        static Done of(byte[] state) {
            return new Done(Base64.getEncoder().encodeToString(state));
        }

        /**
         * Returns the final state's bytes.
         *
         * @return a new array
         */
        byte[] state() {
            return Base64.getDecoder().decode(stateBase64);
        }

        @Override
        public String format() {
            return WORD + " " + stateBase64;
        }
    }
}
