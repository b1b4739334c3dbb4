package io.github.volpex.estimators;

/**
 * The checkpoint overhead {@code V}: how much each checkpoint slows the job down, in seconds (Ni and Harwood,
 * §3.1.2, eq. 2).
 *
 * <p>The job runs {@code t} seconds without checkpointing (average CPU usage {@code P1}, {@code M1} messages
 * exchanged), then {@code t} seconds with {@code y} checkpoints ({@code P2}, {@code M2}). The paper estimates "two
 * separate V based on both the CPU usage and network IO statistics"; its printed eq. 2 multiplies the two ratios,
 * which is not a time. This record keeps the two estimates the text describes,
 * <pre>
 *   V_cpu = (P1 − P2) / P1 · t / y        V_net = (M1 − M2) / M1 · t / y
 * </pre>
 * and {@link #seconds()} is their mean: the factor ½ of eq. 2 read as an average. A ratio that comes out negative
 * (the checkpointing run happened to use more CPU or exchange more messages: measurement noise) counts as zero
 * overhead, never as a negative one.
 *
 * @param cpuBasedSeconds     {@code V_cpu}, in seconds; finite and {@code ≥ 0}
 * @param messageBasedSeconds {@code V_net}, in seconds; finite and {@code ≥ 0}
 * @since 0.1
 */
public record CheckpointOverhead(double cpuBasedSeconds, double messageBasedSeconds) {

    /**
     * Validates the two estimates.
     *
     * @param cpuBasedSeconds     {@code V_cpu}, in seconds; finite and {@code ≥ 0}
     * @param messageBasedSeconds {@code V_net}, in seconds; finite and {@code ≥ 0}
     * @throws IllegalArgumentException if an estimate is negative, NaN or infinite
     */
    public CheckpointOverhead {
        cpuBasedSeconds = Checks.finiteNonNegative("cpuBasedSeconds", cpuBasedSeconds);
        messageBasedSeconds = Checks.finiteNonNegative("messageBasedSeconds", messageBasedSeconds);
    }

    /**
     * Estimates the overhead from the two measurement runs.
     *
     * @param cpuWithout      {@code P1}: the average CPU usage without checkpoints (any unit, e.g. a fraction or a
     *                        percentage, the same as {@code cpuWith}); finite and {@code > 0}
     * @param cpuWith         {@code P2}: the average CPU usage with checkpoints; finite and {@code ≥ 0}
     * @param messagesWithout {@code M1}: messages exchanged without checkpoints; {@code > 0}
     * @param messagesWith    {@code M2}: messages exchanged with checkpoints; {@code ≥ 0}
     * @param runSeconds      {@code t}: the length of each run, in seconds; finite and {@code > 0}
     * @param checkpoints     {@code y}: the checkpoints taken in the second run; {@code ≥ 1}
     * @return both estimates
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static CheckpointOverhead measure(double cpuWithout, double cpuWith, long messagesWithout,
                                             long messagesWith, double runSeconds, int checkpoints) {
        Checks.finitePositive("cpuWithout", cpuWithout);
        Checks.finiteNonNegative("cpuWith", cpuWith);
        if (messagesWithout <= 0) {
            throw new IllegalArgumentException("messagesWithout must be > 0: " + messagesWithout);
        }
        if (messagesWith < 0) {
            throw new IllegalArgumentException("messagesWith must be >= 0: " + messagesWith);
        }
        Checks.finitePositive("runSeconds", runSeconds);
        Checks.atLeast("checkpoints", checkpoints, 1);
        double perCheckpoint = runSeconds / checkpoints;
        double cpu = Math.max(0.0, (cpuWithout - cpuWith) / cpuWithout) * perCheckpoint;
        double net = Math.max(0.0, (double) (messagesWithout - messagesWith) / messagesWithout) * perCheckpoint;
        return new CheckpointOverhead(cpu, net);
    }

    /**
     * Returns {@code V}: the mean of the CPU-based and the message-based estimates.
     *
     * @return the overhead per checkpoint, in seconds
     */
    public double seconds() {
        return 0.5 * (cpuBasedSeconds + messageBasedSeconds);
    }
}
