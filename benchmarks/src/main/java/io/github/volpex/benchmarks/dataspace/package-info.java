/**
 * JMH benchmarks of the Volpex dataspace: the in-process dataspace against a
 * {@link java.util.concurrent.ConcurrentHashMap} put+remove baseline (two threads, one logical process per thread), its
 * throughput on 1, 2 and 4 threads ({@code DataspaceScalingBenchmark}; {@code DataspaceContentionReport} runs both and
 * prints the tables of {@code benchmarks/README.md}), its replicated throughput, and the ZooKeeper dataspace on a
 * 3-server ensemble against raw ZooKeeper transactions and reads of the same shape and size.
 */
package io.github.volpex.benchmarks.dataspace;
