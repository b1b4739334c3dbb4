package snippets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.volpex.erasure.Fragment;
import io.github.volpex.erasure.IdaCodec;
import java.util.List;
import java.util.SplittableRandom;

/** The erasure tour: the data comes back from six stored fragments, and lost fragments come back byte-identical. */
final class ErasureSnippet {
    static void run() {
        byte[] checkpoint = new byte[100_003];
        new SplittableRandom(42).nextBytes(checkpoint);
        // What six repositories returned: the bytes of fragments 2 to 7.
        List<byte[]> storedFragments = IdaCodec.systematic(6, 3).encode(checkpoint).subList(2, 8).stream()
                .map(Fragment::toByteArray).toList();
        //@snippet
        assertArrayEquals(checkpoint, back);
        assertArrayEquals(fragments.get(4).toByteArray(), stored);
        assertEquals(3, again.size());
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(fragments.get(i).toByteArray(), again.get(i).toByteArray(), "fragment " + i);
        }
    }
}
