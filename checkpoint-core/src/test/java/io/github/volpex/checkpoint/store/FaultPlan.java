package io.github.volpex.checkpoint.store;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Decides, call by call, what goes wrong in the repositories of one simulated process: a call may fail (the
 * repository is unreachable), and at the crash point the process dies: that call takes effect or not (at random), and
 * every later call of the process throws {@link SimulatedCrash} without effect. Repositories may also be down for
 * good. Shared by all the {@link FaultyRepository} wrappers of a process; thread-safe.
 */
final class FaultPlan {

    /** What one call does. */
    enum Action {
        PROCEED,
        FAIL,
        /** Crash without the call's effect. */
        CRASH_BEFORE,
        /** Crash after the call's effect. */
        CRASH_AFTER
    }

    private final SplittableRandom random;
    private final long crashAt;
    private final double failureProbability;
    private final Set<String> down = new HashSet<>();
    private long calls;
    private boolean crashed;

    /**
     * @param seed               seeds the random choices
     * @param crashAt            the 1-based number of the call that crashes, or {@code Long.MAX_VALUE} for none
     * @param failureProbability the chance that any other call fails
     */
    FaultPlan(long seed, long crashAt, double failureProbability) {
        this.random = new SplittableRandom(seed);
        this.crashAt = crashAt;
        this.failureProbability = failureProbability;
    }

    /** A plan where nothing goes wrong (it still counts calls). */
    static FaultPlan none() {
        return new FaultPlan(0, Long.MAX_VALUE, 0.0);
    }

    synchronized FaultPlan down(String repositoryId) {
        down.add(repositoryId);
        return this;
    }

    synchronized boolean isDown(String repositoryId) {
        return down.contains(repositoryId);
    }

    synchronized Action next(String repositoryId) {
        if (crashed) {
            return Action.CRASH_BEFORE;
        }
        calls++;
        if (calls == crashAt) {
            crashed = true;
            return random.nextBoolean() ? Action.CRASH_AFTER : Action.CRASH_BEFORE;
        }
        if (down.contains(repositoryId)) {
            return Action.FAIL;
        }
        return failureProbability > 0 && random.nextDouble() < failureProbability ? Action.FAIL : Action.PROCEED;
    }

    synchronized long calls() {
        return calls;
    }

    synchronized boolean crashed() {
        return crashed;
    }
}
