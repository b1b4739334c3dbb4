package io.github.volpex.examples.tour;

import io.github.volpex.estimators.SurvivalFunction;
import io.github.volpex.estimators.WeibullFit;
import java.util.SplittableRandom;

/**
 * How long a volatile machine stays up: exponential or Weibull, from which the simulated host pool draws lifetimes.
 *
 * @param shape        the Weibull shape ({@code 1} is the exponential law); {@code > 0}
 * @param scaleSeconds the Weibull scale, in seconds; {@code > 0}
 */
public record LifetimeLaw(double shape, double scaleSeconds) {

    /** Validates the parameters. */
    public LifetimeLaw {
        if (!(shape > 0) || Double.isInfinite(shape) || !(scaleSeconds > 0) || Double.isInfinite(scaleSeconds)) {
            throw new IllegalArgumentException("shape and scaleSeconds must be finite and > 0: " + shape + ", "
                    + scaleSeconds);
        }
    }

    /**
     * Returns the exponential law with the given mean.
     *
     * @param meanSeconds the mean lifetime, in seconds
     * @return the law
     */
    public static LifetimeLaw exponential(double meanSeconds) {
        return new LifetimeLaw(1.0, meanSeconds);
    }

    /**
     * Returns a Weibull law.
     *
     * @param shape        the shape; below 1, a machine that has stayed up long is likely to stay up longer
     * @param scaleSeconds the scale, in seconds
     * @return the law
     */
    public static LifetimeLaw weibull(double shape, double scaleSeconds) {
        return new LifetimeLaw(shape, scaleSeconds);
    }

    /**
     * Returns this law with its scale multiplied by {@code factor}: a more or less reliable machine of the same kind.
     *
     * @param factor the factor, {@code > 0}
     * @return the scaled law
     */
    public LifetimeLaw scaled(double factor) {
        return new LifetimeLaw(shape, scaleSeconds * factor);
    }

    /**
     * Draws a lifetime by inversion.
     *
     * @param random the random numbers
     * @return a lifetime, in seconds
     */
    public double draw(SplittableRandom random) {
        return scaleSeconds * Math.pow(-Math.log1p(-random.nextDouble()), 1.0 / shape);
    }

    /**
     * Returns the survival function {@code S(t) = e^{−(t/scale)^shape}}: the machine's temporal reliability.
     *
     * @return the survival function
     */
    public SurvivalFunction survival() {
        return shape == 1.0 ? SurvivalFunction.exponential(1.0 / scaleSeconds)
                : SurvivalFunction.weibull(shape, scaleSeconds);
    }

    /**
     * Returns the mean lifetime.
     *
     * @return the mean, in seconds
     */
    public double meanSeconds() {
        return new WeibullFit(shape, scaleSeconds, 0.0).meanSeconds();
    }

    @Override
    public String toString() {
        return shape == 1.0 ? String.format("exponential(mean %.2f h)", scaleSeconds / 3600)
                : String.format("Weibull(shape %.2f, scale %.2f h, mean %.2f h)", shape, scaleSeconds / 3600,
                        meanSeconds() / 3600);
    }
}
