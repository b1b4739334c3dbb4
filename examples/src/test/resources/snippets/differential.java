package snippets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.checkpoint.store.CheckpointStore;
import io.github.volpex.checkpoint.store.Chunking;
import io.github.volpex.checkpoint.store.FragmentIndex;
import io.github.volpex.checkpoint.repository.FragmentRepository;
import io.github.volpex.erasure.IdaCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Differential checkpoints on nine repositories in memory: the second commit is differential and recovers whole. */
final class DifferentialSnippet {
    static void run() {
        List<FragmentRepository> repositories = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            repositories.add(FragmentRepository.inMemory("host-" + i));
        }
        byte[] state = new byte[1 << 20];
        new SplittableRandom(42).nextBytes(state);
        byte[] expected;
        //@snippet
        expected = state.clone();
        assertTrue(next.isDifferential(), "the store wrote a differential checkpoint");
        assertArrayEquals(expected, back, "the state recovered whole");
    }
}
