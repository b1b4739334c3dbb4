package io.github.volpex.checkpoint.store;

import java.util.SplittableRandom;

/** The ways a differential test changes a state between commits. */
final class DifferentialChanges {

    /** How a state changes from one commit to the next. */
    enum Change { NONE, SCATTERED, ALL, GROW, SHRINK, INSERT, DELETE }

    private DifferentialChanges() {
    }

    /**
     * The state after {@code change}, in units of {@code block} bytes: growth and insertions stop at 64 blocks,
     * shrinking and deletions at 4. Each edit but the first three is one splice: {@code removed} bytes at
     * {@code at} replaced by {@code added} random ones.
     */
    static byte[] change(byte[] state, Change change, SplittableRandom random, int block) {
        int length = state.length;
        int room = Math.max(0, 64 * block - length);
        int spare = Math.max(0, length - 4 * block);
        if (change == Change.SCATTERED) {
            byte[] next = state.clone();
            for (int i = 1 + random.nextInt(5); i > 0 && length > 0; i--) {
                next[random.nextInt(length)] ^= (byte) (1 + random.nextInt(255));
            }
            return next;
        }
        int at;
        int removed = 0;
        int added = 0;
        switch (change) {
            case ALL -> {
                at = 0;
                removed = length;
                added = length;
            }
            case GROW, INSERT -> {
                at = change == Change.GROW ? length : random.nextInt(length + 1);
                added = Math.min(room, 1 + random.nextInt(change == Change.GROW ? 4 * block : block));
            }
            case SHRINK, DELETE -> {
                removed = Math.min(spare, 1 + random.nextInt(change == Change.SHRINK ? 4 * block : block));
                at = change == Change.SHRINK ? length - removed : random.nextInt(length - removed + 1);
            }
            default -> {
                return state.clone();
            }
        }
        byte[] next = new byte[length - removed + added];
        System.arraycopy(state, 0, next, 0, at);
        byte[] fresh = new byte[added];
        random.nextBytes(fresh);
        System.arraycopy(fresh, 0, next, at, added);
        System.arraycopy(state, at + removed, next, at + added, length - at - removed);
        return next;
    }
}
