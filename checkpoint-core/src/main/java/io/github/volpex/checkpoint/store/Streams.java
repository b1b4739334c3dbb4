package io.github.volpex.checkpoint.store;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads of a stream — a caller's state, a repository's fragment — that cannot spin.
 * {@link InputStream#read(byte[], int, int)} blocks until it reads at least one byte when asked for one or more; a
 * stream that answers 0 instead breaks that contract, and a loop that simply asks again would never end if it keeps
 * doing so. A read that returns 0 is asked again at most {@link #MAX_ZERO_READS} times in a row, then the read fails
 * (a commit from such a stream fails and commits nothing; a fragment read so is one that failed): the library owns
 * no clock or thread to wait with, so it cannot tell a stream that has nothing yet from one that is stuck, and a
 * stream that has nothing yet must block. The bound tolerates a stream that returns 0 now and then (some adapters of
 * non-blocking sources do), costs microseconds when spent, and is far below anything a commit could mistake for
 * progress.
 */
final class Streams {

    /** The most reads in a row that may return 0 bytes before a commit gives the stream up. */
    static final int MAX_ZERO_READS = 1024;

    private Streams() {
    }

    /**
     * Reads into {@code b[off, off + max)} until at least {@code min} bytes are read or the stream ends; returns
     * the bytes read, fewer than {@code min} only at the stream's end.
     *
     * @throws IOException if the stream fails, or returns 0 bytes {@link #MAX_ZERO_READS} times in a row
     */
    static int readAtLeast(InputStream in, byte[] b, int off, int min, int max) throws IOException {
        int n = 0;
        int zeros = 0;
        while (n < min) {
            int read = in.read(b, off + n, max - n);
            if (read < 0) {
                break;
            }
            if (read == 0) {
                if (++zeros == MAX_ZERO_READS) {
                    throw new IOException("checkpoint: the stream returned 0 bytes for " + MAX_ZERO_READS
                            + " reads in a row of " + (max - n) + " bytes, which InputStream forbids (a read of one "
                            + "byte or more blocks until it reads one)");
                }
                continue;
            }
            zeros = 0;
            n += read;
        }
        return n;
    }
}
