/**
 * JMH benchmarks, each measured against a peer library or a baseline in the same run.
 */
package io.github.volpex.benchmarks;
