package io.github.volpex.erasure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

/**
 * Coverage-guided fuzzing of the fragment parser and the decoders (Jazzer). Under {@code mvn verify} each target
 * replays the inputs stored beside this class in {@code FragmentFuzzTestInputs/} (real fragments, their mutations,
 * and whatever a fuzzing run found); {@code JAZZER_FUZZ=1 mvn test -Dtest=FragmentFuzzTest} fuzzes for real.
 * The only exceptions that may escape are the documented ones, and decoding never returns wrong data.
 */
class FragmentFuzzTest {

    /** The codecs whose fragments the decoding target splices the fuzzer's input into: two layouts, one m. */
    static final List<IdaCodec> CODECS = List.of(IdaCodec.systematic(2, 1).withStripeSizeBytes(4),
            IdaCodec.xor(2).withStripeSizeBytes(4));
    static final byte[] DATA = "a checkpoint of a volatile job".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    @FuzzTest(maxDuration = "60s")
    void parse_accepts_exactly_what_it_writes_or_rejects_cleanly(byte[] input) {
        try {
            Fragment f = Fragment.parse(input);
            assertArrayEquals(input, f.toByteArray());
        } catch (CorruptFragmentException expected) {
            // the documented rejection
        }
    }

    @FuzzTest(maxDuration = "60s")
    void decoding_with_the_input_in_place_of_a_fragment_never_returns_wrong_data(byte[] input)
            throws IOException {
        for (IdaCodec codec : CODECS) {
            List<Fragment> fragments = codec.encode(DATA);
            for (int slot = 0; slot < codec.n(); slot++) {
                byte[][] given = new byte[codec.n()][];
                for (int i = 0; i < codec.n(); i++) {
                    given[i] = i == slot ? input : fragments.get(i).toByteArray();
                }
                check(codec, List.of(given));
                check(codec, List.of(input, given[(slot + 1) % codec.n()]));
            }
        }
    }

    private static void check(IdaCodec codec, List<byte[]> given) throws IOException {
        try {
            assertArrayEquals(DATA, codec.decodeBytes(given));
        } catch (NotEnoughFragmentsException | CorruptFragmentException | IllegalArgumentException expected) {
            // documented: too few good fragments, a forged payload, or fragments of another encoding
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            codec.decode(given.stream().map(ByteArrayInputStream::new).toList(), out);
            assertArrayEquals(DATA, out.toByteArray());
        } catch (NotEnoughFragmentsException | CorruptFragmentException | IllegalArgumentException expected) {
            // documented; every stripe is checked before it is written, so the output is a prefix of the data
            byte[] written = out.toByteArray();
            assertArrayEquals(java.util.Arrays.copyOf(DATA, written.length), written);
        }
    }
}
