package io.github.volpex.examples.cluster;

/**
 * When the coordinator of a run across processes disrupts it on purpose, by the progress of its slowest process: the
 * ZooKeeper leader fails over once, halfway through (when the run started its own ensemble), and a process's writer
 * is paused past its election session {@code pauses} times, evenly spread over the steps. Pure bookkeeping; not
 * thread-safe.
 */
final class DisruptionSchedule {

    private final int steps;
    private final boolean failover;
    private final int pauses;
    private boolean failoverStarted;
    private boolean failoverRunning;

    /**
     * Plans the disruptions of a run.
     *
     * @param steps    the steps of every process
     * @param failover whether to fail the ZooKeeper leader over (only on an ensemble of the run's own)
     * @param pauses   how many times to pause a writer
     */
    DisruptionSchedule(int steps, boolean failover, int pauses) {
        this.steps = steps;
        this.failover = failover;
        this.pauses = pauses;
    }

    /**
     * Tells whether the failover is due now; if so, it counts as started and running.
     *
     * @param slowestStep the slowest process's step
     * @return true once, when the slowest process reaches half of the steps
     */
    boolean startFailover(int slowestStep) {
        if (!failover || failoverStarted || slowestStep < steps / 2) {
            return false;
        }
        failoverStarted = true;
        failoverRunning = true;
        return true;
    }

    /** The failover could not start (the ensemble was electing a leader): it is due again. */
    void failoverDeferred() {
        failoverStarted = false;
        failoverRunning = false;
    }

    /** The failover ended. */
    void failoverEnded() {
        failoverRunning = false;
    }

    /** Whether a failover is under way: the run waits for it before it ends. */
    boolean failoverRunning() {
        return failoverRunning;
    }

    /**
     * Tells whether the next pause is due.
     *
     * @param slowestStep the slowest process's step
     * @param pausesDone  the pauses made so far
     * @return true when fewer than the planned pauses were made and the slowest process has passed the next one's
     *         share of the steps
     */
    boolean pauseDue(int slowestStep, int pausesDone) {
        return pausesDone < pauses && slowestStep >= (pausesDone + 1) * steps / (pauses + 1);
    }
}
