package io.github.volpex.dataspace.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Replica;
import io.github.volpex.testsupport.Scale;
import io.github.volpex.testsupport.SearchDepth;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many distinct tags put and got through batched requests: sixteen producers and sixteen consumers share two clients,
 * each consumer's gets on the tags of a producer of the other client, in the producer's order, so that gets wait and
 * are served by puts as often as they find their tuple. Most values are a few bytes, one in fifty is close to the
 * inline limit (a handful fill a batch's byte cap) and one in a thousand goes to the blob store. Every value read back
 * is compared with the one put, every process issued each request once, every batch stayed within the caps and the
 * namespace is consistent and holds no orphan blob afterwards. CI runs 10⁴ tags; {@code -Pscale} 10⁵
 * ({@code -Dvolpex.zookeeper.batch.tags} sets any count). The values are drawn from a seed: the test runs once per
 * seed ({@link SearchDepth#eachSeed}: more in a deeper search), each in a fresh namespace of the class's server, and
 * {@code -Dvolpex.zookeeper.batch.seed=<seed>} replays one.
 */
// A hang guard only, far above the run time of a loaded machine at the profile's scale.
@Timeout(value = 1_800, unit = TimeUnit.SECONDS)
class BatchedVolumeTest {

    private static final int TAGS = Integer.getInteger("volpex.zookeeper.batch.tags", Scale.of(10_000, 100_000));
    /** Producers, and as many consumers, half of each on either client. */
    private static final int PAIRS = 16;
    private static TestEnsemble ensemble;

    @BeforeAll
    static void start() throws Exception {
        ensemble = TestEnsemble.start(1, "/batch-volume");
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    /** The value of tag {@code i}: its index and the seed, then filler to its drawn size. */
    static byte[] value(long seed, int i) {
        SplittableRandom random = new SplittableRandom(seed ^ (i * 0x9E3779B97F4A7C15L));
        int size;
        if (i % 1_000 == 999) {
            size = 20_000 + random.nextInt(20_000); // above the inline limit: a blob
        } else if (i % 50 == 17) {
            size = ZooKeeperDataspace.Builder.DEFAULT_INLINE_LIMIT_BYTES - random.nextInt(4_096); // inline, large
        } else {
            size = 12 + random.nextInt(52);
        }
        byte[] value = new byte[size];
        random.nextBytes(value);
        ByteBuffer.wrap(value).putInt(i).putLong(seed);
        return value;
    }

    @Test
    void many_tags_go_through_shared_batches_and_every_value_comes_back_once() {
        SearchDepth.eachSeed("volpex.zookeeper.batch.seed", 1, BatchedVolumeTest::sharedBatchesWithSeed);
    }

    private static void sharedBatchesWithSeed(long seed) throws Exception {
        String namespace = ensemble.freshNamespace();
        List<ZkDataspace> clients = new ArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(2 * PAIRS);
        AtomicLong compared = new AtomicLong();
        List<String> wrong = Collections.synchronizedList(new ArrayList<>());
        try {
            for (int c = 0; c < 2; c++) {
                clients.add((ZkDataspace) ZooKeeperDataspace.builder(ensemble.connectString(), namespace)
                        .processCount(2 * PAIRS + 1).connect());
            }
            List<Future<?>> work = new ArrayList<>();
            for (int pair = 0; pair < PAIRS; pair++) {
                int producer = pair;
                Replica putter = clients.get(pair % 2).open(producer);
                Replica getter = clients.get((pair + 1) % 2).open(PAIRS + pair);
                work.add(threads.submit(() -> {
                    for (int i = producer; i < TAGS; i += PAIRS) {
                        putter.put("t-" + i, value(seed, i));
                    }
                    return null;
                }));
                work.add(threads.submit(() -> {
                    for (int i = producer; i < TAGS; i += PAIRS) {
                        byte[] got = getter.get("t-" + i);
                        if (!Arrays.equals(value(seed, i), got)) {
                            wrong.add("tag t-" + i + ": " + got.length + " bytes, not the value put");
                        }
                        compared.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> future : work) {
                future.get(1_500, TimeUnit.SECONDS);
            }
            assertEquals(List.of(), wrong.subList(0, Math.min(10, wrong.size())), "seed " + seed
                    + " (-Dvolpex.zookeeper.batch.seed replays the values)");
            assertEquals(TAGS, compared.get());
            for (int pair = 0; pair < PAIRS; pair++) {
                long each = (TAGS - pair + PAIRS - 1) / PAIRS;
                assertEquals(each, clients.get(0).highWaterMark(pair), "producer " + pair + " put each tuple once");
                assertEquals(each, clients.get(1).highWaterMark(PAIRS + pair), "consumer of " + pair
                        + " got each tuple once");
            }
            long batches = 0;
            long transactions = 0;
            for (ZkDataspace client : clients) {
                GroupCommit commits = client.commits();
                batches += commits.batches();
                transactions += commits.transactions();
                assertTrue(commits.largestBatchOps() <= GroupCommit.MAX_BATCH_OPS, "ops cap: "
                        + commits.largestBatchOps());
                assertTrue(commits.largestBatchBytes() <= GroupCommit.MAX_BATCH_BYTES, "bytes cap: "
                        + commits.largestBatchBytes());
                System.out.printf("batched volume, client: %,d transactions in %,d batches, largest %d operations "
                        + "and %,d bytes%n", commits.transactions(), commits.batches(), commits.largestBatchOps(),
                        commits.largestBatchBytes());
            }
            assertTrue(transactions > batches, "requests shared transactions: " + transactions + " in " + batches);
            assertEquals(0, clients.get(0).collectGarbage(), "no orphan blob");
            Replica reader = clients.get(0).open(2 * PAIRS);
            for (int i = 0; i < TAGS; i += Math.max(1, TAGS / 200)) {
                assertTrue(reader.tryRead("t-" + i).isEmpty(), "tag t-" + i + " was taken");
            }
        } finally {
            threads.shutdownNow();
            try {
                assertTrue(threads.awaitTermination(60, TimeUnit.SECONDS), "the producers and consumers stopped");
            } finally {
                Closing.all(clients.toArray(new AutoCloseable[0]));
            }
        }
        ensemble.inspector().check(namespace);
    }
}
