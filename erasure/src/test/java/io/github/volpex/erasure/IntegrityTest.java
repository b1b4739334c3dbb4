package io.github.volpex.erasure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Corrupt, truncated, foreign and mixed fragments are detected and never produce wrong data. */
class IntegrityTest {

    private static final IdaCodec CODEC = IdaCodec.systematic(4, 2).withStripeSizeBytes(16);
    private static final byte[] DATA = TestData.bytes(42, 150); // stripes of 64 bytes: 64, 64, 22
    private static final List<Fragment> FRAGMENTS = CODEC.encode(DATA);

    private static List<byte[]> stored() {
        return TestData.stored(FRAGMENTS);
    }

    /** Every layout, with the same m, stripe size and data. */
    static Stream<IdaCodec> codecs() {
        return Stream.of(CODEC, IdaCodec.rabin(4, 2).withStripeSizeBytes(16),
                IdaCodec.xor(4).withStripeSizeBytes(16));
    }

    @ParameterizedTest
    @MethodSource("codecs")
    void flipping_any_single_byte_of_any_fragment_is_detected(IdaCodec codec) {
        List<byte[]> stored = TestData.stored(codec.encode(DATA));
        int checked = 0;
        for (int victim = 0; victim < stored.size(); victim++) {
            byte[] original = stored.get(victim);
            for (int at = 0; at < original.length; at++) {
                for (int mask : new int[] {0x01, 0x80, 0xFF, 0x5A}) {
                    byte[] corrupt = original.clone();
                    corrupt[at] ^= (byte) mask;
                    int v = victim;
                    int a = at;
                    CorruptFragmentException e = assertThrows(CorruptFragmentException.class,
                            () -> Fragment.parse(corrupt), () -> "fragment " + v + ", byte " + a);
                    assertTrue(e.fragmentIndex() == -1 || e.fragmentIndex() == victim);

                    // With m − 1 good fragments besides it, decoding fails and names it.
                    List<byte[]> tooFew = new ArrayList<>();
                    tooFew.add(corrupt);
                    for (int i = 0, added = 0; added < codec.m() - 1; i++) {
                        if (i != victim) {
                            tooFew.add(stored.get(i));
                            added++;
                        }
                    }
                    NotEnoughFragmentsException lost = assertThrows(NotEnoughFragmentsException.class,
                            () -> codec.decodeBytes(tooFew));
                    assertEquals(codec.m(), lost.given());
                    assertEquals(codec.m() - 1, lost.verified());
                    assertEquals(codec.m(), lost.needed());
                    assertEquals(1, lost.rejections().size());
                    assertEquals(0, lost.rejections().get(0).position());

                    // With every other fragment, decoding uses them instead.
                    List<byte[]> all = new ArrayList<>(stored);
                    all.set(victim, corrupt);
                    assertArrayEquals(DATA, codec.decodeBytes(all));
                    checked++;
                }
            }
        }
        assertEquals(4 * stored.stream().mapToInt(b -> b.length).sum(), checked);
    }

