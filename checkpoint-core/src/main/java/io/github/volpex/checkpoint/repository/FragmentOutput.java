package io.github.volpex.checkpoint.repository;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * A streaming write to a {@link FragmentRepository}: bytes written are invisible until {@link #commit()} publishes
 * them atomically under the key; {@link #close()} without a commit discards them.
 *
 * <p>Use it with try-with-resources and commit as the last statement of the block. Not thread-safe.
 *
 * @since 0.1
 */
public abstract class FragmentOutput extends OutputStream {

    private boolean finished;

    /** For subclasses. */
    protected FragmentOutput() {
    }

    /**
     * Returns an output that holds {@code out}'s writer to a promised length, for repositories that implement
     * {@link FragmentRepository#create(String, long)}: a write that would take it past {@code lengthBytes} throws
     * {@link IllegalStateException} before any of its bytes reach {@code out}, and from then on so does
     * {@link #commit()}; a commit after fewer bytes throws it too. Then nothing is published, and {@link #close()}
     * closes {@code out}, which discards what it holds. Otherwise it passes every call on to {@code out}.
     *
     * @param key         the key written, for messages
     * @param lengthBytes the promised length, {@code >= 0}
     * @param out         the output that does the writing; it must not be used directly any more
     * @return the output to give the writer; not thread-safe
     * @throws NullPointerException     if {@code key} or {@code out} is null
     * @throws IllegalArgumentException if {@code lengthBytes} is negative
     * @since 0.1
     */
    public static FragmentOutput checkingLength(String key, long lengthBytes, FragmentOutput out) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(out, "out");
        if (lengthBytes < 0) {
            throw new IllegalArgumentException("lengthBytes must be >= 0: " + lengthBytes);
        }
        return new LengthCheckedOutput(key, lengthBytes, out);
    }

    /**
     * Publishes what was written under the key, replacing any previous value atomically. Called at most once, by
     * {@link #commit()}.
     *
     * @throws IOException if the repository is unavailable or the write failed; nothing is then published
     */
    protected abstract void publish() throws IOException;

    /**
     * Discards what was written. Called at most once, by {@link #close()} when there was no successful commit.
     *
     * @throws IOException if cleaning up failed (what was written is never published all the same)
     */
    protected abstract void discard() throws IOException;

    /**
     * Publishes what was written. After it returns, the value is visible to every reader of the repository.
     *
     * @throws IOException           if the repository is unavailable or the write failed; nothing is then published
     *                               and {@link #close()} discards the bytes
     * @throws IllegalStateException if already committed or closed
     */
    public final void commit() throws IOException {
        if (finished) {
            throw new IllegalStateException("fragment output already committed or closed");
        }
        publish();
        finished = true;
    }

    /**
     * Discards what was written unless {@link #commit()} succeeded; idempotent.
     *
     * @throws IOException if cleaning up failed
     */
    @Override
    public void close() throws IOException {
        if (!finished) {
            finished = true;
            discard();
        }
    }
}
