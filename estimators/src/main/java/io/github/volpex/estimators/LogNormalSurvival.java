package io.github.volpex.estimators;

/** {@code S(t) = Q((ln t − μ)/σ)}; reached through {@link SurvivalFunction#logNormal}. */
record LogNormalSurvival(double meanLog, double sdLog) implements SurvivalFunction {

    LogNormalSurvival {
        Checks.finite("meanLog", meanLog);
        Checks.finitePositive("sdLog", sdLog);
    }

    /** {@code ln S(t)}, finite far in the tail where {@code S} underflows. */
    private double logSurvival(double timeSeconds) {
        if (timeSeconds == 0.0) {
            return 0.0;
        }
        if (timeSeconds == Double.POSITIVE_INFINITY) {
            return Double.NEGATIVE_INFINITY;
        }
        return SpecialFunctions.logNormalUpperTail((Math.log(timeSeconds) - meanLog) / sdLog);
    }

    @Override
    public double survival(double timeSeconds) {
        Checks.nonNegative("timeSeconds", timeSeconds);
        return Math.exp(logSurvival(timeSeconds));
    }

    @Override
    public double conditionalFailure(double timeSeconds, double horizonSeconds) {
        Checks.finiteNonNegative("timeSeconds", timeSeconds);
        Checks.nonNegative("horizonSeconds", horizonSeconds);
        double alive = logSurvival(timeSeconds);
        if (alive == Double.NEGATIVE_INFINITY) {
            return 1.0;
        }
        return Math.min(1.0, Math.max(0.0, -Math.expm1(logSurvival(timeSeconds + horizonSeconds) - alive)));
    }
}
