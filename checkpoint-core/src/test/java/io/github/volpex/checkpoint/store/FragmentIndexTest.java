package io.github.volpex.checkpoint.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class FragmentIndexTest {

    static Sha256 sha(String s) {
        return Sha256.of(s.getBytes(StandardCharsets.UTF_8));
    }

    /** A random valid index. */
    static FragmentIndex random(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Encoding encoding = Encoding.values()[random.nextInt(Encoding.values().length)];
        int m = encoding == Encoding.REPLICAS ? 1 : 1 + random.nextInt(40);
        int k = encoding == Encoding.IDA_XOR ? 1 : random.nextInt(Math.min(30, 255 - m) + 1);
        List<FragmentLocation> fragments = new ArrayList<>();
        for (int i = 0; i < m + k; i++) {
            String repository = "repo-" + random.nextInt(1000) + (random.nextBoolean() ? "-é" : "");
            fragments.add(new FragmentLocation(i, repository, random.nextLong(1L << 40), sha("f" + random.nextLong())));
        }
        String job = "job_" + Long.toString(random.nextLong() >>> 1, 36);
        Instant created = Instant.ofEpochMilli(random.nextLong(0, 4_000_000_000_000L));
        int stripe = encoding == Encoding.REPLICAS ? 0 : 1 + random.nextInt(1 << 22);
        return new FragmentIndex(job, random.nextLong(Long.MAX_VALUE), random.nextLong(Long.MAX_VALUE),
                random.nextLong(), random.nextInt(1000),
                encoding, m, k, stripe, 1 + random.nextInt(1 << 30), random.nextLong(1L << 50), sha("c" + seed),
                created, created.plusMillis(random.nextLong(1L << 40)), fragments);
    }

    /** The example's epoch: 2026-01-02T03:04:05.678901Z in microseconds, as the default epoch source gives. */
    static final long EPOCH = 1_767_323_045_678_901L;

    static FragmentIndex example() {
        return new FragmentIndex("job-7", EPOCH, 42, 0x0123456789ABCDEFL, 3, Encoding.REPLICAS, 1, 1, 0, 1 << 20, 1000,
                sha("checkpoint"), Instant.parse("2026-01-02T03:04:05.678Z"), Instant.parse("2026-01-09T03:04:05.678Z"),
                List.of(new FragmentLocation(1, "b", 1004, sha("f1")), new FragmentLocation(0, "a", 1004, sha("f0"))));
    }

    @Property(tries = 300)
    void round_trips_through_its_binary_format(@ForAll long seed) {
        FragmentIndex index = random(seed);
        byte[] bytes = index.toBytes();
        FragmentIndex parsed = FragmentIndex.parse(bytes);
        assertEquals(index, parsed);
        assertEquals(index.hashCode(), parsed.hashCode());
        assertArrayEquals(bytes, parsed.toBytes());
    }

    @Test
    void lays_out_its_fields_as_documented() {
        byte[] bytes = example().toBytes();
        ByteBuffer in = ByteBuffer.wrap(bytes);
        assertEquals("VXFI", new String(bytes, 0, 4, StandardCharsets.US_ASCII));
        in.position(4);
        assertEquals(2, in.getShort());
        assertEquals(0, in.getShort());
        assertEquals(5, in.get());
        byte[] job = new byte[5];
        in.get(job);
        assertEquals("job-7", new String(job, StandardCharsets.US_ASCII));
        assertEquals(EPOCH, in.getLong());
        assertEquals(42, in.getLong());
        assertEquals(0x0123456789ABCDEFL, in.getLong());
        assertEquals(3, in.getInt());
        assertEquals(0, in.get()); // replicas
        assertEquals(1, in.get()); // m
        assertEquals(1, in.get()); // k
        assertEquals(0, in.getInt()); // no stripes for replicas
        assertEquals(1 << 20, in.getInt());
        assertEquals(1000, in.getLong());
        byte[] digest = new byte[32];
        in.get(digest);
        assertEquals(sha("checkpoint").toString(), HexFormat.of().formatHex(digest));
        assertEquals(Instant.parse("2026-01-02T03:04:05.678Z").toEpochMilli(), in.getLong());
        assertEquals(Instant.parse("2026-01-09T03:04:05.678Z").toEpochMilli(), in.getLong());
        assertEquals(2, in.get());
        for (String repository : List.of("a", "b")) {
            in.get(); // fragment index
            assertEquals(1, in.get());
            assertEquals(repository.charAt(0), (char) in.get());
            assertEquals(1004, in.getLong());
            in.position(in.position() + 32);
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, in.position());
        assertEquals((int) crc.getValue(), in.getInt());
        assertEquals(0, in.remaining());
        assertEquals(8 + 6 + 8 + 8 + 8 + 4 + 3 + 4 + 4 + 8 + 32 + 16 + 1 + 2 * (1 + 2 + 8 + 32) + 4, bytes.length);
    }

    @Property(tries = 100)
    void detects_every_single_byte_change(@ForAll long seed, @ForAll @IntRange(min = 1, max = 255) int xor) {
        byte[] bytes = random(seed).toBytes();
        for (int position = 0; position < bytes.length; position++) {
            byte[] damaged = bytes.clone();
            damaged[position] ^= (byte) xor;
            int at = position;
            assertThrows(CorruptIndexException.class, () -> FragmentIndex.parse(damaged), () -> "byte " + at);
        }
    }

    @Test
    void detects_truncation_and_trailing_bytes() {
        byte[] bytes = example().toBytes();
        for (int length = 0; length < bytes.length; length++) {
            byte[] truncated = java.util.Arrays.copyOf(bytes, length);
            assertThrows(CorruptIndexException.class, () -> FragmentIndex.parse(truncated), "length " + length);
        }
        byte[] longer = withCrc(java.util.Arrays.copyOf(bytes, bytes.length + 1), bytes.length - 4 + 1);
        assertEquals("index has 1 bytes after its last field",
                assertThrows(CorruptIndexException.class, () -> FragmentIndex.parse(longer)).getMessage());
    }

    /** Moves the fields' last byte and recomputes the CRC over the first {@code covered} bytes. */
    private static byte[] withCrc(byte[] bytes, int covered) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, covered);
        ByteBuffer.wrap(bytes, covered, 4).putInt((int) crc.getValue());
        return bytes;
    }

    @Test
    void names_what_is_wrong() {
        byte[] bytes = example().toBytes();
        byte[] magic = bytes.clone();
        magic[0] = 'X';
        assertEquals("index magic must be 0x56584649: 0x58584649",
                assertThrows(CorruptIndexException.class, () -> FragmentIndex.parse(magic)).getMessage());
        byte[] version = bytes.clone();
        version[5] = 1;
        UnsupportedFormatException unsupported = assertThrows(UnsupportedFormatException.class,
                () -> FragmentIndex.parse(version));
        assertEquals("index format version must be one of [2, 3]: 1", unsupported.getMessage());
        assertEquals(1, unsupported.version());
        assertEquals("index", unsupported.format());
        assertEquals(List.of(2, 3), unsupported.supportedVersions());
        byte[] future = bytes.clone();
        future[5] = 4;
        assertEquals(4, assertThrows(UnsupportedFormatException.class, () -> FragmentIndex.parse(future)).version());
        byte[] flags = withCrc(bytes.clone(), bytes.length - 4);
        flags[7] = 1;
        withCrc(flags, bytes.length - 4);
        assertEquals("index flags must be 0: 1",
                assertThrows(CorruptIndexException.class, () -> FragmentIndex.parse(flags)).getMessage());
        byte[] encoding = bytes.clone();
        encoding[8 + 1 + 5 + 8 + 8 + 8 + 4] = 7;
        withCrc(encoding, bytes.length - 4);
        assertEquals("index encoding must be 0, 1, 2 or 3: 7",
                assertThrows(CorruptIndexException.class, () -> FragmentIndex.parse(encoding)).getMessage());
        byte[] m = bytes.clone();
        m[8 + 1 + 5 + 8 + 8 + 8 + 4 + 1] = 2;
        withCrc(m, bytes.length - 4);
        assertTrue(assertThrows(CorruptIndexException.class, () -> FragmentIndex.parse(m)).getMessage()
                .contains("m must be in [1, 1] for REPLICAS: 2"));
        assertThrows(NullPointerException.class, () -> FragmentIndex.parse(null));
    }

    @Test
    void validates_what_it_is_built_from() {
        Instant t = Instant.EPOCH;
        List<FragmentLocation> two = List.of(new FragmentLocation(0, "a", 0, sha("")),
                new FragmentLocation(1, "b", 0, sha("")));
        assertEquals("jobId must be 1 to 64 characters of [A-Za-z0-9_-]: \"a.b\"", assertThrows(
                IllegalArgumentException.class, () -> new FragmentIndex("a.b", 0, 0, 0, 0, Encoding.REPLICAS, 1, 1, 0,
                        1, 0, sha(""), t, t, two)).getMessage());
        assertEquals("fragments must list n = m + k = 3 fragments: 2", assertThrows(IllegalArgumentException.class,
                () -> new FragmentIndex("j", 0, 0, 0, 0, Encoding.IDA_SYSTEMATIC, 2, 1, 8, 1, 0, sha(""), t, t, two))
                .getMessage());
        List<FragmentLocation> repeated = List.of(new FragmentLocation(0, "a", 0, sha("")),
                new FragmentLocation(0, "b", 0, sha("")));
        assertEquals("fragments must have the indices 0 to 1 once each: index 1 is missing",
                assertThrows(IllegalArgumentException.class, () -> new FragmentIndex("j", 0, 0, 0, 0, Encoding.REPLICAS,
                        1, 1, 0, 1, 0, sha(""), t, t, repeated)).getMessage());
        assertEquals("epoch must be >= 0: -1", assertThrows(IllegalArgumentException.class,
                () -> new FragmentIndex("j", -1, 0, 0, 0, Encoding.REPLICAS, 1, 1, 0, 1, 0, sha(""), t, t, two))
                .getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new FragmentIndex("j", 0, -1, 0, 0, Encoding.REPLICAS, 1, 1, 0, 1, 0, sha(""), t, t, two));
        assertThrows(IllegalArgumentException.class,
                () -> new FragmentIndex("j", 0, 0, 0, 0, Encoding.REPLICAS, 1, 1, 0, 0, 0, sha(""), t, t, two));
        assertEquals("stripeBytes must be in [1, 4194304] for IDA_RABIN: 0", assertThrows(
                IllegalArgumentException.class,
                () -> new FragmentIndex("j", 0, 0, 0, 0, Encoding.IDA_RABIN, 1, 1, 0, 1, 0, sha(""), t, t, two))
                .getMessage());
        assertEquals("k must be 1 for IDA_XOR: 2", assertThrows(IllegalArgumentException.class,
                () -> new FragmentIndex("j", 0, 0, 0, 0, Encoding.IDA_XOR, 1, 2, 8, 1, 0, sha(""), t, t, two))
                .getMessage());
        assertEquals(Encoding.IDA_XOR, new FragmentIndex("j", 0, 0, 0, 0, Encoding.IDA_XOR, 1, 1, 8, 1, 0, sha(""), t,
                t, two).encoding());
        // Sizes no store writes, which would make a reader allocate gigabytes or its codec refuse the index.
        assertEquals("stripeBytes must be in [1, 4194304] for IDA_SYSTEMATIC: 4194305", assertThrows(
                IllegalArgumentException.class, () -> new FragmentIndex("j", 0, 0, 0, 0, Encoding.IDA_SYSTEMATIC, 1, 1,
                        (1 << 22) + 1, 1, 0, sha(""), t, t, two)).getMessage());
        assertEquals("segmentBytes must be in [1, 1073741824]: 2147483647", assertThrows(
                IllegalArgumentException.class, () -> new FragmentIndex("j", 0, 0, 0, 0, Encoding.REPLICAS, 1, 1, 0,
                        Integer.MAX_VALUE, 0, sha(""), t, t, two)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new FragmentLocation(255, "a", 0, sha("")));
        assertThrows(IllegalArgumentException.class, () -> new FragmentLocation(0, "a", -1, sha("")));
        assertThrows(IllegalArgumentException.class, () -> new FragmentLocation(0, "", 0, sha("")));
    }

    @Test
    void knows_its_keys_its_lease_and_its_revisions() {
        FragmentIndex index = example();
        assertEquals("job-7.0006475ef6574f35.000000000000002a.0123456789abcdef.f1", index.fragmentKey(1));
        assertEquals("job-7.0006475ef6574f35.000000000000002a.0123456789abcdef.idx", index.indexKey());
        assertEquals("job-7.0006475ef6574f35.000000000000002a.0123456789abcdef.ok", index.markerKey());
        assertEquals(EPOCH, index.epoch());
        assertThrows(IndexOutOfBoundsException.class, () -> index.fragmentKey(2));
        assertTrue(index.isExpired(Instant.parse("2026-01-09T03:04:05.679Z")));
        assertTrue(!index.isExpired(Instant.parse("2026-01-09T03:04:05.678Z")));
        FragmentIndex revised = index.revised(index.fragments(), index.leaseExpiry().plusSeconds(1));
        assertEquals(4, revised.revision());
        assertTrue(revised.sameCheckpoint(index));
        assertNotEquals(index, revised);
        assertEquals(2, index.n());
        assertTrue(index.toString().contains("job-7 epoch " + EPOCH + " #42"), index.toString());
        // Instants are kept to the millisecond, as the format stores them.
        FragmentIndex precise = new FragmentIndex("j", 0, 0, 0, 0, Encoding.REPLICAS, 1, 0, 0, 1, 0, sha(""),
                Instant.ofEpochSecond(1, 123_456_789), Instant.ofEpochSecond(2, 999_999_999),
                List.of(new FragmentLocation(0, "a", 0, sha(""))));
        assertEquals(Instant.ofEpochSecond(1, 123_000_000), precise.createdAt());
        assertEquals(precise, FragmentIndex.parse(precise.toBytes()));
    }

    @Test
    void sha256_matches_the_fips_test_vector() {
        // FIPS 180-4 example "abc".
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", sha("abc").toString());
        assertTrue(sha("abc").matches("abc".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(sha("abc"), Sha256.fromHex("BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"));
        assertEquals(sha("abc"), Sha256.fromBytes(sha("abc").toByteArray()));
        assertThrows(IllegalArgumentException.class, () -> Sha256.fromBytes(new byte[31]));
        assertThrows(IllegalArgumentException.class, () -> Sha256.fromHex("abc"));
    }
}
