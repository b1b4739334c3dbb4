/**
 * The tour: replica exchange on volatile hosts, composing every module as grid middleware would (dataspace,
 * estimators, adaptive Ni–Harwood scheduling, greedy repository selection, the IDA checkpoint store with repair and
 * recovery), verified bit for bit against a failure-free run. Two modes share the physics
 * ({@link io.github.volpex.examples.remd}), the storage pool, the failure observations and the report:
 * <ul>
 *   <li>{@link io.github.volpex.examples.tour.Tour} ({@code tour}) runs everything in one JVM: replicas are threads,
 *       hosts fail in simulation, the dataspace is in process, repositories in memory or on disk;</li>
 *   <li>{@link io.github.volpex.examples.tour.Cluster} ({@code cluster}) runs every replica as a JVM of its own
 *       ({@code replica}) on the ZooKeeper dataspace, with checkpoints on S3 storage hosts ({@code storage-host}, or
 *       S3Proxy servers in the coordinator) and epochs fenced through ZooKeeper: replicas are killed with SIGKILL, the
 *       ZooKeeper leader fails over, storage hosts lose their data. Every child JVM stops when its standard input
 *       ends or its deadline passes, so none outlives its coordinator.</li>
 * </ul>
 * Time is virtual in both: a step of sampling counts {@code stepSeconds}, a checkpoint {@code V}, a restart
 * {@code T_d}; host lifetimes are drawn in those seconds. The computation is real.
 */
package io.github.volpex.examples.tour;
