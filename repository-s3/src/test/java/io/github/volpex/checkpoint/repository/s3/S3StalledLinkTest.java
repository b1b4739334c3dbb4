package io.github.volpex.checkpoint.repository.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentOutput;
import io.github.volpex.checkpoint.repository.RepositoryUnavailableException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A link that stops carrying a request's body without closing — a half-dead NAT entry, a stuck middlebox — under a
 * value of promised length streamed as one {@code PutObject} ({@code streamPromisedLengths(true)}), which cannot be
 * sent again once its bytes have gone: the write fails within the request's time limit (the attempt timeout once per
 * part's worth of bytes), says which value, and stores nothing; the writer, blocked on a full buffer, is released; the
 * same repository writes the next value whole over a new connection. (If the upload executor had not started the
 * request when the buffer filled, the write went on as a multipart upload, whose stalled part is sent again: then the
 * value must be stored whole.) Never a hang, never a partial value.
 */
// A hang guard only: the stalled request's time limit is 3 parts × 5 s.
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class S3StalledLinkTest {

    private static LocalS3 s3;
    private static ExecutorService uploads;

    @BeforeAll
    static void start() throws Exception {
        s3 = new LocalS3();
        uploads = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void stop() {
        uploads.shutdownNow();
        s3.close();
    }

    @Test
    void a_streamed_put_whose_link_stalls_fails_in_its_time_limit_and_leaves_nothing() throws Exception {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        // Three parts' worth: more than the streaming buffer and the sockets hold, so the writer blocks on the stall.
        byte[] value = new byte[3 * S3Repository.MIN_PART_BYTES];
        random.nextBytes(value);
        String prefix = "stalled-" + Long.toHexString(seed) + "/";
        try (TamperingProxy proxy = new TamperingProxy(s3.endpoint());
             S3Repository repository = S3Repository.builder(LocalS3.BUCKET).endpoint(proxy.endpoint())
                     .pathStyle(true).credentials(LocalS3.ACCESS_KEY, LocalS3.SECRET_KEY).keyPrefix(prefix)
                     .id("stalled").partBytes(S3Repository.MIN_PART_BYTES).maxAttempts(3).uploadExecutor(uploads)
                     .streamPromisedLengths(true)
                     .timeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(120)).build()) {
            // A first value through the proxy: the server is warm and answers well within the attempt timeout.
            repository.put("warm", new byte[] {1});
            proxy.stallNextBodies(1);
            IOException failure = null;
            try (FragmentOutput out = repository.create("v", value.length)) {
                for (int at = 0; at < value.length; ) {
                    int n = Math.min(value.length - at, 1 + random.nextInt(1 << 20));
                    out.write(value, at, n);
                    at += n;
                }
                out.commit();
            } catch (IOException e) {
                failure = e;
            }
            assertEquals(1, proxy.stalled(), "seed " + seed + ": " + failure);
            if (failure != null) {
                // The type a stalled multipart upload fails with too: the store counts the repository as unavailable.
                assertTrue(failure instanceof RepositoryUnavailableException, "seed " + seed + ": " + failure);
                assertEquals("stalled", ((RepositoryUnavailableException) failure).repositoryId());
                assertTrue(String.valueOf(failure.getMessage()).contains("write v"), "names the value: " + failure);
                assertEquals(Optional.empty(), repository.get("v"), "seed " + seed);
            } else {
                // The executor had not started the request when the buffer filled, so the write went on as a
                // multipart upload, whose stalled part was sent again: then the value is whole.
                assertArrayEquals(value, repository.get("v").orElseThrow(), "seed " + seed);
            }

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
            List<String> expected = direct.get("v").isPresent() ? List.of("next", "v", "warm")
                    : List.of("next", "warm");
            while (!keys.equals(expected) && System.nanoTime() - deadline < 0) {
                Thread.sleep(20);
                keys = direct.list("");
            }
            assertEquals(expected, keys, "seed " + seed);
        }
    }
}
