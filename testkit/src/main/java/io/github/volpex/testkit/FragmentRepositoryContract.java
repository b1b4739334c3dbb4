package io.github.volpex.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.repository.FragmentOutput;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.testsupport.SearchDepth;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The contract of a {@link FragmentRepository}, as the checkpoint store relies on it: a flat, sorted map of keys to
 * byte strings with atomic replacement, read-your-writes, streaming writes invisible until committed, listings that
 * return every key of a prefix (more than one page of a remote store), whole values under concurrent replacement,
 * values longer than the usual multipart part sizes (put whole and streamed), and the argument checks of {@link
 * FragmentRepository#isValidKey} (the exception type, and a message that names the key). Extend it in your test
 * sources:
 *
 * <pre>{@code
 * class MyRepositoryTest extends FragmentRepositoryContract {
 *     @Override
 *     protected FragmentRepository newRepository(String id) throws IOException {
 *         return MyRepository.create(id, freshBucketOrDirectory());
 *     }
 * }
 * }</pre>
 *
 * <p>The tests need the JUnit Jupiter engine on the test class path; set up servers in the factory or in JUnit's
 * lifecycle methods ({@code @BeforeAll}, {@code @AfterAll}) as usual. Each
 * test asks for new repositories and expects them empty; the contract never deletes what it did not write.
 *
 * <p>The random workloads run 30 times the search factor of {@link SearchDepth}: run
 * the suite with {@code -Dvolpex.search.factor=100} to search a hundred times deeper.
 *
 * @since 0.1
 */
public abstract class FragmentRepositoryContract {

    /** For subclasses. */
    protected FragmentRepositoryContract() {
    }

    /**
     * Returns a new, empty repository of the implementation under test.
     *
     * @param id the identifier it must report
     * @return the repository
     * @throws IOException if it cannot be created
     */
    protected abstract FragmentRepository newRepository(String id) throws IOException;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void stores_replaces_and_deletes_values() throws IOException {
        FragmentRepository repo = newRepository("r1");
        assertEquals("r1", repo.id());
        assertTrue(repo.get("a").isEmpty());
        repo.put("a", bytes("first"));
        assertArrayEquals(bytes("first"), repo.get("a").orElseThrow());
        repo.put("a", bytes("second, longer"));
        assertArrayEquals(bytes("second, longer"), repo.get("a").orElseThrow());
        assertTrue(repo.delete("a"));
        assertFalse(repo.delete("a"));
        assertTrue(repo.get("a").isEmpty());
    }

    @Test
    void stores_empty_values() throws IOException {
        FragmentRepository repo = newRepository("r");
        repo.put("empty", new byte[0]);
        assertArrayEquals(new byte[0], repo.get("empty").orElseThrow());
        assertEquals(List.of("empty"), repo.list(""));
    }

    @Test
    void keeps_no_reference_to_callers_arrays() throws IOException {
        FragmentRepository repo = newRepository("r");
        byte[] content = bytes("abc");
        repo.put("k", content);
        content[0] = 'X';
        byte[] read = repo.get("k").orElseThrow();
        assertArrayEquals(bytes("abc"), read);
        read[1] = 'Y';
        assertArrayEquals(bytes("abc"), repo.get("k").orElseThrow());
    }

    @Test
    void lists_keys_by_prefix_in_ascending_order() throws IOException {
        FragmentRepository repo = newRepository("r");
        for (String key : List.of("job-b.2.f1", "job-a.1.f0", "job-b.1.f0", "Job-b.1.f0", "job-bb.1.f0", "x")) {
            repo.put(key, bytes(key));
        }
        assertEquals(List.of("job-b.1.f0", "job-b.2.f1"), repo.list("job-b."));
        assertEquals(List.of("Job-b.1.f0", "job-a.1.f0", "job-b.1.f0", "job-b.2.f1", "job-bb.1.f0", "x"),
                repo.list(""));
        assertEquals(List.of(), repo.list("none"));
        // Keys that differ only in case are distinct.
        assertArrayEquals(bytes("Job-b.1.f0"), repo.get("Job-b.1.f0").orElseThrow());
        assertArrayEquals(bytes("job-b.1.f0"), repo.get("job-b.1.f0").orElseThrow());
    }

    @Test
    void a_streaming_write_is_invisible_until_committed() throws IOException {
        FragmentRepository repo = newRepository("r");
        repo.put("k", bytes("old"));
        try (FragmentOutput out = repo.create("k")) {
            out.write(bytes("new "));
            out.write('v');
            out.write(bytes("xalue"), 1, 4);
            assertArrayEquals(bytes("old"), repo.get("k").orElseThrow());
            out.commit();
            assertThrows(IllegalStateException.class, out::commit);
        }
        assertArrayEquals(bytes("new value"), repo.get("k").orElseThrow());
        try (InputStream in = repo.open("k").orElseThrow()) {
            assertArrayEquals(bytes("new value"), in.readAllBytes());
        }
        assertTrue(repo.open("missing").isEmpty());
    }

    @Test
    void an_abandoned_streaming_write_leaves_the_previous_value() throws IOException {
        FragmentRepository repo = newRepository("r");
        repo.put("k", bytes("old"));
        try (FragmentOutput out = repo.create("k")) {
            out.write(bytes("partial"));
        }
        try (FragmentOutput out = repo.create("fresh")) {
            out.write(bytes("partial"));
        }
        assertArrayEquals(bytes("old"), repo.get("k").orElseThrow());
        assertEquals(List.of("k"), repo.list(""));
    }

    /**
     * Writes promised lengths (empty, short, and longer than the usual part sizes of object stores, so that a
     * repository that streams a value of known length does so): invisible until committed — even once every promised
     * byte is written — then whole.
     */
    @Test
    void a_write_of_promised_length_is_invisible_until_committed() throws IOException {
        FragmentRepository repo = newRepository("r");
        for (int length : new int[] {0, 1, 70_000, PAST_PART_SIZES}) {
            String key = "k" + length;
            repo.put(key, bytes("old"));
            byte[] value = randomBytes(length, length);
            try (FragmentOutput out = repo.create(key, length)) {
                writeInPieces(out, value, 0, length);
                assertArrayEquals(bytes("old"), repo.get(key).orElseThrow(), key);
                out.commit();
                assertThrows(IllegalStateException.class, out::commit);
            }
            assertArrayEquals(value, repo.get(key).orElseThrow(), key);
        }
        assertEquals(List.of("k0", "k1", "k70000", "k" + PAST_PART_SIZES), repo.list(""));
    }

    /**
     * A write that would pass the promised length is refused before any of its bytes are taken, and nothing is ever
     * published: not on a commit tried after it, not when the output is closed.
     */
    @Test
    void a_write_past_its_promised_length_fails_and_leaves_nothing() throws IOException {
        FragmentRepository repo = newRepository("r");
        for (int length : new int[] {0, 5, PAST_PART_SIZES}) {
            repo.put("kept", bytes("old"));
            byte[] value = randomBytes(length + 13, length);
            for (String key : List.of("kept", "fresh")) {
                try (FragmentOutput out = repo.create(key, length)) {
                    writeInPieces(out, value, 0, Math.max(0, length - 3));
                    int from = Math.max(0, length - 3);
                    IllegalStateException e = assertThrows(IllegalStateException.class,
                            () -> out.write(value, from, 13), key + " promised " + length);
                    assertTrue(e.getMessage() != null && e.getMessage().contains(key)
                            && e.getMessage().contains(String.valueOf(length)),
                            "the message must name the key and the promised length: " + e.getMessage());
                    assertThrows(IllegalStateException.class, out::commit, "a commit after the refused write");
                }
                assertArrayEquals(bytes("old"), repo.get("kept").orElseThrow(), key + " promised " + length);
                assertListsSoon(repo, List.of("kept"), key + " promised " + length);
            }
        }
    }

    /** A commit short of the promised length fails and publishes nothing; closing then discards the bytes. */
    @Test
    void a_commit_short_of_its_promised_length_fails_and_leaves_nothing() throws IOException {
        FragmentRepository repo = newRepository("r");
        for (int length : new int[] {1, 70_000, PAST_PART_SIZES}) {
            repo.put("kept", bytes("old"));
            byte[] value = randomBytes(length, length);
            for (String key : List.of("kept", "fresh")) {
                try (FragmentOutput out = repo.create(key, length)) {
                    writeInPieces(out, value, 0, length - 1);
                    IllegalStateException e = assertThrows(IllegalStateException.class, out::commit,
                            key + " promised " + length);
                    assertTrue(e.getMessage() != null && e.getMessage().contains(key),
                            "the message must name the key: " + e.getMessage());
                }
                assertArrayEquals(bytes("old"), repo.get("kept").orElseThrow(), key + " promised " + length);
                assertListsSoon(repo, List.of("kept"), key + " promised " + length);
            }
        }
    }

    /**
     * An output of promised length closed without a commit leaves nothing: after part of the value, and after every
     * promised byte (a repository that streams must not let the value complete before the commit).
     */
    @Test
    void an_abandoned_write_of_promised_length_leaves_nothing() throws IOException {
        FragmentRepository repo = newRepository("r");
        repo.put("kept", bytes("old"));
        for (int length : new int[] {1, 70_000, PAST_PART_SIZES}) {
            byte[] value = randomBytes(length, length);
            for (int written : new int[] {length / 2, length}) {
                for (String key : List.of("kept", "fresh")) {
                    try (FragmentOutput out = repo.create(key, length)) {
                        writeInPieces(out, value, 0, written);
                    }
                    String what = key + ": " + written + " of " + length + " bytes, then closed";
                    assertArrayEquals(bytes("old"), repo.get("kept").orElseThrow(), what);
                    assertListsSoon(repo, List.of("kept"), what);
                }
            }
        }
        assertThrows(IllegalArgumentException.class, () -> repo.create("k", -1));
    }

    /**
     * Asserts that the repository lists exactly {@code expected}, allowing it up to 10 s to get there: a server may
     * list the temporary object of an upload it has not yet seen end (S3Proxy's in-memory store lists its
     * {@code <key>-<uuid>} file until it notices the connection closed, a few milliseconds). What the repository
     * stores under the keys themselves is checked at once by the callers.
     */
    private static void assertListsSoon(FragmentRepository repo, List<String> expected, String what)
            throws IOException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        List<String> listed = repo.list("");
        while (!listed.equals(expected) && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for the listing", e);
            }
            listed = repo.list("");
        }
        assertEquals(expected, listed, what);
    }

    /** Longer than the usual part sizes of object stores' multipart uploads (5 MiB, 8 MiB), and odd. */
    private static final int PAST_PART_SIZES = (9 << 20) + 7;

    private static byte[] randomBytes(int length, long seed) {
        byte[] value = new byte[length];
        new SplittableRandom(seed).nextBytes(value);
        return value;
    }

    /** Writes {@code value[from, to)} in pieces of uneven sizes, single bytes among them. */
    private static void writeInPieces(FragmentOutput out, byte[] value, int from, int to) throws IOException {
        int at = from;
        for (int i = 0; at < to; i++) {
            if (i % 3 == 1) {
                out.write(value[at++]);
                continue;
            }
            int n = Math.min(to - at, 65_521 * (i % 5 + 1));
            out.write(value, at, n);
            at += n;
        }
    }

    @Test
    void rejects_invalid_keys_and_nulls() throws IOException {
        FragmentRepository repo = newRepository("r");
        for (String key : List.of("", ".hidden", "a/b", "a b", "é", "x".repeat(121), "a\\b", "a:b")) {
            // The type is the contract; the message is the implementation's own, as long as it names the key.
            for (Executable call : List.<Executable>of(() -> repo.put(key, new byte[1]), () -> repo.get(key),
                    () -> repo.delete(key), () -> repo.create(key), () -> repo.create(key, 1), () -> repo.open(key))) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call, key);
                assertTrue(e.getMessage() != null && e.getMessage().contains(key),
                        "the message must name the key \"" + key + "\": " + e.getMessage());
            }
        }
        repo.put("x".repeat(120), new byte[1]);
        assertThrows(NullPointerException.class, () -> repo.put(null, new byte[1]));
        assertThrows(NullPointerException.class, () -> repo.put("k", null));
        assertThrows(NullPointerException.class, () -> repo.get(null));
        assertThrows(NullPointerException.class, () -> repo.list(null));
        assertEquals(List.of("x".repeat(120)), repo.list(""));
    }

    @Test
    void concurrent_readers_see_whole_values_only() throws Exception {
        FragmentRepository repo = newRepository("r");
        byte[] a = new byte[64 * 1024];
        byte[] b = new byte[96 * 1024];
        Arrays.fill(a, (byte) 'a');
        Arrays.fill(b, (byte) 'b');
        repo.put("k", a);
        ExecutorService threads = Executors.newFixedThreadPool(3);
        AtomicBoolean stop = new AtomicBoolean();
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (byte[] value : List.of(a, b)) {
                writers.add(threads.submit(() -> {
                    for (int i = 0; i < 200 && !stop.get(); i++) {
                        repo.put("k", value);
                    }
                    return null;
                }));
            }
            Future<Integer> reader = threads.submit(() -> {
                int reads = 0;
                do {
                    // At least one read even when the writers finish before this thread is scheduled.
                    byte[] seen = repo.get("k").orElseThrow();
                    assertTrue(Arrays.equals(seen, a) || Arrays.equals(seen, b), "a torn read of " + seen.length);
                    reads++;
                } while (!writers.stream().allMatch(Future::isDone));
                return reads;
            });
            for (Future<?> writer : writers) {
                writer.get();
            }
            assertTrue(reader.get() > 0);
        } finally {
            stop.set(true);
            threads.shutdownNow();
        }
    }

    @Test
    void lists_more_keys_than_a_remote_store_returns_in_one_page() throws IOException {
        FragmentRepository repo = newRepository("r");
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 1100; i++) {
            keys.add(String.format(Locale.ROOT, "job.%04d", i));
        }
        for (String key : keys) {
            repo.put(key, new byte[] {(byte) key.hashCode()});
        }
        repo.put("other.1", new byte[0]);
        assertEquals(keys, repo.list("job."));
        assertEquals(1101, repo.list("").size());
    }

    @Test
    void streams_values_of_several_mebibytes_both_ways() throws IOException {
        FragmentRepository repo = newRepository("r");
        byte[] chunk = new byte[64 * 1024];
        long length = 0;
        MessageDigest written = sha256();
        try (FragmentOutput out = repo.create("big")) {
            for (int i = 0; i < 100; i++) {
                Arrays.fill(chunk, (byte) i);
                chunk[i] = (byte) ~i;
                out.write(chunk);
                written.update(chunk);
                length += chunk.length;
            }
            out.commit();
        }
        assertStreamsBack(repo, "big", length, written.digest(), 8191);
    }

    /** Reads {@code key} as a stream, {@code bufferBytes} at a time, and checks its length and SHA-256. */
    private static void assertStreamsBack(FragmentRepository repo, String key, long length, byte[] sha256,
                                          int bufferBytes) throws IOException {
        MessageDigest read = sha256();
        long readLength = 0;
        try (InputStream in = repo.open(key).orElseThrow()) {
            byte[] buffer = new byte[bufferBytes];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                read.update(buffer, 0, n);
                readLength += n;
            }
        }
        assertEquals(length, readLength, key);
        assertArrayEquals(sha256, read.digest(), key);
    }

    /**
     * Values longer than the usual part sizes of object stores' multipart uploads (5 MiB, 8 MiB), put whole and
     * streamed in pieces that do not line up with any part size, so that every part — the last, partial one included
     * — must arrive.
     */
    @Test
    void stores_values_longer_than_the_usual_part_sizes_put_whole_and_streamed() throws IOException {
        FragmentRepository repo = newRepository("r");
        SplittableRandom random = new SplittableRandom(8);
        byte[] whole = new byte[(8 << 20) + 1];
        random.nextBytes(whole);
        repo.put("whole", whole);
        assertArrayEquals(whole, repo.get("whole").orElseThrow());
        long length = (16L << 20) + 12_345;
        MessageDigest written = sha256();
        byte[] piece = new byte[1_000_003];
        try (FragmentOutput out = repo.create("streamed")) {
            for (long left = length; left > 0; ) {
                int n = (int) Math.min(piece.length, left);
                random.nextBytes(piece);
                out.write(piece, 0, n);
                written.update(piece, 0, n);
                left -= n;
            }
            out.commit();
        }
        assertStreamsBack(repo, "streamed", length, written.digest(), 65_536);
        byte[] streamed = repo.get("streamed").orElseThrow();
        assertEquals(length, streamed.length);
        assertEquals(List.of("streamed", "whole"), repo.list(""));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }

    /**
     * Random workloads of puts, deletes, streaming writes (committed or abandoned) and reads against a sorted map: 30
     * times the search factor ({@link SearchDepth#rounds(int)}), from a new seed on every run, named in the failure
     * message ({@code -Dvolpex.testkit.seed=<seed>} replays it).
     */
    @Test
    void behaves_like_a_sorted_map() throws IOException {
        long seed = Long.getLong("volpex.testkit.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        int workloads = SearchDepth.rounds(30);
        for (int workload = 0; workload < workloads; workload++) {
            List<Integer> steps = new ArrayList<>();
            for (int i = random.nextInt(41); i > 0; i--) {
                steps.add(random.nextInt(60));
            }
            try {
                behavesLikeASortedMap(steps);
            } catch (AssertionError e) {
                throw new AssertionError("workload " + steps + " (seed " + seed + "; replay with -Dvolpex.testkit.seed="
                        + seed + "): " + e.getMessage(), e);
            }
        }
    }

    /** One random workload, applied to a new repository and to a model map. */
    private void behavesLikeASortedMap(List<Integer> steps) throws IOException {
        FragmentRepository repo = newRepository("model");
        TreeMap<String, byte[]> model = new TreeMap<>();
        int version = 0;
        for (int step : steps) {
            String key = "k" + (step % 6);
            switch (step / 6 % 5) {
                case 0, 1 -> {
                    byte[] value = bytes(key + "=" + version++);
                    repo.put(key, value);
                    model.put(key, value);
                }
                case 2 -> assertEquals(model.remove(key) != null, repo.delete(key));
                case 3 -> {
                    byte[] value = bytes(key + "~" + version++);
                    try (FragmentOutput out = repo.create(key)) {
                        out.write(value);
                        if (step / 30 == 0) {
                            out.commit();
                            model.put(key, value);
                        }
                    }
                }
                default -> {
                    Optional<byte[]> value = repo.get(key);
                    assertEquals(model.containsKey(key), value.isPresent());
                    value.ifPresent(v -> assertArrayEquals(model.get(key), v));
                }
            }
            assertEquals(new ArrayList<>(model.keySet()), repo.list(""));
        }
        Map<String, String> all = new HashMap<>();
        for (String key : repo.list("")) {
            all.put(key, new String(repo.get(key).orElseThrow(), StandardCharsets.UTF_8));
        }
        Map<String, String> expected = new HashMap<>();
        model.forEach((key, value) -> expected.put(key, new String(value, StandardCharsets.UTF_8)));
        assertEquals(expected, all);
    }
}
