package io.github.volpex.checkpoint.store;

import java.io.IOException;
import java.time.Instant;
import java.time.InstantSource;

/**
 * The epoch sources ordered by what the writer lists ({@link EpochSource#listing()}, {@link EpochSource#clock}): one
 * more than the greatest epoch seen, or the clock's microseconds if given and greater. Immutable.
 */
final class Listed implements EpochSource {

    static final Listed NO_CLOCK = new Listed(null);

    /** The clock whose reading is a lower bound of the epoch, or null. */
    private final InstantSource clock;

    Listed(InstantSource clock) {
        this.clock = clock;
    }

    @Override
    public long acquire(String jobId, long highestSeen) throws IOException {
        if (highestSeen == Long.MAX_VALUE) {
            throw new IOException("no epoch is left above " + highestSeen + " for " + jobId);
        }
        long next = Math.max(0, highestSeen + 1);
        return clock == null ? next : Math.max(next, micros(clock.instant()));
    }

    /** Microseconds since 1970, saturated to [0, Long.MAX_VALUE - 1]. */
    private static long micros(Instant now) {
        try {
            return Math.max(0, Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L),
                    now.getNano() / 1000));
        } catch (ArithmeticException e) {
            return now.getEpochSecond() < 0 ? 0 : Long.MAX_VALUE - 1;
        }
    }

    @Override
    public boolean isCurrent(String jobId, long epoch) {
        return true;
    }

    @Override
    public boolean requiresCompleteListing() {
        return true;
    }

    @Override
    public String toString() {
        return clock == null ? "EpochSource.listing()" : "EpochSource.clock(" + clock + ")";
    }
}
