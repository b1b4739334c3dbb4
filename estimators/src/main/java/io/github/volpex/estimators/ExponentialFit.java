package io.github.volpex.estimators;

/**
 * An exponential distribution fitted by maximum likelihood.
 *
 * @param ratePerSecond the failure rate {@code μ}, per second; finite, {@code > 0}
 * @param logLikelihood the maximized log-likelihood
 * @since 0.1
 */
public record ExponentialFit(double ratePerSecond, double logLikelihood) implements DistributionFit {

    /**
     * Validates the parameters.
     *
     * @param ratePerSecond the failure rate {@code μ}, per second; finite,
     *                      {@code > 0}
     * @param logLikelihood the maximized log-likelihood
     * @throws IllegalArgumentException if {@code ratePerSecond} is not finite and positive or the log-likelihood is NaN
     */
    public ExponentialFit {
        Checks.finitePositive("ratePerSecond", ratePerSecond);
        Fitting.checkLogLikelihood(logLikelihood);
    }

    @Override
    public SurvivalFunction survival() {
        return SurvivalFunction.exponential(ratePerSecond);
    }

    @Override
    public int parameterCount() {
        return 1;
    }

    @Override
    public double meanSeconds() {
        return 1.0 / ratePerSecond;
    }
}
