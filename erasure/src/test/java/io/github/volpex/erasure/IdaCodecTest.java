package io.github.volpex.erasure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class IdaCodecTest {

    @Test
    void limits_are_enforced_with_clear_messages() {
        assertEquals("m must be in [1, 255]: 0",
                assertThrows(IllegalArgumentException.class, () -> IdaCodec.systematic(0, 3)).getMessage());
        assertEquals("k must be in [0, 5] for m = 250: 6",
                assertThrows(IllegalArgumentException.class, () -> IdaCodec.systematic(250, 6)).getMessage());
        assertEquals("k must be in [0, 249] for m = 6: -1",
                assertThrows(IllegalArgumentException.class, () -> IdaCodec.rabin(6, -1)).getMessage());
        assertEquals("stripeSizeBytes must be in [1, 4194304]: 0", assertThrows(IllegalArgumentException.class,
                () -> IdaCodec.systematic(2, 1).withStripeSizeBytes(0)).getMessage());
        assertEquals(255, IdaCodec.systematic(1, 254).n());
        assertEquals(255, IdaCodec.rabin(200, 55).n());
        assertEquals("m must be in [1, 254]: 0",
                assertThrows(IllegalArgumentException.class, () -> IdaCodec.xor(0)).getMessage());
        assertEquals("m must be in [1, 254]: 255",
                assertThrows(IllegalArgumentException.class, () -> IdaCodec.xor(255)).getMessage());
        assertEquals(255, IdaCodec.xor(254).n());
        assertEquals(1, IdaCodec.xor(254).k());
    }

    @Test
    void fragment_payload_is_the_ceiling_of_length_over_m() {
        IdaCodec codec = IdaCodec.systematic(6, 3);
        assertEquals(0, codec.payloadLength(0));
        assertEquals(1, codec.payloadLength(1));
        assertEquals(1, codec.payloadLength(6));
        assertEquals(2, codec.payloadLength(7));
        assertEquals("dataLength must be >= 0: -1",
                assertThrows(IllegalArgumentException.class, () -> codec.payloadLength(-1)).getMessage());
        for (int length : new int[] {0, 5, 6, 7, 1000, 65536 * 6, 65536 * 6 + 1}) {
            for (Fragment f : codec.encode(new byte[length])) {
                assertEquals(codec.payloadLength(length), f.payloadLength(), "length " + length);
            }
        }
    }

    @Test
    void the_systematic_generator_is_identity_over_cauchy_rows_of_inverses_of_xor() {
        IdaCodec codec = IdaCodec.systematic(6, 3);
        for (int i = 0; i < 9; i++) {
            for (int j = 0; j < 6; j++) {
                int expected = i < 6 ? (i == j ? 1 : 0) : Gf256.inv(i ^ j);
                assertEquals(expected, codec.coefficient(i, j), "a[" + i + "][" + j + "]");
            }
        }
        // ISA-L's gf_gen_cauchy1_matrix for m = 6 starts row 6 with 1/6, 1/7, 1/4, 1/5, 1/2, 1/3.
        assertEquals(Gf256.inv(6), codec.coefficient(6, 0));
        assertEquals(1, Gf256.mul(codec.coefficient(8, 5), 8 ^ 5));
        assertThrows(IndexOutOfBoundsException.class, () -> codec.coefficient(9, 0));
    }

    @Test
    void the_xor_generator_is_identity_over_a_row_of_ones_and_systematic_k1_keeps_the_cauchy_row() {
        IdaCodec xor = IdaCodec.xor(7);
        IdaCodec cauchy = IdaCodec.systematic(7, 1);
        assertEquals(Layout.XOR, xor.layout());
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 7; j++) {
                assertEquals(i == 7 || i == j ? 1 : 0, xor.coefficient(i, j), "a[" + i + "][" + j + "]");
                if (i < 7) {
                    assertEquals(xor.coefficient(i, j), cauchy.coefficient(i, j));
                }
            }
        }
        // ISA-L's k = 1 row is 1/(7 ⊕ j): 1/7, 1/6, …, never all ones; only 1/(7 ⊕ 6) = 1.
        for (int j = 0; j < 7; j++) {
            assertEquals(1, Gf256.mul(cauchy.coefficient(7, j), 7 ^ j), "j = " + j);
        }
        assertNotEquals(1, cauchy.coefficient(7, 0));
    }

    @ParameterizedTest(name = "xor({0}), {1} bytes, stripe {2}")
    @CsvSource({"1, 0, 16", "1, 13, 5", "2, 101, 8", "3, 1000, 7", "7, 100000, 65536", "7, 99999, 1000",
        "5, 21, 3", "13, 10000, 64", "254, 3000, 5"})
    void xor_parity_is_the_byte_wise_xor_of_the_zero_padded_data_cells(int m, int length, int stripe) {
        IdaCodec codec = IdaCodec.xor(m).withStripeSizeBytes(stripe);
        byte[] data = TestData.bytes(length + m, length);
        List<Fragment> fragments = codec.encode(data);
        assertEquals(m + 1, fragments.size());
        byte[] parity = new byte[(int) codec.payloadLength(length)];
        int stripeData = m * stripe;
        for (int base = 0, at = 0; ; base += stripeData) {
            int d = Math.min(stripeData, length - base);
            int cell = (d + m - 1) / m;
            for (int p = 0; p < cell; p++) {
                int x = 0;
                for (int j = 0; j < m; j++) {
                    int q = j * cell + p;
                    x ^= q < d ? data[base + q] : 0;
                }
                parity[at + p] = (byte) x;
            }
            at += cell;
            if (d < stripeData) {
                break;
            }
        }
        assertArrayEquals(parity, bare(fragments.get(m)));
        assertArrayEquals(bare(IdaCodec.systematic(m, 1).withStripeSizeBytes(stripe).encode(data).get(0)),
                bare(fragments.get(0)), "data fragments are those of every systematic layout");
    }

    @Test
    void every_kernel_of_the_xor_layout_is_pure_xor_and_decoding_without_loss_only_copies() {
        IdaCodec codec = IdaCodec.xor(6);
        assertTrue(codec.encoder() instanceof XorKernel);
        for (int lost = 0; lost <= 6; lost++) {
            byte[][] cells = new byte[7][];
            for (int i = 0; i < 7; i++) {
                cells[i] = i == lost ? null : new byte[1];
            }
            IdaCodec.DecodePlan plan = codec.plan(cells);
            assertTrue(plan.kernel instanceof XorKernel, "lost " + lost);
            assertEquals(lost < 6 ? 1 : 0, plan.kernel.outputs(), "lost " + lost);
        }
        assertEquals(VectorKernelTest.multiplyingKernel(),
                IdaCodec.systematic(6, 1).encoder().getClass().getSimpleName());
    }

    @Test
    void systematic_data_fragments_are_the_data_cells() {
        byte[] data = TestData.bytes(1, 6 * 16 * 2 + 10);
        IdaCodec codec = IdaCodec.systematic(6, 3).withStripeSizeBytes(16);
        List<Fragment> fragments = codec.encode(data);
        byte[] payload0 = new byte[fragments.get(0).payloadLength()];
        fragments.get(0).payload().get(payload0);
        // Stripe 0 cell 0, stripe 1 cell 0, then cell 0 of the last stripe (10 bytes in cells of 2).
        byte[] expected = new byte[34];
        System.arraycopy(data, 0, expected, 0, 16);
        System.arraycopy(data, 96, expected, 16, 16);
        System.arraycopy(data, 192, expected, 32, 2);
        assertArrayEquals(expected, payload0);
        // The last cell of the last stripe is zero-padded: 10 bytes, cells of 2, cell 5 empty.
        byte[] payload5 = new byte[fragments.get(5).payloadLength()];
        fragments.get(5).payload().get(payload5);
        assertEquals(0, payload5[32]);
        assertEquals(0, payload5[33]);
    }

    static Stream<Arguments> exhaustiveCases() {
        List<Arguments> cases = new ArrayList<>();
        for (int[] mk : new int[][] {{6, 3}, {4, 2}}) {
            int m = mk[0];
            int stripe = 16;
            for (int length : new int[] {0, 1, m - 1, m, m + 1, 3 * m * stripe + 5, 2 * m * stripe}) {
                cases.add(Arguments.of(IdaCodec.systematic(m, mk[1]).withStripeSizeBytes(stripe), length));
                cases.add(Arguments.of(IdaCodec.rabin(m, mk[1]).withStripeSizeBytes(stripe), length));
                cases.add(Arguments.of(IdaCodec.xor(m).withStripeSizeBytes(stripe), length));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}, {1} bytes")
    @MethodSource("exhaustiveCases")
    void every_subset_of_m_fragments_rebuilds_the_data_and_repairs_the_rest(IdaCodec codec, int length) {
        byte[] data = TestData.bytes(length * 31L + codec.m(), length);
        List<Fragment> all = codec.encode(data);
        int n = codec.n();
        int payload = (int) codec.payloadLength(length);
        for (int[] subset : TestData.subsets(n, codec.m())) {
            List<Fragment> some = TestData.pick(all, subset);
            Collections.reverse(some);
            assertArrayEquals(data, codec.decode(some), () -> "subset " + java.util.Arrays.toString(subset));

            byte[][] payloads = new byte[n][];
            for (int i : subset) {
                payloads[i] = bare(all.get(i));
            }
            byte[] out = new byte[length + 3];
            codec.decodePayloads(payloads, out, 3, length);
            assertArrayEquals(data, java.util.Arrays.copyOfRange(out, 3, 3 + length));

            int[] lost = TestData.complement(n, subset);
            List<Fragment> repaired = codec.decodeMissing(some, lost);
            for (int r = 0; r < lost.length; r++) {
                assertEquals(all.get(lost[r]), repaired.get(r), "repaired index " + lost[r]);
                assertArrayEquals(all.get(lost[r]).toByteArray(), repaired.get(r).toByteArray());
            }
            assertEquals(payload, repaired.isEmpty() ? payload : repaired.get(0).payloadLength());
        }
    }

    static byte[] bare(Fragment f) {
        byte[] b = new byte[f.payloadLength()];
        f.payload().get(b);
        return b;
    }

    static Stream<IdaCodec> layouts() {
        return Stream.of(IdaCodec.systematic(5, 3), IdaCodec.rabin(5, 3), IdaCodec.xor(5));
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void the_payload_api_writes_the_fragment_payloads(IdaCodec layout) {
        IdaCodec codec = layout.withStripeSizeBytes(100);
        int n = codec.n();
        byte[] data = TestData.bytes(7, 1234);
        byte[][] payloads = new byte[n][(int) codec.payloadLength(1234) + 2];
        byte[] padded = new byte[1240];
        System.arraycopy(data, 0, padded, 4, 1234);
        codec.encodePayloads(padded, 4, 1234, payloads);
        List<Fragment> fragments = codec.encode(data);
        for (int i = 0; i < n; i++) {
            assertArrayEquals(bare(fragments.get(i)),
                    java.util.Arrays.copyOf(payloads[i], fragments.get(i).payloadLength()), "payload " + i);
        }
        assertEquals("payloads must hold n = " + n + " arrays: " + (n - 1), assertThrows(
                IllegalArgumentException.class, () -> codec.encodePayloads(data, 0, 1234, new byte[n - 1][300]))
                .getMessage());
        byte[][] oneShort = new byte[n][300];
        oneShort[2] = new byte[10];
        assertEquals("payloads[2] must hold at least 247 bytes: 10", assertThrows(IllegalArgumentException.class,
                () -> codec.encodePayloads(data, 0, 1234, oneShort)).getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> codec.encodePayloads(data, 5, 1234, payloads));
        // A payload that is also the data, or one array given for two payloads, would be coded from overwritten bytes.
        byte[] big = new byte[4000];
        byte[][] dataInside = payloads.clone();
        dataInside[1] = big;
        assertEquals("payloads[1] must not be the data array", assertThrows(IllegalArgumentException.class,
                () -> codec.encodePayloads(big, 0, 1234, dataInside)).getMessage());
        byte[][] twice = payloads.clone();
        twice[n - 1] = twice[0];
        assertEquals("payloads[0] and payloads[" + (n - 1) + "] must be distinct arrays", assertThrows(
                IllegalArgumentException.class, () -> codec.encodePayloads(data, 0, 1234, twice)).getMessage());
        assertEquals("payloads[1] must not be the data array", assertThrows(IllegalArgumentException.class,
                () -> codec.decodePayloads(dataInside, big, 0, 1234)).getMessage());
        byte[][] tooFew = new byte[n][];
        tooFew[0] = payloads[0];
        NotEnoughFragmentsException e = assertThrows(NotEnoughFragmentsException.class,
                () -> codec.decodePayloads(tooFew, new byte[1234], 0, 1234));
        assertEquals(1, e.verified());
        assertEquals(5, e.needed());
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void heap_and_direct_buffers_encode_like_arrays_and_keep_their_position(IdaCodec layout) {
        IdaCodec codec = layout.withStripeSizeBytes(64);
        byte[] data = TestData.bytes(3, 1000);
        List<Fragment> expected = codec.encode(data);
        ByteBuffer direct = ByteBuffer.allocateDirect(1010);
        direct.position(10);
        direct.put(data);
        direct.position(10);
        assertEquals(expected, codec.encode(direct));
        assertEquals(10, direct.position());
        ByteBuffer heap = ByteBuffer.wrap(new byte[1010], 5, 1000).slice();
        heap.put(data).flip();
        assertEquals(expected, codec.encode(heap));
        assertEquals(0, heap.position());
        assertEquals(expected, codec.encode(ByteBuffer.wrap(data).asReadOnlyBuffer()));
    }

    @Test
    void a_non_blocking_channel_is_refused_instead_of_spun_on() throws IOException {
        IdaCodec codec = IdaCodec.systematic(2, 1);
        List<OutputStream> sinks = List.of(new ByteArrayOutputStream(), new ByteArrayOutputStream(),
                new ByteArrayOutputStream());
        Pipe pipe = Pipe.open();
        try (Pipe.SinkChannel sink = pipe.sink()) {
            sink.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        }
        try (Pipe.SourceChannel source = pipe.source()) {
            source.configureBlocking(false);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> codec.encode(source, sinks));
            assertTrue(e.getMessage().startsWith("data must be a blocking channel"), e.getMessage());
            source.configureBlocking(true);
            assertEquals(3, codec.encode(source, sinks).dataLength());
        }
    }

    @Test
    void k_zero_is_a_plain_split_and_m_one_scales_the_data() {
        byte[] data = TestData.bytes(5, 99);
        List<Fragment> split = IdaCodec.systematic(3, 0).encode(data);
        assertEquals(3, split.size());
        assertArrayEquals(java.util.Arrays.copyOfRange(data, 0, 33), bare(split.get(0)));
        List<Fragment> copies = IdaCodec.systematic(1, 3).encode(data);
        for (Fragment f : copies) {
            byte[] scaled = new byte[99];
            for (int p = 0; p < 99; p++) {
                scaled[p] = (byte) TestData.slowMul(data[p] & 0xFF, f.index() == 0 ? 1 : Gf256.inv(f.index()));
            }
            assertArrayEquals(scaled, bare(f), "fragment " + f.index());
        }
        assertArrayEquals(data, IdaCodec.systematic(1, 3).decode(copies.subList(3, 4)));
        assertArrayEquals(data, IdaCodec.rabin(3, 0).decode(IdaCodec.rabin(3, 0).encode(data)));
    }

    @Test
    void rabin_fragments_are_all_coded() {
        byte[] data = TestData.bytes(6, 600);
        List<Fragment> fragments = IdaCodec.rabin(6, 3).encode(data);
        for (Fragment f : fragments.subList(1, 9)) {
            assertNotEquals(java.util.Arrays.toString(java.util.Arrays.copyOfRange(data, 0, 100)),
                    java.util.Arrays.toString(bare(f)));
        }
        assertEquals(Layout.RABIN, fragments.get(0).layout());
    }

    @Test
    void duplicates_are_tolerated_and_extras_ignored() {
        IdaCodec codec = IdaCodec.systematic(4, 2);
        byte[] data = TestData.bytes(8, 5000);
        List<Fragment> all = codec.encode(data);
        List<Fragment> given = new ArrayList<>(List.of(all.get(5), all.get(5), all.get(1), all.get(1), all.get(4)));
        NotEnoughFragmentsException e = assertThrows(NotEnoughFragmentsException.class, () -> codec.decode(given));
        assertEquals(5, e.given());
        assertEquals(3, e.verified());
        assertEquals(4, e.needed());
        assertEquals("need 4 distinct verified fragments, have 3 (5 given)", e.getMessage());
        given.add(all.get(2));
        given.add(all.get(0));
        assertArrayEquals(data, codec.decode(given));
    }

    @Test
    void with_m_one_a_single_fragment_of_other_data_is_a_second_candidate_and_the_caller_names_one() {
        // m = 1: any one fragment is a complete copy, so a stale one is as decodable as the wanted ones.
        IdaCodec codec = IdaCodec.systematic(1, 2);
        List<Fragment> a = codec.encode(TestData.bytes(9, 50));
        List<Fragment> b = codec.encode(TestData.bytes(10, 50));
        List<byte[]> swapped = List.of(b.get(0).toByteArray(), a.get(1).toByteArray(), a.get(2).toByteArray());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.decodeBytes(swapped));
        assertTrue(e.getMessage().startsWith("fragments of two dispersals can each be decoded: dispersal "
                + a.get(1).dispersalId() + " (2 distinct fragments) and " + b.get(0).dispersalId() + " (1)"),
                e.getMessage());
        assertArrayEquals(TestData.bytes(9, 50), codec.decodeBytes(swapped, a.get(0).dispersalId()));
        assertArrayEquals(TestData.bytes(10, 50), codec.decodeBytes(swapped, b.get(0).dispersalId()));
        // An extra that names other data but does not verify is only a lost fragment.
        byte[] damaged = b.get(1).toByteArray();
        damaged[30] ^= 1;
        assertArrayEquals(TestData.bytes(9, 50), codec.decodeBytes(List.of(a.get(0).toByteArray(), damaged)));
        // Extras of the same data are still ignored without being verified.
        byte[] damagedSame = a.get(2).toByteArray();
        damagedSame[30] ^= 1;
        assertArrayEquals(TestData.bytes(9, 50), codec.decodeBytes(List.of(a.get(0).toByteArray(), damagedSame)));
        assertEquals(List.of(), codec.decodeBytesWithReport(List.of(a.get(0).toByteArray(), damagedSame))
                .rejections());
    }

    @Test
    void fragments_of_different_encodings_are_never_mixed() {
        IdaCodec codec = IdaCodec.systematic(4, 2);
        List<Fragment> a = codec.encode(TestData.bytes(9, 400));
        List<Fragment> b = codec.encode(TestData.bytes(10, 400));
        List<Fragment> mixed = List.of(a.get(0), a.get(1), b.get(2), b.get(3));
        NotEnoughFragmentsException e = assertThrows(NotEnoughFragmentsException.class, () -> codec.decode(mixed));
        assertEquals(java.util.Map.of(a.get(0).dispersalId(), 2, b.get(0).dispersalId(), 2),
                e.verifiedByDispersal());
        assertEquals("dispersal id " + b.get(0).dispersalId() + " differs from the " + a.get(0).dispersalId()
                + " of the 2 fragments counted", e.rejections().get(0).reason());
        List<Fragment> shorter = codec.encode(TestData.bytes(9, 399));
        NotEnoughFragmentsException length = assertThrows(NotEnoughFragmentsException.class,
                () -> codec.decode(List.of(a.get(0), a.get(1), a.get(2), shorter.get(3))));
        assertTrue(length.rejections().get(0).reason().startsWith("dispersal id "), length.getMessage());
        List<Fragment> otherStripe = codec.withStripeSizeBytes(10).encode(TestData.bytes(9, 400));
        NotEnoughFragmentsException stripe = assertThrows(NotEnoughFragmentsException.class,
                () -> codec.decode(List.of(a.get(0), a.get(1), a.get(2), otherStripe.get(3))));
        assertEquals("stripe size 10 bytes differs from the 65536 of the 3 fragments counted (the dispersal id is the"
                + " same: a trailer or record forged or spliced from other data)",
                stripe.rejections().get(0).reason());
        // With a fourth fragment of a's, each of those is only set aside.
        assertArrayEquals(TestData.bytes(9, 400), codec.decode(List.of(a.get(0), a.get(1), a.get(2),
                otherStripe.get(3), shorter.get(3), b.get(3), a.get(4))));
        // Another layout or (m, k) is treated as lost, and named.
        List<Fragment> rabin = IdaCodec.rabin(4, 2).encode(TestData.bytes(9, 400));
        NotEnoughFragmentsException lost = assertThrows(NotEnoughFragmentsException.class,
                () -> codec.decode(List.of(a.get(0), a.get(1), a.get(2), rabin.get(3))));
        assertEquals("encoded with rabin(4, 2), not this codec's systematic(4, 2)",
                lost.rejections().get(0).reason());
        assertEquals(3, lost.rejections().get(0).position());
    }

    @Test
    void xor_and_systematic_k1_fragments_are_never_mixed_though_their_data_fragments_agree() throws IOException {
        byte[] data = TestData.bytes(13, 5000);
        IdaCodec xor = IdaCodec.xor(4);
        IdaCodec cauchy = IdaCodec.systematic(4, 1);
        List<Fragment> x = xor.encode(data);
        List<Fragment> c = cauchy.encode(data);
        assertArrayEquals(bare(x.get(0)), bare(c.get(0)));
        assertNotEquals(x.get(0), c.get(0));
        List<Fragment> mixed = List.of(c.get(0), x.get(1), x.get(2), x.get(3), c.get(4));
        NotEnoughFragmentsException e = assertThrows(NotEnoughFragmentsException.class, () -> xor.decode(mixed));
        assertEquals(3, e.verified());
        assertEquals("encoded with systematic(4, 1), not this codec's xor(4)", e.rejections().get(0).reason());
        assertEquals(List.of(0, 4), e.rejections().stream().map(r -> r.position()).toList());
        NotEnoughFragmentsException back = assertThrows(NotEnoughFragmentsException.class,
                () -> cauchy.decode(List.of(x.get(0), c.get(1), c.get(2), c.get(3))));
        assertEquals("encoded with xor(4), not this codec's systematic(4, 1)", back.rejections().get(0).reason());

        List<java.io.InputStream> streams = new ArrayList<>();
        for (Fragment f : mixed) {
            streams.add(new java.io.ByteArrayInputStream(f.toByteArray()));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        NotEnoughFragmentsException streamed = assertThrows(NotEnoughFragmentsException.class,
                () -> xor.decode(streams, out));
        assertEquals("encoded with systematic(4, 1), not this codec's xor(4)",
                streamed.rejections().get(0).reason());
        assertEquals(0, out.size());
        List<byte[]> stored = new ArrayList<>();
        for (Fragment f : mixed) {
            stored.add(f.toByteArray());
        }
        assertEquals(2, assertThrows(NotEnoughFragmentsException.class, () -> xor.decodeBytes(stored))
                .rejections().size());
        assertArrayEquals(data, xor.decode(List.of(c.get(0), x.get(1), x.get(2), x.get(3), x.get(4))));

        // Cauchy parity relabelled as XOR, with both header and trailer checksums recomputed, parses; decoding
        // with it is caught by the stripe checksum (streaming) and the dispersal id (in memory).
        byte[] relabelled = c.get(4).toByteArray();
        relabelled[5] = 3;
        FragmentFormat.putInt(relabelled, 16, FragmentFormat.crc(relabelled, 0, 16));
        int trailer = relabelled.length - FragmentFormat.TRAILER_BYTES;
        FragmentFormat.putInt(relabelled, relabelled.length - 4,
                FragmentFormat.trailerCrc(relabelled, relabelled, trailer));
        Fragment impostor = Fragment.parse(relabelled);
        assertEquals(Layout.XOR, impostor.layout());
        assertThrows(CorruptFragmentException.class,
                () -> xor.decode(List.of(x.get(1), x.get(2), x.get(3), impostor)));
        ByteArrayOutputStream partial = new ByteArrayOutputStream();
        assertThrows(CorruptFragmentException.class, () -> xor.decode(List.of(
                new java.io.ByteArrayInputStream(x.get(1).toByteArray()),
                new java.io.ByteArrayInputStream(x.get(2).toByteArray()),
                new java.io.ByteArrayInputStream(x.get(3).toByteArray()),
                new java.io.ByteArrayInputStream(relabelled)), partial));
        assertEquals(0, partial.size());
    }

    @Test
    void decode_missing_checks_its_indexes() {
        IdaCodec codec = IdaCodec.systematic(2, 1);
        List<Fragment> all = codec.encode(TestData.bytes(1, 10));
        assertEquals("indexes must be in [0, 2]: 3", assertThrows(IllegalArgumentException.class,
                () -> codec.decodeMissing(all, 3)).getMessage());
        assertEquals("indexes must be distinct: 1 repeats", assertThrows(IllegalArgumentException.class,
                () -> codec.decodeMissing(all, 1, 1)).getMessage());
        assertEquals(all.get(2), codec.decodeMissing(all.subList(0, 2), 2).get(0));
    }

    @Test
    void the_largest_dispersals_round_trip() {
        byte[] data = TestData.bytes(12, 100_003);
        IdaCodec rabin = IdaCodec.rabin(200, 55);
        List<Fragment> all = rabin.encode(data);
        List<Fragment> last = new ArrayList<>(all.subList(55, 255));
        Collections.shuffle(last, new java.util.Random(3));
        assertArrayEquals(data, rabin.decode(last));
        IdaCodec wide = IdaCodec.systematic(255, 0);
        assertArrayEquals(data, wide.decode(wide.encode(data)));
        IdaCodec tall = IdaCodec.systematic(1, 254);
        assertArrayEquals(data, tall.decode(tall.encode(data).subList(254, 255)));
    }

    @Test
    void codecs_compare_by_parameters_and_print_their_factory() {
        assertEquals(IdaCodec.systematic(6, 3), IdaCodec.systematic(6, 3));
        assertNotEquals(IdaCodec.systematic(6, 3), IdaCodec.rabin(6, 3));
        assertNotEquals(IdaCodec.systematic(6, 1), IdaCodec.xor(6));
        assertEquals(IdaCodec.xor(6), IdaCodec.xor(6));
        assertEquals(IdaCodec.xor(6).hashCode(), IdaCodec.xor(6).hashCode());
        assertEquals("IdaCodec.xor(6)", IdaCodec.xor(6).toString());
        assertTrue(IdaCodec.xor(2).encode(new byte[3]).get(2).toString().startsWith("Fragment[xor(2) index 2,"));
        assertEquals("IdaCodec.rabin(6, 3).withStripeSizeBytes(100)",
                IdaCodec.rabin(6, 3).withStripeSizeBytes(100).toString());
        IdaCodec codec = IdaCodec.systematic(6, 3);
        assertSame(codec, codec.withStripeSizeBytes(IdaCodec.DEFAULT_STRIPE_SIZE_BYTES));
    }

    @Test
    void the_decode_cache_stays_bounded_and_correct_under_many_erasure_patterns() {
        IdaCodec codec = IdaCodec.systematic(5, 5).withStripeSizeBytes(32);
        byte[] data = TestData.bytes(11, 777);
        List<Fragment> all = codec.encode(data);
        for (int round = 0; round < 2; round++) {
            for (int[] subset : TestData.subsets(10, 5)) { // 252 patterns > 64 slots
                assertArrayEquals(data, codec.decode(TestData.pick(all, subset)));
            }
        }
    }
}
