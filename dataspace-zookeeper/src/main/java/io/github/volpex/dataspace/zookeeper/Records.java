package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.DataspaceOptions;
import io.github.volpex.dataspace.Operation;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * The znode data formats, big-endian, each starting with a format byte (1; the header's is 3). The package
 * description documents them byte by byte; a record whose format or magic is unknown is an
 * {@link IllegalStateException}, never a guess.
 */
final class Records {

    /** The namespace header's magic number: "VPZD". */
    static final int MAGIC = 0x56505A44;
    static final byte FORMAT = 1;
    /**
     * The namespace header's format, which also names the znode layout: 2 since the tag guards ({@code <ns>/g}) joined
     * it, 3 since tag records, dictionary entries, blob references and blobs are spread over buckets ({@link Layout}).
     * A namespace of another format is refused ({@link NamespaceFormatException}), never read as this one.
     */
    static final byte HEADER_FORMAT = 3;

    /** Every dataspace znode is open to every client; protect the ensemble with its own authentication. */
    static final List<ACL> OPEN_ACL = ZooDefs.Ids.OPEN_ACL_UNSAFE;

    static final byte VALUE_INLINE = 1;
    static final byte VALUE_BLOB = 2;
    static final int SHA256_BYTES = 32;
    static final int TOKEN_BYTES = 16;

    /** Bytes a record adds beyond its strings and values, rounded up (for transaction-size estimates). */
    static final int PROCESS_BYTES = 64;
    static final int ENTRY_BYTES = 48;
    static final int VALUE_BLOB_BYTES = 48;

    private Records() {
    }

    // ---- values ---------------------------------------------------------------------------------------------------

    /** A stored value: inline bytes, or a reference to a blob by SHA-256, incarnation and length. */
    static final class Value {
        final byte[] inline;
        final byte[] sha256;
        final long incarnation;
        final int length;

        private Value(byte[] inline, byte[] sha256, long incarnation, int length) {
            this.inline = inline;
            this.sha256 = sha256;
            this.incarnation = incarnation;
            this.length = length;
        }

        static Value inline(byte[] data) {
            return new Value(data, null, 0, data.length);
        }

        static Value blob(byte[] sha256, long incarnation, int length) {
            return new Value(null, sha256, incarnation, length);
        }

        boolean isBlob() {
            return sha256 != null;
        }

        /** The blob's hex SHA-256, its reference node's name. */
        String shaHex() {
            return HexFormat.of().formatHex(sha256);
        }

        /** Bytes this value adds to a record. */
        int recordBytes() {
            return isBlob() ? VALUE_BLOB_BYTES : 5 + length;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Value v && v.length == length && v.incarnation == incarnation
                    && Arrays.equals(v.sha256, sha256) && Arrays.equals(v.inline, inline);
        }

        @Override
        public int hashCode() {
            return Objects.hash(length, incarnation, Arrays.hashCode(sha256));
        }

        void write(DataOutputStream out) throws IOException {
            if (isBlob()) {
                out.writeByte(VALUE_BLOB);
                out.writeInt(length);
                out.write(sha256);
                out.writeLong(incarnation);
            } else {
                out.writeByte(VALUE_INLINE);
                out.writeInt(length);
                out.write(inline);
            }
        }

        static Value read(DataInputStream in, String what) throws IOException {
            byte kind = in.readByte();
            int length = in.readInt();
            if (length < 0) {
                throw corrupt(what, "negative value length " + length);
            }
            if (kind == VALUE_INLINE) {
                return inline(in.readNBytes(length));
            }
            if (kind == VALUE_BLOB) {
                byte[] sha = in.readNBytes(SHA256_BYTES);
                return blob(sha, in.readLong(), length);
            }
            throw corrupt(what, "unknown value kind " + kind);
        }
    }

    // ---- namespace header -----------------------------------------------------------------------------------------

    /**
     * The namespace root's data: the settings every client must agree on, the namespace's random id (which prefixes
     * its blob keys, so that namespaces may share a blob store), and whether a destroy has begun.
     */
    record Header(int processCount, int readLogCapacity, long readLogBudgetBytes, int maxTagLength,
            int maxDataBytes, boolean blobsInZooKeeper, long namespaceId, boolean destroying) {

        static Header of(int processCount, DataspaceOptions options, boolean blobsInZooKeeper, long namespaceId) {
            return new Header(processCount, options.readLogCapacity(), options.readLogBudgetBytes().orElse(-1),
                    options.maxTagLength(), options.maxDataBytes(), blobsInZooKeeper, namespaceId, false);
        }

        Header beingDestroyed() {
            return new Header(processCount, readLogCapacity, readLogBudgetBytes, maxTagLength, maxDataBytes,
                    blobsInZooKeeper, namespaceId, true);
        }

        boolean sameSettings(Header other) {
            return processCount == other.processCount && readLogCapacity == other.readLogCapacity
                    && readLogBudgetBytes == other.readLogBudgetBytes && maxTagLength == other.maxTagLength
                    && maxDataBytes == other.maxDataBytes && blobsInZooKeeper == other.blobsInZooKeeper;
        }

        byte[] encode() {
            return Records.encode(out -> {
                out.writeInt(MAGIC);
                out.writeByte(HEADER_FORMAT);
                out.writeInt(processCount);
                out.writeInt(readLogCapacity);
                out.writeLong(readLogBudgetBytes);
                out.writeInt(maxTagLength);
                out.writeInt(maxDataBytes);
                out.writeBoolean(blobsInZooKeeper);
                out.writeLong(namespaceId);
                out.writeBoolean(destroying);
            });
        }

        /** Tells whether the data is a Volpex dataspace header, of any format. */
        static boolean isHeader(byte[] data) {
            return data != null && data.length >= 5 && ByteBuffer.wrap(data).getInt() == MAGIC;
        }

        /**
         * Returns the header read from the namespace {@code namespace}, or null if the data is not a Volpex dataspace
         * header.
         *
         * @throws NamespaceFormatException if it is the header of another format
         */
        static Header decodeOrNull(byte[] data, String namespace) {
            if (!isHeader(data)) {
                return null;
            }
            DataInputStream in = input(data);
            try {
                in.readInt();
                byte format = in.readByte();
                if (format != HEADER_FORMAT) {
                    throw new NamespaceFormatException(namespace, format, HEADER_FORMAT);
                }
                return new Header(in.readInt(), in.readInt(), in.readLong(), in.readInt(), in.readInt(),
                        in.readBoolean(), in.readLong(), in.readBoolean());
            } catch (IOException ex) {
                throw corrupt("dataspace header", ex.toString());
            }
        }

        String describe() {
            return processCount + " processes, readLogCapacity=" + readLogCapacity + ", readLogBudgetBytes="
                    + (readLogBudgetBytes < 0 ? "none" : Long.toString(readLogBudgetBytes)) + ", maxTagLength="
                    + maxTagLength + ", maxDataBytes=" + maxDataBytes + ", blobs "
                    + (blobsInZooKeeper ? "in ZooKeeper" : "in an external blob store");
        }
    }

    // ---- process record -------------------------------------------------------------------------------------------

    /** A process's state: high-water mark, read-log window, its pending request, and log entries holding blobs. */
    static final class ProcessRecord {
        static final ProcessRecord INITIAL = new ProcessRecord(0, 1, 0, null, null, null, new long[0]);

        final long issued;
        final long oldest;
        /** The data bytes of the retained entries when the options set a byte budget; 0 otherwise. */
        final long logBytes;
        /** The pending request's kind (its number is {@link #issued}); null when none is pending. */
        final Operation pendingOperation;
        final String pendingName;
        final byte[] pendingToken;
        /** Request numbers of retained log entries whose value is a blob, ascending. */
        final long[] blobEntries;

        ProcessRecord(long issued, long oldest, long logBytes, Operation pendingOperation, String pendingName,
                byte[] pendingToken, long[] blobEntries) {
            this.issued = issued;
            this.oldest = oldest;
            this.logBytes = logBytes;
            this.pendingOperation = pendingOperation;
            this.pendingName = pendingName;
            this.pendingToken = pendingToken;
            this.blobEntries = blobEntries;
        }

        boolean pending() {
            return pendingOperation != null;
        }

        /** The last request whose outcome is logged. */
        long lastCompleted() {
            return pending() ? issued - 1 : issued;
        }

        byte[] encode() {
            return Records.encode(out -> {
                out.writeByte(FORMAT);
                out.writeLong(issued);
                out.writeLong(oldest);
                out.writeLong(logBytes);
                if (pendingOperation == null) {
                    out.writeByte(0);
                } else {
                    out.writeByte(1 + pendingOperation.ordinal());
                    writeName(out, pendingName);
                    out.write(pendingToken);
                }
                out.writeInt(blobEntries.length);
                for (long entry : blobEntries) {
                    out.writeLong(entry);
                }
            });
        }

        int estimatedBytes() {
            return PROCESS_BYTES + (pendingName == null ? 0 : pendingName.length()) + 8 * blobEntries.length;
        }

        static ProcessRecord decode(byte[] data) {
            DataInputStream in = input(data);
            try {
                format(in, "process record");
                long issued = in.readLong();
                long oldest = in.readLong();
                long logBytes = in.readLong();
                int pending = in.readUnsignedByte();
                Operation operation = null;
                String name = null;
                byte[] token = null;
                if (pending != 0) {
                    operation = operation(pending - 1, "process record");
                    name = readName(in);
                    token = in.readNBytes(TOKEN_BYTES);
                }
                long[] blobEntries = new long[in.readInt()];
                for (int i = 0; i < blobEntries.length; i++) {
                    blobEntries[i] = in.readLong();
                }
                return new ProcessRecord(issued, oldest, logBytes, operation, name, token, blobEntries);
            } catch (IOException ex) {
                throw corrupt("process record", ex.toString());
            }
        }
    }

    // ---- read-log entry -------------------------------------------------------------------------------------------

    /** The logged outcome of one request; immutable once created. */
    static final class LogEntry {
        static final int FLAG_STORED = 1;
        static final int FLAG_VALUE = 2;
        static final int FLAG_CANCELLED = 4;

        final Operation operation;
        final String name;
        final boolean stored;
        /**
         * The value a read-type request received; null for puts, for try-ops that found the tag absent and for
         * cancelled requests.
         */
        final Value value;
        /** Whether the request was a read or get cancelled while it waited: its outcome is "cancelled". */
        final boolean cancelled;
        /** The token of the call that issued the request. */
        final byte[] token;
        /** The zxid at which the request was issued, or 0 when it is this entry's creation zxid. */
        final long issueZxid;

        LogEntry(Operation operation, String name, boolean stored, Value value, byte[] token, long issueZxid) {
            this(operation, name, stored, value, false, token, issueZxid);
        }

        private LogEntry(Operation operation, String name, boolean stored, Value value, boolean cancelled,
                byte[] token, long issueZxid) {
            this.operation = operation;
            this.name = name;
            this.stored = stored;
            this.value = value;
            this.cancelled = cancelled;
            this.token = token;
            this.issueZxid = issueZxid;
        }

        /** The outcome of a read or get cancelled while it waited: no value, nothing stored. */
        static LogEntry cancelled(Operation operation, String name, byte[] token, long issueZxid) {
            return new LogEntry(operation, name, false, null, true, token, issueZxid);
        }

        long dataBytes() {
            return value == null ? 0 : value.length;
        }

        int estimatedBytes() {
            return ENTRY_BYTES + name.length() + (value == null ? 0 : value.recordBytes());
        }

        byte[] encode() {
            return Records.encode(out -> {
                out.writeByte(FORMAT);
                out.writeByte(operation.ordinal());
                out.writeByte((stored ? FLAG_STORED : 0) | (value != null ? FLAG_VALUE : 0)
                        | (cancelled ? FLAG_CANCELLED : 0));
                writeName(out, name);
                out.write(token);
                out.writeLong(issueZxid);
                if (value != null) {
                    value.write(out);
                }
            });
        }

        static LogEntry decode(byte[] data) {
            DataInputStream in = input(data);
            try {
                format(in, "read-log entry");
                Operation operation = operation(in.readUnsignedByte(), "read-log entry");
                int flags = in.readUnsignedByte();
                if ((flags & ~(FLAG_STORED | FLAG_VALUE | FLAG_CANCELLED)) != 0
                        || (flags & FLAG_CANCELLED) != 0 && (flags != FLAG_CANCELLED || !operation.isBlocking())) {
                    throw corrupt("read-log entry", "flags " + flags + " for a " + operation);
                }
                String name = readName(in);
                byte[] token = in.readNBytes(TOKEN_BYTES);
                long issueZxid = in.readLong();
                Value value = (flags & FLAG_VALUE) != 0 ? Value.read(in, "read-log entry") : null;
                return new LogEntry(operation, name, (flags & FLAG_STORED) != 0, value,
                        (flags & FLAG_CANCELLED) != 0, token, issueZxid);
            } catch (IOException ex) {
                throw corrupt("read-log entry", ex.toString());
            }
        }
    }

    // ---- tag record -----------------------------------------------------------------------------------------------

    /** A waiting read or get in a tag's FIFO queue. */
    record Waiter(int processId, long requestNumber, Operation operation) {
    }

    /** A tag's current value (or none) and its FIFO queue of waiting reads and gets; deleted when both are empty. */
    static final class TagRecord {
        static final TagRecord EMPTY = new TagRecord(null, List.of());

        final Value value;
        final List<Waiter> waiters;

        TagRecord(Value value, List<Waiter> waiters) {
            this.value = value;
            this.waiters = List.copyOf(waiters);
        }

        boolean isEmpty() {
            return value == null && waiters.isEmpty();
        }

        int estimatedBytes() {
            return 16 + 13 * waiters.size() + (value == null ? 0 : value.recordBytes());
        }

        byte[] encode() {
            return Records.encode(out -> {
                out.writeByte(FORMAT);
                out.writeBoolean(value != null);
                if (value != null) {
                    value.write(out);
                }
                out.writeInt(waiters.size());
                for (Waiter waiter : waiters) {
                    out.writeInt(waiter.processId());
                    out.writeLong(waiter.requestNumber());
                    out.writeByte(waiter.operation().ordinal());
                }
            });
        }

        static TagRecord decode(byte[] data) {
            DataInputStream in = input(data);
            try {
                format(in, "tag record");
                Value value = in.readBoolean() ? Value.read(in, "tag record") : null;
                int count = in.readInt();
                List<Waiter> waiters = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    waiters.add(new Waiter(in.readInt(), in.readLong(), operation(in.readUnsignedByte(),
                            "tag record")));
                }
                return new TagRecord(value, waiters);
            } catch (IOException ex) {
                throw corrupt("tag record", ex.toString());
            }
        }
    }

    // ---- blob references and the tag dictionary -------------------------------------------------------------------

    static byte[] encodeCount(long count) {
        return encode(out -> out.writeLong(count));
    }

    static long decodeCount(byte[] data) {
        if (data == null || data.length != 8) {
            throw corrupt("blob reference count", (data == null ? 0 : data.length) + " bytes");
        }
        return ((long) (data[0] & 0xff) << 56) | ((long) (data[1] & 0xff) << 48) | ((long) (data[2] & 0xff) << 40)
                | ((long) (data[3] & 0xff) << 32) | ((long) (data[4] & 0xff) << 24) | ((data[5] & 0xff) << 16)
                | ((data[6] & 0xff) << 8) | (data[7] & 0xff);
    }

    /** A tag in the dictionary of hashed names: its UTF-16 units, so that every string round-trips. */
    static byte[] encodeTag(String tag) {
        return encode(out -> {
            out.writeByte(FORMAT);
            out.writeInt(tag.length());
            out.writeChars(tag);
        });
    }

    static String decodeTag(byte[] data) {
        DataInputStream in = input(data);
        try {
            format(in, "dictionary entry");
            char[] chars = new char[in.readInt()];
            for (int i = 0; i < chars.length; i++) {
                chars[i] = in.readChar();
            }
            return new String(chars);
        } catch (IOException ex) {
            throw corrupt("dictionary entry", ex.toString());
        }
    }

    // ---- helpers --------------------------------------------------------------------------------------------------

    /** Writes one record. */
    @FunctionalInterface
    interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    static byte[] encode(Writer writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writer.write(out);
        } catch (IOException ex) {
            throw new UncheckedIOException("writing to memory failed", ex);
        }
        return bytes.toByteArray();
    }

    private static DataInputStream input(byte[] data) {
        return new DataInputStream(new java.io.ByteArrayInputStream(data));
    }

    private static void format(DataInputStream in, String what) throws IOException {
        byte format = in.readByte();
        if (format != FORMAT) {
            throw corrupt(what, "format " + format + ", this library reads format " + FORMAT);
        }
    }

    private static Operation operation(int ordinal, String what) {
        Operation[] operations = Operation.values();
        if (ordinal < 0 || ordinal >= operations.length) {
            throw corrupt(what, "unknown operation " + ordinal);
        }
        return operations[ordinal];
    }

    private static void writeName(DataOutputStream out, String name) throws IOException {
        byte[] ascii = name.getBytes(StandardCharsets.US_ASCII);
        out.writeShort(ascii.length);
        out.write(ascii);
    }

    private static String readName(DataInputStream in) throws IOException {
        return new String(in.readNBytes(in.readUnsignedShort()), StandardCharsets.US_ASCII);
    }

    static IllegalStateException corrupt(String what, String detail) {
        return new IllegalStateException("corrupt " + what + " in the dataspace namespace: " + detail);
    }
}
