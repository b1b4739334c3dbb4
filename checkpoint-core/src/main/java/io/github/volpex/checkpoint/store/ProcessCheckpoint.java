package io.github.volpex.checkpoint.store;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * The checkpoint of a replicated process: its application state together with the dataspace request number its
 * replicas reopen at ({@code Dataspace.open(process, requestNumber)}), so that the two are always saved and restored as
 * one. {@link CheckpointStore#commit(String, ProcessCheckpoint)} commits it, {@link
 * CheckpointStore#recoverProcess(String)} gives both back:
 *
 * <pre>{@code
 * store.commit("process-3", ProcessCheckpoint.of(replica.requestNumber(), state));
 * // ... every replica of process 3 is lost; on a new host:
 * Optional<ProcessCheckpoint> saved = store.recoverProcess("process-3");
 * Replica replica = dataspace.open(3, saved.map(ProcessCheckpoint::requestNumber).orElse(0L)); // replays the log
 * State state = saved.map(s -> State.decode(s.state())).orElseGet(State::initial);
 * }</pre>
 *
 * <p><b>Format</b> (version 1, big-endian), the bytes the store keeps: {@code int} magic {@code 0x56505043}
 * ("VPPC"), {@code byte} format (1), {@code long} request number ({@code ≥ 0}), then the state's bytes to the end.
 * The store checks the whole checkpoint against its SHA-256, so the format carries no checksum of its own. A reader
 * refuses any other magic or format, never guessing.
 *
 * <p>Immutable: the state is copied in and out.
 *
 * @since 0.1
 */
public final class ProcessCheckpoint {

    /** The first four bytes: "VPPC". */
    public static final int MAGIC = 0x56505043;
    /** The format this class writes and reads. */
    public static final byte FORMAT = 1;
    /** Bytes before the state: magic, format and request number. */
    public static final int HEADER_BYTES = 4 + 1 + 8;
    /** The longest state: what a Java array holds beside the header. */
    public static final int MAX_STATE_BYTES = CheckpointStore.MAX_ARRAY_BYTES - HEADER_BYTES;

    private final long requestNumber;
    private final byte[] state;

    private ProcessCheckpoint(long requestNumber, byte[] state) {
        this.requestNumber = requestNumber;
        this.state = state;
    }

    /**
     * Returns the checkpoint of a process at {@code requestNumber} with {@code state}.
     *
     * @param requestNumber the request number its replicas reopen at: the number of requests the process issued
     *                      when {@code state} was taken ({@code Replica.requestNumber()}), {@code ≥ 0}
     * @param state         the application state; copied
     * @return the checkpoint
     * @throws NullPointerException     if {@code state} is null
     * @throws IllegalArgumentException if {@code requestNumber} is negative or {@code state} is longer than
     *                                  {@link #MAX_STATE_BYTES}
     */
    public static ProcessCheckpoint of(long requestNumber, byte[] state) {
        Objects.requireNonNull(state, "state");
        if (requestNumber < 0) {
            throw new IllegalArgumentException("requestNumber must be >= 0: " + requestNumber);
        }
        if (state.length > MAX_STATE_BYTES) {
            throw new IllegalArgumentException("state must be at most " + MAX_STATE_BYTES + " bytes: " + state.length);
        }
        return new ProcessCheckpoint(requestNumber, state.clone());
    }

    /**
     * Parses the bytes {@link #toBytes()} wrote.
     *
     * @param bytes the checkpoint's bytes
     * @return the checkpoint
     * @throws NullPointerException     if {@code bytes} is null
     * @throws IllegalArgumentException if {@code bytes} is not a process checkpoint of format 1 (too short, another
     *                                  magic or format, a negative request number); the message says what it found
     */
    public static ProcessCheckpoint parse(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length < HEADER_BYTES) {
            throw new IllegalArgumentException("not a process checkpoint: " + bytes.length + " bytes, fewer than the "
                    + HEADER_BYTES + " of its header (magic VPPC, format, request number)");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        int magic = buffer.getInt();
        byte format = buffer.get();
        long requestNumber = buffer.getLong();
        if (magic != MAGIC) {
            throw new IllegalArgumentException("not a process checkpoint: it starts with 0x"
                    + String.format("%08x", magic) + ", not the magic 0x" + String.format("%08x", MAGIC) + " (VPPC)");
        }
        if (format != FORMAT) {
            throw new IllegalArgumentException("process checkpoint of format " + format + ": this version reads format "
                    + FORMAT + " only");
        }
        if (requestNumber < 0) {
            throw new IllegalArgumentException("process checkpoint with a negative request number: " + requestNumber);
        }
        return new ProcessCheckpoint(requestNumber, Arrays.copyOfRange(bytes, HEADER_BYTES, bytes.length));
    }

    /**
     * Returns the request number the process's replicas reopen at.
     *
     * @return the request number, {@code ≥ 0}
     */
    public long requestNumber() {
        return requestNumber;
    }

    /**
     * Returns the application state.
     *
     * @return a copy of the state's bytes
     */
    public byte[] state() {
        return state.clone();
    }

    /**
     * Returns the length of the application state.
     *
     * @return the state's length in bytes
     */
    public int stateLength() {
        return state.length;
    }

    /**
     * Returns the checkpoint in its format (see the class documentation).
     *
     * @return a new array of {@link #HEADER_BYTES} plus the state's length
     */
    public byte[] toBytes() {
        return toBytes(null);
    }

    /** As {@link #toBytes()}, written into {@code into} if it has exactly the length needed, else a new array. */
    byte[] toBytes(byte[] into) {
        int length = HEADER_BYTES + state.length;
        ByteBuffer out = into != null && into.length == length ? ByteBuffer.wrap(into) : ByteBuffer.allocate(length);
        return out.putInt(MAGIC).put(FORMAT).putLong(requestNumber).put(state).array();
    }

    /**
     * Compares request numbers and states.
     *
     * @param other the object to compare with
     * @return whether {@code other} is a process checkpoint with the same request number and state bytes
     */
    @Override
    public boolean equals(Object other) {
        return other instanceof ProcessCheckpoint that && requestNumber == that.requestNumber
                && Arrays.equals(state, that.state);
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(requestNumber) + Arrays.hashCode(state);
    }

    @Override
    public String toString() {
        return "ProcessCheckpoint[request " + requestNumber + ", " + state.length + " bytes of state]";
    }
}
