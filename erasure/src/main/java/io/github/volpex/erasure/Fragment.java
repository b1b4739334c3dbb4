package io.github.volpex.erasure;

import static io.github.volpex.erasure.FragmentFormat.HASH_BYTES;
import static io.github.volpex.erasure.FragmentFormat.HEADER_BYTES;
import static io.github.volpex.erasure.FragmentFormat.MIN_FRAGMENT_BYTES;
import static io.github.volpex.erasure.FragmentFormat.RECORD_OVERHEAD_BYTES;
import static io.github.volpex.erasure.FragmentFormat.TRAILER_BYTES;

import io.github.volpex.erasure.FragmentFormat.Header;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * One fragment of a dispersal: its coded payload and everything needed to check it and to place it — the layout,
 * {@code m}, {@code n}, its index, the original data length, the stripe size, a CRC32C per stripe, the SHA-256 of
 * the payload (its {@linkplain #contentId() content id}) and the SHA-256 of the original data (the
 * {@linkplain #dispersalId() dispersal id}, the same in every fragment of one encoding).
 *
 * <p>A {@code Fragment} is always verified: it is either made by an {@link IdaCodec} or {@linkplain #parse(byte[])
 * parsed} from bytes whose every checksum and hash matched. The wire format of {@link #toByteArray()} is documented
 * byte by byte in the package description.
 *
 * <p>Immutable and thread-safe. The payload is never exposed for writing.
 *
 * @since 0.1
 */
public final class Fragment {

    private final Header header;
    private final long dataLength;
    private final byte[] payload;
    private final int[] recordCrcs;
    /** The CRC32C of each stripe's original data, shared by all fragments of the encoding. */
    private final int[] dataCrcs;
    private final byte[] dispersalId;
    private final byte[] contentId;

    /** Takes ownership of the arrays; callers inside the package pass fresh ones. */
    Fragment(Header header, long dataLength, byte[] payload, int[] recordCrcs, int[] dataCrcs, byte[] dispersalId,
             byte[] contentId) {
        this.header = header;
        this.dataLength = dataLength;
        this.payload = payload;
        this.recordCrcs = recordCrcs;
        this.dataCrcs = dataCrcs;
        this.dispersalId = dispersalId;
        this.contentId = contentId;
    }

    /**
     * Builds a fragment around a freshly coded payload, computing its record checksums and content id.
     */
    static Fragment of(Header header, long dataLength, byte[] payload, int[] dataCrcs, byte[] dispersalId,
                       MessageDigest sha256) {
        int stripeData = header.stripeDataBytes();
        int records = (int) FragmentFormat.recordCount(dataLength, stripeData);
        int[] crcs = new int[records];
        CRC32C crc = new CRC32C();
        long remaining = dataLength;
        int offset = 0;
        for (int s = 0; s < records; s++) {
            int d = (int) Math.min(remaining, stripeData);
            int cell = ceilDiv(d, header.m());
            crcs[s] = FragmentFormat.recordCrc(crc, header.index(), s, d, payload, offset, cell, dataCrcs[s]);
            offset += cell;
            remaining -= d;
        }
        sha256.reset();
        byte[] content = sha256.digest(payload);
        return new Fragment(header, dataLength, payload, crcs, dataCrcs, dispersalId, content);
    }

    static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    /**
     * Parses and verifies the wire form of a fragment.
     *
     * <p>Every field is checked: the magic number, the format version, the header checksum, the ranges of the header
     * fields, each stripe's CRC32C, the trailer checksum, the data length against the stripes, the exact total size
     * and the SHA-256 of the payload against the content id.
     *
     * @param bytes the fragment as {@link #toByteArray()} wrote it; not modified or retained
     * @return the verified fragment
     * @throws CorruptFragmentException if the bytes are empty, truncated, foreign, of another format version, or any
     *         checksum, hash or field does not verify; its message says which and gives the values
     * @throws NullPointerException if {@code bytes} is null
     */
    public static Fragment parse(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length < MIN_FRAGMENT_BYTES) {
            if (bytes.length >= 4 && FragmentFormat.getInt(bytes, 0) != FragmentFormat.MAGIC
                    || bytes.length >= HEADER_BYTES) {
                Header.read(bytes, 0, Math.max(bytes.length, HEADER_BYTES));
            }
            throw new CorruptFragmentException(-1, (bytes.length == 0 ? "empty: 0 bytes" : "truncated: "
                    + bytes.length + " bytes") + ", the smallest fragment has " + MIN_FRAGMENT_BYTES);
        }
        Header header = Header.read(bytes, 0, bytes.length);
        int index = header.index();
        int stripeData = header.stripeDataBytes();
        int bodyLimit = bytes.length - TRAILER_BYTES;
        long payloadBytes = 0;
        int records = 0;
        int at = HEADER_BYTES;
        CRC32C crc = new CRC32C();
        // First pass: walk and verify the records, so the payload can be allocated exactly.
        while (true) {
            if (at + RECORD_OVERHEAD_BYTES > bodyLimit) {
                throw new CorruptFragmentException(index, "truncated: stripe " + records + " starts at byte " + at
                        + " but the body ends at byte " + bodyLimit);
            }
            int d = FragmentFormat.getInt(bytes, at);
            if (d < 0 || d > stripeData) {
                throw new CorruptFragmentException(index, "stripe " + records + " claims " + (d & 0xFFFF_FFFFL)
                        + " data bytes; a stripe holds at most m × stripe size = " + stripeData);
            }
            int cell = ceilDiv(d, header.m());
            if (at + RECORD_OVERHEAD_BYTES + (long) cell > bodyLimit) {
                throw new CorruptFragmentException(index, "truncated: stripe " + records + " needs " + cell
                        + " bytes from byte " + (at + 4) + " but the body ends at byte " + bodyLimit);
            }
            int stored = FragmentFormat.getInt(bytes, at + 8 + cell);
            int actual = FragmentFormat.recordCrc(crc, index, records, d, bytes, at + 4, cell,
                    FragmentFormat.getInt(bytes, at + 4 + cell));
            if (stored != actual) {
                throw new CorruptFragmentException(index, String.format(
                        "stripe %d checksum mismatch: stored 0x%08X, computed 0x%08X", records, stored, actual));
            }
            payloadBytes += cell;
            records++;
            at += RECORD_OVERHEAD_BYTES + cell;
            if (d < stripeData) {
                break;
            }
        }
        if (at != bodyLimit) {
            throw new CorruptFragmentException(index, "size mismatch: the last stripe ends at byte " + at
                    + ", so the fragment should have " + (at + TRAILER_BYTES) + " bytes; it has " + bytes.length);
        }
        int trailerAt = bodyLimit;
        int storedTrailerCrc = FragmentFormat.getInt(bytes, trailerAt + TRAILER_BYTES - 4);
        int actualTrailerCrc = FragmentFormat.trailerCrc(bytes, bytes, trailerAt);
        if (storedTrailerCrc != actualTrailerCrc) {
            throw new CorruptFragmentException(index, String.format(
                    "trailer checksum mismatch: stored 0x%08X, computed 0x%08X", storedTrailerCrc, actualTrailerCrc));
        }
        long dataLength = FragmentFormat.getLong(bytes, trailerAt);
        long expectedRecords = dataLength < 0 ? -1 : FragmentFormat.recordCount(dataLength, stripeData);
        long expectedPayload = dataLength < 0 ? -1 : (dataLength + header.m() - 1) / header.m();
        if (expectedRecords != records || expectedPayload != payloadBytes) {
            throw new CorruptFragmentException(index, "data length " + dataLength + " does not match the "
                    + records + " stripes holding " + payloadBytes + " payload bytes");
        }
        byte[] payload = new byte[(int) payloadBytes];
        int[] crcs = new int[records];
        int[] dataCrcs = new int[records];
        at = HEADER_BYTES;
        int out = 0;
        for (int s = 0; s < records; s++) {
            int d = FragmentFormat.getInt(bytes, at);
            int cell = ceilDiv(d, header.m());
            System.arraycopy(bytes, at + 4, payload, out, cell);
            dataCrcs[s] = FragmentFormat.getInt(bytes, at + 4 + cell);
            crcs[s] = FragmentFormat.getInt(bytes, at + 8 + cell);
            out += cell;
            at += RECORD_OVERHEAD_BYTES + cell;
        }
        byte[] dispersalId = Arrays.copyOfRange(bytes, trailerAt + 8, trailerAt + 8 + HASH_BYTES);
        byte[] contentId = Arrays.copyOfRange(bytes, trailerAt + 8 + HASH_BYTES, trailerAt + 8 + 2 * HASH_BYTES);
        byte[] actualContent = Hashing.sha256().digest(payload);
        if (!MessageDigest.isEqual(contentId, actualContent)) {
            throw new CorruptFragmentException(index, "payload SHA-256 " + FragmentFormat.hex(actualContent)
                    + " does not match the content id " + FragmentFormat.hex(contentId));
        }
        return new Fragment(header, dataLength, payload, crcs, dataCrcs, dispersalId, contentId);
    }

    /**
     * Returns the wire form of this fragment, which {@link #parse(byte[])} reads back.
     *
     * @return a new array of {@link #encodedLength()} bytes
     * @throws IllegalStateException if the encoded fragment would not fit in one array (more than
     *         {@code Integer.MAX_VALUE - 8} bytes); use {@link #writeTo(OutputStream)}
     */
    public byte[] toByteArray() {
        long size = encodedLength();
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("fragment of " + size + " bytes does not fit in an array; use writeTo");
        }
        ArraySink sink = new ArraySink((int) size);
        try {
            writeTo(sink);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("writing to an array cannot fail", e);
        }
        return sink.bytes;
    }

    /** Writes into an array of the exact final size, so that {@link #toByteArray()} copies nothing twice. */
    private static final class ArraySink extends OutputStream {
        final byte[] bytes;
        int at;

        ArraySink(int size) {
            bytes = new byte[size];
        }

        @Override
        public void write(int b) {
            bytes[at++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            System.arraycopy(b, off, bytes, at, len);
            at += len;
        }
    }

    /**
     * Writes the wire form of this fragment, the same bytes as {@link #toByteArray()}.
     *
     * @param out where to write; not closed or flushed
     * @throws IOException if {@code out} throws
     * @throws NullPointerException if {@code out} is null
     */
    public void writeTo(OutputStream out) throws IOException {
        Objects.requireNonNull(out, "out");
        byte[] head = new byte[HEADER_BYTES];
        header.write(head);
        out.write(head);
        byte[] word = new byte[4];
        int from = 0;
        long remaining = dataLength;
        int stripeData = header.stripeDataBytes();
        for (int s = 0; s < recordCrcs.length; s++) {
            int d = (int) Math.min(remaining, stripeData);
            int cell = ceilDiv(d, header.m());
            FragmentFormat.putInt(word, 0, d);
            out.write(word);
            out.write(payload, from, cell);
            FragmentFormat.putInt(word, 0, dataCrcs[s]);
            out.write(word);
            FragmentFormat.putInt(word, 0, recordCrcs[s]);
            out.write(word);
            from += cell;
            remaining -= d;
        }
        byte[] trailer = new byte[TRAILER_BYTES];
        FragmentFormat.writeTrailer(head, trailer, 0, dataLength, dispersalId, contentId);
        out.write(trailer);
    }

    /**
     * Returns the size of the wire form: header, one record per stripe (payload plus 8 bytes), trailer.
     *
     * @return the size in bytes
     */
    public long encodedLength() {
        return HEADER_BYTES + (long) recordCrcs.length * RECORD_OVERHEAD_BYTES + payload.length + TRAILER_BYTES;
    }

    /**
     * Returns the layout of the encoding this fragment belongs to.
     *
     * @return the layout
     */
    public Layout layout() {
        return header.layout();
    }

    /**
     * Returns {@code m}, the number of fragments that rebuild the data.
     *
     * @return {@code m}
     */
    public int m() {
        return header.m();
    }

    /**
     * Returns {@code n}, the number of fragments of the encoding.
     *
     * @return {@code n}
     */
    public int n() {
        return header.n();
    }

    /**
     * Returns this fragment's index in [0, n); with the systematic and XOR layouts, indexes below {@code m} hold
     * data.
     *
     * @return the index
     */
    public int index() {
        return header.index();
    }

    /**
     * Returns the length of the original data.
     *
     * @return the length in bytes
     */
    public long dataLength() {
        return dataLength;
    }

    /**
     * Returns the stripe size: the payload bytes each fragment holds per full stripe.
     *
     * @return the stripe size in bytes
     */
    public int stripeSizeBytes() {
        return header.stripeBytes();
    }

    /**
     * Returns the payload length: {@code ⌈dataLength / m⌉}.
     *
     * @return the payload length in bytes
     */
    public int payloadLength() {
        return payload.length;
    }

    /**
     * Returns a read-only view of the coded payload (no copy).
     *
     * @return a read-only buffer positioned at 0 with {@link #payloadLength()} bytes remaining
     */
    public ByteBuffer payload() {
        return ByteBuffer.wrap(payload).asReadOnlyBuffer();
    }

    /**
     * Returns the SHA-256 of the payload in lowercase hexadecimal: the name under which the fragment can be stored
     * and fetched.
     *
     * @return 64 hexadecimal digits
     */
    public String contentId() {
        return FragmentFormat.hex(contentId);
    }

    /**
     * Returns the SHA-256 of the original data in lowercase hexadecimal, the same in every fragment of one encoding.
     * The decoders check the rebuilt data against it, and refuse to mix fragments whose dispersal ids differ.
     *
     * @return 64 hexadecimal digits
     */
    public String dispersalId() {
        return FragmentFormat.hex(dispersalId);
    }

    Header header() {
        return header;
    }

    byte[] payloadArray() {
        return payload;
    }

    int[] dataCrcs() {
        return dataCrcs;
    }

    byte[] dispersalIdBytes() {
        return dispersalId;
    }

    /**
     * Two fragments are equal when all their header fields, ids and payloads are equal.
     *
     * @param o the other object
     * @return whether {@code o} is an equal fragment
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof Fragment f && header.equals(f.header) && dataLength == f.dataLength
                && Arrays.equals(contentId, f.contentId) && Arrays.equals(dispersalId, f.dispersalId)
                && Arrays.equals(dataCrcs, f.dataCrcs)
                && Arrays.equals(payload, f.payload);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(contentId) * 31 + header.index();
    }

    @Override
    public String toString() {
        return "Fragment[" + IdaCodec.describe(header.layout(), header.m(), header.n() - header.m()) + " index "
                + header.index() + ", data " + dataLength + " bytes, content "
                + contentId().substring(0, 12) + "…]";
    }
}
