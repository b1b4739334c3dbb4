/**
 * The tour across processes ({@code cluster}): every replica is a JVM of its own ({@code replica}) on the ZooKeeper
 * dataspace, with checkpoints on S3 storage hosts ({@code storage-host}, or S3Proxy servers in the coordinator) and
 * epochs fenced through ZooKeeper; replicas are killed with SIGKILL, the ZooKeeper leader fails over, storage hosts
 * lose their data, and the outcome is verified bit for bit against the failure-free run of the
 * {@link io.github.volpex.examples.tour} package, whose physics, options, storage pool and report it shares. Every
 * child JVM stops when its standard input ends or its deadline passes, so none outlives its coordinator.
 *
 * <p>Start from {@code Cluster}, the coordinator: a single-threaded loop ({@code EventLoop}) over the lines and exits
 * of its child JVMs. Its parts:
 * <ul>
 *   <li>{@code ReplicaReport} and {@code ReplicaOrder}: the protocol between the coordinator and a
 *       {@code --coordinated} replica, one line per message, as sealed types with {@code parse} and {@code format}
 *       (as {@code RunSpec} is the run's description, published in ZooKeeper, with {@code toBytes} and
 *       {@code fromBytes});</li>
 *   <li>{@code StorageChurn}: which storage host departs when, one at a time; {@code StorageHosts}: the hosts
 *       themselves (servers of the run's or endpoints given) and the coordinator's clients of them;</li>
 *   <li>{@code DisruptionSchedule} and {@code LeaderFailover}: the ZooKeeper failover and the writers' pauses;</li>
 *   <li>{@code ClusterTally}: what the run counted, for its summary; {@code ClusterProcess} and {@code ReplicaJvm}:
 *       what the coordinator knows of each process and replica.</li>
 * </ul>
 * A writer commits its process checkpoints asynchronously and differentially ({@code ReplicaCommand.COMMITS} says
 * what keeps that safe under this run's storage churn) and reports how each commit ended
 * ({@code @persist}): the real time the call held it, the time until durable and the bytes it wrote, all measured in
 * the replica's JVM, and the bytes a full commit of the same checkpoint writes, derived from the state's length (the
 * summary says which figures are derived). A full synchronous commit is not run beside it, as the in-process tour
 * runs one: on the run's S3 storage hosts it would double the traffic the run measures.
 * Time is virtual, as in the tour: replicas report their clocks, and the coordinator kills a replica once its host's
 * drawn lifetime has passed in that time.
 */
package io.github.volpex.examples.cluster;
