package io.github.volpex.estimators;

/** The exponential survival function {@code e^{−μt}}; reached through {@link SurvivalFunction#exponential}. */
record ExponentialSurvival(double ratePerSecond) implements SurvivalFunction {

    ExponentialSurvival {
        ratePerSecond = Checks.finiteNonNegative("ratePerSecond", ratePerSecond);
    }

    @Override
    public double survival(double timeSeconds) {
        Checks.nonNegative("timeSeconds", timeSeconds);
        if (ratePerSecond == 0.0) {
            return 1.0;
        }
        return Math.exp(-ratePerSecond * timeSeconds);
    }

    /** Memoryless: {@code 1 − e^{−μΔ}} whatever {@code t}, computed without cancellation for small {@code μΔ}. */
    @Override
    public double conditionalFailure(double timeSeconds, double horizonSeconds) {
        Checks.finiteNonNegative("timeSeconds", timeSeconds);
        Checks.nonNegative("horizonSeconds", horizonSeconds);
        if (ratePerSecond == 0.0) {
            return 0.0;
        }
        return -Math.expm1(-ratePerSecond * horizonSeconds);
    }
}
