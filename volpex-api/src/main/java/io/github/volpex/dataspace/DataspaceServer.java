package io.github.volpex.dataspace;

import java.time.Duration;

/**
 * The dataspace at the level of requests: the caller supplies each request's (process id, request number) itself. This
 * is the interface for middleware that carries requests over its own transport — a network front decodes a
 * {@link Request}, calls {@link #handle(Request, Duration)} and encodes the {@link Reply}.
 *
 * <p>Every request is idempotent: handling the same (process id, request number) again, from a retry or another
 * replica, returns a reply with the same outcome (the same data and stored flag) and changes nothing. Requests of one process must be issued in sequence: request
 * {@code r + 1} only after request {@code r} has completed. A process's first request is number 1.
 *
 * <p>Thread-safe. All requests of a dataspace are executed in one global serial order.
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
     * @throws DataspaceClosedException    if the dataspace is or becomes closed
     * @throws IllegalArgumentException    if {@code timeout} is negative, the process id is out of range, the tag or
     *                                     data exceed the limits, or the request number skips ahead
     * @throws IllegalStateException       if the process's previous request is still pending
     * @throws NullPointerException        if an argument is null
     */
    Reply handle(Request request, Duration timeout) throws InterruptedException;

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
