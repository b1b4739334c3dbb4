package io.github.volpex.estimators;

/**
 * Temporal reliability of a machine: the survival function {@code S(t) = P(no failure in [0, t])} of its time to
 * failure (Ren, Eigenmann and Bagchi, §3, "TR(t)").
 *
 * <p>Every implementation satisfies {@code S(0) = 1}, is non-increasing in {@code t} and stays within {@code [0, 1]};
 * {@code S(+∞) = 0} unless the machine may never fail. Time is measured in seconds from the moment the machine became
 * available.
 *
 * <p>Implementations are immutable and thread-safe.
 *
 * @since 0.1
 */
public interface SurvivalFunction {

    /**
     * Returns the probability that the machine is still available after {@code timeSeconds}.
     *
     * @param timeSeconds the time since the machine became available, in seconds; {@code 0 ≤ timeSeconds ≤ +∞}
     * @return {@code S(timeSeconds)}, in {@code [0, 1]}
     * @throws IllegalArgumentException if {@code timeSeconds} is negative or NaN
     */
    double survival(double timeSeconds);

    /**
     * Returns the probability that the machine fails within {@code horizonSeconds} given that it is available at
     * {@code timeSeconds}: {@code P(fail in (t, t + Δ] | alive at t) = 1 − S(t + Δ) / S(t)}.
     *
     * <p>When {@code S(t) = 0} the machine cannot be alive at {@code t} and the result is {@code 1}. The parametric
     * models of this package form the ratio from {@code ln S}, so their result stays exact where {@code S(t)} merely
     * underflows to zero.
     *
     * @param timeSeconds     the time {@code t} since the machine became available, in seconds; {@code ≥ 0}, finite
     * @param horizonSeconds  the horizon {@code Δ}, in seconds; {@code ≥ 0} and not NaN
     * @return the conditional failure probability, in {@code [0, 1]}
     * @throws IllegalArgumentException if either argument is negative or NaN, or {@code timeSeconds} is infinite
     */
    default double conditionalFailure(double timeSeconds, double horizonSeconds) {
        Checks.finiteNonNegative("timeSeconds", timeSeconds);
        Checks.nonNegative("horizonSeconds", horizonSeconds);
        double alive = survival(timeSeconds);
        if (alive == 0.0) {
            return 1.0;
        }
        double ratio = survival(timeSeconds + horizonSeconds) / alive;
        return Math.min(1.0, Math.max(0.0, 1.0 - ratio));
    }

    /**
     * Returns the survival function of an exponential lifetime, {@code S(t) = e^{−μt}}.
     *
     * @param ratePerSecond the failure rate {@code μ}, per second; {@code ≥ 0} and finite ({@code 0}: never fails)
     * @return the exponential survival function
     * @throws IllegalArgumentException if {@code ratePerSecond} is negative, NaN or infinite
     */
    static SurvivalFunction exponential(double ratePerSecond) {
        return new ExponentialSurvival(ratePerSecond);
    }

    /**
     * Returns the survival function of a Weibull lifetime, {@code S(t) = exp(−(t/λ)^k)}. A shape below 1 gives a
     * decreasing hazard (machines that survived long tend to survive longer, as in most availability traces), a
     * shape of 1 the exponential.
     *
     * @param shape        the shape {@code k}, finite and {@code > 0}
     * @param scaleSeconds the scale {@code λ}, in seconds, finite and {@code > 0}
     * @return the Weibull survival function
     * @throws IllegalArgumentException if a parameter is not finite and positive
     */
    static SurvivalFunction weibull(double shape, double scaleSeconds) {
        return new WeibullSurvival(shape, scaleSeconds);
    }

    /**
     * Returns the survival function of a log-normal lifetime: {@code ln T} (T in seconds) is normal with mean
     * {@code meanLog} and standard deviation {@code sdLog}.
     *
     * @param meanLog the mean of {@code ln T}, with {@code T} in seconds; finite
     * @param sdLog   the standard deviation of {@code ln T}, finite and {@code > 0}
     * @return the log-normal survival function
     * @throws IllegalArgumentException if {@code meanLog} is not finite or {@code sdLog} not finite and positive
     */
    static SurvivalFunction logNormal(double meanLog, double sdLog) {
        return new LogNormalSurvival(meanLog, sdLog);
    }

    /**
     * Returns the survival function of a gamma lifetime with density {@code t^{a−1} e^{−t/θ} / (Γ(a) θ^a)}.
     *
     * @param shape        the shape {@code a}, finite and {@code > 0}
     * @param scaleSeconds the scale {@code θ}, in seconds, finite and {@code > 0}
     * @return the gamma survival function
     * @throws IllegalArgumentException if a parameter is not finite and positive
     */
    static SurvivalFunction gamma(double shape, double scaleSeconds) {
        return new GammaSurvival(shape, scaleSeconds);
    }
}
