package io.github.volpex.checkpoint.interval;

import io.github.volpex.estimators.SurvivalFunction;

/** A step-function survival curve for tests, with drops placed exactly where a test needs them. */
final class TestSurvival {

    private TestSurvival() {
    }

    /**
     * A non-increasing step function: {@code S(t) = levels[i]} for {@code t} in {@code [times[i−1], times[i])}, like a
     * Kaplan–Meier estimate ({@code times} increasing, {@code levels} non-increasing, {@code levels.length =
     * times.length + 1}, {@code levels[0] = 1}).
     */
    static SurvivalFunction steps(double[] times, double[] levels) {
        double[] t = times.clone();
        double[] s = levels.clone();
        return new SurvivalFunction() {
            @Override
            public double survival(double timeSeconds) {
                if (!(timeSeconds >= 0)) {
                    throw new IllegalArgumentException("timeSeconds must be >= 0: " + timeSeconds);
                }
                int i = 0;
                while (i < t.length && timeSeconds >= t[i]) {
                    i++;
                }
                return s[i];
            }

            @Override
            public String toString() {
                return "Steps(" + java.util.Arrays.toString(t) + ", " + java.util.Arrays.toString(s) + ")";
            }
        };
    }
}
