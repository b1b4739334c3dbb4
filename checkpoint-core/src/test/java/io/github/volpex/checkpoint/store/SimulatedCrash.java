package io.github.volpex.checkpoint.store;

/** The process dies: thrown by a {@link FaultPlan} at its crash point and at every call after it. */
final class SimulatedCrash extends Error {

    private static final long serialVersionUID = 1L;

    SimulatedCrash(String message) {
        super(message, null, false, false);
    }
}
