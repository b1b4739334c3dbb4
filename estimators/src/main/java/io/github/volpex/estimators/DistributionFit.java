package io.github.volpex.estimators;

import java.util.List;

/**
 * A lifetime distribution fitted to a {@link LifetimeSample} by maximum likelihood, with right-censoring and left
 * truncation: the parametric temporal reliability {@code TR(t)} of Ren, Eigenmann and Bagchi (§3), and the fits the
 * Failure Trace Archive publishes for its traces (Javadi, Kondo, Iosup and Epema, JPDC 2013).
 *
 * <p>Each fit gives its parameters (in seconds), its {@linkplain #survival() survival function} and its maximized
 * {@linkplain #logLikelihood() log-likelihood} with densities per second, so fits of one sample can be compared (the
 * larger, the better; {@link #aic()} charges for parameters). A duration whose start was observed contributes
 * {@code ln f(t)} if it ended in a failure and {@code ln S(t)} if it is censored.
 *
 * <p><b>Left-truncated durations</b> (under way when observation began, for an unknown time: the first interval of a
 * trace) are the remaining life of a lifetime. The fits assume observation began at a time unrelated to the
 * lifetime's start, as when a trace starts on a given date (a stationary renewal process); the remaining life then
 * has the equilibrium density {@code S(t)/m}, {@code m} the mean, and survival {@code R(t) = ∫_t^∞ S(u) du / m}. A
 * left-truncated failure contributes {@code ln S(t) − ln m}, a left-truncated censored duration {@code ln R(t)}:
 * <ul>
 *   <li>exponential: {@code R = S} and {@code S/m = f}, so these are the ordinary terms and the fit stays
 *       failures over total exposure — exact, whatever the assumption, since the exponential has no memory;</li>
 *   <li>Weibull: {@code m = λΓ(1 + 1/k)}, {@code R(t) = Q(1/k, (t/λ)^k)};</li>
 *   <li>log-normal: {@code R(t) = Q(z − σ) − e^{σz − σ²/2} Q(z)} with {@code z = (ln t − μ)/σ};</li>
 *   <li>gamma: {@code R(t) = Q(a + 1, t/θ) − (t/aθ) Q(a, t/θ)}.</li>
 * </ul>
 * With left-truncated durations the two-parameter fits maximize this likelihood by Nelder–Mead in logarithmic
 * parameters, starting from the fit of the durations whose start was observed (which must meet the fit's
 * requirements on their own), and finish with Newton's method on the analytic gradient of the likelihood: values of
 * the likelihood tell parameters apart only to about 10⁻⁸ (less in seconds than in hours, since {@code |ln L|} grows
 * with the unit), its gradient to the last digits, so the parameters come out within about 10⁻¹⁴ (relative) of the
 * maximum whatever the time unit. Counting a left-truncated duration as a complete or a censored one instead would
 * mistake a remaining life for a lifetime, or drop a failure.
 *
 * <p>Fits are immutable values.
 *
 * @since 0.1
 */
public sealed interface DistributionFit permits ExponentialFit, WeibullFit, LogNormalFit, GammaFit {

    /**
     * Returns the fitted survival function.
     *
     * @return {@code S(t)}, with {@code t} in seconds
     */
    SurvivalFunction survival();

    /**
     * Returns the maximized log-likelihood of the sample.
     *
     * @return the log-likelihood, densities per second
     */
    double logLikelihood();

    /**
     * Returns the number of fitted parameters.
     *
     * @return 1 for the exponential, 2 for the others
     */
    int parameterCount();

    /**
     * Returns the mean of the fitted distribution.
     *
     * @return the mean lifetime, in seconds
     */
    double meanSeconds();

    /**
     * Returns Akaike's information criterion {@code 2p − 2 ln L}: the smaller, the better.
     *
     * @return the AIC
     */
    default double aic() {
        return 2.0 * parameterCount() - 2.0 * logLikelihood();
    }

    /**
     * Fits an exponential distribution: {@code μ̂ = failures / total time}, left-truncated durations included with
     * their failures and their observed time.
     *
     * @param sample the durations, with at least one failure
     * @return the fit
     * @throws IllegalArgumentException if the sample has no failure or no positive total
     * @throws NullPointerException     if {@code sample} is null
     */
    static ExponentialFit exponential(LifetimeSample sample) {
        return Fitting.exponential(sample);
    }

    /**
     * Fits a Weibull distribution, solving the censored profile-likelihood equation for the shape {@code k}:
     * {@code Σ t_i^k ln t_i / Σ t_i^k − 1/k − mean_failures(ln t) = 0} (sums over all durations), then
     * {@code λ = (Σ t_i^k / failures)^{1/k}}. The left side increases with {@code k}, so the root is unique; it
     * is found by Newton's method kept inside a bracket. With left-truncated durations, see the class description.
     *
     * @param sample the durations, with at least one failure and every failure {@code > 0} (with left-truncated
     *               durations: among the durations whose start was observed)
     * @return the fit
     * @throws IllegalArgumentException if the sample has no failure, a zero-length failure, or no maximum (every
     *                                  failure at the same time and nothing longer: the shape would be infinite)
     * @throws NullPointerException     if {@code sample} is null
     */
    static WeibullFit weibull(LifetimeSample sample) {
        return Fitting.weibull(sample);
    }

    /**
     * Fits a log-normal distribution: the mean and (divisor {@code n}) standard deviation of {@code ln t} without
     * censoring; with censoring, Newton's method on the log-likelihood in {@code (μ, ln σ)} with exact derivatives.
     * With left-truncated durations, see the class description.
     *
     * @param sample the durations, with at least two distinct failure times, every failure {@code > 0} (with
     *               left-truncated durations: among the durations whose start was observed)
     * @return the fit
     * @throws IllegalArgumentException if the sample has fewer than two distinct failure times (or failure times so
     *                                  close that rounding hides their spread) or a zero-length failure
     * @throws NullPointerException     if {@code sample} is null
     */
    static LogNormalFit logNormal(LifetimeSample sample) {
        return Fitting.logNormal(sample);
    }

    /**
     * Fits a gamma distribution: without censoring, the shape solves {@code ln a − ψ(a) = ln(mean) − mean(ln t)}
     * (Newton with the trigamma function) and {@code θ = mean / a}; with censoring, the log-likelihood (whose
     * censored terms are {@code ln Q(a, t/θ)}) is maximized over {@code (ln a, ln θ)} by Nelder–Mead from the
     * uncensored fit, then by Newton's method on the analytic gradient (as with left truncation, below), costing a few
     * hundred passes over the sample. With left-truncated durations, see the class
     * description.
     *
     * @param sample the durations, with at least two distinct failure times, every failure {@code > 0} (with
     *               left-truncated durations: among the durations whose start was observed)
     * @return the fit
     * @throws IllegalArgumentException if the sample has fewer than two distinct failure times (or failure times so
     *                                  close that rounding hides their spread) or a zero-length failure
     * @throws NullPointerException     if {@code sample} is null
     */
    static GammaFit gamma(LifetimeSample sample) {
        return Fitting.gamma(sample);
    }

    /**
     * Fits all four distributions.
     *
     * @param sample the durations, meeting the requirements of every fit
     * @return the exponential, Weibull, log-normal and gamma fits, in that order
     * @throws IllegalArgumentException if the sample does not meet a fit's requirements
     * @throws NullPointerException     if {@code sample} is null
     */
    static List<DistributionFit> all(LifetimeSample sample) {
        return List.of(exponential(sample), weibull(sample), logNormal(sample), gamma(sample));
    }
}
