package io.github.volpex.testsupport;

/**
 * How hard the randomised tests search: a factor that multiplies every jqwik property's tries (through
 * {@link DeepSearchHook}) and every other randomised test's rounds (through {@link #rounds(int)}).
 *
 * <p>A run of the suite draws a few hundred samples per property, enough to catch what fails often, and a
 * falsification that needs ten thousand samples then surfaces weeks later as a flake. The deep search finds it at
 * once: {@code mvn -B -ntp verify -Pdeep-search} sets the factor to 100, and {@code -Dvolpex.search.factor=N} sets it
 * to any {@code N} from 1 to 10 000. The factor is read from the system property {@value #PROPERTY} each time it is
 * asked for; without it, it is 1.
 *
 * <p>The same switch reaches the testkit's contracts: an adapter's test suite that runs them (the testkit brings this
 * artifact) gets a deep search with {@code -Dvolpex.search.factor=N} on its own test run (Surefire's
 * {@code systemPropertyVariables}, or {@code argLine}), the contracts' randomised rounds and the tries of its own
 * jqwik properties multiplied alike.
 *
 * <p>Stateless and thread-safe.
 *
 * @since 0.1
 */
public final class SearchDepth {

    /**
     * The system property that holds the factor.
     *
     * @since 0.1
     */
    public static final String PROPERTY = "volpex.search.factor";

    /**
     * The largest factor accepted.
     *
     * @since 0.1
     */
    public static final int MAX_FACTOR = 10_000;

    private SearchDepth() {
    }

    /**
     * Returns the factor: the system property {@value #PROPERTY}, or 1 when it is not set.
     *
     * @return the factor, in [1, {@value #MAX_FACTOR}]
     * @throws IllegalArgumentException if the property is set to anything but a whole number in that range
     * @since 0.1
     */
    public static int factor() {
        String value = System.getProperty(PROPERTY);
        if (value == null || value.isBlank()) {
            return 1;
        }
        int factor;
        try {
            factor = Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PROPERTY + " must be a whole number in [1, " + MAX_FACTOR + "]: \""
                    + value + "\"", e);
        }
        if (factor < 1 || factor > MAX_FACTOR) {
            throw new IllegalArgumentException(PROPERTY + " must be in [1, " + MAX_FACTOR + "]: " + factor);
        }
        return factor;
    }

    /**
     * Returns how many rounds a randomised test runs: its rounds in an ordinary run times the factor.
     *
     * @param ordinaryRounds the rounds of an ordinary run, at least 1
     * @return {@code ordinaryRounds × factor()}, at most {@link Integer#MAX_VALUE}
     * @throws IllegalArgumentException if {@code ordinaryRounds} is below 1, or the factor is malformed
     * @since 0.1
     */
    public static int rounds(int ordinaryRounds) {
        if (ordinaryRounds < 1) {
            throw new IllegalArgumentException("ordinaryRounds must be >= 1: " + ordinaryRounds);
        }
        return (int) Math.min(Integer.MAX_VALUE, (long) ordinaryRounds * factor());
    }

    /**
     * Runs a randomised check with fresh seeds, {@link #rounds(int) rounds(ordinaryRounds)} times, or once with the
     * seed that the system property {@code seedProperty} names (the replay of a failure). A failure is rethrown as an
     * {@link AssertionError} whose message starts with the seed and the command-line flag that replays it; an
     * {@link Error} other than an assertion is rethrown as it is, with such an assertion error added as suppressed.
     * The check runs on the calling thread.
     *
     * @param seedProperty the system property that replays a seed, such as {@code volpex.crash.seed}
     * @param ordinaryRounds the seeds an ordinary run tries, at least 1
     * @param check the check, given each seed
     * @throws AssertionError if the check fails for a seed (the first one that fails)
     * @throws IllegalArgumentException if {@code ordinaryRounds} is below 1, or the seed property is not a
     *         {@code long}
     * @throws NullPointerException if {@code seedProperty} or {@code check} is null
     * @since 0.1
     */
    public static void eachSeed(String seedProperty, int ordinaryRounds, SeededCheck check) {
        java.util.Objects.requireNonNull(seedProperty, "seedProperty");
        java.util.Objects.requireNonNull(check, "check");
        String replay = System.getProperty(seedProperty);
        if (replay != null) {
            long seed;
            try {
                seed = Long.parseLong(replay.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(seedProperty + " must be a long: \"" + replay + "\"", e);
            }
            run(seedProperty, seed, check, "");
            return;
        }
        int rounds = rounds(ordinaryRounds);
        java.util.SplittableRandom seeds = new java.util.SplittableRandom(System.nanoTime());
        for (int round = 0; round < rounds; round++) {
            run(seedProperty, seeds.nextLong(), check, rounds > 1 ? " (round " + (round + 1) + " of " + rounds + ")"
                    : "");
        }
    }

    private static void run(String seedProperty, long seed, SeededCheck check, String round) {
        try {
            check.check(seed);
        } catch (Exception | AssertionError e) {
            throw new AssertionError(replay(seedProperty, seed, round) + ": " + e, e);
        } catch (Error e) {
            // Another error (a simulated crash, running out of memory) keeps its type; the seed goes with it.
            e.addSuppressed(new AssertionError(replay(seedProperty, seed, round)));
            throw e;
        }
    }

    private static String replay(String seedProperty, long seed, String round) {
        return "seed " + seed + round + "; replay with -D" + seedProperty + "=" + seed;
    }

    /**
     * A randomised check that draws everything from its seed, so that the seed alone replays it.
     *
     * @since 0.1
     */
    @FunctionalInterface
    public interface SeededCheck {
        /**
         * Runs the check.
         *
         * @param seed the seed to draw from
         * @throws Exception if the check fails with an exception
         * @since 0.1
         */
        void check(long seed) throws Exception;
    }

    /**
     * Returns whether the search is deeper than an ordinary run's, for tests that widen more than a count.
     *
     * @return whether the factor is above 1
     * @throws IllegalArgumentException if the factor is malformed
     * @since 0.1
     */
    public static boolean deep() {
        return factor() > 1;
    }
}
