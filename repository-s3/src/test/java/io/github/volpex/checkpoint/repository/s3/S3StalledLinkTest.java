package io.github.volpex.checkpoint.repository.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentOutput;
import io.github.volpex.checkpoint.repository.RepositoryUnavailableException;
import io.github.volpex.testsupport.SearchDepth;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A link that stops carrying a request's body without closing — a half-dead NAT entry, a stuck middlebox — under a
 * value of promised length streamed as one {@code PutObject} ({@code streamPromisedLengths(true)}), which cannot be
 * sent again once its bytes have gone: the write fails (within the request's time limit, the attempt timeout once per
 * part's worth of bytes) with {@link RepositoryUnavailableException}, naming the value, and stores nothing; the
 * writer, blocked on a full buffer or waiting in its commit, is released; the same repository writes the next value
 * whole over a new connection. Never a hang, never a partial value. The test writes less than the streaming buffer
 * until the request has begun, so that the value is streamed (a writer that fills the buffer before the upload
 * executor starts the request goes on as a multipart upload instead, whose parts can be sent again).
 */
// A hang guard only: the stalled request's time limit is 3 parts × 5 s.
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class S3StalledLinkTest {

    /** Replays one seed: {@code -Dvolpex.s3.seed=<seed>} (the S3 repository's tests share it). */
    private static final String SEED_PROPERTY = "volpex.s3.seed";
    private static final AtomicInteger RUNS = new AtomicInteger();
    private static LocalS3 s3;
    private static ExecutorService uploads;

    @BeforeAll
    static void start() throws Exception {
        uploads = Executors.newFixedThreadPool(2);
        s3 = new LocalS3();
    }

    @AfterAll
    static void stop() {
        uploads.shutdownNow();
        if (s3 != null) {
            s3.close();
        }
    }

    @Test
    void a_streamed_put_whose_link_stalls_fails_in_its_time_limit_and_leaves_nothing() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, S3StalledLinkTest::stalledWithSeed);
    }

    private static void stalledWithSeed(long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        // Three parts' worth: the request's time limit is three attempt timeouts.
        byte[] value = new byte[3 * S3Repository.MIN_PART_BYTES];
        random.nextBytes(value);
        String prefix = "stalled-" + RUNS.incrementAndGet() + "/";
        try (TamperingProxy proxy = new TamperingProxy(s3.endpoint());
             S3Repository repository = S3Repository.builder(LocalS3.BUCKET).endpoint(proxy.endpoint())
                     .pathStyle(true).credentials(LocalS3.ACCESS_KEY, LocalS3.SECRET_KEY).keyPrefix(prefix)
                     .id("stalled").partBytes(S3Repository.MIN_PART_BYTES).maxAttempts(3).uploadExecutor(uploads)
                     .streamPromisedLengths(true)
                     .timeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(120)).build()) {
            // A first value through the proxy: the server is warm and answers well within the attempt timeout.
            repository.put("warm", new byte[] {1});
            int begun = proxy.bodiesBegun();
            proxy.stallNextBodies(1);
            IOException failure = null;
            try (FragmentOutput out = repository.create("v", value.length)) {
                int first = 512 << 10;
                out.write(value, 0, first);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (proxy.bodiesBegun() == begun) {
                    assertTrue(System.nanoTime() - deadline < 0, "the streamed request did not begin within 60 s");
                    Thread.sleep(5);
                }
                for (int at = first; at < value.length; ) {
                    int n = Math.min(value.length - at, 1 + random.nextInt(1 << 20));
                    out.write(value, at, n);
                    at += n;
                }
                out.commit();
            } catch (IOException e) {
                failure = e;
            }
            assertEquals(1, proxy.stalled(), "seed " + seed + ": " + failure);
            assertTrue(failure instanceof RepositoryUnavailableException, "seed " + seed + ": " + failure);
            assertEquals("stalled", ((RepositoryUnavailableException) failure).repositoryId(), "seed " + seed);
            assertTrue(String.valueOf(failure.getMessage()).contains("write v"), "names the value: " + failure);
            assertEquals(Optional.empty(), repository.get("v"), "seed " + seed);

            // The next value goes through a new connection, whole.
            byte[] next = new byte[S3Repository.MIN_PART_BYTES + 1 + random.nextInt(1 << 20)];
            random.nextBytes(next);
            try (FragmentOutput out = repository.create("next", next.length)) {
                out.write(next);
                out.commit();
            }
            assertArrayEquals(next, repository.get("next").orElseThrow(), "seed " + seed);
        }
        // Once the stalled connection is gone, the server holds the values written whole only (it may list the
        // abandoned upload as a temporary object until it notices its connection closed).
        try (S3Repository direct = s3.repository("stalled").keyPrefix(prefix).build()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            List<String> keys = direct.list("");
            List<String> expected = List.of("next", "warm");
            while (!keys.equals(expected) && System.nanoTime() - deadline < 0) {
                Thread.sleep(20);
                keys = direct.list("");
            }
            assertEquals(expected, keys, "seed " + seed);
        }
    }
}
