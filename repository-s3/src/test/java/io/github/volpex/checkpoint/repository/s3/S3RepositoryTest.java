package io.github.volpex.checkpoint.repository.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentOutput;
import io.github.volpex.checkpoint.repository.RepositoryUnavailableException;
import io.github.volpex.testsupport.SearchDepth;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Bad input and bad answers: a missing bucket, refused credentials, throttling, a body cut short, a server that never
 * answers, a listing that changes while it is paged, an abandoned multipart upload — each a typed failure or a retry,
 * never a wrong object; parts uploaded on an executor while the next is filled, which arrive whole and in order, and
 * whose failures fail the commit and leave nothing. The tests that draw sizes, pieces or bytes at random run once per
 * seed ({@link SearchDepth#eachSeed}: more in a deeper search), each seed's writes under a key prefix of their own on
 * the class's servers; {@code -Dvolpex.s3.seed=<seed>} replays one.
 */
// A hang guard only (a silent server must not stall the build), far above the run time of a loaded machine.
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class S3RepositoryTest {

    private static LocalS3 s3;
    private static LocalS3 open;
    private static FaultyS3Front front;
    /** Where the tests of {@link S3Repository.Builder#uploadExecutor} upload parts. */
    private static ExecutorService uploads;
    private static final String SEED_PROPERTY = "volpex.s3.seed";
    /** Numbers the seeds' runs, so that each writes under a key prefix of its own. */
    private static final AtomicInteger RUNS = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        s3 = new LocalS3();
        open = new LocalS3(AuthenticationType.NONE);
        front = new FaultyS3Front(open.endpoint());
        uploads = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void stop() {
        uploads.shutdownNow();
        try {
            front.close();
        } finally {
            try {
                open.close();
            } finally {
                s3.close();
            }
        }
    }

    private static S3Repository.Builder throughFront(String id) {
        return S3Repository.builder(LocalS3.BUCKET).endpoint(front.endpoint()).pathStyle(true)
                .credentials(LocalS3.ACCESS_KEY, LocalS3.SECRET_KEY).keyPrefix(id + "/").id(id)
                .timeouts(Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(20));
    }

    @Test
    void a_missing_bucket_is_a_typed_failure_that_names_it() {
        try (S3Repository repository = S3Repository.builder("no-such-bucket").endpoint(s3.endpoint()).pathStyle(true)
                .credentials(LocalS3.ACCESS_KEY, LocalS3.SECRET_KEY).id("missing").build()) {
            RepositoryUnavailableException e = assertThrows(RepositoryUnavailableException.class,
                    () -> repository.put("k", new byte[] {1}));
            assertEquals("missing", e.repositoryId());
            assertTrue(e.getMessage().contains("bucket no-such-bucket does not exist"), e.getMessage());
            assertThrows(RepositoryUnavailableException.class, () -> repository.list(""));
            assertThrows(RepositoryUnavailableException.class, () -> repository.get("k"));
            assertThrows(RepositoryUnavailableException.class, () -> repository.open("k"));
            // A delete asks whether the object exists first, and a 404 to that question does not say which is missing.
            RepositoryUnavailableException delete = assertThrows(RepositoryUnavailableException.class,
                    () -> repository.delete("k"));
            assertTrue(delete.getMessage().contains("bucket no-such-bucket does not exist"), delete.getMessage());
            assertThrows(RepositoryUnavailableException.class, () -> {
                try (FragmentOutput out = repository.create("k")) {
                    out.write(new byte[] {1});
                    out.commit();
                }
            });
        }
    }

    @Test
    void refused_credentials_are_a_typed_failure_that_says_so() {
        try (S3Repository repository = S3Repository.builder(LocalS3.BUCKET).endpoint(s3.endpoint()).pathStyle(true)
                .credentials(LocalS3.ACCESS_KEY, "wrong secret").id("refused").build()) {
            RepositoryUnavailableException e = assertThrows(RepositoryUnavailableException.class,
                    () -> repository.put("k", new byte[] {1}));
            // A wrong secret and a request changed on the way look the same to the server: the message says both.
            assertTrue(e.getMessage().contains("SignatureDoesNotMatch") && e.getMessage().contains("the secret access "
                    + "key is wrong") && e.getMessage().contains("changed on the way"), e.getMessage());
        }
        try (S3Repository repository = S3Repository.builder(LocalS3.BUCKET).endpoint(s3.endpoint()).pathStyle(true)
                .credentials("unknown", LocalS3.SECRET_KEY).id("unknown").build()) {
            RepositoryUnavailableException e = assertThrows(RepositoryUnavailableException.class,
                    () -> repository.list(""));
            assertTrue(e.getMessage().contains("the access key id was refused (InvalidAccessKeyId)"), e.getMessage());
        }
    }

    @Test
    void a_request_changed_on_the_way_is_sent_again_and_not_blamed_on_the_credentials() throws Exception {
        try (TamperingProxy proxy = new TamperingProxy(s3.endpoint());
             S3Repository repository = S3Repository.builder(LocalS3.BUCKET).endpoint(proxy.endpoint())
                     .pathStyle(true).credentials(LocalS3.ACCESS_KEY, LocalS3.SECRET_KEY).keyPrefix("tampered/")
                     .id("tampered").partBytes(S3Repository.MIN_PART_BYTES).maxAttempts(3)
                     .timeouts(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(30)).build()) {
            byte[] value = new byte[1000];
            new SplittableRandom(3).nextBytes(value);
            // One damaged attempt: the server refuses it (403 SignatureDoesNotMatch), the next attempt gets through.
            proxy.flipNextBodies(1);
            repository.put("k", value);
            assertEquals(1, proxy.flipped());
            assertArrayEquals(value, repository.get("k").orElseThrow());
            // So does a part of a multipart upload.
            byte[] big = new byte[S3Repository.MIN_PART_BYTES + 1000];
            new SplittableRandom(4).nextBytes(big);
            proxy.flipNextBodies(1);
            try (FragmentOutput out = repository.create("big")) {
                out.write(big);
                out.commit();
            }
            assertEquals(2, proxy.flipped());
            assertArrayEquals(big, repository.get("big").orElseThrow());
            // Damaged on every attempt: a typed failure that names both causes, and the value is unchanged.
            proxy.flipNextBodies(3);
            RepositoryUnavailableException e = assertThrows(RepositoryUnavailableException.class,
                    () -> repository.put("k", new byte[] {1, 2, 3, 4}));
            assertEquals(5, proxy.flipped());
            assertTrue(e.getMessage().contains("changed on the way"), e.getMessage());
            assertFalse(e.getMessage().contains("check the"), e.getMessage());
            assertArrayEquals(value, repository.get("k").orElseThrow());
        }
    }

    @Test
    void answers_cut_short_are_asked_again() throws IOException {
        try (S3Repository repository = throughFront("cut").partBytes(S3Repository.MIN_PART_BYTES).maxAttempts(3)
                .build()) {
            repository.put("a", new byte[] {1});
            repository.put("b", new byte[] {2});
            front.truncateNext(request -> request.startsWith("GET ") && request.contains("list-type=2"), 2);
            assertEquals(List.of("a", "b"), repository.list(""));
            // The answer that carries a multipart upload's id.
            front.truncateNext(request -> request.startsWith("POST ") && request.contains("uploads"), 1);
            byte[] big = new byte[S3Repository.MIN_PART_BYTES + 10];
            new SplittableRandom(5).nextBytes(big);
            try (FragmentOutput out = repository.create("big")) {
                out.write(big);
                out.commit();
            }
            assertArrayEquals(big, repository.get("big").orElseThrow());
            // Cut short on every attempt: a typed failure.
            front.truncateNext(request -> request.startsWith("GET ") && request.contains("list-type=2"), 3);
            assertThrows(RepositoryUnavailableException.class, () -> repository.list(""));
            assertEquals(List.of("a", "b", "big"), repository.list(""));
        }
    }

    @Test
    void a_download_changed_on_the_way_fails_the_crc32c_it_was_stored_with() throws IOException {
        try (S3Repository repository = throughFront("flipped").maxAttempts(1).build()) {
            byte[] value = new byte[4096];
            new SplittableRandom(6).nextBytes(value);
            repository.put("k", value);
            try (FragmentOutput out = repository.create("streamed")) {
                out.write(value);
                out.commit();
            }
            try {
                for (int variant = 0; variant < 4; variant++) {
                    boolean serverReturnsChecksum = variant < 2;
                    String key = variant % 2 == 0 ? "k" : "streamed";
                    front.stripChecksums(!serverReturnsChecksum);
                    Predicate<String> download = request -> request.startsWith("GET ")
                            && request.endsWith("/flipped/" + key);
                    // The client checks the checksum the server returns, if it does; the repository checks the
                    // CRC32C it stored in the object's metadata, whatever the server returns. A stream reports it at
                    // its end; get asks again.
                    front.flipNext(download, 1);
                    IOException streamed = assertThrows(IOException.class, () -> {
                        try (InputStream in = repository.open(key).orElseThrow()) {
                            in.skip(10);
                            in.readAllBytes();
                        }
                    });
                    assertTrue(serverReturnsChecksum ? streamed.getMessage().contains("checksum")
                            : streamed.getMessage().contains("do not match the CRC32C the value was stored with"),
                            streamed.getMessage());
                    front.flipNext(download, S3Repository.DOWNLOAD_ATTEMPTS - 1);
                    assertArrayEquals(value, repository.get(key).orElseThrow());
                    front.flipNext(download, S3Repository.DOWNLOAD_ATTEMPTS);
                    assertThrows(IOException.class, () -> repository.get(key));
                    assertArrayEquals(value, repository.get(key).orElseThrow());
                }
            } finally {
                front.clearDamage();
                front.stripChecksums(false);
            }
        }
    }

    @Test
    void throttling_is_retried_and_reported_once_the_retries_are_spent() throws IOException {
        try (S3Repository repository = throughFront("throttled").maxAttempts(3).build()) {
            front.throttleNext(2);
            repository.put("k", new byte[] {1, 2, 3});
            assertArrayEquals(new byte[] {1, 2, 3}, repository.get("k").orElseThrow());
            front.throttleNext(3);
            RepositoryUnavailableException e = assertThrows(RepositoryUnavailableException.class,
                    () -> repository.put("k", new byte[] {4}));
            assertTrue(e.getMessage().contains("503 SlowDown"), e.getMessage());
            front.throttleNext(0);
            assertArrayEquals(new byte[] {1, 2, 3}, repository.get("k").orElseThrow(),
                    "the failed put changed nothing");
        }
    }

    @Test
    void a_body_cut_short_is_an_error_not_a_shorter_value() throws IOException {
        try (S3Repository repository = throughFront("truncated").maxAttempts(1).build()) {
            byte[] value = new byte[100_000];
            new SplittableRandom(1).nextBytes(value);
            repository.put("k", value);
            front.truncateGets(true);
            try {
                assertThrows(IOException.class, () -> repository.get("k"));
                assertThrows(IOException.class, () -> {
                    try (InputStream in = repository.open("k").orElseThrow()) {
                        in.readAllBytes();
                    }
                });
            } finally {
                front.truncateGets(false);
            }
            assertArrayEquals(value, repository.get("k").orElseThrow());
        }
    }

    @Test
    void a_server_that_never_answers_times_out_as_unavailable() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            List<Socket> accepted = Collections.synchronizedList(new ArrayList<>());
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept());
                    }
                } catch (IOException closed) {
                    // The test is over.
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            try (S3Repository repository = S3Repository.builder(LocalS3.BUCKET)
                    .endpoint(URI.create("http://127.0.0.1:" + silent.getLocalPort())).pathStyle(true)
                    .credentials(LocalS3.ACCESS_KEY, LocalS3.SECRET_KEY).id("silent")
                    .timeouts(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(2)).maxAttempts(2)
                    .build()) {
                RepositoryUnavailableException e = assertThrows(RepositoryUnavailableException.class,
                        () -> repository.get("k"));
                assertEquals("silent", e.repositoryId());
            } finally {
                for (Socket socket : accepted) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void a_listing_that_changes_while_it_is_paged_returns_sorted_distinct_keys_with_every_stable_one()
            throws Exception {
        try (S3Repository repository = s3.repository("paged").build()) {
            Set<String> stable = new HashSet<>();
            for (int i = 0; i < 2500; i += 2) {
                String key = String.format("k%05d", i);
                s3.putDirect(repository.keyPrefix() + key, new byte[] {1});
                stable.add(key);
            }
            AtomicBoolean done = new AtomicBoolean();
            ExecutorService churn = Executors.newSingleThreadExecutor();
            try {
                Future<?> changes = churn.submit(() -> {
                    for (int round = 0; !done.get(); round++) {
                        for (int i = 1; i < 2500 && !done.get(); i += 2) {
                            String key = repository.keyPrefix() + String.format("k%05d", i);
                            if (round % 2 == 0) {
                                s3.putDirect(key, new byte[] {2});
                            } else {
                                s3.removeDirect(key);
                            }
                        }
                    }
                    return null;
                });
                for (int listing = 0; listing < 5; listing++) {
                    List<String> keys = repository.list("k");
                    assertEquals(keys.stream().sorted().distinct().toList(), keys);
                    assertTrue(keys.containsAll(stable), "a stable key is missing");
                    assertTrue(keys.size() >= stable.size());
                }
                done.set(true);
                changes.get();
            } finally {
                done.set(true);
                churn.shutdownNow();
            }
        }
    }

    @Test
    void a_multipart_upload_becomes_visible_whole_at_its_commit_and_an_abandoned_one_leaves_nothing()
            throws IOException {
        try (S3Repository repository = s3.repository("multipart").partBytes(S3Repository.MIN_PART_BYTES).build()) {
            byte[] chunk = new byte[1 << 20];
            new SplittableRandom(7).nextBytes(chunk);
            try (FragmentOutput out = repository.create("big")) {
                for (int i = 0; i < 12; i++) {
                    out.write(chunk);
                }
                assertTrue(repository.list("").isEmpty(), "invisible before its commit");
                out.commit();
            }
            byte[] stored = repository.get("big").orElseThrow();
            assertEquals(12 << 20, stored.length);
            for (int i = 0; i < 12; i++) {
                assertArrayEquals(chunk, Arrays.copyOfRange(stored, i << 20, (i + 1) << 20));
            }
            try (FragmentOutput out = repository.create("abandoned")) {
                for (int i = 0; i < 7; i++) {
                    out.write(chunk);
                }
            }
            assertEquals(List.of("big"), repository.list(""));
            assertTrue(repository.delete("big"));
            assertFalse(repository.delete("big"));
        }
    }

    @Test
    void a_client_given_to_it_is_used_and_left_open() throws IOException {
        try (S3Client client = S3Client.builder().endpointOverride(s3.endpoint()).region(Region.US_EAST_1)
                .forcePathStyle(true).credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(LocalS3.ACCESS_KEY, LocalS3.SECRET_KEY))).build()) {
            S3Repository repository = S3Repository.builder(LocalS3.BUCKET).client(client).keyPrefix("given/")
                    .build();
            assertEquals("checkpoints/given/", repository.id());
            repository.put("k", new byte[] {9});
            repository.close();
            assertArrayEquals(new byte[] {9}, S3Repository.builder(LocalS3.BUCKET).client(client)
                    .keyPrefix("given/").build().get("k").orElseThrow(), "the client is still open");
        }
    }

    @Test
    void validates_its_configuration() {
        assertEquals("bucket must not be empty",
                assertThrows(IllegalArgumentException.class, () -> S3Repository.builder("")).getMessage());
        assertThrows(NullPointerException.class, () -> S3Repository.builder(null));
        S3Repository.Builder builder = S3Repository.builder("b");
        assertEquals("partBytes must be in [5242880, 1073741824]: 1024",
                assertThrows(IllegalArgumentException.class, () -> builder.partBytes(1024)).getMessage());
        assertEquals("maxAttempts must be in [1, 10]: 0",
                assertThrows(IllegalArgumentException.class, () -> builder.maxAttempts(0)).getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> builder.timeouts(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> builder.id(""));
        assertThrows(IllegalArgumentException.class, () -> builder.keyPrefix("p".repeat(801)));
        try (S3Client client = S3Client.builder().region(Region.US_EAST_1).build()) {
            assertThrows(IllegalStateException.class, () -> S3Repository.builder("b").client(client)
                    .endpoint(URI.create("http://127.0.0.1:1")).build());
        }
        try (S3Repository repository = S3Repository.builder("b").endpoint(URI.create("http://127.0.0.1:1"))
                .pathStyle(true).credentials("a", "s").build()) {
            assertThrows(IllegalArgumentException.class, () -> repository.put("bad/key", new byte[1]));
            assertThrows(NullPointerException.class, () -> repository.put("k", null));
            assertEquals("b/", repository.id());
        }
        String longest = "p".repeat(253);
        try (S3Repository repository = S3Repository.builder("b").endpoint(URI.create("http://127.0.0.1:1"))
                .keyPrefix(longest).build()) {
            assertEquals(255, repository.id().length());
        }
        String tooLong = longest + "é";
        String message = assertThrows(IllegalArgumentException.class, () -> S3Repository.builder("b")
                .endpoint(URI.create("http://127.0.0.1:1")).keyPrefix(tooLong).build()).getMessage();
        assertEquals("the default id \"b/" + tooLong + "\" is longer than 255 bytes of UTF-8; set a shorter one with "
                + "id(...): it has 257", message);
        try (S3Repository repository = S3Repository.builder("b").endpoint(URI.create("http://127.0.0.1:1"))
                .keyPrefix(tooLong).id("named").build()) {
            assertEquals("named", repository.id());
        }
    }

    /** How the test's executor treats the parts given to it. */
    enum Mode {
        /** Runs every part on a pool thread. */
        POOL,
        /** Runs a part on a pool thread after a pause, so that the writer often claims it first. */
        LATE,
        /** Refuses every part, as a shut-down pool does: the writer uploads them. */
        REFUSING,
        /** Runs every task inside {@code execute}, on the caller's thread, as a direct or caller-runs executor does. */
        DIRECT,
        /** Takes every task and never runs it, as a pool whose threads are all busy for long does. */
        DROPPING
    }

    private static Executor executor(Mode mode, AtomicInteger given) {
        return task -> {
            given.incrementAndGet();
            switch (mode) {
                case POOL -> uploads.execute(task);
                case LATE -> uploads.execute(() -> {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    task.run();
                });
                case REFUSING -> throw new RejectedExecutionException("refused");
                case DIRECT -> task.run();
                case DROPPING -> {
                }
            }
        };
    }

    /**
     * A value of promised length is streamed only when the builder asks for it: by default it goes as a multipart
     * upload, whose first part reaches the upload executor only once a part is full; streamed, the request is handed
     * to the executor with the first byte.
     */
    @Test
    void a_promised_length_is_streamed_only_when_asked_for() throws IOException {
        int length = S3Repository.MIN_PART_BYTES + 12_345;
        byte[] value = new byte[length];
        new SplittableRandom(length).nextBytes(value);
        for (boolean stream : new boolean[] {false, true}) {
            AtomicInteger given = new AtomicInteger();
            try (S3Repository repository = s3.repository("opt-in-" + stream).partBytes(S3Repository.MIN_PART_BYTES)
                    .uploadExecutor(executor(Mode.POOL, given)).streamPromisedLengths(stream).build()) {
                try (FragmentOutput out = repository.create("v", length)) {
                    out.write(value, 0, 1);
                    assertEquals(stream ? 1 : 0, given.get(), "tasks given after the first byte, streamed " + stream);
                    out.write(value, 1, length - 1);
                    out.commit();
                }
                assertArrayEquals(value, repository.get("v").orElseThrow(), "streamed " + stream);
            }
        }
    }

    @Test
    void parts_uploaded_on_an_executor_arrive_whole_and_in_order_whoever_runs_them() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, S3RepositoryTest::partsArriveWholeAndInOrderWithSeed);
    }

    private static void partsArriveWholeAndInOrderWithSeed(long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        for (Mode mode : Mode.values()) {
            for (int fullParts = 0; fullParts <= 2; fullParts++) {
                int tail = random.nextInt(2) == 0 ? 0 : 1 + random.nextInt(3 << 20);
                writeAndRead(mode, new byte[fullParts * S3Repository.MIN_PART_BYTES + tail], random, seed);
            }
        }
    }

    /**
     * Values of promised length past the part size, streamed as one {@code PutObject} whoever runs the request: a
     * pool, a pool that starts it late, none (refused, dropped, or run inside {@code execute}, where it would wait for
     * bytes not yet written) — then the write goes on as a multipart upload — for values shorter and longer than the
     * streaming buffer, written in pieces of random sizes.
     */
    @Test
    void values_of_promised_length_arrive_whole_whoever_runs_the_request() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, S3RepositoryTest::valuesOfPromisedLengthArriveWholeWithSeed);
    }

    private static void valuesOfPromisedLengthArriveWholeWithSeed(long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        for (Mode mode : Mode.values()) {
            for (int length : new int[] {S3Repository.MIN_PART_BYTES + 1,
                    S3Repository.MIN_PART_BYTES + 1 + random.nextInt(12 << 20)}) {
                byte[] value = new byte[length];
                random.nextBytes(value);
                String what = mode + ", " + length + " bytes, seed " + seed;
                try (S3Repository repository = s3.repository("promised-" + mode)
                        .partBytes(S3Repository.MIN_PART_BYTES).uploadExecutor(executor(mode, new AtomicInteger()))
                        .streamPromisedLengths(true).build()) {
                    try (FragmentOutput out = repository.create("v", length)) {
                        for (int at = 0; at < length; ) {
                            int n = Math.min(length - at, 1 + random.nextInt(3 << 20));
                            out.write(value, at, n);
                            at += n;
                        }
                        out.commit();
                    }
                    assertArrayEquals(value, repository.get("v").orElseThrow(), what);
                    assertEquals(List.of("v"), repository.list(""), what);
                    assertEquals(List.of(), incompleteUploads(s3, repository.keyPrefix()), what);
                }
            }
        }
    }

    /**
     * A streamed {@code PutObject} whose body is damaged on the way is refused by the server, and cannot be sent again
     * (its bytes are gone): the write fails, says why, and leaves nothing, without waiting for bytes that will never
     * be read (a part of a multipart upload would have been sent again). When the damage meets an attempt that had not
     * begun its body yet (a stale pooled connection, a refusal before the body), the next attempt sends the body and
     * the value is stored whole. Never a damaged value, never a hang. Three rounds, each a seed of its own (more in a
     * deeper search).
     */
    @Test
    void a_streamed_put_damaged_on_the_way_fails_the_write_and_leaves_nothing() {
        SearchDepth.eachSeed(SEED_PROPERTY, 3, S3RepositoryTest::aStreamedPutDamagedOnTheWayWithSeed);
    }

    private static void aStreamedPutDamagedOnTheWayWithSeed(long seed) throws Exception {
        byte[] value = new byte[3 * S3Repository.MIN_PART_BYTES];
        new SplittableRandom(seed).nextBytes(value);
        int round = RUNS.incrementAndGet();
        try (TamperingProxy proxy = new TamperingProxy(s3.endpoint());
             S3Repository repository = S3Repository.builder(LocalS3.BUCKET).endpoint(proxy.endpoint())
                     .pathStyle(true).credentials(LocalS3.ACCESS_KEY, LocalS3.SECRET_KEY)
                     .keyPrefix("streamed-" + round + "/").id("streamed").partBytes(S3Repository.MIN_PART_BYTES)
                     .maxAttempts(3).uploadExecutor(uploads).streamPromisedLengths(true)
                     .timeouts(Duration.ofSeconds(2), Duration.ofSeconds(60), Duration.ofSeconds(120)).build()) {
            proxy.flipNextBodies(1);
            try (FragmentOutput out = repository.create("v", value.length)) {
                // Less than the streaming buffer until the request has begun: the value is streamed, not written as a
                // multipart upload (which a writer that fills the buffer before the request starts goes on with).
                int first = 512 << 10;
                out.write(value, 0, first);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (proxy.bodiesBegun() == 0) {
                    assertTrue(System.nanoTime() - deadline < 0, "the streamed request did not begin within 60 s");
                    Thread.sleep(5);
                }
                out.write(value, first, value.length - first);
                out.commit();
                assertArrayEquals(value, repository.get("v").orElseThrow(), "stored after a flip");
            } catch (IOException e) {
                assertTrue(e.getMessage().contains("cannot be sent again"), e.getMessage());
                assertEquals(List.of(), repository.list(""));
                assertEquals(Optional.empty(), repository.get("v"));
            }
            assertEquals(1, proxy.flipped());
        }
    }

    /**
     * An output of promised length closed without a commit once the server has received every byte but the last —
     * which the repository holds back until the commit — leaves nothing: the request ends with the body incomplete.
     * The test waits until the server holds all but the last chunk of the body (S3Proxy lists an upload in progress
     * as a temporary object, with its size so far), so that a repository that sent the last byte before the commit
     * would have its value stored. It first waits until the server holds the beginning of the body, written within
     * the repository's stream buffer: a writer that filled that buffer before the executor had started the request
     * would go on as a multipart upload instead, which the server does not list (and this test would check
     * nothing but that upload's abort, after waiting out its deadline).
     */
    @Test
    void an_output_closed_after_every_byte_but_the_last_was_sent_leaves_nothing() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, S3RepositoryTest::anOutputClosedBeforeTheLastByteWithSeed);
    }

    private static void anOutputClosedBeforeTheLastByteWithSeed(long seed) throws Exception {
        String prefix = "held-back-" + RUNS.incrementAndGet() + "/";
        try (S3Repository repository = s3.repository("held-back").keyPrefix(prefix)
                .partBytes(S3Repository.MIN_PART_BYTES).uploadExecutor(uploads).streamPromisedLengths(true).build();
             S3Client raw = rawClient(s3)) {
            byte[] value = new byte[S3Repository.MIN_PART_BYTES + 12_345];
            new SplittableRandom(seed).nextBytes(value);
            try (FragmentOutput out = repository.create("v", value.length)) {
                int first = 512 << 10;
                out.write(value, 0, first);
                long started = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (raw.listObjectsV2(b -> b.bucket(LocalS3.BUCKET).prefix(prefix)).contents().isEmpty()) {
                    assertTrue(System.nanoTime() - started < 0, "the streamed request did not begin within 60 s");
                    Thread.sleep(5);
                }
                out.write(value, first, value.length - first);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (true) {
                    List<S3Object> objects = raw.listObjectsV2(b -> b.bucket(LocalS3.BUCKET).prefix(prefix))
                            .contents();
                    // The client sends the body in chunks of up to 128 KiB, so the last one waits with the last byte.
                    if (objects.stream().anyMatch(o -> o.key().equals(prefix + "v")
                            || o.size() >= value.length - (256 << 10))) {
                        break;
                    }
                    assertTrue(System.nanoTime() - deadline < 0, "the server never held all but the last chunk: "
                            + objects);
                    Thread.sleep(5);
                }
            }
            assertEquals(Optional.empty(), repository.get("v"));
            assertEquals(List.of(), repository.list(""));
        }
    }

    /**
     * Whatever sizes the buffers start at (from a known length, or growing from 64 KiB), every part of a multipart
     * upload but the last holds exactly a part, the parts add up to the value, and the value reads back whole: for
     * values a byte over a part, a byte under two, exactly two, a byte over two and three and a bit; written whole, in
     * random pieces, or as one piece then single bytes; through a streamed put that falls back to parts (its executor
     * refusing or dropping the request), a promised length not streamed, an unknown length, and {@code put}. The
     * lengths are those the server received for each part ({@code x-amz-decoded-content-length} of the chunked
     * uploads).
     */
    @Test
    void every_part_but_the_last_is_a_whole_part_whatever_the_length_and_the_writes() throws IOException {
        int part = S3Repository.MIN_PART_BYTES;
        java.util.Map<Integer, Long> parts = new java.util.concurrent.ConcurrentHashMap<>();
        software.amazon.awssdk.core.interceptor.ExecutionInterceptor recorder =
                new software.amazon.awssdk.core.interceptor.ExecutionInterceptor() {
                    @Override
                    public void beforeTransmission(
                            software.amazon.awssdk.core.interceptor.Context.BeforeTransmission context,
                            software.amazon.awssdk.core.interceptor.ExecutionAttributes attributes) {
                        if (context.request() instanceof software.amazon.awssdk.services.s3.model.UploadPartRequest r) {
                            String length = context.httpRequest().firstMatchingHeader("x-amz-decoded-content-length")
                                    .or(() -> context.httpRequest().firstMatchingHeader("Content-Length"))
                                    .orElseThrow();
                            parts.put(r.partNumber(), Long.parseLong(length));
                        }
                    }
                };
        SplittableRandom random = new SplittableRandom(7);
        try (S3Client client = rawClient(s3, recorder)) {
            for (int length : new int[] {part + 1, 2 * part - 1, 2 * part, 2 * part + 1, 3 * part + 12_345}) {
                byte[] value = new byte[length];
                random.nextBytes(value);
                for (String way : List.of("streamed, refused", "streamed, dropped", "promised", "unknown", "put")) {
                    for (int writes = 0; writes < 3; writes++) {
                        String what = way + ", " + length + " bytes, writes " + writes;
                        parts.clear();
                        Mode mode = way.endsWith("dropped") ? Mode.DROPPING : Mode.REFUSING;
                        try (S3Repository repository = S3Repository.builder(LocalS3.BUCKET).client(client)
                                .keyPrefix("whole-parts/").partBytes(part)
                                .uploadExecutor(executor(mode, new AtomicInteger()))
                                .streamPromisedLengths(way.startsWith("streamed")).build()) {
                            if (way.equals("put")) {
                                repository.put("v", value);
                            } else {
                                try (FragmentOutput out = way.equals("unknown") ? repository.create("v")
                                        : repository.create("v", length)) {
                                    writeIn(out, value, writes, random);
                                    out.commit();
                                }
                            }
                            assertArrayEquals(value, repository.get("v").orElseThrow(), what);
                            assertTrue(repository.delete("v"), what);
                        }
                        int count = (length + part - 1) / part;
                        assertEquals(count, parts.size(), what + ": " + parts);
                        long sum = 0;
                        for (int number = 1; number <= count; number++) {
                            long got = parts.get(number);
                            sum += got;
                            if (number < count) {
                                assertEquals(part, got, what + ": part " + number + " of " + parts);
                            }
                        }
                        assertEquals(length, sum, what + ": " + parts);
                    }
                }
            }
        }
    }

    /** Writes {@code value} whole (0), in random pieces (1), or as one piece and then byte by byte (2). */
    private static void writeIn(FragmentOutput out, byte[] value, int writes, SplittableRandom random)
            throws IOException {
        if (writes == 0) {
            out.write(value);
            return;
        }
        int at = 0;
        if (writes == 2) {
            int first = value.length - 300;
            out.write(value, 0, first);
            for (at = first; at < value.length; at++) {
                out.write(value[at]);
            }
            return;
        }
        while (at < value.length) {
            int n = Math.min(value.length - at, 1 + random.nextInt(3 << 20));
            out.write(value, at, n);
            at += n;
        }
    }

    private static S3Client rawClient(LocalS3 server,
                                      software.amazon.awssdk.core.interceptor.ExecutionInterceptor... interceptors) {
        return S3Client.builder().endpointOverride(server.endpoint()).region(Region.US_EAST_1)
                .forcePathStyle(true).credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(LocalS3.ACCESS_KEY, LocalS3.SECRET_KEY)))
                .overrideConfiguration(c -> c.executionInterceptors(List.of(interceptors)))
                .httpClientBuilder(Apache5HttpClient.builder()).build();
    }

    private static void writeAndRead(Mode mode, byte[] value, SplittableRandom random, long seed) throws IOException {
        AtomicInteger given = new AtomicInteger();
        random.nextBytes(value);
        try (S3Repository repository = s3.repository("parts-" + mode).partBytes(S3Repository.MIN_PART_BYTES)
                .uploadExecutor(executor(mode, given)).build()) {
            try (FragmentOutput out = repository.create("v")) {
                for (int at = 0; at < value.length; ) {
                    int n = Math.min(value.length - at, 1 + random.nextInt(3 << 20));
                    out.write(value, at, n);
                    at += n;
                }
                out.commit();
            }
            String what = mode + ", " + value.length + " bytes, seed " + seed;
            assertArrayEquals(value, repository.get("v").orElseThrow(), what);
            // Every full part but the last goes to the executor; the last part (full or not) is sent by the writer.
            int expected = value.length <= S3Repository.MIN_PART_BYTES ? 0
                    : (value.length - 1) / S3Repository.MIN_PART_BYTES;
            assertEquals(expected, given.get(), "parts given to the executor: " + what);
            assertEquals(List.of("v"), repository.list(""));
        }
    }

    @Test
    void a_part_that_fails_on_the_executor_fails_the_commit_and_leaves_nothing() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, S3RepositoryTest::aPartThatFailsOnTheExecutorWithSeed);
    }

    private static void aPartThatFailsOnTheExecutorWithSeed(long seed) throws Exception {
        String prefix = "failing-" + RUNS.incrementAndGet() + "/";
        CountDownLatch ran = new CountDownLatch(1);
        // The part given to the executor meets a throttling answer, and no retry (maxAttempts 1).
        Executor failing = task -> uploads.execute(() -> {
            front.throttleNext(1);
            task.run();
            ran.countDown();
        });
        try (S3Repository repository = S3Repository.builder(LocalS3.BUCKET).endpoint(front.endpoint())
                .pathStyle(true).credentials(LocalS3.ACCESS_KEY, LocalS3.SECRET_KEY).keyPrefix(prefix)
                .id("failing").partBytes(S3Repository.MIN_PART_BYTES).maxAttempts(1).uploadExecutor(failing)
                .timeouts(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(30)).build()) {
            byte[] value = new byte[S3Repository.MIN_PART_BYTES + 1000];
            new SplittableRandom(seed).nextBytes(value);
            FragmentOutput out = repository.create("v");
            out.write(value);
            assertTrue(ran.await(60, TimeUnit.SECONDS), "the executor ran the part");
            RepositoryUnavailableException e = assertThrows(RepositoryUnavailableException.class, out::commit);
            assertTrue(e.getMessage().contains("503"), e.getMessage());
            out.close();
            assertEquals(List.of(), repository.list(""));
            assertEquals(List.of(), incompleteUploads(open, prefix));
        }
    }

    @Test
    void a_write_abandoned_with_a_part_in_flight_leaves_no_object_and_no_upload() throws Exception {
        AtomicInteger given = new AtomicInteger();
        try (S3Repository repository = S3Repository.builder(LocalS3.BUCKET).endpoint(open.endpoint())
                .pathStyle(true).credentials(LocalS3.ACCESS_KEY, LocalS3.SECRET_KEY).keyPrefix("abandoned/")
                .id("abandoned").partBytes(S3Repository.MIN_PART_BYTES)
                .uploadExecutor(executor(Mode.POOL, given)).build()) {
            byte[] value = new byte[2 * S3Repository.MIN_PART_BYTES + 1];
            try (FragmentOutput out = repository.create("v")) {
                out.write(value);
                assertEquals(2, given.get(), "two parts were handed over");
            }
            assertEquals(List.of(), repository.list(""));
            assertEquals(List.of(), incompleteUploads(open, "abandoned/"));
        }
    }

    /** The multipart uploads begun and neither completed nor aborted under {@code prefix}. */
    private static List<String> incompleteUploads(LocalS3 server, String prefix) {
        try (S3Client client = rawClient(server)) {
            return client.listMultipartUploads(b -> b.bucket(LocalS3.BUCKET).prefix(prefix)).uploads().stream()
                    .map(MultipartUpload::key).toList();
        }
    }
}
