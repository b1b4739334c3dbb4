/**
 * The tour: replica exchange on volatile hosts, composing every module as grid middleware would (dataspace,
 * estimators, adaptive Ni–Harwood scheduling, greedy repository selection, the IDA checkpoint store with repair and
 * recovery), verified bit for bit against a failure-free run. {@link io.github.volpex.examples.tour.Tour}
 * ({@code tour}) runs everything in one JVM: replicas are threads, hosts fail in simulation, the dataspace is in
 * process, repositories in memory or on disk. The tour across processes ({@link io.github.volpex.examples.cluster})
 * shares the physics ({@link io.github.volpex.examples.remd}), the options ({@code TourOptions}), the storage pool, the
 * failure observations and the report of this package.
 *
 * <p>Time is virtual: a step of sampling counts {@code stepSeconds}, a checkpoint {@code V}, a restart {@code T_d};
 * host lifetimes are drawn in those seconds. The computation is real.
 */
package io.github.volpex.examples.tour;
