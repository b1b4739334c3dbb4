package io.github.volpex.estimators;

/** {@code S(t) = exp(−(t/λ)^k)}; reached through {@link SurvivalFunction#weibull}. */
record WeibullSurvival(double shape, double scaleSeconds) implements SurvivalFunction {

    WeibullSurvival {
        Checks.finitePositive("shape", shape);
        Checks.finitePositive("scaleSeconds", scaleSeconds);
    }

    /** The cumulative hazard {@code (t/λ)^k}. */
    private double cumulativeHazard(double timeSeconds) {
        return Math.pow(timeSeconds / scaleSeconds, shape);
    }

    @Override
    public double survival(double timeSeconds) {
        Checks.nonNegative("timeSeconds", timeSeconds);
        return Math.exp(-cumulativeHazard(timeSeconds));
    }

    /**
     * {@code 1 − exp(−(H(t + Δ) − H(t)))}, with the hazard increment formed as {@code H(t)·expm1(k·log1p(Δ/t))} so
     * short horizons keep their precision.
     */
    @Override
    public double conditionalFailure(double timeSeconds, double horizonSeconds) {
        Checks.finiteNonNegative("timeSeconds", timeSeconds);
        Checks.nonNegative("horizonSeconds", horizonSeconds);
        double increment = timeSeconds == 0.0 ? cumulativeHazard(horizonSeconds)
                : cumulativeHazard(timeSeconds) * Math.expm1(shape * Math.log1p(horizonSeconds / timeSeconds));
        if (Double.isNaN(increment)) {
            // H(t) = ∞ (the machine cannot be alive at t) times a finite factor, or ∞ · 0.
            return 1.0;
        }
        return Math.min(1.0, -Math.expm1(-increment));
    }
}
