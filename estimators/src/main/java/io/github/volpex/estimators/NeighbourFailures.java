package io.github.volpex.estimators;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * De-duplicates failure observations gossiped among neighbours and neighbours' neighbours (Ni and Harwood, §3.1.1)
 * before they reach a rate estimator: one failure heard from three peers counts once. Observations are keyed by
 * {@code (peerId, sessionStart)}; the first report of a key is forwarded to the sink, later ones are counted as
 * duplicates. For consistent reports (one failure time per key) the set forwarded does not depend on the order of
 * arrival; when reports of one key disagree on the failure time, the first one wins.
 *
 * <p>Memory is bounded: the most recent {@code capacity} keys are remembered (least recently first seen forgotten
 * first). A duplicate arriving after its key was forgotten counts again, so size {@code capacity} above the number
 * of failures that can still be in flight through the gossip.
 *
 * <p>Thread-safe: {@link #offer} is atomic; the sink is called under the lock, so it must not call back into this
 * object.
 *
 * <pre>{@code
 * FailureRateEstimator mu = FailureRateEstimator.lastFailures(20);
 * NeighbourFailures gossip = NeighbourFailures.create(10_000, o -> mu.recordFailure(o.lifetimeSeconds()));
 * }</pre>
 *
 * @since 0.1
 */
public final class NeighbourFailures {

    private record Key(String peerId, Instant sessionStart) {
    }

    private final Consumer<? super FailureObservation> sink;
    private final Map<Key, Boolean> seen;
    private long forwardedCount;
    private long duplicateCount;

    private NeighbourFailures(int capacity, Consumer<? super FailureObservation> sink) {
        this.sink = sink;
        this.seen = new LinkedHashMap<>(16, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * Returns a de-duplicator forwarding first reports to {@code sink}.
     *
     * @param capacity the number of failure keys remembered, {@code ≥ 1}
     * @param sink     receives each distinct failure once, typically
     *                 {@code o -> estimator.recordFailure(o.lifetimeSeconds())}
     * @return a new de-duplicator
     * @throws IllegalArgumentException if {@code capacity < 1}
     * @throws NullPointerException     if {@code sink} is null
     */
    public static NeighbourFailures create(int capacity, Consumer<? super FailureObservation> sink) {
        Checks.atLeast("capacity", capacity, 1);
        return new NeighbourFailures(capacity, Objects.requireNonNull(sink, "sink"));
    }

    /**
     * Offers an observation, forwarding it if its failure has not been seen.
     *
     * @param observation the observation
     * @return {@code true} if it was new and forwarded, {@code false} if it was a duplicate
     * @throws NullPointerException if {@code observation} is null
     * @throws RuntimeException     whatever the sink throws; the observation then counts as not seen
     */
    public synchronized boolean offer(FailureObservation observation) {
        Objects.requireNonNull(observation, "observation");
        Key key = new Key(observation.peerId(), observation.sessionStart());
        if (seen.containsKey(key)) {
            duplicateCount++;
            return false;
        }
        // Deliver first, remember after: an observation the sink refuses leaves the memory as it was (remembering it
        // first could have made room by forgetting an older key, which a later duplicate would then count again).
        sink.accept(observation);
        seen.put(key, Boolean.TRUE);
        forwardedCount++;
        return true;
    }

    /**
     * Returns how many distinct failures were forwarded.
     *
     * @return the count
     */
    public synchronized long forwardedCount() {
        return forwardedCount;
    }

    /**
     * Returns how many duplicate reports were dropped.
     *
     * @return the count
     */
    public synchronized long duplicateCount() {
        return duplicateCount;
    }
}
