package io.github.volpex.examples.cluster;

import io.github.volpex.checkpoint.interval.NiHarwoodEstimate;
import java.util.Objects;

/**
 * What a coordinator tells a {@code --coordinated} replica: one line on the replica's standard input per order, a
 * word and its fields separated by single spaces ({@code ack 17}). {@link #format} and {@link #parse} are each other's
 * inverse; floating-point fields are written as {@link Double#toString} writes them, so they read back exactly.
 * Immutable values.
 */
sealed interface ReplicaOrder {

    /**
     * Returns the line that carries this order.
     *
     * @return one line, without its line break
     */
    String format();

    /**
     * Reads a line a coordinator wrote.
     *
     * @param line one line, without its line break
     * @return the order
     * @throws IllegalArgumentException if the line is not an order: an unknown word, a missing, extra or malformed
     *                                  field; the message quotes the line
     */
    static ReplicaOrder parse(String line) {
        Fields fields = new Fields(line);
        return fields.build(() -> switch (fields.word()) {
            case Ack.WORD -> new Ack(fields.count());
            case Estimate.WORD -> new Estimate(new NiHarwoodEstimate(fields.real(), fields.real(), fields.real()));
            case Departed.WORD -> new Departed(fields.integer());
            default -> throw new Fields.Malformed("unknown replica order " + fields.word() + ": '" + line + "'");
        });
    }

    /**
     * The coordinator has seen the replica's clock reports up to {@code sequence}.
     *
     * @param sequence the number of the last clock report seen, {@code >= 0}
     */
    record Ack(long sequence) implements ReplicaOrder {
        static final String WORD = "ack";

        /** Checks the field. */
        public Ack {
            Fields.nonNegative("sequence", sequence);
        }

        @Override
        public String format() {
            return WORD + " " + sequence;
        }
    }

    /**
     * The latest estimates for the writer's checkpoint scheduler.
     *
     * @param estimate the failure rate, the checkpoint overhead and the download time
     */
    record Estimate(NiHarwoodEstimate estimate) implements ReplicaOrder {
        static final String WORD = "estimate";

        /** Checks the field. */
        public Estimate {
            Objects.requireNonNull(estimate, "estimate");
        }

        @Override
        public String format() {
            return WORD + " " + estimate.failureRatePerSecond() + " " + estimate.checkpointOverheadSeconds() + " "
                    + estimate.downloadSeconds();
        }
    }

    /**
     * A storage host lost everything it held: the writer repairs its checkpoint.
     *
     * @param host the storage host's index, {@code >= 0}
     */
    record Departed(int host) implements ReplicaOrder {
        static final String WORD = "departed";

        /** Checks the field. */
        public Departed {
            Fields.nonNegative("host", host);
        }

        @Override
        public String format() {
            return WORD + " " + host;
        }
    }
}