    @Test
    void truncated_extended_empty_foreign_and_other_version_inputs_get_clear_errors() {
        byte[] good = FRAGMENTS.get(1).toByteArray();
        for (int length = 0; length < good.length; length++) {
            byte[] cut = java.util.Arrays.copyOf(good, length);
            assertThrows(CorruptFragmentException.class, () -> Fragment.parse(cut), "length " + length);
        }
        assertEquals("size mismatch: the last stripe ends at byte 94, so the fragment should have 170 bytes; "
                + "it has 171",
                assertThrows(CorruptFragmentException.class,
                        () -> Fragment.parse(java.util.Arrays.copyOf(good, good.length + 1))).getMessage());
        assertEquals("empty: 0 bytes, the smallest fragment has 108",
                assertThrows(CorruptFragmentException.class, () -> Fragment.parse(new byte[0])).getMessage());
        assertEquals("truncated: 7 bytes, the smallest fragment has 108", assertThrows(CorruptFragmentException.class,
                () -> Fragment.parse(java.util.Arrays.copyOf(good, 7))).getMessage());
        assertEquals("not a fragment: magic 0x68656C6C, expected 0x56505846 (\"VPXF\")", assertThrows(
                CorruptFragmentException.class, () -> Fragment.parse("hello".getBytes(
                        java.nio.charset.StandardCharsets.US_ASCII))).getMessage());
        byte[] png = TestData.bytes(1, 300);
        png[0] = (byte) 0x89;
        png[1] = 'P';
        png[2] = 'N';
        png[3] = 'G';
        assertEquals("not a fragment: magic 0x89504E47, expected 0x56505846 (\"VPXF\")",
                assertThrows(CorruptFragmentException.class, () -> Fragment.parse(png)).getMessage());
        byte[] future = good.clone();
        future[4] = 2;
        FragmentFormat.putInt(future, 16, FragmentFormat.crc(future, 0, 16));
        assertEquals("unsupported format version 2: this library reads version 1",
                assertThrows(CorruptFragmentException.class, () -> Fragment.parse(future)).getMessage());
        byte[] badIndex = good.clone();
        badIndex[8] = 6;
        FragmentFormat.putInt(badIndex, 16, FragmentFormat.crc(badIndex, 0, 16));
        assertEquals("fragment index must be in [0, 5]: 6",
                assertThrows(CorruptFragmentException.class, () -> Fragment.parse(badIndex)).getMessage());
        byte[] unknownLayout = good.clone();
        unknownLayout[5] = 4;
        FragmentFormat.putInt(unknownLayout, 16, FragmentFormat.crc(unknownLayout, 0, 16));
        assertEquals("unknown layout code 4",
                assertThrows(CorruptFragmentException.class, () -> Fragment.parse(unknownLayout)).getMessage());
        byte[] xorWithTwoParities = good.clone(); // m = 4, n = 6 is fine for systematic, not for XOR
        xorWithTwoParities[5] = 3;
        FragmentFormat.putInt(xorWithTwoParities, 16, FragmentFormat.crc(xorWithTwoParities, 0, 16));
        assertEquals("the xor layout has n = m + 1: m = 4, n = 6", assertThrows(CorruptFragmentException.class,
                () -> Fragment.parse(xorWithTwoParities)).getMessage());
        byte[] xor = IdaCodec.xor(4).withStripeSizeBytes(16).encode(DATA).get(4).toByteArray();
        assertEquals(Layout.XOR, Fragment.parse(xor).layout());
        assertEquals(5, Fragment.parse(xor).n());
        assertThrows(NullPointerException.class, () -> Fragment.parse(null));
    }

    @ParameterizedTest
    @MethodSource("codecs")
    void a_well_formed_fragment_with_a_foreign_payload_is_caught_by_the_dispersal_id(IdaCodec codec) {
        List<Fragment> fragments = codec.encode(DATA);
        Fragment honest = fragments.get(4);
        byte[] payload = IdaCodecTest.bare(honest);
        payload[3] ^= 1;
        Fragment forged = Fragment.of(honest.header(), honest.dataLength(), payload, honest.dataCrcs(),
                honest.dispersalIdBytes(), Hashing.sha256());
        Fragment reparsed = Fragment.parse(forged.toByteArray()); // every checksum of its own is fine
        List<Fragment> given = List.of(fragments.get(0), fragments.get(1), fragments.get(2), reparsed);
        CorruptFragmentException e = assertThrows(CorruptFragmentException.class, () -> codec.decode(given));
        assertTrue(e.getMessage().contains("a fragment's payload was not encoded from this data"), e.getMessage());

        // Streaming, the forged stripe is caught before any of it is written.
        List<byte[]> stored = List.of(fragments.get(0).toByteArray(), fragments.get(1).toByteArray(),
                fragments.get(2).toByteArray(), forged.toByteArray());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CorruptFragmentException s = assertThrows(CorruptFragmentException.class,
                () -> codec.decode(TestData.streams(stored), out));
        assertEquals("stripe 0 does not decode to the data that was encoded (CRC32C mismatch) with any choice of 4"
                + " of the 4 fragments that agree about it (1 tried): a fragment's records were not produced from"
                + " this data; nothing of this stripe was written", s.getMessage());
        assertEquals(0, out.size());
    }

    @Test
    void a_stream_that_fails_midway_is_replaced_by_a_spare() throws IOException {
        List<byte[]> stored = stored();
        // Corrupt fragment 1 in its last stripe, and make fragment 2 throw after 60 bytes.
        stored.get(1)[stored.get(1).length - 80] ^= 0x10;
        List<InputStream> sources = TestData.streams(stored);
        sources.set(2, new FailingInputStream(stored.get(2), 60));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(DATA.length, CODEC.decode(sources, out));
        assertArrayEquals(DATA, out.toByteArray());
    }

    @Test
    void streams_without_enough_good_fragments_fail_with_the_reasons() {
        List<byte[]> stored = stored();
        stored.get(0)[30] ^= 1;
        stored.get(3)[2] ^= 1;
        List<InputStream> sources = TestData.streams(stored);
        sources.set(4, new FailingInputStream(stored.get(4), 30));
        // 0 fails in stripe 0 and spare 5 takes its place; then 4 fails with no spare left.
        NotEnoughFragmentsException e = assertThrows(NotEnoughFragmentsException.class,
                () -> CODEC.decode(sources, new ByteArrayOutputStream()));
        assertEquals(6, e.given());
        assertEquals(4, e.needed());
        assertEquals(3, e.verified());
        assertEquals(List.of(0, 3, 4), e.rejections().stream().map(r -> r.position()).toList());
        assertTrue(e.rejections().get(0).reason().startsWith("stripe 0 checksum mismatch"),
                e.rejections().get(0).reason());
        assertTrue(e.rejections().get(1).reason().startsWith("not a fragment"), e.rejections().get(1).reason());
        assertTrue(e.rejections().get(2).reason().startsWith("read failed: IOException: repository went away"),
                e.rejections().get(2).reason());
    }

