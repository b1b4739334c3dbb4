/**
 * Checks that users run against their own adapters of Volpex for Java, with test scope.
 *
 * <p>Start from {@link io.github.volpex.testkit.DataspaceContract}: extend it with a factory for your
 * {@link io.github.volpex.dataspace.Dataspace} implementation and JUnit runs every rule of the execution model (Kanna
 * et al., §II–III: single put, identical get, the read log and its eviction, divergence detection, restarts from a
 * saved request number, blocking with timeouts and FIFO wake-up, try-operations, cancelling a waiting request,
 * asynchronous submission with thousands of waiting requests, close and statistics) against it.
 * The project runs the same classes against its own implementations: there is one copy of each contract.
 *
 * @since 0.1
 */
package io.github.volpex.testkit;
