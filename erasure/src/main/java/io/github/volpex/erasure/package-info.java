/**
 * Erasure coding of checkpoints into fragments for volatile repositories (Rabin 1989; de Camargo et al. §4.2;
 * Ren et al. §6.2).
 *
 * <p>Start from {@link io.github.volpex.erasure.IdaCodec}: {@code m} data fragments plus {@code k} redundant ones,
 * {@code n = m + k}, of which any {@code m} rebuild the data.
 *
 * @since 0.1
 */
package io.github.volpex.erasure;
