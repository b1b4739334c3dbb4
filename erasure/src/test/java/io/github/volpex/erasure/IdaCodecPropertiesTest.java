package io.github.volpex.erasure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The laws of a dispersal, over random parameters, lengths, stripe sizes and erasure patterns. */
class IdaCodecPropertiesTest {

    /** A codec, data, and a random order of the fragment indexes; any prefix of m of them must suffice. */
    record Case(IdaCodec codec, byte[] data, List<Integer> order, long seed) {
        @Override
        public String toString() {
            return codec + ", " + data.length + " bytes, order " + order + ", seed " + seed;
        }
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<Integer> m = Arbitraries.integers().between(1, 20);
        Arbitrary<Integer> k = Arbitraries.integers().between(0, 20);
        Arbitrary<Layout> layout = Arbitraries.of(Layout.class);
        Arbitrary<Integer> stripe = Arbitraries.oneOf(Arbitraries.integers().between(1, 64),
                Arbitraries.just(IdaCodec.DEFAULT_STRIPE_SIZE_BYTES));
        Arbitrary<Integer> length = Arbitraries.oneOf(Arbitraries.integers().between(0, 64),
                Arbitraries.integers().between(0, 20_000));
        Arbitrary<Long> seed = Arbitraries.longs();
        return Combinators.combine(m, k, layout, stripe, length, seed).as((mm, kk, lay, s, len, sd) -> {
            IdaCodec codec = TestData.codec(lay, mm, kk).withStripeSizeBytes(s);
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < codec.n(); i++) {
                order.add(i);
            }
            Collections.shuffle(order, new Random(sd));
            return new Case(codec, TestData.bytes(sd, len), order, sd);
        });
    }

    @Property(tries = 300)
    void any_m_fragments_in_any_order_rebuild_the_data(@ForAll("cases") Case c) {
        List<Fragment> all = c.codec().encode(c.data());
        List<Fragment> some = new ArrayList<>();
        for (int i : c.order().subList(0, c.codec().m())) {
            some.add(all.get(i));
        }
        assertArrayEquals(c.data(), c.codec().decode(some));
        assertArrayEquals(c.data(), c.codec().decode(all));
    }

    @Property(tries = 200)
    void repair_regenerates_byte_identical_fragments(@ForAll("cases") Case c) {
        List<Fragment> all = c.codec().encode(c.data());
        int m = c.codec().m();
        List<Fragment> kept = new ArrayList<>();
        for (int i : c.order().subList(0, m)) {
            kept.add(all.get(i));
        }
        int[] lost = c.order().subList(m, c.order().size()).stream().mapToInt(Integer::intValue).toArray();
        List<Fragment> repaired = c.codec().decodeMissing(kept, lost);
        for (int r = 0; r < lost.length; r++) {
            assertArrayEquals(all.get(lost[r]).toByteArray(), repaired.get(r).toByteArray());
        }
    }

    @Property(tries = 150)
    void streaming_and_in_memory_results_are_byte_identical(@ForAll("cases") Case c) throws IOException {
        IdaCodec codec = c.codec();
        List<Fragment> all = codec.encode(c.data());
        List<ByteArrayOutputStream> sinks = new ArrayList<>();
        for (int i = 0; i < codec.n(); i++) {
            sinks.add(new ByteArrayOutputStream());
        }
        DispersalSummary summary = c.seed() % 2 == 0
                ? codec.encode(new TrickleInputStream(c.data(), c.seed()), sinks)
                : codec.encode(Channels.newChannel(new ByteArrayInputStream(c.data())), sinks);
        assertEquals(c.data().length, summary.dataLength());
        assertEquals(all.get(0).dispersalId(), summary.dispersalId());
        for (int i = 0; i < codec.n(); i++) {
            assertArrayEquals(all.get(i).toByteArray(), sinks.get(i).toByteArray(), "fragment " + i);
            assertEquals(all.get(i).contentId(), summary.contentIds().get(i));
            ByteArrayOutputStream written = new ByteArrayOutputStream();
            all.get(i).writeTo(written);
            assertArrayEquals(sinks.get(i).toByteArray(), written.toByteArray());
        }
        List<InputStream> sources = new ArrayList<>();
        for (int i : c.order().subList(0, codec.m())) {
            sources.add(new TrickleInputStream(sinks.get(i).toByteArray(), c.seed() + i));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(c.data().length, codec.decode(sources, out));
        assertArrayEquals(c.data(), out.toByteArray());
    }

    @Property(tries = 100)
    void the_stored_form_parses_back_to_an_equal_fragment(@ForAll("cases") Case c) {
        for (Fragment f : c.codec().encode(c.data())) {
            byte[] bytes = f.toByteArray();
            assertEquals(bytes.length, f.encodedLength());
            Fragment back = Fragment.parse(bytes);
            assertEquals(f, back);
            assertEquals(f.hashCode(), back.hashCode());
            assertEquals(f.contentId(), back.contentId());
        }
    }

    /** Returns data in short, irregular reads, as sockets do. */
    static final class TrickleInputStream extends InputStream {
        private final byte[] data;
        private final Random random;
        private int at;

        TrickleInputStream(byte[] data, long seed) {
            this.data = data;
            this.random = new Random(seed);
        }

        @Override
        public int read() {
            return at < data.length ? data[at++] & 0xFF : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (at >= data.length) {
                return -1;
            }
            int n = Math.min(Math.min(len, data.length - at), 1 + random.nextInt(700));
            System.arraycopy(data, at, b, off, n);
            at += n;
            return n;
        }
    }
}
