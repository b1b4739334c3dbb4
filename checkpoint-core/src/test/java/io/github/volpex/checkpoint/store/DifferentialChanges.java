package io.github.volpex.checkpoint.store;

import java.util.Arrays;
import java.util.SplittableRandom;

/** The ways a differential test changes a state between commits. */
final class DifferentialChanges {

    /** How a state changes from one commit to the next. */
    enum Change { NONE, SCATTERED, ALL, GROW, SHRINK, INSERT, DELETE }

    private DifferentialChanges() {
    }

    /**
     * The state after {@code change}, in units of {@code block} bytes: it grows to at most 64 blocks and shrinks to
     * no fewer than 4.
     */
    static byte[] change(byte[] state, Change change, SplittableRandom random, int block) {
        int length = state.length;
        return switch (change) {
            case NONE -> state.clone();
            case SCATTERED -> {
                byte[] next = state.clone();
                for (int i = 0, count = 1 + random.nextInt(5); i < count && length > 0; i++) {
                    next[random.nextInt(length)] ^= (byte) (1 + random.nextInt(255));
                }
                yield next;
            }
            case ALL -> fresh(random, length);
            case GROW -> {
                byte[] next = Arrays.copyOf(state, Math.max(length, Math.min(64 * block,
                        length + block + random.nextInt(3 * block))));
                byte[] tail = fresh(random, next.length - length);
                System.arraycopy(tail, 0, next, length, tail.length);
                yield next;
            }
            case SHRINK -> Arrays.copyOf(state, Math.max(4 * block, length - block - random.nextInt(3 * block)));
            case INSERT -> {
                int at = random.nextInt(length + 1);
                byte[] inserted = fresh(random, 1 + random.nextInt(block));
                byte[] next = new byte[length + inserted.length];
                System.arraycopy(state, 0, next, 0, at);
                System.arraycopy(inserted, 0, next, at, inserted.length);
                System.arraycopy(state, at, next, at + inserted.length, length - at);
                yield next;
            }
            case DELETE -> {
                int cut = Math.min(length - 4 * block, 1 + random.nextInt(block));
                if (cut <= 0) {
                    yield state.clone();
                }
                int at = random.nextInt(length - cut + 1);
                byte[] next = new byte[length - cut];
                System.arraycopy(state, 0, next, 0, at);
                System.arraycopy(state, at + cut, next, at, length - at - cut);
                yield next;
            }
        };
    }

    private static byte[] fresh(SplittableRandom random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}
