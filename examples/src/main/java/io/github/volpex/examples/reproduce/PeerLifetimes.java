package io.github.volpex.examples.reproduce;

import java.util.random.RandomGenerator;

/**
 * Peer lifetimes under an exponential failure law whose rate is constant or doubles every {@code doublingSeconds}:
 * {@code μ(t) = μ0 · 2^{t/D}}. A lifetime starting at {@code b} is drawn by inverting the cumulative hazard,
 * {@code Λ(b, b + L) = μ0 D / ln 2 · (2^{(b+L)/D} − 2^{b/D}) = E} with {@code E ~ Exp(1)}.
 */
record PeerLifetimes(double initialRatePerSecond, double doublingSeconds) {

    static PeerLifetimes constant(double ratePerSecond) {
        return new PeerLifetimes(ratePerSecond, Double.POSITIVE_INFINITY);
    }

    /** Returns the failure rate at time {@code t}. */
    double rateAt(double t) {
        return Double.isInfinite(doublingSeconds) ? initialRatePerSecond
                : initialRatePerSecond * Math.pow(2, t / doublingSeconds);
    }

    /** Draws the lifetime of a peer that joins at {@code birth}. */
    double sample(double birth, RandomGenerator random) {
        double e = -Math.log(1 - random.nextDouble());
        if (Double.isInfinite(doublingSeconds)) {
            return e / initialRatePerSecond;
        }
        double d = doublingSeconds;
        double end = d * (Math.log(Math.pow(2, birth / d) + e * Math.log(2) / (initialRatePerSecond * d))
                / Math.log(2));
        return Math.max(end - birth, 1e-9);
    }
}
