package io.github.volpex.dataspace;

import java.time.Duration;
import java.util.Optional;

/**
 * One running instance of a logical process: the paper's {@code volpex_init} opens it, {@link #close()} is
 * {@code volpex_finalize}. Replicas of the same process each open their own handle with the same process id and issue
 * the same sequence of calls; the dataspace numbers the calls and makes every replica observe exactly what a single run
 * would, whatever the replicas' speeds, deaths and restarts.
 *
 * <p>Tags are non-empty strings no longer than {@link DataspaceOptions#maxTagLength()}; data is {@code byte[]}, copied
 * on the way in and out, no larger than {@link DataspaceOptions#maxDataBytes()}.
 *
 * <p>A handle is a sequential process: use it from one thread at a time (a call made while another thread's call on
 * the same handle is running fails with {@link IllegalStateException}); {@link #close()} may be called from any thread.
 * When a call fails with {@link DataspaceTimeoutException} or {@link InterruptedException}, the request stays pending
 * and the handle's request number does not advance: the next call must either be the same operation on the same tag
 * (anything else is a {@link ReplicaDivergenceException}), which receives the pending result, or
 * {@link #cancelPending()}, which ends the request for the whole process so that it can go on with something else.
 *
 * <p>Every call may also throw {@link ReadLogEvictedException} (this replica trails too far behind),
 * {@link ReplicaDivergenceException} (it issued something else than its process did at this position) and
 * {@link DataspaceClosedException} (the handle or the dataspace was closed); none of them advances the request number.
 * A {@code read} or {@code get} may throw {@link DataspaceCancelledException}: the request was cancelled (by a replica
 * of the process or by middleware) and that is its outcome, the same for every replica; the request number advances
 * past it.
 *
 * @since 0.1
 */
public interface Replica extends AutoCloseable {

    /**
     * Returns the logical process this replica runs (the paper's {@code volpex_getProcId}).
     *
     * @return the process id, in {@code [0, processCount())}
     */
    int processId();

    /**
     * Returns the number of logical processes (the paper's {@code volpex_getNumProc}).
     *
     * @return the number of processes
     */
    int processCount();

    /**
     * Returns how many requests this replica has completed: the number of its last completed request. Save it with the
     * process's checkpoint and pass it to {@link Dataspace#open(int, long)} to restart from that checkpoint. While a
     * call is in progress (or left its request pending) the number is that of the request before it: a checkpoint
     * taken then restarts into the call, which receives its result.
     *
     * @return the request number, {@code ≥ 0}
     */
    long requestNumber();

    /**
     * Stores {@code data} under {@code tag}, overwriting what is there; only the first replica's put takes effect.
     * Never blocks on the dataspace's contents.
     *
     * @param tag  the tag
     * @param data the data (copied)
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if the tag is empty or too long, or the data too large
     */
    void put(String tag, byte[] data);

    /**
     * Stores {@code data} under {@code tag} only if the tag is absent (a single-assignment put). Every replica receives
     * the same answer.
     *
     * @param tag  the tag
     * @param data the data (copied)
     * @return whether the data was stored
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if the tag is empty or too long, or the data too large
     */
    boolean putIfAbsent(String tag, byte[] data);

    /**
     * Returns the data under {@code tag}, waiting until it exists; leaves it in place.
     *
     * @param tag the tag
     * @return a copy of the data
     * @throws InterruptedException     if interrupted while waiting; the request stays pending
     * @throws NullPointerException     if {@code tag} is null
     * @throws IllegalArgumentException if the tag is empty or too long
     */
    byte[] read(String tag) throws InterruptedException;

    /**
     * Returns the data under {@code tag}, waiting at most {@code timeout} until it exists; leaves it in place.
     *
     * @param tag     the tag
     * @param timeout the longest wait, {@code ≥ 0}
     * @return a copy of the data
     * @throws DataspaceTimeoutException if no data came in time; the request stays pending
     * @throws InterruptedException      if interrupted while waiting; the request stays pending
     * @throws NullPointerException      if an argument is null
     * @throws IllegalArgumentException  if the tag is empty or too long, or {@code timeout} is negative
     */
    byte[] read(String tag, Duration timeout) throws InterruptedException;

