/**
 * For implementers of a dataspace (an adapter to a coordination service, a network front's client): the parts every
 * implementation of {@link io.github.volpex.dataspace.Dataspace} shares, so that each keeps only what differs. Users
 * of a dataspace need nothing here.
 *
 * <h2>Where to start</h2>
 * {@link io.github.volpex.dataspace.spi.AbstractReplica} is a {@link io.github.volpex.dataspace.Replica} handle's
 * state machine — one call at a time, the request number, the request a timed-out or interrupted call left pending,
 * {@code cancelPending} — over one abstract call that executes a numbered request and one that cancels it; the
 * in-process, ZooKeeper and network-front replicas all extend it. {@link io.github.volpex.dataspace.spi.RequestChecks}
 * holds the argument checks and the rule of opening a replica at a saved request number (the package description of
 * {@code io.github.volpex.dataspace}, "A restart inside a call");
 * {@link io.github.volpex.dataspace.spi.WaitLimit} is a checked timeout, where waiting without a bound is a value of
 * its own rather than a null; {@link io.github.volpex.dataspace.spi.RequestStatistics} the counters behind
 * {@link io.github.volpex.dataspace.Dataspace#statistics()}.
 *
 * <h2>Why a replica is a state machine here and not in the dataspace</h2>
 * The paper's replica only numbers its calls (Kanna et al., UH-CS-08-17, §III-A); the dataspace holds everything
 * else. Timeouts, interrupts and cancels (the paper's future work) add state a handle must keep itself: whether its
 * last call left a request pending, so that the next call repeats it or {@code cancelPending} ends it. A cancelled
 * request is complete — its outcome is "cancelled", logged like any other — so the handle goes past it, while a
 * timeout says nothing about the request and the handle stays before it.
 *
 * <h2>Layout</h2>
 * The fields {@code AbstractReplica} writes on every call lie after sixty-four bytes of padding, so that handles of
 * different processes, driven by different threads, never write one cache line; the in-process replica pads after its
 * own fields too.
 *
 * @since 0.1
 */
package io.github.volpex.dataspace.spi;
