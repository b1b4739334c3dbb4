package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testsupport.SearchDepth;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A stream that keeps answering a read of one byte or more with 0 bytes breaks {@link InputStream}'s contract; a
 * commit from it must fail with an {@link IOException} after a bounded number of such reads, not spin, and commit
 * nothing — on a store of full checkpoints and on a differential one. The stream counts the reads it answers with
 * 0 and fails the test itself (an error the commit does not catch) once it has answered far more than the store's
 * bound, so the test needs no clock. It runs once per seed ({@link SearchDepth#eachSeed}: more in a deeper
 * search), each on repositories of its own; {@code -Dvolpex.stalledstream.seed=<seed>} replays one.
 */
class StalledStreamTest {

    private static final String JOB = "job";
    private static final int BLOCK = Chunking.MIN_BLOCK_BYTES;
    /** Far more zero-length reads than a store may ask for before it gives up. */
    private static final int SPINNING = 10_000_000;

    @Test
    void aStreamThatReturnsZeroBytesForeverFailsTheCommitAndCommitsNothing() {
        SearchDepth.eachSeed("volpex.stalledstream.seed", 1, StalledStreamTest::stallingFailsTheCommitWithSeed);
    }

    private static void stallingFailsTheCommitWithSeed(long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        for (boolean differential : new boolean[] {false, true}) {
            for (int given : new int[] {0, 1, 3 * BLOCK + 7, 20 * BLOCK}) {
                String at = (differential ? "differential" : "full") + ", " + given + " bytes first, seed " + seed;
                List<FragmentRepository> repositories = Stores.inMemory(5);
                CheckpointStore store = store(repositories, differential);
                byte[] first = Stores.data(random.nextLong(), 16 * BLOCK);
                store.commit(JOB, first);
                List<String> before = Stores.everything(repositories);
                Stalling stalling = new Stalling(Stores.data(random.nextLong(), given));
                IOException e = assertThrows(IOException.class, () -> store.commit(JOB, stalling), at);
                assertTrue(e.getMessage().contains("0 bytes"), e.getMessage() + ", " + at);
                assertTrue(stalling.zeros > 0, at);
                assertEquals(new HashSet<>(before), new HashSet<>(Stores.everything(repositories)),
                        "a failed commit changed the repositories, " + at);
                assertArrayEquals(first, store.recover(JOB).orElseThrow().toByteArray(), at);
            }
        }
    }

    private static CheckpointStore store(List<FragmentRepository> repositories, boolean differential) {
        CheckpointStore.Builder builder = CheckpointStore.perennial(IdaCodec.systematic(3, 2), repositories)
                .segmentBytes(4 * BLOCK);
        return (differential ? builder.differential(Chunking.fixed(BLOCK)) : builder).build();
    }

    /** Hands out its bytes, then answers every read with 0 bytes; fails the test if asked {@link #SPINNING} times. */
    private static final class Stalling extends InputStream {
        private final byte[] data;
        private int at;
        int zeros;

        Stalling(byte[] data) {
            this.data = data;
        }

        @Override
        public int read() {
            throw new UnsupportedOperationException("the store reads in blocks");
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (at < data.length) {
                int n = Math.min(len, data.length - at);
                System.arraycopy(data, at, b, off, n);
                at += n;
                return n;
            }
            if (++zeros >= SPINNING) {
                throw new AssertionError("the store read " + zeros + " times a stream that returns 0 bytes");
            }
            return 0;
        }
    }
}
