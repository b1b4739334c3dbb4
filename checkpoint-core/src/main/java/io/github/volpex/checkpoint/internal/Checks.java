package io.github.volpex.checkpoint.internal;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Argument checks whose messages name the parameter, the bad value and the bound, shared by the packages of this
 * module. Not exported: public only so that the module's packages can reach it.
 */
public final class Checks {

    /** The longest repository id, in bytes of UTF-8 (the fragment index stores its length in one byte). */
    public static final int MAX_REPOSITORY_ID_BYTES = 255;

    private Checks() {
    }

    /** Requires {@code 0 < value < +∞}. */
    public static double positiveFinite(String name, double value) {
        if (!(value > 0.0) || value == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException(name + " must be finite and > 0: " + value);
        }
        return value;
    }

    /** Requires {@code 0 ≤ value < +∞}. */
    public static double nonNegativeFinite(String name, double value) {
        if (!(value >= 0.0) || value == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException(name + " must be finite and >= 0: " + value);
        }
        return value;
    }

    /** Requires {@code 0 ≤ value ≤ +∞}. */
    public static double nonNegative(String name, double value) {
        if (!(value >= 0.0)) {
            throw new IllegalArgumentException(name + " must be >= 0: " + value);
        }
        return value;
    }

    /** Requires {@code value ≥ 1}. */
    public static int atLeastOne(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be >= 1: " + value);
        }
        return value;
    }

    /** Requires {@code value ≥ 1}. */
    public static long atLeastOne(String name, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be >= 1: " + value);
        }
        return value;
    }

    /**
     * Requires a repository id of 1 to {@value #MAX_REPOSITORY_ID_BYTES} bytes of UTF-8.
     *
     * @throws NullPointerException if {@code id} is null
     * @throws IllegalArgumentException if it is empty or longer
     */
    public static String requireRepositoryId(String id) {
        Objects.requireNonNull(id, "id");
        int bytes = id.getBytes(StandardCharsets.UTF_8).length;
        if (bytes == 0 || bytes > MAX_REPOSITORY_ID_BYTES) {
            throw new IllegalArgumentException("repository id must be 1 to " + MAX_REPOSITORY_ID_BYTES
                    + " bytes of UTF-8: \"" + id + "\" has " + bytes);
        }
        return id;
    }
}