    @Test
    void stream_trailers_are_checked_after_the_last_stripe() throws IOException {
        List<byte[]> stored = stored();
        byte[] t0 = stored.get(0);
        t0[t0.length - 1] ^= 1;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(DATA.length, CODEC.decode(TestData.streams(stored), out)); // three other trailers confirm
        assertArrayEquals(DATA, out.toByteArray());

        // Every trailer of the four in use is damaged: a spare, read through, confirms the data instead.
        for (int i = 1; i < 4; i++) {
            byte[] t = stored.get(i);
            t[t.length - 1] ^= 1;
        }
        ByteArrayOutputStream confirmedBySpare = new ByteArrayOutputStream();
        assertEquals(DATA.length, CODEC.decode(TestData.streams(stored), confirmedBySpare));
        assertArrayEquals(DATA, confirmedBySpare.toByteArray());
        for (int i = 4; i < stored.size(); i++) {
            byte[] t = stored.get(i);
            t[t.length - 1] ^= 1;
        }
        CorruptFragmentException e = assertThrows(CorruptFragmentException.class,
                () -> CODEC.decode(TestData.streams(stored), new ByteArrayOutputStream()));
        assertTrue(e.getMessage().startsWith("no trailer of the fragments verifies"), e.getMessage());
    }

    @Test
    void streams_of_different_encodings_are_not_mixed() {
        List<byte[]> a = stored();
        List<byte[]> b = TestData.stored(CODEC.encode(TestData.bytes(43, 150)));
        // Two of each: neither has m = 4, and the streams that disagree with the first two are named.
        List<byte[]> mixed = List.of(a.get(0), a.get(1), b.get(2), b.get(3));
        ByteArrayOutputStream nothing = new ByteArrayOutputStream();
        NotEnoughFragmentsException e = assertThrows(NotEnoughFragmentsException.class,
                () -> CODEC.decode(TestData.streams(mixed), nothing));
        assertEquals(2, e.verified());
        assertEquals(List.of(2, 3), e.rejections().stream().map(r -> r.position()).toList());
        assertTrue(e.rejections().get(0).reason().matches("stripe 0 data CRC32C 0x[0-9A-F]{8} differs from the"
                + " 0x[0-9A-F]{8} of the 2 fragments in use: a fragment of another dispersal, or a record spliced"
                + " from one"), e.rejections().get(0).reason());
        assertEquals(0, nothing.size());
        NotEnoughFragmentsException inMemory = assertThrows(NotEnoughFragmentsException.class,
                () -> CODEC.decodeBytes(mixed));
        assertEquals(2, inMemory.verified());
        assertEquals(2, inMemory.verifiedByDispersal().size());

        // The same data cut differently: the stripe where they part says so.
        List<byte[]> shorter = TestData.stored(CODEC.encode(TestData.bytes(42, 140)));
        NotEnoughFragmentsException lengths = assertThrows(NotEnoughFragmentsException.class, () -> CODEC.decode(
                TestData.streams(List.of(a.get(0), a.get(1), a.get(2), shorter.get(3))), new ByteArrayOutputStream()));
        assertEquals("stripe 2 holds 12 data bytes, not the 22 of the 3 fragments in use: another dispersal, or the"
                + " same data cut differently", lengths.rejections().get(0).reason());
        // With a spare of the right data, the other one is only a lost fragment, as in memory.
        List<byte[]> withSpare = List.of(a.get(0), a.get(1), a.get(2), shorter.get(3), a.get(4));
        assertDoesNotThrow(() -> CODEC.decode(TestData.streams(withSpare), new ByteArrayOutputStream()));
        assertArrayEquals(CODEC.decodeBytes(withSpare), TestData.bytes(42, 150));
    }

    /** Serves some bytes, then fails like a dropped connection. */
    static final class FailingInputStream extends InputStream {
        private final byte[] data;
        private final int failAt;
        private int at;

        FailingInputStream(byte[] data, int failAt) {
            this.data = data;
            this.failAt = failAt;
        }

        @Override
        public int read() throws IOException {
            if (at >= failAt) {
                throw new IOException("repository went away");
            }
            return data[at++] & 0xFF;
        }
    }
}
