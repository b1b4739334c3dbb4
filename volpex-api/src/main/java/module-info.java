/**
 * The Volpex redundant dataspace: communication that stays correct when processes are replicated or restarted.
 *
 * <p>Start from {@link io.github.volpex.dataspace.Dataspace}. Implementers of a dataspace build on
 * {@link io.github.volpex.dataspace.spi}.
 *
 * @since 0.1
 */
module io.github.volpex.dataspace {
    exports io.github.volpex.dataspace;
    exports io.github.volpex.dataspace.spi;
}
