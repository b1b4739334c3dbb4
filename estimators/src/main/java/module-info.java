/**
 * Failure-rate and reliability estimators for volatile machines: the inputs of every checkpoint decision.
 *
 * <p>Start from {@link io.github.volpex.estimators.SurvivalFunction}.
 *
 * @since 0.1
 */
module io.github.volpex.estimators {
    exports io.github.volpex.estimators;
}
