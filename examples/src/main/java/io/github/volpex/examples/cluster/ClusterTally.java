package io.github.volpex.examples.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * What a run across processes counted as it went: restarts and where they started from, checkpoints and their
 * intervals, storage departures and repairs, failovers, elections, pauses and refused commits. Updated by the
 * coordinator's event loop only; not thread-safe.
 */
final class ClusterTally {

    private int restarts;
    private int restartsFromScratch;
    private int lostCheckpoints;
    private int checkpoints;
    private final List<Double> intervals = new ArrayList<>();
    private double lastIntervalSeconds = Double.POSITIVE_INFINITY;
    private int departures;
    private long objectsLost;
    private int fragmentsRepaired;
    private int failovers;
    private String failoverNote = "";
    private int unscheduled;
    private int elections;
    private int pauses;
    private int staleRefusals;
    private int commitFailures;

    /** A process lost every replica and restarts on new hosts. */
    void restarted() {
        restarts++;
    }

    /**
     * The first replica of a restart reported where its state came from: one count per restart.
     *
     * @param origin where the restarted process's state came from
     */
    void restartedFrom(ReplicaReport.Origin origin) {
        if (origin != ReplicaReport.Origin.CHECKPOINT) {
            restartsFromScratch++;
        }
        if (origin == ReplicaReport.Origin.LOST) {
            lostCheckpoints++;
        }
    }

    /**
     * A process checkpoint was committed.
     *
     * @param previousSeconds the virtual time of the process's previous checkpoint, or a negative number if none
     * @param atSeconds       the virtual time of this one
     * @param intervalSeconds the interval the writer's scheduler used
     */
    void checkpointed(double previousSeconds, double atSeconds, double intervalSeconds) {
        checkpoints++;
        if (previousSeconds >= 0 && atSeconds > previousSeconds) {
            intervals.add(atSeconds - previousSeconds);
        }
        lastIntervalSeconds = intervalSeconds;
    }

    /** A storage host departed. */
    void departed() {
        departures++;
    }

    /**
     * A departed storage host's objects are lost.
     *
     * @param objects how many it held
     */
    void lost(long objects) {
        objectsLost += objects;
    }

    /**
     * A writer repaired its checkpoint.
     *
     * @param fragments the fragments it regenerated
     */
    void repaired(int fragments) {
        fragmentsRepaired += fragments;
    }

    /**
     * The ZooKeeper leader failed over.
     *
     * @param note which servers stopped, were elected and restarted
     */
    void failedOver(String note) {
        failovers++;
        failoverNote = note;
    }

    /** A replica JVM died without the coordinator killing it: a host failure. */
    void diedUnscheduled() {
        unscheduled++;
    }

    /** A replica began a term as its process's writer. */
    void elected() {
        elections++;
    }

    /** A writer was paused past its election session. */
    void paused() {
        pauses++;
    }

    /** A commit was refused because its writer's epoch was stale. */
    void refusedAsStale() {
        staleRefusals++;
    }

    /** A commit failed otherwise. */
    void commitFailed() {
        commitFailures++;
    }

    int restarts() {
        return restarts;
    }

    int restartsFromScratch() {
        return restartsFromScratch;
    }

    int lostCheckpoints() {
        return lostCheckpoints;
    }

    int checkpoints() {
        return checkpoints;
    }

    /** The intervals between consecutive checkpoints of each process, virtual seconds, in the order committed. */
    List<Double> intervalsSeconds() {
        return List.copyOf(intervals);
    }

    /** The interval the last checkpoint's scheduler used; infinite before the first checkpoint. */
    double lastIntervalSeconds() {
        return lastIntervalSeconds;
    }

    int departures() {
        return departures;
    }

    long objectsLost() {
        return objectsLost;
    }

    int fragmentsRepaired() {
        return fragmentsRepaired;
    }

    int failovers() {
        return failovers;
    }

    /** What the last failover did, or empty. */
    String failoverNote() {
        return failoverNote;
    }

    int unscheduled() {
        return unscheduled;
    }

    int elections() {
        return elections;
    }

    int pauses() {
        return pauses;
    }

    int staleRefusals() {
        return staleRefusals;
    }

    int commitFailures() {
        return commitFailures;
    }
}
