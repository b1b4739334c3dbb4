package io.github.volpex.checkpoint.repository.s3;

import io.github.volpex.checkpoint.repository.RepositoryUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import software.amazon.awssdk.core.exception.AbortedException;

/**
 * A bounded pipe between the writer of a value of known length and the upload that sends it: the writer puts bytes
 * in a ring of fixed size, the upload's body stream takes them out. The last byte is held back until the writer
 * {@linkplain #release() releases} it, so that the server can never receive the whole value — and store it — before
 * the writer commits; {@link #abort} makes the body stream fail, which ends the request with the value incomplete.
 * One writer thread and one reader thread.
 */
final class BytePipe {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final byte[] ring;
    private final long length;
    private final String key;
    private long written;
    private long read;
    private boolean released;
    private String abortReason;
    private boolean readerEnded;
    private Throwable readerFailure;

    /**
     * A pipe for a value of {@code length} bytes that holds at most {@code capacity} bytes not yet read.
     */
    BytePipe(String key, long length, int capacity) {
        this.key = key;
        this.length = length;
        this.ring = new byte[capacity];
    }

    /**
     * Copies the bytes of {@code b[off, off + len)} that fit now into the ring, and returns how many (0 when it is
     * full); fails if the upload has ended.
     */
    int offer(byte[] b, int off, int len) throws IOException {
        lock.lock();
        try {
            checkReader();
            int free = (int) (ring.length - (written - read));
            int n = Math.min(len, free);
            for (int copied = 0; copied < n; ) {
                int at = (int) ((written + copied) % ring.length);
                int chunk = Math.min(n - copied, ring.length - at);
                System.arraycopy(b, off + copied, ring, at, chunk);
                copied += chunk;
            }
            written += n;
            if (n > 0) {
                changed.signalAll();
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until the ring has room or the upload has ended, keeping (not acting on) an interrupt. */
    void awaitRoom() {
        lock.lock();
        try {
            while (written - read == ring.length && !readerEnded) {
                changed.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Fails the writer once the upload has ended: with a {@link RepositoryUnavailableException} if that is what the
     * upload failed with (the type a write of the same value as a multipart upload fails with), else an
     * {@link IOException}.
     */
    private void checkReader() throws IOException {
        if (readerEnded) {
            String ended = "write " + key + " failed: its upload ended after " + read + " of " + length + " bytes";
            if (readerFailure instanceof RepositoryUnavailableException unavailable) {
                String prefix = "repository " + unavailable.repositoryId() + " is unavailable: ";
                String detail = String.valueOf(unavailable.getMessage());
                throw new RepositoryUnavailableException(unavailable.repositoryId(), ended + ": "
                        + (detail.startsWith(prefix) ? detail.substring(prefix.length()) : detail), unavailable);
            }
            throw new IOException(ended + (readerFailure == null ? "" : ": " + readerFailure.getMessage()),
                    readerFailure);
        }
    }

    /** The bytes written but not yet read, in order, when nothing was read yet: for a writer that takes them back. */
    byte[] unread() {
        lock.lock();
        try {
            if (read != 0) {
                throw new IllegalStateException("bytes of " + key + " were read already");
            }
            return java.util.Arrays.copyOf(ring, (int) written);
        } finally {
            lock.unlock();
        }
    }

    /** Lets the body stream deliver the last byte: the writer has written all and commits. */
    void release() {
        lock.lock();
        try {
            released = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Makes every read of the body stream fail from now on, so that the request ends with the value incomplete. */
    void abort(String reason) {
        lock.lock();
        try {
            if (!released || read < length) {
                abortReason = Objects.requireNonNull(reason);
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Called when the upload has ended, with what it failed with or null: wakes a writer waiting for room. */
    void readerEnded(Throwable failure) {
        lock.lock();
        try {
            readerEnded = true;
            readerFailure = failure;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The body stream: what the writer wrote, blocking until it is there, all but the last byte until released. */
    InputStream input() {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                Objects.checkFromIndexSize(off, len, b.length);
                if (len == 0) {
                    return 0;
                }
                lock.lock();
                try {
                    while (true) {
                        if (abortReason != null) {
                            throw AbortedException.create(abortReason);
                        }
                        long available = (released ? written : Math.min(written, length - 1)) - read;
                        if (available > 0) {
                            int at = (int) (read % ring.length);
                            int n = (int) Math.min(Math.min(len, available), ring.length - at);
                            System.arraycopy(ring, at, b, off, n);
                            read += n;
                            changed.signalAll();
                            return n;
                        }
                        if (read == length) {
                            return -1;
                        }
                        try {
                            changed.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new InterruptedIOException("the upload of " + key + " was interrupted after "
                                    + read + " of " + length + " bytes");
                        }
                    }
                } finally {
                    lock.unlock();
                }
            }

            @Override
            public int available() {
                lock.lock();
                try {
                    return (int) Math.min(Integer.MAX_VALUE,
                            (released ? written : Math.min(written, length - 1)) - read);
                } finally {
                    lock.unlock();
                }
            }
        };
    }
}
