package io.github.volpex.erasure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Random mutations of real fragments on every build (Jazzer replays its stored inputs; this explores new ones):
 * bit flips, truncations, extensions, splices with a fragment of other data, and random header bytes. A mutant
 * either parses to the very fragment it came from (when the mutation changed nothing), or is whole the other
 * fragment it was spliced with, or carries stripe records spliced whole from it (self-consistent, so they parse; the
 * decoders set such a fragment aside by its stripe data checksums), or is rejected with
 * {@link CorruptFragmentException}; decoding with it returns the data whenever {@code k ≥ 1} (one lost fragment),
 * never wrong data, and the streaming decoder rebuilds whatever {@code decodeBytes} rebuilds.
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
            if (Arrays.equals(mutant, other)) {
                assertEquals(Fragment.parse(other), parsed);
            } else {
                // Otherwise only the fragment it was, or one whose changed bytes all come from the same-shaped
                // fragment of other data: a stripe record spliced whole is self-consistent (its checksum covers the
                // index, the stripe and the payload, which can be equal in both) and parses, keeping the original's
                // dispersal id; the decoders set it aside by its stripe data checksum (asserted below).
                assertEquals(original.length, mutant.length, "only an unchanged fragment or a splice parses");
                for (int i = 0; i < mutant.length; i++) {
                    if (mutant[i] != original[i]) {
                        assertEquals(other[i], mutant[i], "byte " + i + " of a parsed fragment is not from a splice");
                    }
                }
                assertEquals(victim, parsed.index());
                assertEquals(Fragment.parse(original).dispersalId(), parsed.dispersalId());
            }
        } catch (CorruptFragmentException expected) {
            // the documented rejection
        }

        List<byte[]> given = new ArrayList<>(stored);
        given.set(victim, mutant);
        boolean changed = !Arrays.equals(mutant, original);
        boolean whole = Arrays.equals(mutant, other);
        // One lost fragment never stops a decode while k >= 1 spares remain, whatever it has become. With m = 1 a
        // whole fragment of other data is a complete second dispersal: the caller must name one.
        byte[] inMemory = null;
        try {
            inMemory = codec.decodeBytes(given);
            assertArrayEquals(whole && codec.n() == 1 ? otherData : data, inMemory);
        } catch (IllegalArgumentException e) {
            assertTrue(changed && whole && m == 1, () -> "only two complete dispersals are refused: " + e);
        } catch (NotEnoughFragmentsException e) {
            assertTrue(changed && codec.k() == 0, () -> "one bad fragment cannot exhaust k >= 1 spares: " + e);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            codec.decode(given.stream().map(ByteArrayInputStream::new).toList(), out);
            // Never wrong data; with m = 1 a whole fragment of other data among the streams is a complete set of
            // that data, which the streaming decoder may read first (documented).
            byte[] written = out.toByteArray();
            assertArrayEquals(m == 1 && whole && !Arrays.equals(data, written) ? otherData : data, written);
        } catch (CorruptFragmentException | NotEnoughFragmentsException e) {
            if (m >= 2) {
                // The two decoders agree: what decodeBytes rebuilds, streaming rebuilds too. (With m = 1 the one
                // stream in use has nobody to disagree with: a record spliced into it from other data is caught
                // only by the final checks, where decodeBytes, holding every fragment, rebuilds from another.)
                assertNull(inMemory, () -> "decodeBytes rebuilt the data but streaming threw " + e);
                // Every rebuilt stripe is checked against the CRC32C the genuine fragments carry before it is
                // written. (With m = 1 a record spliced wholesale from another dispersal is caught only by the
                // final SHA-256.)
                byte[] written = out.toByteArray();
                assertArrayEquals(Arrays.copyOf(data, written.length), written, "only verified stripes are written");
            }
        }
    }

    /**
     * A case a run of the property found: m = 2, one byte of data in one-byte stripes, a record's checksums spliced.
     */
    @Example
    void a_stripe_record_spliced_whole_from_other_data_parses_and_is_set_aside() throws IOException {
        mutated_fragments_are_rejected_and_never_decode_to_wrong_data(2, 0, 1, 1, 122513);
    }

    static byte[] mutate(byte[] original, byte[] other, Random random) {
        byte[] b = original.clone();
        switch (random.nextInt(6)) {
            case 0 -> { // bit flips
                for (int i = 1 + random.nextInt(4); i > 0; i--) {
                    b[random.nextInt(b.length)] ^= (byte) (1 << random.nextInt(8));
                }
                return b;
            }
            case 1 -> { // truncation
                return Arrays.copyOf(b, random.nextInt(b.length));
            }
            case 2 -> { // extension
                return Arrays.copyOf(b, b.length + 1 + random.nextInt(16));
            }
            case 3 -> { // splice a run of another encoding's fragment in
                int from = random.nextInt(Math.min(b.length, other.length));
                int run = 1 + random.nextInt(Math.min(b.length, other.length) - from);
                System.arraycopy(other, from, b, from, run);
                return b;
            }
            case 4 -> { // random header bytes
                for (int i = 4 + random.nextInt(16); i < 20; i += 1 + random.nextInt(4)) {
                    b[i] = (byte) random.nextInt(256);
                }
                return b;
            }
            default -> { // a random byte string of a plausible length
                byte[] noise = new byte[random.nextInt(2 * b.length + 1)];
                random.nextBytes(noise);
                return noise;
            }
        }
    }
}
