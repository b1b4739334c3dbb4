package io.github.volpex.dataspace;

import java.time.Duration;
import java.util.Optional;

/**
 * The dataspace at the level of requests: the caller supplies each request's (process id, request number) itself. This
 * is the interface for middleware that carries requests over its own transport — a network front decodes a
 * {@link Request}, calls {@link #handle(Request, Duration)} and encodes the {@link Reply}.
 *
 * <p>Every request is idempotent: handling the same (process id, request number) again, from a retry or another
 * replica, returns a reply with the same outcome (the same data and stored flag) and changes nothing. Requests of one
 * process must be issued in sequence: request {@code r + 1} only after request {@code r} has completed. A process's
 * first request is number 1.
 *
 * <p>A read or get that waits is pending: a caller that stops waiting (a timeout, an interrupt) leaves it pending,
 * with its place in the tag's queue, and handling it again receives its result. Only {@link #cancel(int, long)} ends
 * it without data, for every replica of its process.
 *
 * <p>Thread-safe. The requests of a dataspace are linearizable: they take effect in one global serial order.
 *
 * @since 0.1
 */
public interface DataspaceServer {

    /**
     * Returns the number of logical processes; process ids are {@code 0 … processCount() − 1}.
     *
     * @return the number of processes
     */
    int processCount();

    /**
     * Handles a request, waiting as long as a read or get needs.
     *
     * @param request the request
     * @return its reply
     * @throws InterruptedException        if the calling thread is interrupted while waiting; the request stays pending
     * @throws ReadLogEvictedException     if the request was already executed and its outcome has left the read log
     * @throws ReplicaDivergenceException  if the process issued another kind or tag at this request number
     * @throws DataspaceCancelledException if the request is a read or get that was {@linkplain #cancel(int, long)
     *                                     cancelled}: its outcome, the request is complete
     * @throws DataspaceClosedException    if the dataspace is or becomes closed
     * @throws IllegalArgumentException    if the process id is out of range, the tag or data exceed the limits, or the
     *                                     request number skips ahead of the process's next request
     * @throws IllegalStateException       if the process's previous request is still pending
     * @throws NullPointerException        if {@code request} is null
     */
    Reply handle(Request request) throws InterruptedException;

    /**
     * Handles a request, waiting at most {@code timeout} for a read or get.
     *
     * @param request the request
     * @param timeout the longest wait, {@code ≥ 0}; zero does not wait at all
     * @return its reply
     * @throws DataspaceTimeoutException   if a read or get found no data in time; the request stays pending
     * @throws InterruptedException        if the calling thread is interrupted while waiting; the request stays pending
     * @throws ReadLogEvictedException     if the request was already executed and its outcome has left the read log
     * @throws ReplicaDivergenceException  if the process issued another kind or tag at this request number
     * @throws DataspaceCancelledException if the request is a read or get that was {@linkplain #cancel(int, long)
     *                                     cancelled}: its outcome, the request is complete
     * @throws DataspaceClosedException    if the dataspace is or becomes closed
     * @throws IllegalArgumentException    if {@code timeout} is negative, the process id is out of range, the tag or
     *                                     data exceed the limits, or the request number skips ahead
     * @throws IllegalStateException       if the process's previous request is still pending
     * @throws NullPointerException        if an argument is null
     */
    Reply handle(Request request, Duration timeout) throws InterruptedException;

    /**
     * Cancels a read or get that is still waiting, so that it consumes nothing — for example the pending get of a
     * process whose replicas are all gone for good, which would otherwise take the next tuple put on its tag, or a
     * request a replica gave up on after a timeout.
     *
     * <p>The cancellation is one step of the global serial order, atomic with respect to puts: if the request is
     * still waiting it completes <em>cancelled</em> — it leaves its tag's queue (the next put goes to the next waiter
     * or to the table), its outcome "cancelled" is logged under (process, request number) like any outcome, every
     * caller waiting on it (other replicas included) fails with {@link DataspaceCancelledException}, and so does every
     * later handling of the request; the process's next request is {@code requestNumber + 1}, as after any completed
     * request. If the request has already completed, nothing changes and its outcome is returned. Idempotent: every
     * call for the same request returns the same answer.
     *
     * <p>Never waits.
     *
     * @param processId     the process, in {@code [0, processCount())}
     * @param requestNumber the request, in {@code [1, highWaterMark(processId)]}
     * @return empty if the request is (now, or was already) cancelled; otherwise the reply of the completed request, as
     *         a repetition ({@link Reply#duplicate()} is {@code true})
     * @throws ReadLogEvictedException   if the request completed and its outcome has left the read log
     * @throws DataspaceClosedException  if the dataspace is closed
     * @throws IllegalArgumentException  if the process id is out of range, or the request number is below 1 or above
     *                                   the process's high-water mark (not issued yet)
     */
    Optional<Reply> cancel(int processId, long requestNumber);

    /**
     * Returns the process's request that is waiting for data, if any: a read or get at its high-water mark that no put
     * has served yet. Middleware uses it to see what a process waits for, or to {@linkplain #cancel(int, long)
     * cancel} it; the answer may be stale as soon as it is returned.
     *
     * @param processId the process, in {@code [0, processCount())}
     * @return the pending request (its kind, process, number and tag), or empty if the process waits for nothing
     * @throws IllegalArgumentException if {@code processId} is out of range
     */
    Optional<Request> pendingRequest(int processId);

    /**
     * Returns the highest request number the process has issued: its leading replica's position.
     *
     * @param processId the process, in {@code [0, processCount())}
     * @return the high-water mark, {@code 0} before the first request
     * @throws IllegalArgumentException if {@code processId} is out of range
     */
    long highWaterMark(int processId);

    /**
     * Returns the oldest request number whose outcome the process's read log still holds; a replica positioned before
     * it can no longer be served.
     *
     * @param processId the process, in {@code [0, processCount())}
     * @return the oldest retained request number; {@code highWaterMark(processId) + 1} when the log is empty
     * @throws IllegalArgumentException if {@code processId} is out of range
     */
    long oldestRetained(int processId);
}
