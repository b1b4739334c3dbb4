package io.github.volpex.testkit.selftest;

import io.github.volpex.checkpoint.store.EpochSource;
import java.util.concurrent.atomic.AtomicLong;

/** Fenced epochs as a coordination service keeps them: one counter outside the writers, shared by all of them. */
final class CounterEpochs implements EpochSource {

    private final AtomicLong counter = new AtomicLong();

    @Override
    public long acquire(String jobId, long highestSeen) {
        return counter.updateAndGet(e -> Math.max(e, highestSeen) + 1);
    }

    @Override
    public boolean isCurrent(String jobId, long epoch) {
        return counter.get() == epoch;
    }
}
