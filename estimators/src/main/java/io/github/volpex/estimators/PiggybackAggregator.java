package io.github.volpex.estimators;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns the estimates peers piggyback on their messages into global estimates of {@code μ}, {@code V} and
 * {@code T_d} (Ni and Harwood, §3.1.4), hardened for a real deployment.
 *
 * <p>It keeps the latest estimate per peer (by the peer's {@code observedAt}; an older one arriving late is ignored),
 * forgets a peer not heard from for {@code maxAge} (measured on this receiver's injected clock, so other peers'
 * clocks cannot keep a stale estimate alive), and rejects invalid estimates — NaN, infinite, negative, a failure rate
 * that is not positive, or a magnitude above the configured limits — counting them instead of averaging them. The
 * global estimate aggregates each quantity separately with the configured {@link Aggregate}; the default is the
 * {@linkplain Aggregate#median() median}, which tolerates fewer than half of the peers lying (the paper's
 * {@linkplain Aggregate#mean() mean} tolerates none). Identities are taken as given: a peer that can mint many
 * identities defeats any aggregate.
 *
 * <p>Thread-safe: every method is atomic, so message handlers on several threads may offer concurrently.
 *
 * @since 0.1
 */
public final class PiggybackAggregator {

    /**
     * What {@link #offer} did with an estimate.
     *
     * @since 0.1
     */
    public enum Outcome {
        /** Stored as the peer's latest estimate. */
        ACCEPTED,
        /** Rejected: a value was NaN, infinite, negative, zero (for the rate) or above its limit. */
        INVALID,
        /** Ignored: the peer's stored estimate was observed later. */
        OUTDATED
    }

    private final InstantSource clock;
    private final Duration maxAge;
    private final Aggregate aggregate;
    private final double maxFailureRatePerSecond;
    private final double maxSeconds;
    /**
     * The latest estimate per peer, in the order received: the stalest first, so expiry stops at the first fresh one.
     */
    private final Map<String, Entry> latest = new LinkedHashMap<>();
    private long invalidCount;
    private long outdatedCount;

    private record Entry(PeerEstimate estimate, Instant receivedAt) {
    }

    private PiggybackAggregator(Builder builder) {
        this.clock = builder.clock;
        this.maxAge = builder.maxAge;
        this.aggregate = builder.aggregate;
        this.maxFailureRatePerSecond = builder.maxFailureRatePerSecond;
        this.maxSeconds = builder.maxSeconds;
    }

    /**
     * Returns an aggregator with the default settings (see {@link Builder}).
     *
     * @param clock the receiver's clock, used for expiry
     * @return a new, empty aggregator
     * @throws NullPointerException if {@code clock} is null
     */
    public static PiggybackAggregator create(InstantSource clock) {
        return builder(clock).build();
    }

    /**
     * Returns a builder.
     *
     * @param clock the receiver's clock, used for expiry
     * @return a builder with the defaults
     * @throws NullPointerException if {@code clock} is null
     */
    public static Builder builder(InstantSource clock) {
        return new Builder(clock);
    }

    /**
     * Offers an estimate received from a peer.
     *
     * @param estimate the estimate, as decoded from the message
     * @return what was done with it
     * @throws NullPointerException if {@code estimate} is null
     */
    public synchronized Outcome offer(PeerEstimate estimate) {
        Objects.requireNonNull(estimate, "estimate");
        Instant now = clock.instant();
        expire(now);
        if (!isValid(estimate)) {
            invalidCount++;
            return Outcome.INVALID;
        }
        Entry previous = latest.get(estimate.peerId());
        if (previous != null && previous.estimate().observedAt().isAfter(estimate.observedAt())) {
            outdatedCount++;
            return Outcome.OUTDATED;
        }
        // Re-inserting moves the peer to the end of the receipt order.
        latest.remove(estimate.peerId());
        latest.put(estimate.peerId(), new Entry(estimate, now));
        return Outcome.ACCEPTED;
    }

    private boolean isValid(PeerEstimate e) {
        double rate = e.failureRatePerSecond();
        return rate > 0.0 && rate <= maxFailureRatePerSecond
                && e.overheadSeconds() >= 0.0 && e.overheadSeconds() <= maxSeconds
                && e.downloadSeconds() >= 0.0 && e.downloadSeconds() <= maxSeconds;
    }

    /**
     * Drops the estimates received before {@code now − maxAge}: amortized constant time, since entries are in receipt
     * order. Should the clock step back, a later-received entry may shield an earlier one until it expires itself.
     */
    private void expire(Instant now) {
        if (maxAge.getSeconds() >= now.getEpochSecond() - Instant.MIN.getEpochSecond()) {
            // now − maxAge lies before the first representable instant: nothing can have been received before it.
            return;
        }
        Instant cutoff = now.minus(maxAge);
        for (Iterator<Entry> it = latest.values().iterator(); it.hasNext(); ) {
            if (!it.next().receivedAt().isBefore(cutoff)) {
                return;
            }
            it.remove();
        }
    }

    /**
     * Returns the global estimate over the peers heard from within {@code maxAge}.
     *
     * @return the aggregated estimate, or empty if no valid estimate is current
     */
    public synchronized Optional<GlobalEstimate> global() {
        expire(clock.instant());
        int n = latest.size();
        if (n == 0) {
            return Optional.empty();
        }
        double[] rates = new double[n];
        double[] overheads = new double[n];
        double[] downloads = new double[n];
        int i = 0;
        for (Entry entry : latest.values()) {
            rates[i] = entry.estimate().failureRatePerSecond();
            overheads[i] = entry.estimate().overheadSeconds();
            downloads[i] = entry.estimate().downloadSeconds();
            i++;
        }
        return Optional.of(new GlobalEstimate(aggregate.applyInPlace(rates, n), aggregate.applyInPlace(overheads, n),
                aggregate.applyInPlace(downloads, n), n));
    }

    /**
     * Returns the latest estimate stored for a peer, if it has not expired.
     *
     * @param peerId the peer
     * @return its latest valid estimate, or empty
     * @throws NullPointerException if {@code peerId} is null
     */
    public synchronized Optional<PeerEstimate> latest(String peerId) {
        Objects.requireNonNull(peerId, "peerId");
        expire(clock.instant());
        Entry entry = latest.get(peerId);
        return entry == null ? Optional.empty() : Optional.of(entry.estimate());
    }

    /**
     * Returns the number of peers with a current estimate.
     *
     * @return the peer count
     */
    public synchronized int peerCount() {
        expire(clock.instant());
        return latest.size();
    }

    /**
     * Returns how many offered estimates were rejected as invalid since creation.
     *
     * @return the count
     */
    public synchronized long invalidCount() {
        return invalidCount;
    }

    /**
     * Returns how many offered estimates were ignored as older than the peer's stored one since creation.
     *
     * @return the count
     */
    public synchronized long outdatedCount() {
        return outdatedCount;
    }

    /**
     * Returns the settings and counts.
     *
     * @return a summary
     */
    @Override
    public synchronized String toString() {
        return "PiggybackAggregator[aggregate=" + aggregate + ", maxAge=" + maxAge + ", peers=" + latest.size()
                + ", invalid=" + invalidCount + ", outdated=" + outdatedCount + "]";
    }

    /**
     * Settings of a {@link PiggybackAggregator}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder {

        private final InstantSource clock;
        private Duration maxAge = Duration.ofHours(1);
        private Aggregate aggregate = Aggregate.median();
        private double maxFailureRatePerSecond = 1.0;
        private double maxSeconds = 86_400.0;

        private Builder(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
        }

        /**
         * Sets how long a peer's estimate counts after it was received. Default: one hour. A duration longer than the
         * range of {@link Instant} (such as {@code ChronoUnit.FOREVER.getDuration()}) never expires an estimate.
         *
         * @param maxAge the age limit, {@code > 0}
         * @return this builder
         * @throws IllegalArgumentException if {@code maxAge} is not positive
         * @throws NullPointerException     if {@code maxAge} is null
         */
        public Builder maxAge(Duration maxAge) {
            Checks.positiveNanos("maxAge", maxAge);
            this.maxAge = maxAge;
            return this;
        }

        /**
         * Sets the aggregate. Default: {@link Aggregate#median()}.
         *
         * @param aggregate the aggregate
         * @return this builder
         * @throws NullPointerException if {@code aggregate} is null
         */
        public Builder aggregate(Aggregate aggregate) {
            this.aggregate = Objects.requireNonNull(aggregate, "aggregate");
            return this;
        }

        /**
         * Sets the largest credible failure rate; larger ones are rejected. Default: 1 per second.
         *
         * @param maxFailureRatePerSecond the limit, per second; finite and {@code > 0}
         * @return this builder
         * @throws IllegalArgumentException if the limit is not finite and positive
         */
        public Builder maxFailureRatePerSecond(double maxFailureRatePerSecond) {
            this.maxFailureRatePerSecond = Checks.finitePositive("maxFailureRatePerSecond",
                    maxFailureRatePerSecond);
            return this;
        }

        /**
         * Sets the largest credible overhead and download time; larger ones are rejected. Default: one day
         * (86,400 s).
         *
         * @param maxSeconds the limit, in seconds; finite and {@code > 0}
         * @return this builder
         * @throws IllegalArgumentException if the limit is not finite and positive
         */
        public Builder maxSeconds(double maxSeconds) {
            this.maxSeconds = Checks.finitePositive("maxSeconds", maxSeconds);
            return this;
        }

        /**
         * Returns a new aggregator with these settings.
         *
         * @return the aggregator
         */
        public PiggybackAggregator build() {
            return new PiggybackAggregator(this);
        }
    }
}
