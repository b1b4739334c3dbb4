package io.github.volpex.erasure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Random mutations of real fragments on every build (Jazzer replays its stored inputs; this explores new ones):
 * bit flips, truncations, extensions, splices with a fragment of other data, and random header bytes. A mutant
 * either parses to the very fragment it came from (when the mutation changed nothing), or is whole the other
 * fragment it was spliced with, or is rejected with
 * {@link CorruptFragmentException}; decoding with it returns the data or throws a documented exception, never
 * wrong data.
 */
class FragmentMutationTest {

    @Property(tries = 1000)
    void mutated_fragments_are_rejected_and_never_decode_to_wrong_data(
            @ForAll @IntRange(min = 1, max = 5) int m, @ForAll @IntRange(min = 0, max = 3) int k,
            @ForAll @IntRange(min = 0, max = 300) int length, @ForAll @IntRange(min = 1, max = 24) int stripe,
            @ForAll long seed) throws IOException {
        Random random = new Random(seed);
        IdaCodec codec = TestData.codec(Layout.values()[random.nextInt(Layout.values().length)], m, k)
                .withStripeSizeBytes(stripe);
        byte[] data = TestData.bytes(seed, length);
        List<byte[]> stored = new ArrayList<>();
        for (Fragment f : codec.encode(data)) {
            stored.add(f.toByteArray());
        }
        byte[] otherData = TestData.bytes(seed + 1, length);
        byte[] other = codec.encode(otherData).get(random.nextInt(codec.n())).toByteArray();
        int victim = random.nextInt(codec.n());
        byte[] original = stored.get(victim);
        byte[] mutant = mutate(original, other, random);

        try {
            Fragment parsed = Fragment.parse(mutant);
            // Only an unchanged fragment parses, or a splice that replaced every differing byte by the other's.
            if (Arrays.equals(mutant, other)) {
                assertEquals(Fragment.parse(other), parsed);
            } else {
                assertArrayEquals(original, mutant, "only an unchanged fragment parses");
                assertEquals(victim, parsed.index());
            }
        } catch (CorruptFragmentException expected) {
            // the documented rejection
        }

        List<byte[]> given = new ArrayList<>(stored);
        given.set(victim, mutant);
        // With n = 1 a whole fragment of other data is all there is: decoding it gives that data, correctly.
        byte[] decodable = codec.n() == 1 && Arrays.equals(mutant, other) ? otherData : data;
        try {
            assertArrayEquals(decodable, codec.decodeBytes(given));
        } catch (IllegalArgumentException | CorruptFragmentException expected) {
            // a splice that verifies on its own but belongs to other data
        } catch (NotEnoughFragmentsException expected) {
            assertEquals(0, codec.k(), "one bad fragment cannot exhaust k >= 1 spares");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            codec.decode(given.stream().map(ByteArrayInputStream::new).toList(), out);
            // The streaming decoder reads only the m streams it uses: with m = 1, a whole fragment of other data
            // among them is a complete set of that data (documented).
            byte[] written = out.toByteArray();
            assertArrayEquals(m == 1 && Arrays.equals(mutant, other) && !Arrays.equals(data, written)
                    ? otherData : data, written);
        } catch (IllegalArgumentException | CorruptFragmentException | NotEnoughFragmentsException expected) {
            if (m >= 2) {
                // Every rebuilt stripe is checked against the CRC32C the genuine fragments carry before it is
                // written. (With m = 1 a wholesale splice of another dispersal is caught only by the final SHA-256.)
                byte[] written = out.toByteArray();
                assertArrayEquals(Arrays.copyOf(data, written.length), written, "only verified stripes are written");
            }
        }
    }

    static byte[] mutate(byte[] original, byte[] other, Random random) {
        byte[] b = original.clone();
        switch (random.nextInt(6)) {
            case 0: // bit flips
                for (int i = 1 + random.nextInt(4); i > 0; i--) {
                    b[random.nextInt(b.length)] ^= (byte) (1 << random.nextInt(8));
                }
                return b;
            case 1: // truncation
                return Arrays.copyOf(b, random.nextInt(b.length));
            case 2: // extension
                return Arrays.copyOf(b, b.length + 1 + random.nextInt(16));
            case 3: { // splice a run of another encoding's fragment in
                int from = random.nextInt(Math.min(b.length, other.length));
                int run = 1 + random.nextInt(Math.min(b.length, other.length) - from);
                System.arraycopy(other, from, b, from, run);
                return b;
            }
            case 4: // random header bytes
                for (int i = 4 + random.nextInt(16); i < 20; i += 1 + random.nextInt(4)) {
                    b[i] = (byte) random.nextInt(256);
                }
                return b;
            default: // a random byte string of a plausible length
                byte[] noise = new byte[random.nextInt(2 * b.length + 1)];
                random.nextBytes(noise);
                return noise;
        }
    }
}
