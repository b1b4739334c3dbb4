/**
 * Runnable examples: {@link io.github.volpex.examples.Main} dispatches to each command by name.
 *
 * @since 0.1
 */
package io.github.volpex.examples;
