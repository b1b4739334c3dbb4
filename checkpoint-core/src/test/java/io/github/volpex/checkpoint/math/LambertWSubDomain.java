package io.github.volpex.checkpoint.math;

import java.util.random.RandomGenerator;

/**
 * The sub-domains on which the accuracy of {@link LambertW} is measured, each with its sampler. The branch-point
 * domains cover the first doubles above {@code −1/e} and offsets {@code d = z + 1/e} log-uniform in
 * {@code [1e−17, 1e−1]}; the rest cover the middle ranges, large arguments and the neighbourhood of zero.
 */
enum LambertWSubDomain {
    W0_BRANCH_FIRST_DOUBLES(LambertWFunction.W0, "W0, the first doubles above -1/e"),
    W0_BRANCH_OFFSET(LambertWFunction.W0, "W0, z = -1/e + d, d log-uniform in [1e-17, 1e-1]"),
    WM1_BRANCH_FIRST_DOUBLES(LambertWFunction.WM1, "W-1, the first doubles above -1/e"),
    WM1_BRANCH_OFFSET(LambertWFunction.WM1, "W-1, z = -1/e + d, d log-uniform in [1e-17, 1e-1]"),
    ONE_PLUS_W0_BRANCH(LambertWFunction.ONE_PLUS_W0, "1+W0(-1/e+d), d log-uniform in [1e-17, 1e-1]"),
    ONE_PLUS_WM1_BRANCH(LambertWFunction.ONE_PLUS_WM1, "1+W-1(-1/e+d), d log-uniform in [1e-17, 1e-1]"),
    ONE_PLUS_W0_WIDE(LambertWFunction.ONE_PLUS_W0, "1+W0(-1/e+d), d log-uniform in [MIN_VALUE, MAX_VALUE]"),
    ONE_PLUS_WM1_WIDE(LambertWFunction.ONE_PLUS_WM1, "1+W-1(-1/e+d), d log-uniform in [MIN_VALUE, 1/e)"),
    W0_NEAR_ZERO(LambertWFunction.W0, "W0, |z| log-uniform in [MIN_VALUE, 1e-2], both signs"),
    W0_MIDDLE(LambertWFunction.W0, "W0, z uniform in [-0.36, 3]"),
    WM1_MIDDLE(LambertWFunction.WM1, "W-1, z uniform in [-0.36, -1e-3]"),
    W0_LARGE(LambertWFunction.W0, "W0, z log-uniform in [3, MAX_VALUE]"),
    WM1_NEAR_ZERO(LambertWFunction.WM1, "W-1, -z log-uniform in [MIN_VALUE, 1e-3]");

    /** The double nearest −1/e (below the exact branch point). */
    static final double BRANCH_POINT_DOUBLE = -0.36787944117144233;
    private static final double INV_E = 0.36787944117144233;

    private final LambertWFunction function;
    private final String description;

    LambertWSubDomain(LambertWFunction function, String description) {
        this.function = function;
        this.description = description;
    }

    LambertWFunction function() {
        return function;
    }

    String description() {
        return description;
    }

    /**
     * The {@code index}-th argument of this sub-domain: consecutive doubles for the first-doubles domains, a draw
     * from {@code random} otherwise.
     */
    double argument(int index, RandomGenerator random) {
        return switch (this) {
            case W0_BRANCH_FIRST_DOUBLES, WM1_BRANCH_FIRST_DOUBLES ->
                    Double.longBitsToDouble(Double.doubleToRawLongBits(BRANCH_POINT_DOUBLE) - 1 - index);
            case W0_BRANCH_OFFSET, WM1_BRANCH_OFFSET -> {
                while (true) {
                    double z = logUniform(random, 1e-17, 1e-1) - INV_E;
                    if (z > BRANCH_POINT_DOUBLE) {
                        yield z;
                    }
                }
            }
            case ONE_PLUS_W0_BRANCH, ONE_PLUS_WM1_BRANCH -> logUniform(random, 1e-17, 1e-1);
            case ONE_PLUS_W0_WIDE -> logUniform(random, Double.MIN_VALUE, Double.MAX_VALUE);
            case ONE_PLUS_WM1_WIDE -> logUniform(random, Double.MIN_VALUE, Math.nextDown(INV_E));
            case W0_NEAR_ZERO -> (random.nextBoolean() ? 1 : -1) * logUniform(random, Double.MIN_VALUE, 1e-2);
            case W0_MIDDLE -> random.nextDouble(-0.36, 3.0);
            case WM1_MIDDLE -> random.nextDouble(-0.36, -1e-3);
            case W0_LARGE -> logUniform(random, 3.0, Double.MAX_VALUE);
            case WM1_NEAR_ZERO -> -logUniform(random, Double.MIN_VALUE, 1e-3);
            default -> throw new AssertionError(this);
        };
    }

    /** Whether the sub-domain enumerates consecutive doubles (then random re-checks add nothing). */
    boolean enumerated() {
        return this == W0_BRANCH_FIRST_DOUBLES || this == WM1_BRANCH_FIRST_DOUBLES;
    }

    /** Log-uniform on {@code [low, high]}, both positive; subnormal {@code low} is fine. */
    static double logUniform(RandomGenerator random, double low, double high) {
        double a = Math.log(low);
        double b = Math.log(high);
        double x = Math.exp(a + (b - a) * random.nextDouble());
        return Math.min(high, Math.max(low, x));
    }
}
