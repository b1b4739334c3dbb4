package io.github.volpex.benchmarks.checkpoint;

import java.util.SplittableRandom;

/** The argument distributions of the Lambert W benchmarks. */
public enum LambertWArguments {
    /** W₀, z uniform in [−0.36, 3]. */
    W0_MIDDLE(false),
    /** W₀, z log-uniform in [3, 1e300]. */
    W0_LARGE(false),
    /** W₀, z = −1/e + d with d log-uniform in [1e−17, 1e−1]. */
    W0_BRANCH(false),
    /** W₋₁, z uniform in [−0.36, −1e−3]. */
    WM1_MIDDLE(true),
    /** W₋₁, −z log-uniform in [1e−300, 1e−3]. */
    WM1_NEAR_ZERO(true),
    /** W₋₁, z = −1/e + d with d log-uniform in [1e−17, 1e−1]. */
    WM1_BRANCH(true);

    private static final double INV_E = 0.36787944117144233;

    private final boolean lowerBranch;

    LambertWArguments(boolean lowerBranch) {
        this.lowerBranch = lowerBranch;
    }

    /**
     * Returns whether the distribution is on the lower branch.
     *
     * @return true for W₋₁
     */
    public boolean lowerBranch() {
        return lowerBranch;
    }

    /**
     * Draws {@code count} arguments.
     *
     * @param count how many
     * @param seed  the seed
     * @return the arguments
     */
    public double[] draw(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] z = new double[count];
        for (int i = 0; i < count; i++) {
            z[i] = switch (this) {
                case W0_MIDDLE -> random.nextDouble(-0.36, 3.0);
                case W0_LARGE -> logUniform(random, 3.0, 1e300);
                case WM1_MIDDLE -> random.nextDouble(-0.36, -1e-3);
                case WM1_NEAR_ZERO -> -logUniform(random, 1e-300, 1e-3);
                case W0_BRANCH, WM1_BRANCH -> Math.max(Math.nextUp(-INV_E), logUniform(random, 1e-17, 1e-1) - INV_E);
            };
        }
        return z;
    }

    private static double logUniform(SplittableRandom random, double low, double high) {
        return Math.exp(random.nextDouble(Math.log(low), Math.log(high)));
    }
}
