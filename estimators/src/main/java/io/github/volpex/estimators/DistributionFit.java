package io.github.volpex.estimators;

import java.util.List;

/**
 * A lifetime distribution fitted to a {@link LifetimeSample} by maximum likelihood, with right-censoring: the
 * parametric temporal reliability {@code TR(t)} of Ren, Eigenmann and Bagchi (§3), and the fits the Failure Trace
 * Archive publishes for its traces (Javadi, Kondo, Iosup and Epema, JPDC 2013).
 *
 * <p>Each fit gives its parameters, its {@linkplain #survival() survival function} and its maximized
 * {@linkplain #logLikelihood() log-likelihood} {@code Σ_failures ln f(t_i) + Σ_censored ln S(t_i)} with densities
 * per second, so fits of one sample can be compared (the larger, the better; {@link #aic()} charges for
 * parameters). Fit the same sample in another unit ({@link LifetimeSample#scaled}) to read parameters in that unit.
 *
 * <p>Fits are immutable values.
 *
 * @since 0.1
 */
public sealed interface DistributionFit permits ExponentialFit, WeibullFit, LogNormalFit, GammaFit {

    /**
     * Returns the fitted survival function.
     *
     * @return {@code S(t)}, with {@code t} in the sample's unit (seconds unless the sample was scaled)
     */
    SurvivalFunction survival();

    /**
     * Returns the maximized log-likelihood of the sample.
     *
     * @return the log-likelihood, densities per unit of the sample
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
     * @return the mean lifetime, in the sample's unit
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
     * Fits an exponential distribution: {@code μ̂ = failures / total time}.
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
     * is found by Newton's method kept inside a bracket.
     *
     * @param sample the durations, with at least one failure and every failure {@code > 0}
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
     *
     * @param sample the durations, with at least two distinct failure times, every failure {@code > 0}
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
     * uncensored fit, costing a few hundred passes over the sample.
     *
     * @param sample the durations, with at least two distinct failure times, every failure {@code > 0}
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
