package io.github.volpex.estimators;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.function.LongSupplier;

/** A hand-driven time source for tests: both a nanosecond supplier and an {@link InstantSource}. */
final class FakeClock implements LongSupplier, InstantSource {

    private long nanos;

    @Override
    public long getAsLong() {
        return nanos;
    }

    @Override
    public Instant instant() {
        return Instant.EPOCH.plusNanos(nanos);
    }

    FakeClock advanceSeconds(double seconds) {
        nanos += Math.round(seconds * 1e9);
        return this;
    }

    FakeClock advance(Duration duration) {
        nanos += duration.toNanos();
        return this;
    }
}
