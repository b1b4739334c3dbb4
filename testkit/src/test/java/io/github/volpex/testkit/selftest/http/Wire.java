package io.github.volpex.testkit.selftest.http;

import io.github.volpex.dataspace.DataspaceCancelledException;
import io.github.volpex.dataspace.DataspaceClosedException;
import io.github.volpex.dataspace.DataspaceTimeoutException;
import io.github.volpex.dataspace.Operation;
import io.github.volpex.dataspace.ReadLogEvictedException;
import io.github.volpex.dataspace.ReplicaDivergenceException;
import io.github.volpex.dataspace.Reply;
import io.github.volpex.dataspace.Request;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The front's binary encoding of the wire form {@code DataspaceServer} documents: requests, replies and failures
 * with their facts, field by field with {@link DataOutputStream}; strings as length-prefixed UTF-8, operations by
 * name, optional values behind a presence flag.
 */
final class Wire {

    /** An answer holding a reply. */
    static final byte REPLY = 0;
    /** An answer holding a failure. */
    static final byte FAILURE = 1;
    /** An answer saying the request waits: a ticket follows, its outcome comes later through the completions. */
    static final byte WAITING = 2;
    /** An answer saying the request was cancelled (to a cancel message). */
    static final byte CANCELLED = 3;
    /** An answer holding nothing (no pending request). */
    static final byte NONE = 4;

    private static final byte EVICTED = 0;
    private static final byte DIVERGED = 1;
    private static final byte TIMED_OUT = 2;
    private static final byte CANCELLED_REQUEST = 3;
    private static final byte CLOSED = 4;
    private static final byte ILLEGAL_ARGUMENT = 5;
    private static final byte ILLEGAL_STATE = 6;
    private static final byte NULL_POINTER = 7;

    private Wire() {
    }

    /** Writes a message into bytes. */
    interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    /** Reads one value of a message. */
    interface Reader<T> {
        T read(DataInputStream in) throws IOException;
    }

