package io.github.volpex.checkpoint.repository;

import java.io.IOException;
import java.io.OutputStream;

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
