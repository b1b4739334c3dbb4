package io.github.volpex.dataspace.spi;

import io.github.volpex.dataspace.DataspaceClosedException;
import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.Request;
import java.util.Objects;

/**
 * The checks every dataspace makes before it issues a request, and the rule of opening a replica at a saved request
 * number: one place, so that every implementation rejects the same input with the same message. Timeouts are checked
 * by {@link WaitLimit#of(java.time.Duration)}.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class RequestChecks {

    private final int processCount;
    private final DataspaceOptions options;

    private RequestChecks(int processCount, DataspaceOptions options) {
        this.processCount = processCount;
        this.options = options;
    }

    /**
     * Returns the checks of a dataspace of {@code processCount} processes with these limits.
     *
     * @param processCount the number of processes, {@code ≥ 1}
     * @param options      the limits
     * @return the checks
     * @throws IllegalArgumentException if {@code processCount < 1}
     * @throws NullPointerException     if {@code options} is null
     */
    public static RequestChecks of(int processCount, DataspaceOptions options) {
        if (processCount < 1) {
            throw new IllegalArgumentException("processCount must be >= 1: " + processCount);
        }
        return new RequestChecks(processCount, Objects.requireNonNull(options, "options"));
    }

    /**
     * Returns the number of processes.
     *
     * @return the process count, {@code ≥ 1}
     */
    public int processCount() {
        return processCount;
    }

    /**
     * Returns the limits.
     *
     * @return the options
     */
    public DataspaceOptions options() {
        return options;
    }

    /**
     * Checks a process id against a process count.
     *
     * @param processId    the process id
     * @param processCount the number of processes
     * @return the process id
     * @throws IllegalArgumentException if {@code processId} is outside {@code [0, processCount)}
     */
    public static int checkProcessId(int processId, int processCount) {
        if (processId < 0 || processId >= processCount) {
            throw new IllegalArgumentException("processId must be in [0, " + (processCount - 1) + "]: " + processId);
        }
        return processId;
    }

    /**
     * Checks a process id against this dataspace's process count.
     *
     * @param processId the process id
     * @return the process id
     * @throws IllegalArgumentException if {@code processId} is outside {@code [0, processCount())}
     */
    public int checkProcessId(int processId) {
        return checkProcessId(processId, processCount);
    }

    /**
     * Checks a tag: see {@link DataspaceOptions#checkTag(String)}.
     *
     * @param tag the tag
     * @return the tag
     * @throws NullPointerException     if {@code tag} is null
     * @throws IllegalArgumentException if the tag is empty or too long
     */
    public String checkTag(String tag) {
        return options.checkTag(tag);
    }

    /**
     * Checks a put's data: see {@link DataspaceOptions#checkData(byte[])}.
     *
     * @param data the data
     * @return the data (not copied)
     * @throws NullPointerException     if {@code data} is null
     * @throws IllegalArgumentException if the data is too large
     */
    public byte[] checkData(byte[] data) {
        return options.checkData(data);
    }

    /**
     * Checks a request of the request-level interface: its process id and its tag. A put's data is checked with
     * {@link #checkData(byte[])} on the array the implementation goes on with (its own copy, or the request's), which
     * this method does not copy.
     *
     * @param request the request
     * @return the request
     * @throws NullPointerException     if {@code request} is null
     * @throws IllegalArgumentException if the process id or the tag is out of range
     */
    public Request checkRequest(Request request) {
        Objects.requireNonNull(request, "request");
        checkProcessId(request.processId());
        checkTag(request.tag());
        return request;
    }

    /**
     * Returns the request number a replica opened at a saved number starts from, after checking the saved number
     * against the process's high-water mark. A saved number whose request is still pending comes from a checkpoint
     * taken inside that request (it was counted as issued): the replica opens one request earlier, so that it repeats
     * the call and receives its result instead of skipping it.
     *
     * @param processId          the process (checked)
     * @param savedRequestNumber the saved request number, in {@code [0, highWaterMark]}
     * @param highWaterMark      the highest request number the process has issued, {@code ≥ 0}
     * @param savedIsPending     whether request {@code savedRequestNumber} of the process is pending now
     * @return the replica's request number: {@code savedRequestNumber}, or one less when that request is pending
     * @throws IllegalArgumentException if the process id or the saved number is out of range
     */
    public long openAt(int processId, long savedRequestNumber, long highWaterMark, boolean savedIsPending) {
        checkProcessId(processId);
        if (savedRequestNumber < 0 || savedRequestNumber > highWaterMark) {
            throw new IllegalArgumentException("savedRequestNumber must be in [0, " + highWaterMark
                    + "] (the high-water mark of process " + processId + "): " + savedRequestNumber);
        }
        return savedIsPending && savedRequestNumber > 0 ? savedRequestNumber - 1 : savedRequestNumber;
    }

    /**
     * Returns the failure of opening a replica on a closed dataspace, naming the request the replica would issue
     * first.
     *
     * @param processId          the process
     * @param savedRequestNumber the saved request number the replica would open at
     * @return the exception to throw
     */
    public static DataspaceClosedException closedOnOpen(int processId, long savedRequestNumber) {
        return new DataspaceClosedException(processId, Math.max(1, savedRequestNumber + 1), true);
    }
}
