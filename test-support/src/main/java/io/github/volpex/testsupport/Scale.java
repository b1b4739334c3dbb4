package io.github.volpex.testsupport;

/**
 * The size of the long runs: the reduced one every build runs, or the full one users reach (thousands of checkpoints
 * per history, a ZooKeeper namespace of 10⁵ tags). {@code mvn -B -ntp verify -Pscale} sets the system property
 * {@value #PROPERTY} to {@code full}; anything else, or nothing, means the reduced run.
 *
 * <p>Where {@link SearchDepth} repeats a randomised test with more seeds, this makes each run bigger.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.1
 */
public final class Scale {

    /**
     * The system property that holds the scale: {@code ci} or {@code full}.
     *
     * @since 0.1
     */
    public static final String PROPERTY = "volpex.scale";

    private Scale() {
    }

    /**
     * Returns whether the full scale was asked for.
     *
     * @return whether {@value #PROPERTY} is {@code full}
     * @throws IllegalArgumentException if {@value #PROPERTY} is set to something other than {@code ci} or
     *         {@code full}
     * @since 0.1
     */
    public static boolean full() {
        String value = System.getProperty(PROPERTY, "ci").strip();
        if (!value.equals("ci") && !value.equals("full")) {
            throw new IllegalArgumentException(PROPERTY + " must be ci or full: \"" + value + "\"");
        }
        return value.equals("full");
    }

    /**
     * Returns one of two sizes, by {@link #full()}.
     *
     * @param reduced the size of every build's run
     * @param full the size at full scale
     * @return {@code full} at full scale, else {@code reduced}
     * @throws IllegalArgumentException as {@link #full()}
     * @since 0.1
     */
    public static int of(int reduced, int full) {
        return full() ? full : reduced;
    }
}
