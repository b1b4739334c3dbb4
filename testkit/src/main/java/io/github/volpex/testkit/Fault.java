package io.github.volpex.testkit;

/**
 * What one repository call does under fault injection ({@link FaultyRepository}, decided call by call by a
 * {@link FaultSchedule}). The faults are those of volatile storage hosts and the networks in front of them.
 *
 * @since 0.1
 */
public enum Fault {
    /** The call runs normally. */
    NONE,
    /** The call fails at once with a {@code RepositoryUnavailableException}, without effect. */
    FAIL,
    /**
     * The call blocks for the schedule's {@linkplain FaultSchedule#timeout() timeout}, then fails with a
     * {@code RepositoryUnavailableException} without effect, as a client whose call timed out does.
     */
    TIMEOUT,
    /**
     * The call takes effect, then fails with a {@code RepositoryUnavailableException} as if its reply were lost: the
     * caller cannot tell it from {@link #FAIL}. Calls without an effect (reads, listings) simply fail.
     */
    REPLY_LOST,
    /**
     * A call with an effect (a put, a delete, the commit of a streaming write) returns normally but has none: a write
     * dropped silently. Other calls run normally.
     */
    DROP,
    /**
     * The simulated process dies before the call: it throws {@link SimulatedCrash}, and so does every later call
     * through the same schedule.
     */
    CRASH_BEFORE,
    /** The call takes effect, then the simulated process dies, as with {@link #CRASH_BEFORE}. */
    CRASH_AFTER;

    /**
     * Tells whether this fault ends the simulated process.
     *
     * @return {@code true} for {@link #CRASH_BEFORE} and {@link #CRASH_AFTER}
     */
    public boolean isCrash() {
        return this == CRASH_BEFORE || this == CRASH_AFTER;
    }
}
