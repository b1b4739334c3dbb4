package io.github.volpex.dataspace.spi;

import io.github.volpex.dataspace.DataspaceOptions;
import java.time.Duration;
import java.util.Objects;

/**
 * How long a call may wait for its result: not at all ({@link #immediate()}), at most a duration
 * ({@link #of(Duration)}), or without a bound ({@link #unbounded()}). "No bound" is a value of its own, never a
 * null duration.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class WaitLimit {

    private static final WaitLimit IMMEDIATE = new WaitLimit(Duration.ZERO);
    private static final WaitLimit UNBOUNDED = new WaitLimit(null);

    /** The bound; null only in {@link #UNBOUNDED}. */
    private final Duration bound;

    private WaitLimit(Duration bound) {
        this.bound = bound;
    }

    /**
     * Returns the limit of a call that never waits (a put, a try-operation): a request that would wait is left
     * pending at once.
     *
     * @return the zero limit
     */
    public static WaitLimit immediate() {
        return IMMEDIATE;
    }

    /**
     * Returns the limit of a call that waits as long as needed.
     *
     * @return the unbounded limit
     */
    public static WaitLimit unbounded() {
        return UNBOUNDED;
    }

    /**
     * Checks the timeout of a blocking call, as every dataspace does, and returns its limit: a timeout of
     * {@value DataspaceOptions#UNBOUNDED_TIMEOUT_SECONDS} seconds or more (the longest wait a {@code long} of
     * nanoseconds counts, about 292 years) waits without a bound.
     *
     * @param timeout the timeout, {@code ≥ 0}
     * @return the limit: {@link #unbounded()} for a timeout that long, {@link #immediate()} for zero
     * @throws NullPointerException     if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public static WaitLimit of(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be >= 0: " + timeout);
        }
        if (timeout.getSeconds() >= DataspaceOptions.UNBOUNDED_TIMEOUT_SECONDS) {
            return UNBOUNDED;
        }
        return timeout.isZero() ? IMMEDIATE : new WaitLimit(timeout);
    }

    /**
     * Tells whether the wait has a bound.
     *
     * @return false only for {@link #unbounded()}
     */
    public boolean isBounded() {
        return bound != null;
    }

    /**
     * Tells whether the call may not wait at all.
     *
     * @return whether the limit is zero
     */
    public boolean isImmediate() {
        return bound != null && bound.isZero();
    }

    /**
     * Returns the longest wait.
     *
     * @return the bound, {@code ≥ 0}
     * @throws IllegalStateException if the limit is {@link #unbounded()}
     */
    public Duration duration() {
        if (bound == null) {
            throw new IllegalStateException("an unbounded wait has no duration");
        }
        return bound;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof WaitLimit && Objects.equals(((WaitLimit) other).bound, bound);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(bound);
    }

    @Override
    public String toString() {
        return bound == null ? "WaitLimit[unbounded]" : "WaitLimit[" + bound + "]";
    }
}
