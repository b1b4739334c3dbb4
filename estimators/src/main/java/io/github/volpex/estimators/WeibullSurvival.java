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
     * short horizons keep their precision. Where that product cannot be trusted — {@code H(t)} is subnormal, or the
     * factor overflows because {@code Δ/t} is huge — the difference is formed directly: then {@code H(t)} is either
     * negligible next to {@code H(t + Δ)} or so small that the cancellation cannot show in a probability.
     */
    @Override
    public double conditionalFailure(double timeSeconds, double horizonSeconds) {
        Checks.finiteNonNegative("timeSeconds", timeSeconds);
        Checks.nonNegative("horizonSeconds", horizonSeconds);
        if (timeSeconds == 0.0) {
            return -Math.expm1(-cumulativeHazard(horizonSeconds));
        }
        double hazard = cumulativeHazard(timeSeconds);
        if (hazard == Double.POSITIVE_INFINITY) {
            // S(t) = 0: the machine cannot be alive at t.
            return 1.0;
        }
        double increment = hazard * Math.expm1(shape * Math.log1p(horizonSeconds / timeSeconds));
        if (hazard < Double.MIN_NORMAL || !(increment < Double.POSITIVE_INFINITY)) {
            increment = cumulativeHazard(timeSeconds + horizonSeconds) - hazard;
        }
        return Math.min(1.0, -Math.expm1(-increment));
    }
}
