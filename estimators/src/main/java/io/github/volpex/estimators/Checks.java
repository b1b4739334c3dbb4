package io.github.volpex.estimators;

/** Argument checks whose messages name the parameter, the bad value and the bound. */
final class Checks {

    private Checks() {
    }

    /** Requires {@code 0 ≤ value ≤ +∞}. */
    static double nonNegative(String name, double value) {
        if (!(value >= 0.0)) {
            throw new IllegalArgumentException(name + " must be >= 0: " + value);
        }
        return value;
    }

    /** Requires {@code 0 ≤ value < +∞}. */
    static double finiteNonNegative(String name, double value) {
        if (!(value >= 0.0) || value == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException(name + " must be finite and >= 0: " + value);
        }
        return value;
    }
}
