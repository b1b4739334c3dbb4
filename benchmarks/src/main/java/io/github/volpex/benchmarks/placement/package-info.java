/**
 * Repository selection: Ren et al.'s greedy selector against a single pass over the hosts and the uniform random
 * selector, measured in the same run (results in {@code benchmarks/README.md}).
 */
package io.github.volpex.benchmarks.placement;
