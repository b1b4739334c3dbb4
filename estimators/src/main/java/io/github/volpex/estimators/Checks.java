package io.github.volpex.estimators;

import java.time.Duration;
import java.util.Objects;

/** Argument checks whose messages name the parameter, the bad value and the bound. */
final class Checks {

    private Checks() {
    }

    /** Requires {@code 0 ≤ value ≤ +∞}; returns it with {@code −0.0} turned into {@code +0.0}. */
    static double nonNegative(String name, double value) {
        if (!(value >= 0.0)) {
            throw new IllegalArgumentException(name + " must be >= 0: " + value);
        }
        return value + 0.0;
    }

    /** Requires {@code 0 ≤ value < +∞}; returns it with {@code −0.0} turned into {@code +0.0}. */
    static double finiteNonNegative(String name, double value) {
        if (!(value >= 0.0) || value == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException(name + " must be finite and >= 0: " + value);
        }
        return value + 0.0;
    }

    /** Requires {@code 0 < value < +∞}. */
    static double finitePositive(String name, double value) {
        if (!(value > 0.0) || value == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException(name + " must be finite and > 0: " + value);
        }
        return value;
    }

    /** Requires {@code value} finite (any sign). */
    static double finite(String name, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be finite: " + value);
        }
        return value;
    }

    /** Requires {@code 0 < value < 1}: a confidence level or a probability strictly inside the unit interval. */
    static double openUnit(String name, double value) {
        if (!(value > 0.0 && value < 1.0)) {
            throw new IllegalArgumentException(name + " must be in (0, 1): " + value);
        }
        return value;
    }

    /** Requires {@code value ≥ min}. */
    static int atLeast(String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be >= " + min + ": " + value);
        }
        return value;
    }

    /** Requires a positive duration; returns it in nanoseconds (saturating at {@link Long#MAX_VALUE}). */
    static long positiveNanos(String name, Duration duration) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + " must be > 0: " + duration);
        }
        try {
            return duration.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * Checks the bounds and level of a confidence interval: {@code lower} finite and {@code ≥ 0}, {@code upper}
     * {@code ≥ lower} (possibly {@code +∞}), {@code level} in {@code (0, 1)}; returns {@code lower} with {@code −0.0}
     * made {@code +0.0}.
     */
    static double interval(String lowerName, double lower, String upperName, double upper, double level) {
        lower = finiteNonNegative(lowerName, lower);
        nonNegative(upperName, upper);
        openUnit("level", level);
        if (upper < lower) {
            throw new IllegalArgumentException(upperName + " must be >= " + lowerName + " (" + lower + "): " + upper);
        }
        return lower;
    }
}
