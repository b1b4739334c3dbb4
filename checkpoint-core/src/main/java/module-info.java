/**
 * When to checkpoint and where to keep checkpoints on volatile machines.
 *
 * <p>Start from {@link io.github.volpex.checkpoint.interval.ClassicalIntervals}.
 *
 * @since 0.1
 */
module io.github.volpex.checkpoint {
    requires transitive io.github.volpex.estimators;
    requires transitive io.github.volpex.erasure;

    exports io.github.volpex.checkpoint.interval;
    exports io.github.volpex.checkpoint.math;
    exports io.github.volpex.checkpoint.placement;
    exports io.github.volpex.checkpoint.repository;
    exports io.github.volpex.checkpoint.store;
}
