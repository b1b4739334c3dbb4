package io.github.volpex.estimators;

/**
 * A log-normal distribution fitted by maximum likelihood: {@code ln T} is normal.
 *
 * @param meanLog       the mean of {@code ln T}, {@code T} in seconds; finite
 * @param sdLog         the standard deviation of {@code ln T}; finite, {@code > 0}
 * @param logLikelihood the maximized log-likelihood
 * @since 0.1
 */
public record LogNormalFit(double meanLog, double sdLog, double logLikelihood) implements DistributionFit {

    /**
     * Validates the parameters.
     *
     * @param meanLog       the mean of {@code ln T}, {@code T} in seconds; finite
     * @param sdLog         the standard deviation of {@code ln T}; finite, {@code > 0}
     * @param logLikelihood the maximized log-likelihood
     * @throws IllegalArgumentException if {@code meanLog} is not finite, {@code sdLog} not finite and positive, or
     *                                  the log-likelihood is NaN
     */
    public LogNormalFit {
        Checks.finite("meanLog", meanLog);
        Checks.finitePositive("sdLog", sdLog);
        Fitting.checkLogLikelihood(logLikelihood);
    }

    @Override
    public SurvivalFunction survival() {
        return SurvivalFunction.logNormal(meanLog, sdLog);
    }

    @Override
    public int parameterCount() {
        return 2;
    }

    /** {@code exp(μ + σ²/2)}. */
    @Override
    public double meanSeconds() {
        return Math.exp(meanLog + 0.5 * sdLog * sdLog);
    }
}
