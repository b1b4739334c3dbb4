package io.github.volpex.testkit;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * A {@link FaultSchedule} that injects each fault with a fixed probability per call — the same for every kind of call,
 * or one set for a kind of call ({@link Builder#probability(RepositoryCall, Fault, double)}) — and, optionally,
 * crashes the simulated process at a chosen call: the crash either precedes the call's effect or follows it, at
 * random. After the crash every call throws {@link SimulatedCrash}.
 *
 * <pre>{@code
 * RandomFaults faults = RandomFaults.builder(new SplittableRandom(seed))
 *         .probability(Fault.FAIL, 0.05)
 *         .probability(Fault.DROP, 0.01)
 *         .crashAtCall(37)
 *         .build();
 * repositories.forEach(r -> r.schedule(faults));
 * }</pre>
 *
 * <p>Thread-safe: calls are decided one at a time, so a seed replays the same faults for the same sequence of calls.
 *
 * @since 0.1
 */
public final class RandomFaults implements FaultSchedule {

    private final RandomGenerator random;
    private final Map<Fault, Double> probabilities;
    private final Map<RepositoryCall, Map<Fault, Double>> byCall;
    private final long crashAtCall;
    private final Duration timeout;
    private long calls;
    private boolean crashed;

    private RandomFaults(Builder builder) {
        this.random = builder.random;
        this.probabilities = new EnumMap<>(builder.probabilities);
        this.byCall = new EnumMap<>(RepositoryCall.class);
        builder.byCall.forEach((kind, faults) -> byCall.put(kind, new EnumMap<>(faults)));
        this.crashAtCall = builder.crashAtCall;
        this.timeout = builder.timeout;
    }

    /**
     * Starts a schedule.
     *
     * @param random the source of every random choice; the schedule synchronises on itself, not on it
     * @return a builder with no faults, no crash and a 5 ms timeout
     * @throws NullPointerException if {@code random} is null
     */
    public static Builder builder(RandomGenerator random) {
        return new Builder(Objects.requireNonNull(random, "random"));
    }

    @Override
    public synchronized Fault next(String repositoryId, RepositoryCall call, String key) {
        if (crashed) {
            return Fault.CRASH_BEFORE;
        }
        calls++;
        if (calls == crashAtCall) {
            crashed = true;
            return random.nextBoolean() ? Fault.CRASH_AFTER : Fault.CRASH_BEFORE;
        }
        double draw = random.nextDouble();
        for (Map.Entry<Fault, Double> entry : byCall.getOrDefault(call, probabilities).entrySet()) {
            draw -= entry.getValue();
            if (draw < 0) {
                return entry.getKey();
            }
        }
        return Fault.NONE;
    }

    @Override
    public Duration timeout() {
        return timeout;
    }

    /**
     * Returns how many calls were decided before the crash (the crashing call included).
     *
     * @return the number of calls
     */
    public synchronized long calls() {
        return calls;
    }

    /**
     * Tells whether the simulated process has crashed.
     *
     * @return {@code true} once the crash point was reached
     */
    public synchronized boolean crashed() {
        return crashed;
    }

    @Override
    public synchronized String toString() {
        return "RandomFaults" + probabilities + (byCall.isEmpty() ? "" : " " + byCall)
                + (crashAtCall < Long.MAX_VALUE ? ", crash at call " + crashAtCall : "")
                + ", " + calls + " calls" + (crashed ? ", crashed" : "");
    }

    /**
     * Configures a {@link RandomFaults}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder {
        private final RandomGenerator random;
        private final Map<Fault, Double> probabilities = new EnumMap<>(Fault.class);
        private final Map<RepositoryCall, Map<Fault, Double>> byCall = new EnumMap<>(RepositoryCall.class);
        private long crashAtCall = Long.MAX_VALUE;
        private Duration timeout = Duration.ofMillis(5);

        private Builder(RandomGenerator random) {
            this.random = random;
        }

        /**
         * Sets the probability that a call suffers {@code fault}, for every kind of call without probabilities of
         * its own ({@link #probability(RepositoryCall, Fault, double)}). The probabilities of all faults together must
         * not exceed 1.
         *
         * @param fault       a fault other than a crash (use {@link #crashAtCall}) or {@link Fault#NONE}
         * @param probability the probability per call, in {@code [0, 1]}
         * @return this builder
         * @throws NullPointerException     if {@code fault} is null
         * @throws IllegalArgumentException if {@code fault} is a crash or {@code NONE}, the probability is out of
         *                                  range, or the probabilities add up to more than 1
         */
        public Builder probability(Fault fault, double probability) {
            set(probabilities, fault, probability);
            return this;
        }

        /**
         * Sets the probability that a call of kind {@code call} suffers {@code fault}: from then on, calls of that kind
         * draw their faults from the probabilities set for it alone (the others are 0 until set), so that, say,
         * deletes can fail often while everything else succeeds. The probabilities of one kind together must not
         * exceed 1.
         *
         * @param call        the kind of call
         * @param fault       a fault other than a crash (use {@link #crashAtCall}) or {@link Fault#NONE}
         * @param probability the probability per call of that kind, in {@code [0, 1]}
         * @return this builder
         * @throws NullPointerException     if {@code call} or {@code fault} is null
         * @throws IllegalArgumentException if {@code fault} is a crash or {@code NONE}, the probability is out of
         *                                  range, or the probabilities of the kind add up to more than 1
         * @since 0.1
         */
        public Builder probability(RepositoryCall call, Fault fault, double probability) {
            Objects.requireNonNull(call, "call");
            set(byCall.computeIfAbsent(call, c -> new EnumMap<>(Fault.class)), fault, probability);
            return this;
        }

        private static void set(Map<Fault, Double> probabilities, Fault fault, double probability) {
            Objects.requireNonNull(fault, "fault");
            if (fault.isCrash() || fault == Fault.NONE) {
                throw new IllegalArgumentException("fault must not be a crash or NONE: " + fault);
            }
            if (!(probability >= 0 && probability <= 1)) {
                throw new IllegalArgumentException("probability must be in [0, 1]: " + probability);
            }
            double others = probabilities.entrySet().stream().filter(e -> e.getKey() != fault)
                    .mapToDouble(Map.Entry::getValue).sum();
            if (others + probability > 1 + 1e-12) {
                throw new IllegalArgumentException("probabilities must add up to at most 1: " + (others + probability));
            }
            if (probability == 0) {
                probabilities.remove(fault);
            } else {
                probabilities.put(fault, probability);
            }
        }

        /**
         * Makes the {@code call}-th call (counting from 1, over all repositories sharing the schedule) crash the
         * simulated process.
         *
         * @param call the crashing call, {@code ≥ 1}; {@code Long.MAX_VALUE} for no crash
         * @return this builder
         * @throws IllegalArgumentException if {@code call < 1}
         */
        public Builder crashAtCall(long call) {
            if (call < 1) {
                throw new IllegalArgumentException("call must be >= 1: " + call);
            }
            this.crashAtCall = call;
            return this;
        }

        /**
         * Sets how long a {@link Fault#TIMEOUT} blocks.
         *
         * @param timeout a non-negative duration
         * @return this builder
         * @throws NullPointerException     if {@code timeout} is null
         * @throws IllegalArgumentException if {@code timeout} is negative
         */
        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative()) {
                throw new IllegalArgumentException("timeout must be >= 0: " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Builds the schedule.
         *
         * @return the schedule
         */
        public RandomFaults build() {
            return new RandomFaults(this);
        }
    }
}
