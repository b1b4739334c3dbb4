package io.github.volpex.testkit;

/**
 * The simulated process died: thrown by a {@link FaultyRepository} at a {@link Fault#CRASH_BEFORE} or
 * {@link Fault#CRASH_AFTER} and at every later call through the same {@link FaultSchedule}. It is an {@link Error}
 * so that the code under test does not handle it as a repository failure: it unwinds to the test, which then starts
 * a new process (a new store over the same repositories, with a new schedule) as a real restart would.
 *
 * @since 0.1
 */
public final class SimulatedCrash extends Error {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the error.
     *
     * @param message what the process was doing when it died
     */
    public SimulatedCrash(String message) {
        super(message, null, false, false);
    }
}
