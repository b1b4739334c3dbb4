/**
 * Checkpoint interval calculators.
 *
 * <p>{@link io.github.volpex.checkpoint.interval.ClassicalIntervals} holds Young's first-order interval
 * {@code √(2CM)} (J. W. Young, "A first order approximation to the optimum checkpoint interval", CACM 17(9), 1974),
 * the baseline the papers' calculators improve on. Times are seconds as {@code double}.
 *
 * @since 0.1
 */
package io.github.volpex.checkpoint.interval;
