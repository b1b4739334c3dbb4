package io.github.volpex.erasure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.erasure.NotEnoughFragmentsException.Rejection;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Heaps of stored fragments as repositories return them: with a fragment an older checkpoint left behind, one
 * relabelled with another index, one with a record spliced from other data, one with a forged header. Whenever
 * {@code m} intact fragments of the wanted dispersal are there, every decoder rebuilds it and sets the others aside
 * with what differs; otherwise it says so with the facts.
 */
class MixedFragmentsTest {

    /** Small stripes, so the data spans several of them. */
    private static final IdaCodec CODEC = IdaCodec.systematic(6, 3).withStripeSizeBytes(64);
    private static final byte[] WANTED = TestData.bytes(1, 1500);
    private static final byte[] OLDER = TestData.bytes(2, 1500);

    private static List<byte[]> stored(IdaCodec codec, byte[] data) {
        return TestData.stored(codec.encode(data));
    }

    private static byte[] streamed(IdaCodec codec, List<byte[]> stored) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        codec.decode(TestData.streams(stored), out);
        return out.toByteArray();
    }

    private static List<Fragment> parsed(List<byte[]> stored) {
        return stored.stream().map(Fragment::parse).toList();
    }

    private static String id(byte[] stored) {
        return Fragment.parse(stored).dispersalId();
    }

    /** Every decoder rebuilds the wanted data from the heap. */
    private static void assertAllDecode(byte[] expected, List<byte[]> heap) throws IOException {
        assertArrayEquals(expected, CODEC.decodeBytes(heap), "decodeBytes");
        assertArrayEquals(expected, streamed(CODEC, heap), "streaming decode");
        String id = FragmentFormat.hex(Hashing.sha256().digest(expected));
        assertArrayEquals(expected, CODEC.decodeBytes(heap, id), "named");
    }

    @Test
    void a_fragment_an_older_checkpoint_left_behind_is_set_aside() throws IOException {
        List<byte[]> wanted = stored(CODEC, WANTED);
        List<byte[]> older = stored(CODEC, OLDER);
        for (int index = 0; index < 9; index++) {
            List<byte[]> heap = new ArrayList<>(wanted);
            heap.set(index, older.get(index));
            assertAllDecode(WANTED, heap);
            assertArrayEquals(WANTED, CODEC.decode(parsed(heap)));
            DecodeResult report = CODEC.decodeBytesWithReport(heap);
            assertEquals(id(wanted.get(0)), report.dispersalId());
            assertEquals(1, report.rejections().size(), report.rejections()::toString);
            Rejection r = report.rejections().get(0);
            assertEquals(index, r.position());
            assertEquals(index, r.fragmentIndex());
            assertEquals("dispersal id " + id(older.get(0)) + " differs from the " + id(wanted.get(0))
                    + " of the fragments decoded", r.reason());
            assertFalse(report.usedPositions().contains(index));
            assertEquals(6, report.usedPositions().size());
        }
        // An extra tenth fragment of the older checkpoint, of another length and stripe size: set aside too.
        List<byte[]> heap = new ArrayList<>(wanted);
        heap.add(0, stored(CODEC.withStripeSizeBytes(100), TestData.bytes(3, 999)).get(2));
        assertAllDecode(WANTED, heap);
        assertEquals(List.of(0), CODEC.decodeBytesWithReport(heap).rejections().stream()
                .map(Rejection::position).toList());
    }

    @Test
    void the_caller_names_the_dispersal_when_two_could_be_rebuilt() throws IOException {
        List<byte[]> heap = new ArrayList<>(stored(CODEC, WANTED));
        heap.addAll(stored(CODEC, OLDER).subList(0, 6));
        String wantedId = id(heap.get(0));
        String olderId = id(heap.get(9));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CODEC.decodeBytes(heap));
        assertEquals("fragments of two dispersals can each be decoded: dispersal " + wantedId + " (9 distinct"
                + " fragments) and " + olderId + " (6); name the one wanted with decodeBytes(…, dispersalId)",
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CODEC.decode(parsed(heap)));
        assertArrayEquals(WANTED, CODEC.decodeBytes(heap, wantedId));
        assertArrayEquals(OLDER, CODEC.decodeBytes(heap, olderId.toUpperCase(java.util.Locale.ROOT)));
        assertArrayEquals(OLDER, CODEC.decode(parsed(heap), olderId));
        DecodeResult older = CODEC.decodeBytesWithReport(heap, olderId);
        assertEquals(9, older.rejections().size());
        assertTrue(older.rejections().get(0).reason().startsWith("names dispersal id " + wantedId
                + ", not the wanted " + olderId), older.rejections().get(0).reason());
        // Streaming, with the name, checks what it wrote.
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CODEC.decode(TestData.streams(heap), out, wantedId);
        assertArrayEquals(WANTED, out.toByteArray());
        CorruptFragmentException wrong = assertThrows(CorruptFragmentException.class,
                () -> CODEC.decode(TestData.streams(heap), new ByteArrayOutputStream(), olderId));
        assertTrue(wrong.getMessage().contains("not the wanted dispersal id " + olderId), wrong.getMessage());

        String absent = "ab".repeat(32);
        NotEnoughFragmentsException none = assertThrows(NotEnoughFragmentsException.class,
                () -> CODEC.decodeBytes(heap, absent));
        assertEquals(0, none.verified());
        assertEquals(15, none.rejections().size());
        assertEquals("dispersalId must be 64 hexadecimal digits: \"xyz\"", assertThrows(
                IllegalArgumentException.class, () -> CODEC.decodeBytes(heap, "xyz")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> CODEC.decode(TestData.streams(heap), out, "g".repeat(64)));
        // Digits of other scripts (U+0663, ARABIC-INDIC DIGIT THREE) are not hexadecimal digits here.
        String arabicThree = "\u0663".repeat(64);
        assertEquals("dispersalId must be 64 hexadecimal digits: \"" + arabicThree + "\"", assertThrows(
                IllegalArgumentException.class, () -> CODEC.decodeBytes(heap, arabicThree)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> CODEC.decode(TestData.streams(heap), out, arabicThree));
    }

    @Test
    void when_no_dispersal_has_m_the_exception_gives_each_count() {
        List<byte[]> heap = new ArrayList<>(stored(CODEC, WANTED).subList(0, 4));
        heap.addAll(stored(CODEC, OLDER).subList(4, 7));
        String wantedId = id(heap.get(0));
        String olderId = id(heap.get(6));
        NotEnoughFragmentsException e = assertThrows(NotEnoughFragmentsException.class,
                () -> CODEC.decodeBytes(heap));
        assertEquals(4, e.verified());
        assertEquals(6, e.needed());
        assertEquals(Map.of(wantedId, 4, olderId, 3), e.verifiedByDispersal());
        assertEquals(List.of(4, 5, 6), e.rejections().stream().map(Rejection::position).toList());
        assertTrue(e.getMessage().startsWith("need 6 distinct verified fragments of one dispersal, have 4 (7 given;"
                + " verified by dispersal: " + wantedId.substring(0, 12) + "… 4, " + olderId.substring(0, 12)
                + "… 3; rejected: [position 4, index 4: dispersal id " + olderId + " differs from the " + wantedId
                + " of the 4 fragments counted]"), e.getMessage());
        NotEnoughFragmentsException fromParsed = assertThrows(NotEnoughFragmentsException.class,
                () -> CODEC.decode(parsed(heap)));
        assertEquals(e.getMessage(), fromParsed.getMessage());
        NotEnoughFragmentsException streamed = assertThrows(NotEnoughFragmentsException.class,
                () -> streamed(CODEC, heap));
        assertEquals(4, streamed.verified());
        assertEquals(List.of(4, 5, 6), streamed.rejections().stream().map(Rejection::position).toList());
    }

    @Test
    void a_fragment_relabelled_with_another_index_is_found_out() throws IOException {
        List<byte[]> wanted = stored(CODEC, WANTED);
        for (int[] labels : new int[][] {{0, 5}, {5, 0}, {7, 2}, {2, 8}}) {
            int from = labels[0];
            int to = labels[1];
            byte[] relabelled = Forgery.relabel(wanted.get(from), to);
            assertEquals(to, Fragment.parse(relabelled).index(), "it verifies on its own");
            // In place of the genuine fragment of that index, and beside it.
            List<byte[]> replacing = new ArrayList<>(wanted);
            replacing.set(to, relabelled);
            replacing.remove(from);
            List<byte[]> beside = new ArrayList<>(wanted);
            beside.add(0, relabelled);
            for (List<byte[]> heap : List.of(replacing, beside)) {
                assertAllDecode(WANTED, heap);
                assertArrayEquals(WANTED, CODEC.decode(parsed(heap)));
                DecodeResult report = CODEC.decodeBytesWithReport(heap);
                int position = heap.indexOf(relabelled);
                // Unless the first choice did without it, it was tried, found out and named.
                assertFalse(report.usedPositions().contains(position), () -> from + " as " + to);
                for (Rejection r : report.rejections()) {
                    assertEquals(position, r.position(), () -> from + " as " + to + ": " + report.rejections());
                    assertTrue(r.reason().startsWith("verifies on its own but its payload is not fragment " + to),
                            r.reason());
                }
                // The first choice is the first fragment (by position) of each of the 6 lowest indexes.
                long lower = heap.stream().mapToInt(b -> Fragment.parse(b).index()).filter(i -> i < to).distinct()
                        .count();
                boolean firstOfItsIndex = heap.stream().filter(b -> Fragment.parse(b).index() == to).findFirst()
                        .orElseThrow() == relabelled;
                if (lower < 6 && firstOfItsIndex) {
                    assertEquals(1, report.rejections().size(), () -> from + " as " + to);
                }
            }
        }
    }

    @Test
    void a_record_spliced_from_another_dispersal_is_named_for_what_differs() throws IOException {
        List<byte[]> wanted = stored(CODEC, WANTED);
        List<byte[]> older = stored(CODEC, OLDER);
        byte[] spliced = Forgery.spliceRecord(wanted.get(2), older.get(2), 3);
        Fragment parsed = Fragment.parse(spliced);
        assertEquals(Fragment.parse(wanted.get(2)).dispersalId(), parsed.dispersalId(), "the same dispersal id");
        int expected = Fragment.parse(wanted.get(0)).dataCrcs()[3];
        int got = parsed.dataCrcs()[3];
        String reason = String.format("stripe 3 data CRC32C 0x%08X differs from the 0x%08X of the fragments decoded"
                + " (the dispersal id is the same: a trailer or record forged or spliced from other data)", got,
                expected);
        List<byte[]> heap = new ArrayList<>(wanted);
        heap.set(2, spliced);
        assertAllDecode(WANTED, heap);
        assertEquals(List.of(new Rejection(2, 2, reason)), CODEC.decodeBytesWithReport(heap).rejections());
        // With no spare, the error says what differs instead of printing two equal ids.
        List<Fragment> six = parsed(heap.subList(0, 6));
        NotEnoughFragmentsException e = assertThrows(NotEnoughFragmentsException.class, () -> CODEC.decode(six));
        assertEquals(List.of(new Rejection(2, 2, reason.replace("the fragments decoded", "the 5 fragments counted"))),
                e.rejections());
        assertFalse(e.getMessage().contains("different encodings"), e.getMessage());
        NotEnoughFragmentsException streamedError = assertThrows(NotEnoughFragmentsException.class,
                () -> streamed(CODEC, heap.subList(0, 6)));
        assertEquals(String.format("stripe 3 data CRC32C 0x%08X differs from the 0x%08X of the 5 fragments in use: a"
                + " fragment of another dispersal, or a record spliced from one", got, expected),
                streamedError.rejections().get(0).reason());
    }

    @Test
    void a_forged_header_is_a_lost_fragment_to_every_decoder() throws IOException {
        List<byte[]> wanted = stored(CODEC, WANTED);
        for (int position : new int[] {0, 4, 8}) {
            List<byte[]> heap = new ArrayList<>(wanted);
            heap.set(position, Forgery.withStripeSize(wanted.get(position), 32));
            assertThrows(CorruptFragmentException.class, () -> Fragment.parse(heap.get(position)));
            assertAllDecode(WANTED, heap);
            DecodeResult report = CODEC.decodeBytesWithReport(heap);
            assertTrue(report.rejections().isEmpty() || report.rejections().get(0).position() == position);
        }
        // Both give up alike when the forgery leaves fewer than m.
        List<byte[]> six = new ArrayList<>(wanted.subList(0, 6));
        six.set(0, Forgery.withStripeSize(six.get(0), 32));
        assertThrows(NotEnoughFragmentsException.class, () -> CODEC.decodeBytes(six));
        NotEnoughFragmentsException e = assertThrows(NotEnoughFragmentsException.class, () -> streamed(CODEC, six));
        assertEquals(0, e.rejections().get(0).position());
        // A stripe size smaller than the real one fails the first record; with a larger one, the first record
        // reads as the last, and what follows it is no trailer of the forged header.
        assertEquals("stripe 0 claims 384 data bytes; a stripe holds at most 192", e.rejections().get(0).reason());
        six.set(0, Forgery.withStripeSize(wanted.get(0), 128));
        e = assertThrows(NotEnoughFragmentsException.class, () -> streamed(CODEC, six));
        assertEquals("with its stripe size of 128 bytes stripe 0 is the last, but what follows is not its trailer:"
                + " trailer checksum mismatch", e.rejections().get(0).reason());
    }

    @Test
    void repair_ignores_a_fragment_of_another_dispersal() {
        List<Fragment> wanted = CODEC.encode(WANTED);
        List<Fragment> heap = new ArrayList<>(wanted.subList(0, 7));
        heap.set(3, CODEC.encode(OLDER).get(3));
        heap.add(wanted.get(3));
        assertEquals(wanted.get(8), CODEC.decodeMissing(heap, 8).get(0));
    }

    /**
     * One forged fragment of any kind, anywhere, among the fragments of a random dispersal with at least one spare:
     * every decoder rebuilds the data, and the report never lists the forgery among the fragments used.
     */
    @net.jqwik.api.Property(tries = 300)
    void one_forgery_never_stops_a_decode_with_a_spare(
            @net.jqwik.api.ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 6) int m,
            @net.jqwik.api.ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 3) int k,
            @net.jqwik.api.ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 400) int length,
            @net.jqwik.api.ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 16) int stripe,
            @net.jqwik.api.ForAll long seed) throws IOException {
        checkOneForgery(m, k, length, stripe, seed);
    }

    /**
     * A sample the property once falsified: systematic (3, 2) on five bytes with one-byte stripes, the second
     * fragment relabelled as the third and added beside the genuine one. The data's second and third bytes are equal,
     * so the forgery's first cell is right for index 2; its second cell differs, but there the third fragment holds
     * only padding, which no decode from the first three indexes reads. The data comes out right, and the report lists
     * the forgery among the rejections, not among the fragments used.
     */
    @Test
    void a_relabelled_fragment_that_differs_only_in_padding_is_reported_as_set_aside() throws IOException {
        checkOneForgery(3, 2, 5, 1, -3);
        IdaCodec codec = IdaCodec.systematic(3, 2).withStripeSizeBytes(1);
        byte[] data = {-35, -95, -95, -75, -53};
        List<byte[]> stored = stored(codec, data);
        List<byte[]> heap = new ArrayList<>(stored);
        heap.add(0, Forgery.relabel(stored.get(1), 2));
        assertArrayEquals(data, codec.decodeBytes(heap));
        DecodeResult report = codec.decodeBytesWithReport(heap);
        assertArrayEquals(data, report.data());
        assertEquals(List.of(1, 2, 3), report.usedPositions(), report::toString);
        assertEquals(1, report.rejections().size(), report.rejections()::toString);
        assertEquals(0, report.rejections().get(0).position());
        assertEquals(2, report.rejections().get(0).fragmentIndex());
        assertTrue(report.rejections().get(0).reason().contains("relabelled"), report.rejections()::toString);
    }

    /**
     * Another sample the property once falsified, in the streaming decoder: with {@code m = 1}, 15 bytes fill less
     * than one 16-byte stripe, and a copy of the other fragment whose header claims 15-byte stripes reads its one
     * record as a full stripe. Both stripe sizes have one fragment whose first record verifies; the genuine one's
     * trailer, read at once after its short last record, confirms its stripe size, and the forgery is set aside.
     */
    @Test
    void a_smaller_stripe_size_forged_onto_a_single_short_stripe_is_refuted_by_the_genuine_trailer()
            throws IOException {
        checkOneForgery(1, 1, 15, 16, 6);
        IdaCodec codec = IdaCodec.systematic(1, 1).withStripeSizeBytes(16);
        byte[] data = TestData.bytes(6, 15);
        List<byte[]> stored = stored(codec, data);
        for (int genuine = 0; genuine < 2; genuine++) {
            List<byte[]> heap = new ArrayList<>(List.of(stored.get(genuine),
                    Forgery.withStripeSize(stored.get(1 - genuine), 15)));
            for (int order = 0; order < 2; order++) {
                java.util.Collections.reverse(heap);
                assertArrayEquals(data, streamed(codec, heap));
                assertArrayEquals(data, codec.decodeBytes(heap));
            }
        }
    }

    private static void checkOneForgery(int m, int k, int length, int stripe, long seed) throws IOException {
        java.util.Random random = new java.util.Random(seed);
        IdaCodec codec = TestData.codec(Layout.values()[random.nextInt(Layout.values().length)], m, k)
                .withStripeSizeBytes(stripe);
        byte[] data = TestData.bytes(seed, length);
        byte[] otherData = TestData.bytes(seed + 1, length);
        List<byte[]> stored = stored(codec, data);
        List<byte[]> other = stored(codec, otherData);
        int victim = random.nextInt(codec.n());
        byte[] forged;
        int kind = random.nextInt(4);
        switch (kind) {
            case 0 -> forged = other.get(victim);
            case 1 -> forged = Forgery.relabel(stored.get(victim), (victim + 1 + random.nextInt(codec.n() - 1))
                    % codec.n());
            case 2 -> forged = Forgery.withStripeSize(stored.get(victim), stripe == 16 ? 15 : stripe + 1);
            default -> forged = Forgery.spliceRecord(stored.get(victim), other.get(victim),
                    random.nextInt(Forgery.recordOffsets(stored.get(victim)).length - 1));
        }
        List<byte[]> heap = new ArrayList<>(stored);
        boolean beside = random.nextBoolean();
        if (beside) {
            heap.add(random.nextInt(heap.size() + 1), forged);
        } else {
            heap.set(victim, forged);
        }
        java.util.Collections.shuffle(heap, random);
        boolean secondDispersal = kind == 0 && m == 1 && !java.util.Arrays.equals(data, otherData);
        if (secondDispersal) {
            // With m = 1 the fragment of other data is a complete dispersal: the caller names the one wanted.
            assertThrows(IllegalArgumentException.class, () -> codec.decodeBytes(heap));
            String id = FragmentFormat.hex(Hashing.sha256().digest(data));
            assertArrayEquals(data, codec.decodeBytes(heap, id));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try {
                codec.decode(TestData.streams(heap), out, id);
                assertArrayEquals(data, out.toByteArray());
            } catch (CorruptFragmentException e) {
                assertTrue(e.getMessage().contains("not the wanted dispersal id"), e.getMessage());
            }
            return;
        }
        assertArrayEquals(data, codec.decodeBytes(heap), "decodeBytes");
        if (m >= 2 || kind != 3) {
            assertArrayEquals(data, streamed(codec, heap), "streaming");
        } else {
            // With m = 1 a record spliced into the one stream in use is found only by the final checks.
            try {
                assertArrayEquals(data, streamed(codec, heap), "streaming");
            } catch (CorruptFragmentException e) {
                assertTrue(e.getMessage().contains("discard the output"), e.getMessage());
            }
        }
        DecodeResult report = codec.decodeBytesWithReport(heap);
        assertArrayEquals(data, report.data());
        // The report is exact: the fragments used are, byte for byte, the fragments of their indexes (so a
        // forgery is used only if it left its index's payload as it was), they have m distinct indexes and rebuild
        // the data on their own, and no position is both used and set aside.
        List<byte[]> used = report.usedPositions().stream().map(heap::get).toList();
        for (byte[] u : used) {
            Fragment f = Fragment.parse(u);
            assertArrayEquals(IdaCodecTest.bare(Fragment.parse(stored.get(f.index()))), IdaCodecTest.bare(f),
                    report::toString);
        }
        assertEquals(m, used.stream().mapToInt(u -> Fragment.parse(u).index()).distinct().count(),
                report::toString);
        assertArrayEquals(data, codec.decodeBytes(used), report::toString);
        for (Rejection r : report.rejections()) {
            assertFalse(report.usedPositions().contains(r.position()), report::toString);
        }
    }
}
