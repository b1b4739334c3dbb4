package io.github.volpex.estimators;

/**
 * A gamma distribution fitted by maximum likelihood.
 *
 * @param shape         the shape {@code a}; finite, {@code > 0}
 * @param scaleSeconds  the scale {@code θ}, in seconds; finite, {@code > 0}
 * @param logLikelihood the maximized log-likelihood
 * @since 0.1
 */
public record GammaFit(double shape, double scaleSeconds, double logLikelihood) implements DistributionFit {

    /**
     * Validates the parameters.
     *
     * @param shape         the shape {@code a}; finite, {@code > 0}
     * @param scaleSeconds  the scale {@code θ}, in seconds; finite, {@code > 0}
     * @param logLikelihood the maximized log-likelihood
     * @throws IllegalArgumentException if a parameter is not finite and positive or the log-likelihood is NaN
     */
    public GammaFit {
        Checks.finitePositive("shape", shape);
        Checks.finitePositive("scaleSeconds", scaleSeconds);
        Fitting.checkLogLikelihood(logLikelihood);
    }

    @Override
    public SurvivalFunction survival() {
        return SurvivalFunction.gamma(shape, scaleSeconds);
    }

    @Override
    public int parameterCount() {
        return 2;
    }

    /** {@code aθ}. */
    @Override
    public double meanSeconds() {
        return shape * scaleSeconds;
    }
}
