package io.github.volpex.checkpoint.placement;

/** Argument checks whose messages name the parameter, the bad value and the bound. */
final class Checks {

    private Checks() {
    }

    /** Requires {@code 0 < value < +∞}. */
    static double positiveFinite(String name, double value) {
        if (!(value > 0.0) || value == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException(name + " must be finite and > 0: " + value);
        }
        return value;
    }

    /** Requires {@code 0 ≤ value < +∞}. */
    static double nonNegativeFinite(String name, double value) {
        if (!(value >= 0.0) || value == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException(name + " must be finite and >= 0: " + value);
        }
        return value;
    }
}
