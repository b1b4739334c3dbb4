package io.github.volpex.checkpoint.math;

import java.util.function.DoubleUnaryOperator;

/** The four entry points of {@link LambertW}, by the name the reference grid uses. */
enum LambertWFunction {
    W0(LambertW::w0, "w0"),
    WM1(LambertW::wm1, "wm1"),
    ONE_PLUS_W0(LambertW::onePlusW0, "onePlusW0"),
    ONE_PLUS_WM1(LambertW::onePlusWm1, "onePlusWm1");

    private final DoubleUnaryOperator ours;
    private final String javaName;

    LambertWFunction(DoubleUnaryOperator ours, String javaName) {
        this.ours = ours;
        this.javaName = javaName;
    }

    double apply(double argument) {
        return ours.applyAsDouble(argument);
    }

    /** Whether the argument is the offset {@code d = z + 1/e} rather than {@code z}. */
    boolean takesOffset() {
        return this == ONE_PLUS_W0 || this == ONE_PLUS_WM1;
    }

    /** Whether this is the lower branch. */
    boolean lowerBranch() {
        return this == WM1 || this == ONE_PLUS_WM1;
    }

    @Override
    public String toString() {
        return javaName;
    }
}
