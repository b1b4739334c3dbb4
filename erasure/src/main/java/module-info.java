/**
 * Rabin's information dispersal (IDA) over GF(2^8): any m of n fragments rebuild the data.
 *
 * <p>Start from {@link io.github.volpex.erasure.IdaCodec}.
 *
 * @since 0.1
 */
module io.github.volpex.erasure {
    exports io.github.volpex.erasure;
}
