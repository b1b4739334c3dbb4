package io.github.volpex.checkpoint.interval;

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

    /** Requires {@code 0 ≤ value ≤ +∞}. */
    static double nonNegative(String name, double value) {
        if (!(value >= 0.0)) {
            throw new IllegalArgumentException(name + " must be >= 0: " + value);
        }
        return value;
    }

    /** Requires {@code value ≥ 1}. */
    static int atLeastOne(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be >= 1: " + value);
        }
        return value;
    }

    /** Requires {@code value ≥ 1}. */
    static long atLeastOne(String name, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be >= 1: " + value);
        }
        return value;
    }
}
