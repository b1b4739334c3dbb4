package io.github.volpex.dataspace;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

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
 * <h2>The wire form a front carries</h2>
 * A front and its clients may encode messages as they like (no Java serialization is needed: every field below is a
 * number, a string, a flag or bytes); what they must carry, so that the client side behaves exactly like this
 * interface, is the following. Operations travel by their {@link Operation} constant names, strings as UTF-8.
 * <ul>
 *   <li><b>Request:</b> operation, process id, request number, tag, and the data of a put — rebuilt with
 *       {@link Request#of}; for a blocking call also the longest wait the caller allows (or none).</li>
 *   <li><b>Reply:</b> operation, process id, request number, the data if any, {@link Reply#stored()} and
 *       {@link Reply#duplicate()} — rebuilt with {@link Reply#of}.</li>
 *   <li><b>Failure:</b> its kind and its facts, rebuilt with the public constructor of the same type:
 *     <ul>
 *       <li>{@link ReadLogEvictedException}: process id, request number, oldest retained, high-water mark;</li>
 *       <li>{@link ReplicaDivergenceException}: process id, request number, logged operation and tag, requested
 *           operation and tag;</li>
 *       <li>{@link DataspaceTimeoutException}: process id, request number, operation, tag, timeout;</li>
 *       <li>{@link DataspaceCancelledException}: process id, request number, operation, tag;</li>
 *       <li>{@link DataspaceClosedException}: process id, request number, whether the dataspace (rather than a replica
 *           handle) was closed;</li>
 *       <li>a caller mistake ({@link IllegalArgumentException}, {@link IllegalStateException},
 *           {@link NullPointerException}): its type and message, thrown again as the same type.</li>
 *     </ul></li>
 *   <li><b>{@link #cancel(int, long)}:</b> process id and request number; the answer is "cancelled" or a reply.</li>
 *   <li><b>{@link #pendingRequest(int)}, {@link #highWaterMark(int)}, {@link #oldestRetained(int)}:</b> the process
 *       id; the answer is a request (or none) or a number.</li>
 * </ul>
 * Three rules keep a front correct. A lost connection is repaired by sending the same request again: every request is
 * idempotent per (process id, request number). A front that stops waiting for a read or get (its own timeout, a
 * client gone) answers {@link DataspaceTimeoutException} or nothing and leaves the request pending — it never cancels
 * it, since other replicas may wait for its result; only an explicit cancel message calls
 * {@link #cancel(int, long)}. And a front serves waiting callers with {@link #submit(Request)}, so that it needs no
 * thread per waiting caller.
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
     * Submits a request without waiting: the asynchronous form of {@link #handle(Request)}, for a front that serves
     * many waiting callers with a few threads. The returned future completes with the same reply {@code handle} would
     * return — at once when the request needs no wait (puts, try-ops, repetitions answered from the log, reads and
     * gets that find their data), otherwise when a put serves it — and no thread waits for it meanwhile.
     *
     * <p>The future completes exceptionally with the typed failures {@code handle} throws:
     * {@link ReadLogEvictedException}, {@link ReplicaDivergenceException}, {@link DataspaceCancelledException} (the
     * request was {@linkplain #cancel(int, long) cancelled}, at once or while it waited) and
     * {@link DataspaceClosedException} (the dataspace is closed, or closes while the request waits). Caller mistakes
     * are thrown by {@code submit} itself, as {@code handle} throws them.
     *
     * <p><b>Cancelling the future</b> ({@link CompletableFuture#cancel(boolean)}, or completing it by a timeout such as
     * {@link CompletableFuture#orTimeout}) means that this caller stops waiting, exactly like a timeout of
     * {@code handle}: the request stays pending with its place in its tag's queue, and submitting or handling it again,
     * from this caller or another replica, receives its result. It does not cancel the request — other replicas of the
     * process may be waiting for the same result — and the dataspace forgets this future. To end the request itself,
     * for every replica, call {@link #cancel(int, long)}; its waiting futures then fail with
     * {@link DataspaceCancelledException}.
     *
     * <p>The future is completed on the thread whose request decides the outcome (a put's, a cancel's, a close's) or on
     * the caller's thread when no wait is needed; dependent actions attached without an executor run there, so attach
     * anything slow with the {@code …Async} methods and an executor of yours.
     *
     * @param request the request
     * @return the future of its reply
     * @throws IllegalArgumentException if the process id is out of range, the tag or data exceed the limits, or the
     *                                  request number skips ahead of the process's next request
     * @throws IllegalStateException    if the process's previous request is still pending
     * @throws NullPointerException     if {@code request} is null
     */
    CompletableFuture<Reply> submit(Request request);

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
