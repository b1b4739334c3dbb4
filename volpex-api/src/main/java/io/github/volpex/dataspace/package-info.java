/**
 * The Volpex dataspace (Kanna, Subhlok, Gabriel, Cheung and Anderson, "Redundancy Tolerant Communication on Volatile
 * Nodes", §II–III): {@code put}, {@code read} and {@code get} on tagged data, where every replica of a logical process
 * observes exactly what a single run would.
 *
 * <p>Start from {@link io.github.volpex.dataspace.DataspaceOptions}, the limits a dataspace enforces.
 *
 * @since 0.1
 */
package io.github.volpex.dataspace;
