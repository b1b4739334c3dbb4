package io.github.volpex.dataspace;

/**
 * A Volpex dataspace for a fixed number of logical processes: tagged data that replicated and restarted processes
 * exchange with {@code put}, {@code read} and {@code get} and observe exactly as a single run would.
 *
 * <p>Start with {@link #inProcess(int, DataspaceOptions)}, give each running process instance a {@link Replica} from
 * {@link #open(int)} (or {@link #open(int, long)} when it restarts from a checkpoint), or hand {@link #server()} to
 * middleware that numbers requests itself.
 *
 * <p>Thread-safe.
 *
 * @since 0.1
 */
public interface Dataspace extends AutoCloseable {

    /**
     * Creates an in-process dataspace with the {@linkplain DataspaceOptions#defaults() default options}.
     *
     * @param processCount the number of logical processes, {@code ≥ 1}
     * @return a new, open dataspace
     * @throws IllegalArgumentException if {@code processCount < 1}
     */
    static Dataspace inProcess(int processCount) {
        return inProcess(processCount, DataspaceOptions.defaults());
    }

    /**
     * Creates an in-process dataspace: requests are linearizable (one global serial order) while requests of different
     * processes on different tags run in parallel — each tag's state is one entry of a concurrent map and each
     * process's state has a lock of its own (the package description explains the locking) — blocked callers hold no
     * lock while they wait, and each process keeps a ring-buffer read log.
     *
     * @param processCount the number of logical processes, {@code ≥ 1}
     * @param options      the limits
     * @return a new, open dataspace
     * @throws IllegalArgumentException if {@code processCount < 1}
     * @throws NullPointerException     if {@code options} is null
     */
    static Dataspace inProcess(int processCount, DataspaceOptions options) {
        return new InProcessDataspace(processCount, options);
    }

    /**
     * Returns the number of logical processes; process ids are {@code 0 … processCount() − 1}.
     *
     * @return the number of processes
     */
    int processCount();

    /**
     * Returns the limits this dataspace enforces.
     *
     * @return the options
     */
    DataspaceOptions options();

    /**
     * Opens a replica of a process at its start (request number 0): the same as {@code open(processId, 0)}. A replica
     * that joins late replays the process's earlier requests from the read log.
     *
     * @param processId the process, in {@code [0, processCount())}
     * @return a new handle
     * @throws IllegalArgumentException  if {@code processId} is out of range
     * @throws DataspaceClosedException  if the dataspace is closed
     */
    Replica open(int processId);

    /**
     * Opens a replica of a process restarted from a checkpoint: its next request is {@code savedRequestNumber + 1}.
     *
     * <p>One case resumes one request earlier. A checkpoint saved with {@link Replica#requestNumber()} always names a
     * completed request; if request {@code savedRequestNumber} is instead still pending (the process's high-water
     * mark, waiting for data), no replica has completed it, so the checkpoint was saved after issuing it and before
     * its result — by middleware that counts issued requests, or by a system-level checkpoint of a process blocked in
     * the call. Such a process resumes inside the call and must receive its result: the handle starts at
     * {@code savedRequestNumber − 1} ({@link Replica#requestNumber()} says so), and its first call, which repeats that
     * read or get, joins the pending request and receives exactly what a single run would. Any other first call is a
     * {@link ReplicaDivergenceException}. Which case applies is decided when the handle is opened.
     *
     * @param processId          the process, in {@code [0, processCount())}
     * @param savedRequestNumber the {@link Replica#requestNumber()} saved with the checkpoint, in
     *                           {@code [0, server().highWaterMark(processId)]}
     * @return a new handle, at {@code savedRequestNumber}, or one before it when that request is still pending
     * @throws IllegalArgumentException  if an argument is out of range
     * @throws DataspaceClosedException  if the dataspace is closed
     */
    Replica open(int processId, long savedRequestNumber);

    /**
     * Returns the request-level interface to this dataspace, where callers number requests themselves.
     *
     * @return the server view of this dataspace
     */
    DataspaceServer server();

    /**
     * Returns a snapshot of the counters.
     *
     * @return the statistics so far
     */
    DataspaceStatistics statistics();

    /**
     * Tells whether this dataspace was closed.
     *
     * @return whether {@link #close()} was called
     */
    boolean isClosed();

    /**
     * Closes the dataspace: every blocked caller throws {@link DataspaceClosedException}, and so does every later
     * request. Idempotent.
     */
    @Override
    void close();
}
