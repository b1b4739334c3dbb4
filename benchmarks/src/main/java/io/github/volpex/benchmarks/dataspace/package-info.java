/**
 * JMH benchmarks of the Volpex dataspace against a {@link java.util.concurrent.ConcurrentHashMap} put+remove baseline,
 * two threads, one logical process per thread.
 */
package io.github.volpex.benchmarks.dataspace;
