/**
 * Checks that users run against their own adapters of Volpex for Java, with test scope.
 *
 * <h2>The contract</h2>
 * Start from {@link io.github.volpex.testkit.DataspaceContract}: extend it with a factory for your
 * {@link io.github.volpex.dataspace.Dataspace} implementation and JUnit runs every rule of the execution model (Kanna
 * et al., §II–III: single put, identical get, the read log and its eviction, divergence detection, restarts from a
 * saved request number, blocking with timeouts and FIFO wake-up, try-operations, cancelling a waiting request,
 * asynchronous submission with thousands of waiting requests, close and statistics) against it.
 * {@link io.github.volpex.testkit.FragmentRepositoryContract} does the same for a
 * {@link io.github.volpex.checkpoint.repository.FragmentRepository} (a storage backend for checkpoint fragments).
 *
 * <p>{@link io.github.volpex.testkit.FaultyRepository} wraps any repository to inject the faults of volatile
 * storage hosts — failures, timeouts, lost replies, silently dropped writes, corrupted bytes, unreachability and
 * return — and simulated process crashes, decided call by call by a {@link io.github.volpex.testkit.FaultSchedule}
 * such as {@link io.github.volpex.testkit.RandomFaults}. The checkpoint store's own fault-injection properties are
 * built from them.
 *
 * <p>{@link io.github.volpex.testkit.HostPools} gives jqwik arbitraries of volatile host pools — up and down periods
 * from exponential or Weibull laws (Ni and Harwood; Javadi et al.'s desktop-grid fits) or replayed from a real
 * availability trace — for property tests of schedulers and middleware.
 *
 * <p>The project runs the same classes against its own implementations: there is one copy of each contract.
 *
 * <h2>Replica schedules</h2>
 * The paper's guarantee — every replica of a process observes exactly what a run with one replica per process
 * observes, whatever the replicas' speeds, deaths and restarts (§II-B) — as a property over random programs:
 * {@link io.github.volpex.testkit.ReplicatedPrograms#programs()} draws them (a jqwik arbitrary),
 * {@link io.github.volpex.testkit.ReplicatedRun} runs them with 1–3 replicas per process under a deterministic random
 * schedule of calls, deaths, checkpoints (also inside a waiting call) and restarts, and the middleware's cancels of
 * waiting requests, and
 * {@link io.github.volpex.testkit.ReplicatedPrograms#singleReplicaRun(java.util.List, java.util.List)} is the oracle:
 * the single-replica run in the order in which each request was first issued and each cancel came
 * ({@link io.github.volpex.testkit.ProcessEvent}). The oracle runs on the in-process
 * dataspace, which the kit's own tests check against the contract and this property. A test that runs replicas on
 * threads or in other processes steps them with
 * {@link io.github.volpex.testkit.ReplicatedPrograms#step(io.github.volpex.dataspace.Replica, java.util.List,
 * java.time.Duration)} and compares with
 * {@link io.github.volpex.testkit.ReplicatedPrograms#assertConsistentWithSingleReplicaRun(java.util.List,
 * java.util.List, java.util.List)}, given the order its implementation executed requests in.
 *
 * <h2>Linearizability</h2>
 * A single-replica oracle needs the order in which the implementation executed requests; replicas on threads, or on
 * other machines, give no such order. {@link io.github.volpex.testkit.DataspaceHistory} records instead what any
 * observer can: every call's invocation and response times on one clock and what it returned (wrap each replica with
 * {@link io.github.volpex.testkit.DataspaceHistory#recording(io.github.volpex.dataspace.Replica)}, or record calls by
 * hand), and {@link io.github.volpex.testkit.LinearizabilityChecker} decides whether the history is linearizable: all
 * replicas of a request received one outcome, and each tag's requests can be placed at instants within their spans
 * so that the dataspace of one tag, run in that order, returns what they returned. The search is Wing and Gong's in
 * Lowe's form, with the memoisation of Porcupine and of Elasticsearch's checker; its limits are in the class
 * description. {@link io.github.volpex.testkit.ConcurrentReplicatedRun} runs random replicated programs on threads —
 * late joiners, deaths, restarts, timeouts, the middleware's cancels, spinning threads for a busy machine — and checks
 * its history this way; {@link io.github.volpex.testkit.ReplicatedRun} records one too.
 *
 * <h2>How deep the checks search</h2>
 * The kit brings {@code volpex-test-support}, whose switch {@code -Dvolpex.search.factor=N} (a system property of the
 * test run, from 1 to 10 000) deepens the search of an adapter's suite as it deepens the project's own:
 * {@link io.github.volpex.testsupport.DeepSearchHook} multiplies the tries of every jqwik property (those written over
 * this kit's arbitraries included) by {@code N}, and the contracts' randomised rounds are
 * {@link io.github.volpex.testsupport.SearchDepth#rounds(int)} of their ordinary count. A deep run outgrows the
 * contracts' hang guards: add {@code -Djunit.jupiter.execution.timeout.mode=disabled}.
 *
 * @since 0.1
 */
package io.github.volpex.testkit;
