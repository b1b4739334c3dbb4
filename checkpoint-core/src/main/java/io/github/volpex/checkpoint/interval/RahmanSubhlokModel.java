package io.github.volpex.checkpoint.interval;

import io.github.volpex.checkpoint.internal.Checks;
import io.github.volpex.estimators.SurvivalFunction;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * Rahman and Subhlok's optimal checkpoint interval for {@code n} inter-dependent processes with {@code r} replicas
 * each, for any replica survival function {@code S}.
 *
 * <p>A checkpoint interval of length {@code T} passes when every process keeps at least one live replica throughout:
 * {@code P(T) = [1 − (1 − S(T))^r]^n}. A failed interval is redone, so one interval takes {@code T/P(T)} on average
 * and the expected time per unit of useful work is {@code E(T) = 1/P(T) + T_s/T} ({@code T_s} the time to write a
 * checkpoint). The optimal interval minimises {@code E} over whole seconds {@code T ≥ 1}. This reads the poster's
 * formula, which lost its brackets in conversion, as the design notes explain.
 *
 * <p>{@code E} need not be unimodal (an empirical {@code S} has steps and plateaus), so the search assumes nothing but
 * what every survival function guarantees: {@code S} never increases, hence {@code 1/P} never decreases and
 * {@code T_s/T} always decreases. On any range {@code [a, b]} of whole seconds, {@code E ≥ 1/P(a) + T_s/b}; a
 * branch-and-bound search discards every range whose bound exceeds the best value found and bisects the rest. It
 * returns exactly the brute-force minimiser (the smallest one on ties) after typically a few hundred evaluations of
 * {@code S}, whatever the length of the range.
 *
 * <p><b>Caveat: the interval comes out short when the hazard decreases.</b> The model draws every interval with
 * fresh replicas, each surviving it with {@code S(T)}. A real run keeps the replicas that survived, and under a
 * decreasing hazard (volunteer hosts: Weibull shapes of 0.4–0.7) a survivor is more reliable than a fresh host, so the
 * model overstates the risk of a long interval. Reproducing the poster's Table I with Weibull(0.7) replicas, the
 * calculated intervals were 32–65% shorter than the simulated best, at a cost of 0.5–2% of completion time with 2 or 3
 * replicas and 9–15% with one; with exponential replicas of the same mean (no memory, so the model's assumption holds)
 * the cost fell to 0–1.5%. Pass the survival of the replicas actually in use (conditioned on their age) where it is
 * known, and treat the result as a lower bound on the best interval otherwise.
 *
 * <p>Immutable and thread-safe if the survival function is.
 *
 * @since 0.1
 */
public final class RahmanSubhlokModel {

    /** The longest interval the search considers: 2⁵² s (about 143 million years), where seconds stay exact. */
    public static final long MAX_INTERVAL_SECONDS = 1L << 52;

    private final SurvivalFunction replicaSurvival;
    private final int processes;
    private final int replicas;
    private final double checkpointSeconds;

    private RahmanSubhlokModel(SurvivalFunction replicaSurvival, int processes, int replicas,
            double checkpointSeconds) {
        this.replicaSurvival = replicaSurvival;
        this.processes = processes;
        this.replicas = replicas;
        this.checkpointSeconds = checkpointSeconds;
    }

    /**
     * Returns the model of a replicated job.
     *
     * @param replicaSurvival   the survival function {@code S} of one replica (time since the interval started)
     * @param processes         the number of processes {@code n}; {@code ≥ 1}
     * @param replicas          the number of replicas {@code r} of each process; {@code ≥ 1}
     * @param checkpointSeconds the time {@code T_s} to write one checkpoint, in seconds; {@code > 0}, finite
     * @return the model
     * @throws NullPointerException     if {@code replicaSurvival} is null
     * @throws IllegalArgumentException if {@code processes} or {@code replicas} is below 1, or
     *     {@code checkpointSeconds} is not positive and finite
     */
    public static RahmanSubhlokModel of(SurvivalFunction replicaSurvival, int processes, int replicas,
            double checkpointSeconds) {
        Objects.requireNonNull(replicaSurvival, "replicaSurvival");
        Checks.atLeastOne("processes", processes);
        Checks.atLeastOne("replicas", replicas);
        Checks.positiveFinite("checkpointSeconds", checkpointSeconds);
        return new RahmanSubhlokModel(replicaSurvival, processes, replicas, checkpointSeconds);
    }

    /**
     * Returns the number of processes {@code n}.
     *
     * @return {@code n}
     */
    public int processes() {
        return processes;
    }

    /**
     * Returns the number of replicas {@code r} of each process.
     *
     * @return {@code r}
     */
    public int replicas() {
        return replicas;
    }

    /**
     * Returns the checkpoint time {@code T_s}.
     *
     * @return {@code T_s}, in seconds
     */
    public double checkpointSeconds() {
        return checkpointSeconds;
    }

    /**
     * Returns the probability that every process keeps at least one live replica for {@code seconds}:
     * {@code P(t) = [1 − (1 − S(t))^r]^n}, evaluated as {@code exp(n·log1p(−F^r))} with {@code F = 1 − S}.
     *
     * @param seconds the time {@code t}, in seconds; {@code ≥ 0} ({@code +∞} allowed)
     * @return {@code P(t)}, in {@code [0, 1]}
     * @throws IllegalArgumentException if {@code seconds} is negative or NaN
     */
    public double jobSurvival(double seconds) {
        Checks.nonNegative("seconds", seconds);
        return Math.exp(logJobSurvival(seconds));
    }

    /**
     * Returns the expected time per unit of useful work with checkpoint interval {@code T}:
     * {@code E(T) = 1/P(T) + T_s/T}.
     *
     * @param intervalSeconds the interval {@code T}, in seconds; {@code > 0}, finite
     * @return {@code E(T)}, dimensionless ({@code ≥ 1}); {@code +∞} if {@code P(T) = 0}
     * @throws IllegalArgumentException if {@code intervalSeconds} is not positive and finite
     */
    public double expectedCost(double intervalSeconds) {
        Checks.positiveFinite("intervalSeconds", intervalSeconds);
        return cost(intervalSeconds, Math.exp(-logJobSurvival(intervalSeconds)));
    }

    /**
     * Returns the whole number of seconds {@code T} in {@code [1, MAX_INTERVAL_SECONDS]} that minimises
     * {@code E(T)}; the smallest such {@code T} if several tie. When {@code S} never reaches 0 and {@code E} keeps
     * decreasing, that is {@link #MAX_INTERVAL_SECONDS}: in effect, never checkpoint.
     *
     * @return the optimal interval, in whole seconds
     */
    public long optimalIntervalSeconds() {
        return search().bestSeconds;
    }

    /**
     * Returns the mean time to interruption of the replicated job, {@code ∫₀^∞ P(t) dt}: the mean time until some
     * process has lost all its replicas. Young's and Daly's formulas ({@link ClassicalIntervals}) apply to the
     * replicated job with this as the mean time between failures.
     *
     * <p>Computed by adaptive Gauss–Kronrod (7/15) quadrature over the panels {@code [0, 2⁻³⁰]},
     * {@code [2ᵏ, 2ᵏ⁺¹]} for {@code k ≥ −30}, to a relative accuracy of about 10⁻¹⁰ when {@code P} decays faster
     * than {@code 1/t²}; step functions (Kaplan–Meier) converge too, more slowly.
     *
     * @return the mean time to interruption, in seconds; {@code +∞} if {@code P} does not decay (a survival function
     *     that never reaches 0 beyond about 10³⁰ s)
     */
    public double meanTimeToInterruptionSeconds() {
        return Quadrature.integrateOnHalfLine(this::jobSurvival);
    }

    /** {@code ln P(t) = n·log1p(−F^r)}. */
    private double logJobSurvival(double seconds) {
        double failure = replicaSurvival.conditionalFailure(0.0, seconds);
        double allReplicasLost = replicas == 1 ? failure : Math.pow(failure, replicas);
        return processes * Math.log1p(-allReplicasLost);
    }

    private double cost(double seconds, double inverseSurvival) {
        return inverseSurvival + checkpointSeconds / seconds;
    }

    /** One range of whole seconds with {@code 1/P} at both ends. */
    private record Range(long low, double inverseLow, long high, double inverseHigh) {
    }

    /** The state of one branch-and-bound search. */
    private final class Search {
        /** The best {@code T} so far; starts above every candidate so that a first infinite cost still ties in. */
        long bestSeconds = Long.MAX_VALUE;
        double bestCost = Double.POSITIVE_INFINITY;
        int evaluations;

        double inverseSurvival(long seconds) {
            evaluations++;
            double inverse = Math.exp(-logJobSurvival(seconds));
            double c = cost(seconds, inverse);
            if (c < bestCost || (c == bestCost && seconds < bestSeconds)) {
                bestCost = c;
                bestSeconds = seconds;
            }
            return inverse;
        }

        /** Whether some {@code T} in the range could beat (or tie earlier than) the best found so far. */
        boolean promising(Range range) {
            double bound = range.inverseLow + checkpointSeconds / range.high;
            return bound < bestCost || (bound == bestCost && range.low < bestSeconds);
        }
    }

    /** The branch-and-bound search over whole seconds. */
    private Search search() {
        Search search = new Search();
        ArrayDeque<Range> pending = new ArrayDeque<>();
        // Doubling: beyond the first T with 1/P(T) > best, every E exceeds the best (1/P never decreases).
        long low = 1;
        double inverseLow = search.inverseSurvival(low);
        while (low < MAX_INTERVAL_SECONDS && !(inverseLow > search.bestCost)) {
            long high = low * 2;
            double inverseHigh = search.inverseSurvival(high);
            pending.push(new Range(low, inverseLow, high, inverseHigh));
            low = high;
            inverseLow = inverseHigh;
        }
        while (!pending.isEmpty()) {
            Range range = pending.pop();
            if (range.high - range.low < 2 || !search.promising(range)) {
                continue;
            }
            long mid = range.low + (range.high - range.low) / 2;
            double inverseMid = search.inverseSurvival(mid);
            // Examine the lower half first: that is where the bound is tighter for the right half's left end.
            pending.push(new Range(mid, inverseMid, range.high, range.inverseHigh));
            pending.push(new Range(range.low, range.inverseLow, mid, inverseMid));
        }
        return search;
    }

    /** Runs the search once more and returns how many times it evaluates {@code P}: the search's cost, for tests. */
    int searchEvaluations() {
        return search().evaluations;
    }

    @Override
    public String toString() {
        return "RahmanSubhlokModel[processes=" + processes + ", replicas=" + replicas + ", checkpointSeconds="
                + checkpointSeconds + ", replicaSurvival=" + replicaSurvival + "]";
    }
}
