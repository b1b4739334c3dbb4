package io.github.volpex.estimators;

/**
 * A Weibull distribution fitted by maximum likelihood.
 *
 * @param shape         the shape {@code k}; finite, {@code > 0}
 * @param scaleSeconds  the scale {@code λ}, in seconds; finite, {@code > 0}
 * @param logLikelihood the maximized log-likelihood
 * @since 0.1
 */
public record WeibullFit(double shape, double scaleSeconds, double logLikelihood) implements DistributionFit {

    /**
     * Validates the parameters.
     *
     * @param shape         the shape {@code k}; finite, {@code > 0}
     * @param scaleSeconds  the scale {@code λ}, in seconds; finite, {@code > 0}
     * @param logLikelihood the maximized log-likelihood
     * @throws IllegalArgumentException if a parameter is not finite and positive or the log-likelihood is NaN
     */
    public WeibullFit {
        Checks.finitePositive("shape", shape);
        Checks.finitePositive("scaleSeconds", scaleSeconds);
        Fitting.checkLogLikelihood(logLikelihood);
    }

    @Override
    public SurvivalFunction survival() {
        return SurvivalFunction.weibull(shape, scaleSeconds);
    }

    @Override
    public int parameterCount() {
        return 2;
    }

    /** {@code λ Γ(1 + 1/k)}. */
    @Override
    public double meanSeconds() {
        return scaleSeconds * Math.exp(SpecialFunctions.logGamma(1.0 + 1.0 / shape));
    }
}
