package io.github.volpex.examples.cluster;

import io.github.volpex.examples.tour.CommitCosts;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

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
    private final Map<ReplicaReport.Outcome, Integer> outcomes = new EnumMap<>(ReplicaReport.Outcome.class);
    private double blockingSeconds;
    private double latencySeconds;
    private long bytesWritten;
    private long fullBytes;

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

    /**
     * A writer's asynchronous commit was decided.
     *
     * @param persist what became of it and what it cost
     */
    void persisted(ReplicaReport.Persist persist) {
        outcomes.merge(persist.outcome(), 1, Integer::sum);
        blockingSeconds += persist.blockingSeconds();
        latencySeconds += persist.latencySeconds();
        bytesWritten += persist.bytesWritten();
        fullBytes += persist.fullBytes();
    }

    /**
     * What the checkpoints cost the writers, measured, beside what full synchronous commits of the durable ones would
     * have cost, derived: a synchronous commit holds its caller for as long as the persist took (same protocol, the
     * time of moving fewer bytes aside), and writes {@code n} fragments of {@code state / m} bytes and {@code n} index
     * copies.
     */
    CommitCosts commitCosts() {
        return new CommitCosts(ReplicaCommand.COMMITS, checkpoints,
                outcomes.getOrDefault(ReplicaReport.Outcome.DURABLE, 0),
                outcomes.getOrDefault(ReplicaReport.Outcome.SUPERSEDED, 0),
                outcomes.getOrDefault(ReplicaReport.Outcome.FAILED, 0),
                outcomes.getOrDefault(ReplicaReport.Outcome.ABANDONED, 0), blockingSeconds, bytesWritten,
                latencySeconds, "derived from the durable persists' latencies", fullBytes,
                "derived for the durable ones as state × n/m + n index copies");
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

    /** The checkpoints taken: commits accepted, whatever became of them. */
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
