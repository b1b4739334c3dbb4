/**
 * Estimators of how volatile machines fail: failure rates, temporal reliability and checkpoint costs.
 *
 * <p>Start from {@link io.github.volpex.estimators.SurvivalFunction}, the temporal reliability TR(t) of Ren,
 * Eigenmann and Bagchi (§3): the probability that a machine stays available for a time {@code t}. Times are seconds
 * as {@code double}; rates are per second.
 *
 * @since 0.1
 */
package io.github.volpex.estimators;
