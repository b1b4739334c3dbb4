package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import io.github.volpex.testsupport.SearchDepth;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The digests a commit and a streaming recovery compute on the executor, beside the encoding and the reading: with an
 * executor that starts its tasks late and in any order, every fragment's digest and the checkpoint's still cover their
 * bytes in order, so that what is committed recovers byte for byte, by array and by stream, and the index records the
 * digests of the bytes stored. The test runs once per seed ({@link SearchDepth#eachSeed}: more in a deeper search),
 * each with a pool and repositories of its own; {@code -Dvolpex.parallelhashing.seed=<seed>} replays one (the sizes
 * and the pauses; which thread runs a task first is up to the scheduler).
 */
class ParallelHashingTest {

    @Test
    void digests_computed_beside_the_encoding_and_the_reading_cover_every_byte_in_order() {
        SearchDepth.eachSeed("volpex.parallelhashing.seed", 1, ParallelHashingTest::digestsCoverEveryByteWithSeed);
    }

    private static void digestsCoverEveryByteWithSeed(long seed) throws IOException, InterruptedException {
        SplittableRandom random = new SplittableRandom(seed);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<FragmentRepository> repositories = Stores.inMemory(9);
            CheckpointStore store = CheckpointStore.perennial(IdaCodec.systematic(6, 3), repositories)
                    .executor(Stores.late(pool, seed, 300)).segmentBytes(600).build();
            for (int round = 0; round < 4; round++) {
                byte[] data = Stores.data(random.nextLong(), 1 + random.nextInt(40 * 600));
                FragmentIndex index = store.commit("job", data);
                String what = data.length + " bytes, seed " + seed;
                assertEquals(Sha256.of(data), index.checkpointSha256(), what);
                for (FragmentLocation location : index.fragments()) {
                    byte[] fragment = repositories.get(Integer.parseInt(location.repositoryId().replaceAll("\\D", "")))
                            .get(index.fragmentKey(location.fragmentIndex())).orElseThrow();
                    assertEquals(location.sha256(), Sha256.of(fragment), "fragment " + location.fragmentIndex()
                            + ", " + what);
                }
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                assertEquals(data.length, store.recoverTo(index, out), what);
                assertArrayEquals(data, out.toByteArray(), what);
                assertArrayEquals(data, store.recover("job").orElseThrow().toByteArray(), what);
            }
            store.close();
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        }
    }
}