    /**
     * Returns and removes the data under {@code tag}, waiting until it exists.
     *
     * @param tag the tag
     * @return a copy of the data
     * @throws InterruptedException     if interrupted while waiting; the request stays pending
     * @throws NullPointerException     if {@code tag} is null
     * @throws IllegalArgumentException if the tag is empty or too long
     */
    byte[] get(String tag) throws InterruptedException;

    /**
     * Returns and removes the data under {@code tag}, waiting at most {@code timeout} until it exists.
     *
     * @param tag     the tag
     * @param timeout the longest wait, {@code ≥ 0}
     * @return a copy of the data
     * @throws DataspaceTimeoutException if no data came in time; the request stays pending
     * @throws InterruptedException      if interrupted while waiting; the request stays pending
     * @throws NullPointerException      if an argument is null
     * @throws IllegalArgumentException  if the tag is empty or too long, or {@code timeout} is negative
     */
    byte[] get(String tag, Duration timeout) throws InterruptedException;

    /**
     * Returns the data under {@code tag} if it exists now, without waiting; leaves it in place. A trailing replica
     * sees "absent" exactly when the leading replica did.
     *
     * @param tag the tag
     * @return a copy of the data, or empty if the tag was absent
     * @throws NullPointerException     if {@code tag} is null
     * @throws IllegalArgumentException if the tag is empty or too long
     */
    Optional<byte[]> tryRead(String tag);

    /**
     * Returns and removes the data under {@code tag} if it exists now, without waiting. A trailing replica sees
     * "absent" exactly when the leading replica did.
     *
     * @param tag the tag
     * @return a copy of the data, or empty if the tag was absent
     * @throws NullPointerException     if {@code tag} is null
     * @throws IllegalArgumentException if the tag is empty or too long
     */
    Optional<byte[]> tryGet(String tag);

    /**
     * Cancels the read or get this handle left pending — its last call failed with {@link DataspaceTimeoutException}
     * or {@link InterruptedException} — so that the process can go on without its result: this is
     * {@link DataspaceServer#cancel(int, long)} on that request. If the request was still waiting, it ends cancelled
     * for the whole process: it consumed nothing, the next put on its tag goes to the next waiter or to the table, and
     * every other replica of the process that issues it gets {@link DataspaceCancelledException}. If it had already
     * received its data (the cancel came too late), nothing changes and the data is returned here, so it is never
     * lost. Either way the request is complete and the handle's request number advances past it; cancelling is
     * idempotent, and every replica learns the same outcome.
     *
     * <p>Replicas must stay identical programs, so handle both outcomes the same way in every replica:
     * <pre>{@code
     * Optional<byte[]> token;
     * try {
     *     token = Optional.of(replica.get("token", Duration.ofSeconds(30)));
     * } catch (DataspaceTimeoutException late) {
     *     token = replica.cancelPending();           // empty: cancelled for every replica of the process
     * } catch (DataspaceCancelledException cancelled) {
     *     token = Optional.empty();                   // another replica, or the middleware, cancelled it
     * }
     * }</pre>
     *
     * @return empty if the request ended cancelled (now, or earlier by another replica or the middleware); otherwise a
     *         copy of the data it received
     * @throws IllegalStateException      if no call of this handle left a request pending since its last completed
     *                                    request, or another thread is running a call on it
     * @throws ReadLogEvictedException    if the request completed long ago and its outcome has left the read log
     * @throws DataspaceClosedException   if the handle or the dataspace is closed
     */
    Optional<byte[]> cancelPending();

    /**
     * Tells whether this handle was closed.
     *
     * @return whether {@link #close()} was called
     */
    boolean isClosed();

    /**
     * Closes this handle (the replica leaves): calls blocked in it throw {@link DataspaceClosedException}, and so do
     * later calls. A request it left pending stays pending for the process's other replicas. Idempotent; never blocks
     * for long.
     */
    @Override
    void close();
}
