package io.github.volpex.checkpoint.placement;

import io.github.volpex.checkpoint.internal.Checks;
import io.github.volpex.estimators.SurvivalFunction;
import java.util.Objects;

/**
 * The objective a repository selection minimises: {@code w·N − B·Π_{i∈S} TRS_i(τ)}, where {@code N} is the network
 * cost of the selected set {@code S} in seconds, {@code w} a dimensionless weight on it, {@code B} the work lost when
 * the checkpoint is lost (seconds) and {@code Π TRS_i(τ)} the probability that no selected host fails within the
 * horizon {@code τ}.
 *
 * <p>The two models of Ren, Eigenmann and Bagchi §4.3 are this form with particular weights:
 * <ul>
 *   <li>{@linkplain #optimistic optimistic} (eq. 1): {@code w = MTTF_cmp / CI}, {@code B = T_curr + MTTF_cmp},
 *       {@code τ = MTTF_cmp};</li>
 *   <li>{@linkplain #pessimistic pessimistic} (eq. 2): {@code w = 1}, {@code B = T_curr · P_fail}, {@code τ = CI},
 *       with {@code P_fail = 1 − TR(t + CI)/TR(t)} the probability that the computation host fails within the next
 *       interval given that it is up now.</li>
 * </ul>
 * Adding {@code −B} turns the objective into the non-negative expected cost {@code w·N + B·(1 − Π)}: network time plus
 * the expected re-execution, which is what the optimality gaps of this package are relative to.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class Objective {

    /**
     * Re-execution weights {@code B} below this many seconds are dropped (Ren §4.3: when the computation host is
     * expected to survive the interval, "we can actually bypass the computation of R"). A nanosecond cannot outweigh
     * a network cost measured in seconds, and without the term the cheapest {@code m + k} hosts are exactly optimal.
     */
    public static final double NEGLIGIBLE_WEIGHT_SECONDS = 1e-9;

    private final String model;
    private final double networkWeight;
    private final double reliabilityWeightSeconds;
    private final double horizonSeconds;

    private Objective(String model, double networkWeight, double reliabilityWeightSeconds, double horizonSeconds) {
        this.model = model;
        // + 0.0 turns −0.0 into 0.0, so that equal objectives are equal.
        this.networkWeight = networkWeight + 0.0;
        this.reliabilityWeightSeconds = reliabilityWeightSeconds < NEGLIGIBLE_WEIGHT_SECONDS
                ? 0.0 : reliabilityWeightSeconds;
        this.horizonSeconds = horizonSeconds + 0.0;
    }

    /**
     * Returns Ren's optimistic objective (eq. 1), for a selection kept for the whole stay on a computation host.
     *
     * @param computeMttfSeconds        {@code MTTF_cmp}, the mean time to failure of the computation host, in seconds;
     *                                  {@code > 0}, finite
     * @param checkpointIntervalSeconds {@code CI}, the checkpoint interval, in seconds; {@code > 0}, finite
     * @param usefulWorkSeconds         {@code T_curr}, the useful computation done so far, in seconds; {@code ≥ 0},
     *                                  finite
     * @return the objective {@code (MTTF/CI)·N − (T_curr + MTTF)·Π TRS_i(MTTF)}
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static Objective optimistic(double computeMttfSeconds, double checkpointIntervalSeconds,
                                       double usefulWorkSeconds) {
        Checks.positiveFinite("computeMttfSeconds", computeMttfSeconds);
        Checks.positiveFinite("checkpointIntervalSeconds", checkpointIntervalSeconds);
        Checks.nonNegativeFinite("usefulWorkSeconds", usefulWorkSeconds);
        double networkWeight = computeMttfSeconds / checkpointIntervalSeconds;
        double reliabilityWeight = usefulWorkSeconds + computeMttfSeconds;
        if (networkWeight == Double.POSITIVE_INFINITY || reliabilityWeight == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("computeMttfSeconds / checkpointIntervalSeconds and usefulWorkSeconds "
                    + "+ computeMttfSeconds must be finite: " + computeMttfSeconds + ", " + checkpointIntervalSeconds
                    + ", " + usefulWorkSeconds);
        }
        return new Objective("optimistic", networkWeight, reliabilityWeight, computeMttfSeconds);
    }

    /**
     * Returns Ren's pessimistic objective (eq. 2), for a selection renewed at every checkpoint.
     *
     * @param checkpointIntervalSeconds {@code CI}, the checkpoint interval, in seconds; {@code > 0}, finite
     * @param usefulWorkSeconds         {@code T_curr}, the useful computation done so far, in seconds; {@code ≥ 0},
     *                                  finite
     * @param computeFailureProbability {@code P_fail}, the probability that the computation host fails within the
     *                                  next {@code CI} seconds given that it is up now; in {@code [0, 1]}
     * @return the objective {@code N − T_curr·P_fail·Π TRS_i(CI)}, without its second term when {@code T_curr·P_fail}
     *         is below {@link #NEGLIGIBLE_WEIGHT_SECONDS}
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static Objective pessimistic(double checkpointIntervalSeconds, double usefulWorkSeconds,
                                        double computeFailureProbability) {
        Checks.positiveFinite("checkpointIntervalSeconds", checkpointIntervalSeconds);
        Checks.nonNegativeFinite("usefulWorkSeconds", usefulWorkSeconds);
        if (!(computeFailureProbability >= 0.0 && computeFailureProbability <= 1.0)) {
            throw new IllegalArgumentException(
                    "computeFailureProbability must be in [0, 1]: " + computeFailureProbability);
        }
        return new Objective("pessimistic", 1.0, usefulWorkSeconds * computeFailureProbability,
                checkpointIntervalSeconds);
    }

    /**
     * Returns Ren's pessimistic objective (eq. 2) with {@code P_fail} taken from the computation host's temporal
     * reliability: {@code P_fail = 1 − TR(t + CI)/TR(t)} ({@link SurvivalFunction#conditionalFailure}). This is the
     * conditional probability the model needs; the paper's printed {@code (1 − TR(t+CI))/TR(t)} is not a probability.
     *
     * @param checkpointIntervalSeconds {@code CI}, the checkpoint interval, in seconds; {@code > 0}, finite
     * @param usefulWorkSeconds         {@code T_curr}, the useful computation done so far, in seconds; {@code ≥ 0},
     *                                  finite
     * @param computeHost               {@code TR}, the temporal reliability of the computation host
     * @param computeUptimeSeconds      {@code t}, how long the computation host has been up, in seconds; {@code ≥ 0},
     *                                  finite
     * @return the objective
     * @throws NullPointerException     if {@code computeHost} is null
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static Objective pessimistic(double checkpointIntervalSeconds, double usefulWorkSeconds,
                                        SurvivalFunction computeHost, double computeUptimeSeconds) {
        Objects.requireNonNull(computeHost, "computeHost");
        Checks.positiveFinite("checkpointIntervalSeconds", checkpointIntervalSeconds);
        Checks.nonNegativeFinite("computeUptimeSeconds", computeUptimeSeconds);
        return pessimistic(checkpointIntervalSeconds, usefulWorkSeconds,
                computeHost.conditionalFailure(computeUptimeSeconds, checkpointIntervalSeconds));
    }

    /**
     * Returns the general form {@code w·N − B·Π TRS_i(τ)}.
     *
     * @param networkWeight            {@code w}, dimensionless; {@code ≥ 0}, finite
     * @param reliabilityWeightSeconds {@code B}, in seconds; {@code ≥ 0}, finite
     * @param horizonSeconds           {@code τ}, in seconds; {@code ≥ 0}, finite
     * @return the objective
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static Objective of(double networkWeight, double reliabilityWeightSeconds, double horizonSeconds) {
        Checks.nonNegativeFinite("networkWeight", networkWeight);
        Checks.nonNegativeFinite("reliabilityWeightSeconds", reliabilityWeightSeconds);
        Checks.nonNegativeFinite("horizonSeconds", horizonSeconds);
        return new Objective("general", networkWeight, reliabilityWeightSeconds, horizonSeconds);
    }

    /**
     * Returns {@code w}, the weight on the network cost.
     *
     * @return {@code w}, dimensionless
     */
    public double networkWeight() {
        return networkWeight;
    }

    /**
     * Returns {@code B}, the re-execution cost of losing the checkpoint; {@code 0} when the term is bypassed.
     *
     * @return {@code B}, in seconds
     */
    public double reliabilityWeightSeconds() {
        return reliabilityWeightSeconds;
    }

    /**
     * Returns {@code τ}, the horizon over which the selected hosts must survive.
     *
     * @return {@code τ}, in seconds
     */
    public double horizonSeconds() {
        return horizonSeconds;
    }

    /**
     * Returns whether the reliability term is dropped ({@code B = 0}), in which case only the network cost matters.
     *
     * @return {@code true} if {@code B = 0}
     */
    public boolean bypassesReliability() {
        return reliabilityWeightSeconds == 0.0;
    }

    /**
     * Returns the objective value of a selection.
     *
     * @param networkCostSeconds {@code N}, the network cost of the selection, in seconds ({@code +∞} allowed)
     * @param reliabilityProduct {@code Π TRS_i(τ)} over the selection, in {@code [0, 1]}
     * @return {@code w·N − B·Π}, in seconds, where {@code w·N} is {@code 0} when {@code w = 0} (even for an infinite
     *     {@code N})
     */
    public double value(double networkCostSeconds, double reliabilityProduct) {
        double network = networkWeight == 0.0 ? 0.0 : networkWeight * networkCostSeconds;
        return network - reliabilityWeightSeconds * reliabilityProduct;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Objective other
                && model.equals(other.model)
                && Double.compare(networkWeight, other.networkWeight) == 0
                && Double.compare(reliabilityWeightSeconds, other.reliabilityWeightSeconds) == 0
                && Double.compare(horizonSeconds, other.horizonSeconds) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(model, networkWeight, reliabilityWeightSeconds, horizonSeconds);
    }

    @Override
    public String toString() {
        return "Objective." + model + "[w=" + networkWeight + ", B=" + reliabilityWeightSeconds + " s, τ="
                + horizonSeconds + " s]";
    }
}
