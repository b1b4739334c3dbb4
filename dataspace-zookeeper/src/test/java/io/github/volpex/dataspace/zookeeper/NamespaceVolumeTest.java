package io.github.volpex.dataspace.zookeeper;

import static io.github.volpex.dataspace.zookeeper.Utf8.bytes;
import static io.github.volpex.dataspace.zookeeper.Utf8.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.dataspace.Replica;
import io.github.volpex.testsupport.Scale;
import io.github.volpex.testsupport.SearchDepth;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A namespace of many tags and live blobs at ZooKeeper's default {@code jute.maxbuffer}: a fresh client connects
 * (collecting garbage over every blob), reads and gets, a trailing replica replays those calls from the read log, a raw
 * client lists every znode of the namespace — each listing in one answer — and {@code destroy()} finishes. Every CI run
 * uses 10⁴ tags of which 2·10³ hold blobs of their own (an inline limit of 0); {@code -Pscale} raises this to 10⁵
 * tags and 2·10⁴ blobs ({@code -Dvolpex.zookeeper.volume.tags}, {@code -Dvolpex.zookeeper.volume.blobs} set any
 * size). One tag in a hundred has a name too long to escape, so the
 * dictionary fills too. What was measured is written to {@code target/zookeeper-volume.txt}. The tags read and got
 * are drawn from a seed: the test runs once per seed ({@link SearchDepth#eachSeed}: more in a deeper search), each in
 * a fresh namespace of the class's server (a get takes its tuple, so a second sample must not meet the first's
 * takes), and {@code -Dvolpex.zookeeper.volume.seed=<seed>} replays one.
 */
// A hang guard only, far above the run time of a loaded machine at the profile's scale.
@Timeout(value = 1_800, unit = TimeUnit.SECONDS)
class NamespaceVolumeTest {

    private static final int TAGS = Integer.getInteger("volpex.zookeeper.volume.tags", Scale.of(10_000, 100_000));
    private static final int BLOBS = Integer.getInteger("volpex.zookeeper.volume.blobs", Scale.of(2_000, 20_000));
    /** Writing processes per kind of value, each on a thread of its own. */
    private static final int WRITERS = 4;
    private static final int READER = 2 * WRITERS;
    private static final int SAMPLE = 200;
    private static TestEnsemble ensemble;

    @BeforeAll
    static void start() throws Exception {
        ensemble = TestEnsemble.start(1, "/volume");
    }

    @AfterAll
    static void stop() throws Exception {
        Closing.all(ensemble);
    }

    /** The tag of index {@code i}: one in a hundred has a name of 300 characters, kept hashed. */
    private static String tag(int i) {
        return i % 100 == 7 ? "long-" + "x".repeat(290) + "-" + i : "tag-" + i;
    }

    /** The value of index {@code i}: the first {@code BLOBS} go to the blob store, each a blob of its own. */
    private static byte[] value(int i) {
        return bytes((i < BLOBS ? "blob-" : "inline-") + i);
    }

    private static ZooKeeperDataspace connect(String namespace, int inlineLimit) {
        return ZooKeeperDataspace.builder(ensemble.connectString(), namespace).processCount(READER + 1)
                .inlineLimitBytes(inlineLimit).connect();
    }

    @Test
    void a_large_namespace_connects_reads_replays_lists_every_znode_and_is_destroyed() {
        SearchDepth.eachSeed("volpex.zookeeper.volume.seed", 1, NamespaceVolumeTest::largeNamespaceWithSeed);
    }

    private static void largeNamespaceWithSeed(long seed) throws Exception {
        assertNull(System.getProperty("jute.maxbuffer"), "ZooKeeper's default jute.maxbuffer");
        assertTrue(BLOBS <= TAGS, "the blobs are held by tags");
        String namespace = ensemble.freshNamespace();
        long started = System.nanoTime();
        try (ZooKeeperDataspace blobs = connect(namespace, 0);
             ZooKeeperDataspace inline = connect(namespace, ZooKeeperDataspace.Builder.DEFAULT_INLINE_LIMIT_BYTES)) {
            ExecutorService writers = Executors.newFixedThreadPool(2 * WRITERS);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int w = 0; w < 2 * WRITERS; w++) {
                    int writer = w;
                    boolean blob = w < WRITERS;
                    Replica replica = (blob ? blobs : inline).open(writer);
                    done.add(writers.submit(() -> {
                        int from = blob ? 0 : BLOBS;
                        int to = blob ? BLOBS : TAGS;
                        for (int i = from + writer % WRITERS; i < to; i += WRITERS) {
                            replica.put(tag(i), value(i));
                        }
                        return null;
                    }));
                }
                for (Future<?> writing : done) {
                    writing.get(1_500, TimeUnit.SECONDS);
                }
            } finally {
                writers.shutdownNow();
            }
        }
        long written = System.nanoTime();

        List<Integer> sample = new ArrayList<>();
        SplittableRandom draw = new SplittableRandom(seed);
        for (int k = 0; k < SAMPLE; k++) {
            sample.add(draw.nextInt(TAGS));
        }
        List<String> outcomes = new ArrayList<>();
        long connecting = System.nanoTime();
        long connected;
        try (ZooKeeperDataspace fresh = connect(namespace, ZooKeeperDataspace.Builder.DEFAULT_INLINE_LIMIT_BYTES)) {
            connected = System.nanoTime();
            assertEquals(0, fresh.collectGarbage(), "no orphan");
            Replica reader = fresh.open(READER);
            for (int k = 0; k < SAMPLE; k++) {
                int i = sample.get(k);
                Optional<byte[]> got = k % 2 == 0 ? reader.tryRead(tag(i)) : reader.tryGet(tag(i));
                outcomes.add(got.map(Utf8::text).orElse("(absent)"));
            }
        }
        List<String> expected = new ArrayList<>();
        List<Integer> taken = new ArrayList<>();
        for (int k = 0; k < SAMPLE; k++) {
            int i = sample.get(k);
            expected.add(taken.contains(i) ? "(absent)" : text(value(i)));
            if (k % 2 == 1) {
                taken.add(i);
            }
        }
        assertEquals(expected, outcomes, "reads and gets of the sample drawn with seed " + seed
                + " (-Dvolpex.zookeeper.volume.seed replays it)");
        try (ZooKeeperDataspace other = connect(namespace, 0)) {
            Replica trailing = other.open(READER);
            List<String> replayed = new ArrayList<>();
            for (int k = 0; k < SAMPLE; k++) {
                int i = sample.get(k);
                Optional<byte[]> got = k % 2 == 0 ? trailing.tryRead(tag(i)) : trailing.tryGet(tag(i));
                replayed.add(got.map(Utf8::text).orElse("(absent)"));
            }
            assertEquals(outcomes, replayed, "the trailing replica receives what the leading one did");
            assertEquals(SAMPLE, other.statistics().servedFromLog());
        }
        long checking = System.nanoTime();
        NamespaceInspector.Snapshot snapshot = ensemble.inspector().check(namespace);
        // A blob taken by a get stays live: the reader's read log refers to it.
        assertEquals(BLOBS, snapshot.blobs().size(), "one live blob per blob tag");
        long tagRecords = TAGS - taken.stream().distinct().count();
        assertEquals(tagRecords, snapshot.tags().size(), "one record per tag not taken");
        long walking = System.nanoTime();
        NamespaceInspector.Walk walk = ensemble.inspector().walk(namespace);
        long walked = System.nanoTime();
        // Tag records, and per blob its reference, its key in the store and its one chunk.
        assertTrue(walk.znodes() > tagRecords + 3L * BLOBS, "every znode listed: " + walk);
        assertTrue(walk.largestAnswerBytes() < ZooKeeperDataspace.Builder.DEFAULT_JUTE_MAX_BUFFER, walk.toString());
        long destroyStarted;
        try (ZooKeeperDataspace last = connect(namespace, 0)) {
            destroyStarted = System.nanoTime();
            last.destroy();
        }
        long destroyed = System.nanoTime();
        assertNull(ensemble.inspector().zooKeeper().exists(namespace, false), "destroyed");

        String report = String.format("ZooKeeper dataspace volume: %,d tags (%,d with hashed names), %,d blobs, "
                + "default jute.maxbuffer, 1 embedded server%n"
                + "  written by %d threads in %.1f s%n"
                + "  connect of a fresh client (collecting garbage over every blob): %.2f s%n"
                + "  invariants checked by a raw client in %.1f s%n"
                + "  every znode listed by a raw client: %,d znodes in %.1f s; most children in one listing: %,d (%s); "
                + "largest answer %,d bytes; ZooKeeper's approximate data size %,d bytes%n"
                + "  destroy: %.2f s%n", TAGS, (TAGS + 92) / 100, BLOBS, 2 * WRITERS,
                (written - started) / 1e9, (connected - connecting) / 1e9, (walking - checking) / 1e9, walk.znodes(),
                (walked - walking) / 1e9, walk.maxChildren(), walk.fullest(), walk.largestAnswerBytes(),
                walk.dataBytes(), (destroyed - destroyStarted) / 1e9);
        Files.writeString(Path.of("target", "zookeeper-volume.txt"), report);
    }
}
