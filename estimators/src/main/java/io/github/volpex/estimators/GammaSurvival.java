package io.github.volpex.estimators;

/** {@code S(t) = Q(a, t/θ)}; reached through {@link SurvivalFunction#gamma}. */
record GammaSurvival(double shape, double scaleSeconds) implements SurvivalFunction {

    GammaSurvival {
        Checks.finitePositive("shape", shape);
        Checks.finitePositive("scaleSeconds", scaleSeconds);
    }

    @Override
    public double survival(double timeSeconds) {
        Checks.nonNegative("timeSeconds", timeSeconds);
        return SpecialFunctions.regularizedGammaQ(shape, timeSeconds / scaleSeconds);
    }

    @Override
    public double conditionalFailure(double timeSeconds, double horizonSeconds) {
        Checks.finiteNonNegative("timeSeconds", timeSeconds);
        Checks.nonNegative("horizonSeconds", horizonSeconds);
        double alive = SpecialFunctions.logRegularizedGammaQ(shape, timeSeconds / scaleSeconds);
        if (alive == Double.NEGATIVE_INFINITY) {
            return 1.0;
        }
        double later = SpecialFunctions.logRegularizedGammaQ(shape, (timeSeconds + horizonSeconds) / scaleSeconds);
        return Math.min(1.0, Math.max(0.0, -Math.expm1(later - alive)));
    }
}
