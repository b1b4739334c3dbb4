package io.github.volpex.checkpoint.store;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Objects;

/**
 * A checkpoint rebuilt from its fragments and verified against the digest in its index.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class RecoveredCheckpoint {

    private final FragmentIndex index;
    private final byte[] data;

    RecoveredCheckpoint(FragmentIndex index, byte[] data) {
        this.index = Objects.requireNonNull(index, "index");
        this.data = data;
    }

    /**
     * Returns the index of the checkpoint: its sequence number tells which checkpoint this is.
     *
     * @return the index used to rebuild it
     */
    public FragmentIndex index() {
        return index;
    }

    /** The bytes, not copied, for this package. */
    byte[] bytes() {
        return data;
    }

    /**
     * Returns the checkpoint's length.
     *
     * @return the length, in bytes
     */
    public int length() {
        return data.length;
    }

    /**
     * Returns the checkpoint's bytes.
     *
     * @return a new copy of the bytes
     */
    public byte[] toByteArray() {
        return data.clone();
    }

    /**
     * Returns a stream over the checkpoint's bytes, without copying them.
     *
     * @return a new stream
     */
    public InputStream inputStream() {
        return new ByteArrayInputStream(data);
    }

    @Override
    public String toString() {
        return "RecoveredCheckpoint[" + index.jobId() + " #" + index.sequence() + ", " + data.length + " bytes]";
    }
}
