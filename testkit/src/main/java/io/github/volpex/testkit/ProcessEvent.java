package io.github.volpex.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One event of a replicated run at the level of processes: a process's next request issued for the first time (by
 * whichever of its replicas got there first), or the middleware cancelling the request the process waits for
 * ({@link io.github.volpex.dataspace.DataspaceServer#cancel(int, long)}). The run's events in its global serial order
 * — its <em>fresh order</em> — define the single-replica run that every replica is compared with
 * ({@link ReplicatedPrograms#singleReplicaRun(List, List)}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param processId the process, {@code ≥ 0}
 * @param kind      what happened
 * @since 0.1
 */
public record ProcessEvent(int processId, Kind kind) {

    /**
     * What happened to a process.
     *
     * @since 0.1
     */
    public enum Kind {
        /** The process's next request was issued for the first time. */
        ISSUE,
        /** The middleware cancelled the read or get the process waited for. */
        CANCEL
    }

    /**
     * Validates the event.
     *
     * @param processId the process, {@code ≥ 0}
     * @param kind      what happened
     * @throws IllegalArgumentException if {@code processId < 0}
     * @throws NullPointerException     if {@code kind} is null
     */
    public ProcessEvent {
        if (processId < 0) {
            throw new IllegalArgumentException("processId must be >= 0: " + processId);
        }
        Objects.requireNonNull(kind, "kind");
    }

    /**
     * Returns the event of a process's next request issued for the first time.
     *
     * @param processId the process, {@code ≥ 0}
     * @return the event
     * @throws IllegalArgumentException if {@code processId < 0}
     */
    public static ProcessEvent issue(int processId) {
        return new ProcessEvent(processId, Kind.ISSUE);
    }

    /**
     * Returns the event of the middleware cancelling the request a process waits for.
     *
     * @param processId the process, {@code ≥ 0}
     * @return the event
     * @throws IllegalArgumentException if {@code processId < 0}
     */
    public static ProcessEvent cancel(int processId) {
        return new ProcessEvent(processId, Kind.CANCEL);
    }

    /**
     * Returns the fresh order of a run without cancels: one {@link Kind#ISSUE} event per process id, in order — for
     * a test that recovers the order in which its implementation first issued requests.
     *
     * @param processIds process ids in the order their requests were first issued
     * @return a new list of events
     * @throws NullPointerException     if the list or an element is null
     * @throws IllegalArgumentException if a process id is negative
     */
    public static List<ProcessEvent> issues(List<Integer> processIds) {
        List<ProcessEvent> events = new ArrayList<>(processIds.size());
        for (Integer processId : processIds) {
            events.add(issue(processId));
        }
        return events;
    }

    /**
     * Tells whether this is a cancel.
     *
     * @return whether the kind is {@link Kind#CANCEL}
     */
    public boolean isCancel() {
        return kind == Kind.CANCEL;
    }
}
