/**
 * Failure-rate and reliability estimators for volatile machines: the inputs of every checkpoint decision.
 *
 * <p>Start from {@link io.github.volpex.estimators.FailureRateEstimator} for failure rates and from
 * {@link io.github.volpex.estimators.SurvivalFunction} for temporal reliability; the package documentation maps the
 * rest. Requires nothing but {@code java.base}.
 *
 * @since 0.1
 */
module io.github.volpex.estimators {
    exports io.github.volpex.estimators;
}
