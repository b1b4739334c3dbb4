/**
 * Code shared by the packages of this module and by no one else: argument checks whose messages name the parameter,
 * the bad value and the bound ({@link io.github.volpex.checkpoint.internal.Checks}). The module does not export this
 * package; nothing here is API.
 *
 * @since 0.1
 */
package io.github.volpex.checkpoint.internal;