    static byte[] bytes(Writer writer) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            writer.write(out);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return buffer.toByteArray();
    }

    static void writeString(DataOutputStream out, String value) throws IOException {
        writeBytes(out, value.getBytes(StandardCharsets.UTF_8));
    }

    static String readString(DataInputStream in) throws IOException {
        return new String(readBytes(in), StandardCharsets.UTF_8);
    }

    static void writeBytes(DataOutputStream out, byte[] value) throws IOException {
        out.writeInt(value.length);
        out.write(value);
    }

    static byte[] readBytes(DataInputStream in) throws IOException {
        byte[] value = new byte[in.readInt()];
        in.readFully(value);
        return value;
    }

    static void writeRequest(DataOutputStream out, Request request) throws IOException {
        writeString(out, request.operation().name());
        out.writeInt(request.processId());
        out.writeLong(request.requestNumber());
        writeString(out, request.tag());
        out.writeBoolean(request.data().isPresent());
        if (request.data().isPresent()) {
            writeBytes(out, request.data().get());
        }
    }

    static Request readRequest(DataInputStream in) throws IOException {
        Operation operation = Operation.valueOf(readString(in));
        int processId = in.readInt();
        long requestNumber = in.readLong();
        String tag = readString(in);
        byte[] data = in.readBoolean() ? readBytes(in) : null;
        return Request.of(operation, processId, requestNumber, tag, data);
    }

    static void writeReply(DataOutputStream out, Reply reply) throws IOException {
        writeString(out, reply.operation().name());
        out.writeInt(reply.processId());
        out.writeLong(reply.requestNumber());
        out.writeBoolean(reply.data().isPresent());
        if (reply.data().isPresent()) {
            writeBytes(out, reply.data().get());
        }
        out.writeBoolean(reply.stored());
        out.writeBoolean(reply.duplicate());
    }

    static Reply readReply(DataInputStream in) throws IOException {
        Operation operation = Operation.valueOf(readString(in));
        int processId = in.readInt();
        long requestNumber = in.readLong();
        byte[] data = in.readBoolean() ? readBytes(in) : null;
        boolean stored = in.readBoolean();
        return Reply.of(operation, processId, requestNumber, data, stored, in.readBoolean());
    }

    /**
     * Writes a failure the server raised: one of the dataspace's typed failures or a caller mistake.
     *
     * @throws IllegalArgumentException if it is neither (a front's own bug: it is not carried)
     */
    static void writeFailure(DataOutputStream out, RuntimeException failure) throws IOException {
        if (failure instanceof ReadLogEvictedException) {
            ReadLogEvictedException e = (ReadLogEvictedException) failure;
            out.writeByte(EVICTED);
            out.writeInt(e.processId());
            out.writeLong(e.requestNumber());
            out.writeLong(e.oldestRetained());
            out.writeLong(e.highWaterMark());
        } else if (failure instanceof ReplicaDivergenceException) {
            ReplicaDivergenceException e = (ReplicaDivergenceException) failure;
            out.writeByte(DIVERGED);
            out.writeInt(e.processId());
            out.writeLong(e.requestNumber());
            writeString(out, e.loggedOperation().name());
            writeString(out, e.loggedTag());
            writeString(out, e.requestedOperation().name());
            writeString(out, e.requestedTag());
        } else if (failure instanceof DataspaceTimeoutException) {
            DataspaceTimeoutException e = (DataspaceTimeoutException) failure;
            out.writeByte(TIMED_OUT);
            out.writeInt(e.processId());
            out.writeLong(e.requestNumber());
            writeString(out, e.operation().name());
            writeString(out, e.tag());
            out.writeLong(e.timeout().getSeconds());
            out.writeInt(e.timeout().getNano());
        } else if (failure instanceof DataspaceCancelledException) {
            DataspaceCancelledException e = (DataspaceCancelledException) failure;
            out.writeByte(CANCELLED_REQUEST);
            out.writeInt(e.processId());
            out.writeLong(e.requestNumber());
            writeString(out, e.operation().name());
            writeString(out, e.tag());
        } else if (failure instanceof DataspaceClosedException) {
            DataspaceClosedException e = (DataspaceClosedException) failure;
            out.writeByte(CLOSED);
            out.writeInt(e.processId());
            out.writeLong(e.requestNumber());
            out.writeBoolean(e.dataspaceClosed());
        } else if (failure instanceof IllegalArgumentException) {
            out.writeByte(ILLEGAL_ARGUMENT);
            writeString(out, String.valueOf(failure.getMessage()));
        } else if (failure instanceof IllegalStateException) {
            out.writeByte(ILLEGAL_STATE);
            writeString(out, String.valueOf(failure.getMessage()));
        } else if (failure instanceof NullPointerException) {
            out.writeByte(NULL_POINTER);
            writeString(out, String.valueOf(failure.getMessage()));
        } else {
            throw new IllegalArgumentException("not a failure the wire form carries: " + failure, failure);
        }
    }

    /** Reads a failure and builds the same exception, with the same facts, on this side. */
    static RuntimeException readFailure(DataInputStream in) throws IOException {
        byte kind = in.readByte();
        return switch (kind) {
            case EVICTED -> new ReadLogEvictedException(in.readInt(), in.readLong(), in.readLong(), in.readLong());
            case DIVERGED -> new ReplicaDivergenceException(in.readInt(), in.readLong(),
                    Operation.valueOf(readString(in)), readString(in), Operation.valueOf(readString(in)),
                    readString(in));
            case TIMED_OUT -> new DataspaceTimeoutException(in.readInt(), in.readLong(),
                    Operation.valueOf(readString(in)), readString(in), Duration.ofSeconds(in.readLong(), in.readInt()));
            case CANCELLED_REQUEST -> new DataspaceCancelledException(in.readInt(), in.readLong(),
                    Operation.valueOf(readString(in)), readString(in));
            case CLOSED -> new DataspaceClosedException(in.readInt(), in.readLong(), in.readBoolean());
            case ILLEGAL_ARGUMENT -> new IllegalArgumentException(readString(in));
            case ILLEGAL_STATE -> new IllegalStateException(readString(in));
            case NULL_POINTER -> new NullPointerException(readString(in));
            default -> throw new IOException("unknown failure kind on the wire: " + kind);
        };
    }
}
