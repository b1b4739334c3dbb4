package io.github.volpex.testkit;

import java.time.Duration;

/**
 * Decides, call by call, which {@link Fault} a {@link FaultyRepository} injects. One schedule usually stands for one
 * simulated process: give all the repositories that process uses the same schedule, so that a crash stops all of
 * them; a restarted process gets a new schedule. See {@link RandomFaults} for random faults with a crash point.
 *
 * <p>Implementations must be thread-safe: the code under test may call its repositories from several threads.
 *
 * @since 0.1
 */
@FunctionalInterface
public interface FaultSchedule {

    /**
     * Decides what the next call does.
     *
     * @param repositoryId the identifier of the repository called
     * @param call         the kind of call
     * @param key          the key the call concerns (the prefix, for a listing)
     * @return the fault to inject, {@link Fault#NONE} for none
     */
    Fault next(String repositoryId, RepositoryCall call, String key);

    /**
     * Returns how long a {@link Fault#TIMEOUT} blocks before it fails; the default is 5 milliseconds.
     *
     * @return a non-negative duration
     */
    default Duration timeout() {
        return Duration.ofMillis(5);
    }

    /**
     * Returns the schedule that injects nothing.
     *
     * @return a schedule whose every call is {@link Fault#NONE}
     */
    static FaultSchedule none() {
        return (repositoryId, call, key) -> Fault.NONE;
    }
}
