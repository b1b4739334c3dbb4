package io.github.volpex.estimators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import net.jqwik.api.Example;
import net.jqwik.api.Group;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.distribution.LogNormalDistribution;
import org.apache.commons.math3.distribution.WeibullDistribution;

/** The survival-function contract against every implementation, and each one against Commons Math. */
class SurvivalFunctionsTest {

    /** A log-uniform draw in [10^lo, 10^hi]. */
    static double logUniform(SplittableRandom random, double lo, double hi) {
        return Math.pow(10, lo + (hi - lo) * random.nextDouble());
    }

    @Group
    class Exponential extends SurvivalFunctionContract {
        @Override
        SurvivalFunction create(SplittableRandom random) {
            return SurvivalFunction.exponential(logUniform(random, -8, 0));
        }
    }

    @Group
    class Weibull extends SurvivalFunctionContract {
        @Override
        SurvivalFunction create(SplittableRandom random) {
            return SurvivalFunction.weibull(logUniform(random, -0.7, 0.7), logUniform(random, 1, 7));
        }

        @Example
        void matches_commons_math_and_keeps_precision_for_short_horizons() {
            SurvivalFunction s = SurvivalFunction.weibull(0.48, 816.6 * 3600);
            WeibullDistribution reference = new WeibullDistribution(null, 0.48, 816.6 * 3600);
            for (double t : new double[] {1, 3600, 86_400, 3e7}) {
                assertEquals(1.0 - reference.cumulativeProbability(t), s.survival(t), 1e-14);
            }
            // H(t + Δ) − H(t) = H'(t)Δ (1 + (k − 1)Δ/2t + O(Δ²)) with H'(t) = (k/λ)(t/λ)^{k−1}: no cancellation.
            double t = 86_400;
            double lambda = 816.6 * 3600;
            double delta = 1e-6;
            double increment = 0.48 / lambda * Math.pow(t / lambda, -0.52) * delta * (1 - 0.52 * delta / (2 * t));
            double expected = -Math.expm1(-increment);
            assertEquals(expected, s.conditionalFailure(t, delta), 1e-14 * expected);
        }

        @Example
        void keeps_the_conditional_probability_where_the_short_horizon_form_overflows() {
            // k · log1p(Δ/t) > 709: the factor expm1(…) overflows while H(t + Δ) − H(t) is small.
            SurvivalFunction steep = SurvivalFunction.weibull(50, 1);
            double expected = -Math.expm1(-(Math.pow(0.9 + 1e-10, 50) - Math.pow(1e-10, 50)));
            assertEquals(expected, steep.conditionalFailure(1e-10, 0.9), 1e-15 * expected);
            // H(t) is subnormal, so H(t)·factor has lost its digits.
            SurvivalFunction shallow = SurvivalFunction.weibull(0.5, 1e6);
            assertEquals(-Math.expm1(-1e-3), shallow.conditionalFailure(Double.MIN_VALUE, 1.0), 1e-18);
            // An infinite horizon is certain failure; S(t) = 0 leaves no one alive to fail.
            assertEquals(1.0, shallow.conditionalFailure(Double.MIN_VALUE, Double.POSITIVE_INFINITY));
            assertEquals(1.0, steep.conditionalFailure(1e300, 1.0));
        }

        @Example
        void rejects_bad_parameters() {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SurvivalFunction.weibull(0, 1));
            assertEquals("shape must be finite and > 0: 0.0", e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> SurvivalFunction.weibull(1, Double.NaN));
        }
    }

    @Group
    class LogNormal extends SurvivalFunctionContract {
        @Override
        SurvivalFunction create(SplittableRandom random) {
            return SurvivalFunction.logNormal(2 + 12 * random.nextDouble(), logUniform(random, -1, 0.6));
        }

        @Example
        void matches_commons_math_and_survives_far_into_the_tail() {
            SurvivalFunction s = SurvivalFunction.logNormal(5.5556, 2.3915);
            LogNormalDistribution reference = new LogNormalDistribution(null, 5.5556, 2.3915);
            for (double t : new double[] {0.01, 1, 256, 1e4, 1e6}) {
                assertEquals(1.0 - reference.cumulativeProbability(t), s.survival(t), 1e-14);
            }
            // S(t) underflows at z = 40 but the conditional probability is still defined through ln S
            // (mpmath at 30 digits: 1 − Q(z₂)/Q(40) with z₂ = ln(e⁴ + 1)/0.1).
            SurvivalFunction narrow = SurvivalFunction.logNormal(0, 0.1);
            assertEquals(0.0, narrow.survival(Math.exp(4.0)));
            assertEquals(0.99931147832850628059, narrow.conditionalFailure(Math.exp(4.0), 1.0), 1e-13);
            assertThrows(IllegalArgumentException.class, () -> SurvivalFunction.logNormal(Double.NaN, 1));
            assertThrows(IllegalArgumentException.class, () -> SurvivalFunction.logNormal(0, 0));
        }
    }

    @Group
    class Gamma extends SurvivalFunctionContract {
        @Override
        SurvivalFunction create(SplittableRandom random) {
            return SurvivalFunction.gamma(logUniform(random, -1, 1.5), logUniform(random, 1, 6));
        }

        @Example
        void matches_commons_math() {
            SurvivalFunction s = SurvivalFunction.gamma(0.3488, 5102.7 * 3600);
            GammaDistribution reference = new GammaDistribution(null, 0.3488, 5102.7 * 3600);
            for (double t : new double[] {1, 3600, 86_400, 3e7, 1e9}) {
                assertEquals(1.0 - reference.cumulativeProbability(t), s.survival(t), 1e-13);
            }
            assertThrows(IllegalArgumentException.class, () -> SurvivalFunction.gamma(-1, 1));
        }
    }

    @Group
    class KaplanMeierContract extends SurvivalFunctionContract {
        @Override
        SurvivalFunction create(SplittableRandom random) {
            int n = 1 + random.nextInt(200);
            LifetimeSample.Builder builder = LifetimeSample.builder();
            double scale = logUniform(random, 1, 6);
            for (int i = 0; i < n; i++) {
                // Rounded to make ties, with a third censored.
                builder.add(Math.max(1, Math.rint(scale * -Math.log(1 - random.nextDouble()))), random.nextInt(3) > 0);
            }
            return KaplanMeier.of(builder.build());
        }
    }

    @Group
    class FittedWeibull extends SurvivalFunctionContract {
        @Override
        SurvivalFunction create(SplittableRandom random) {
            double shape = logUniform(random, -0.5, 0.5);
            double scale = logUniform(random, 2, 5);
            LifetimeSample.Builder builder = LifetimeSample.builder();
            for (int i = 0; i < 50; i++) {
                double life = scale * Math.pow(-Math.log(1 - random.nextDouble()), 1 / shape);
                builder.add(Math.max(life, 1e-3), true);
            }
            return DistributionFit.weibull(builder.build()).survival();
        }
    }
}
