package io.github.volpex.examples.replication;

import java.nio.ByteBuffer;

/** Big-endian encodings of numbers for the dataspace, which carries {@code byte[]}. */
public final class Bytes {

    private Bytes() {
    }

    /**
     * Encodes one long.
     *
     * @param value the value
     * @return 8 bytes
     */
    public static byte[] ofLong(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    /**
     * Decodes one long.
     *
     * @param bytes 8 bytes
     * @return the value
     * @throws IllegalArgumentException if {@code bytes} is not 8 bytes long
     */
    public static long toLong(byte[] bytes) {
        if (bytes.length != Long.BYTES) {
            throw new IllegalArgumentException("a long takes 8 bytes: " + bytes.length);
        }
        return ByteBuffer.wrap(bytes).getLong();
    }

    /**
     * Encodes a range of longs.
     *
     * @param values the array
     * @param from   the first index, inclusive
     * @param to     the last index, exclusive
     * @return {@code 8 · (to − from)} bytes
     */
    public static byte[] ofLongs(long[] values, int from, int to) {
        ByteBuffer buffer = ByteBuffer.allocate(Long.BYTES * (to - from));
        buffer.asLongBuffer().put(values, from, to - from);
        return buffer.array();
    }

    /**
     * Decodes longs.
     *
     * @param bytes a multiple of 8 bytes
     * @return the values
     * @throws IllegalArgumentException if the length is not a multiple of 8
     */
    public static long[] toLongs(byte[] bytes) {
        if (bytes.length % Long.BYTES != 0) {
            throw new IllegalArgumentException("longs take a multiple of 8 bytes: " + bytes.length);
        }
        long[] values = new long[bytes.length / Long.BYTES];
        ByteBuffer.wrap(bytes).asLongBuffer().get(values);
        return values;
    }
}
