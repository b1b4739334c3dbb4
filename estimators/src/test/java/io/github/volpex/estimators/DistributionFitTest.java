package io.github.volpex.estimators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

/**
 * Fits against values computed at 40 digits with mpmath (roots of the likelihood's gradient), and the defining
 * property of a maximum: no nearby parameters do better.
 */
class DistributionFitTest {

    /** Ten failures and four censored durations. */
    static final LifetimeSample CENSORED = LifetimeSample.builder()
            .addFailure(12.5).addFailure(40).addFailure(3.2).addFailure(77).addFailure(150.4)
            .addFailure(9.9).addFailure(21).addFailure(63).addFailure(5.5).addFailure(230)
            .addCensored(100).addCensored(30).addCensored(250).addCensored(8).build();

    @Test
    void censored_fits_match_high_precision_values() {
        ExponentialFit exponential = DistributionFit.exponential(CENSORED);
        assertEquals(10 / 1000.5, exponential.ratePerSecond(), 1e-17);
        assertEquals(-56.05670061029742, exponential.logLikelihood(), 1e-12);
        WeibullFit weibull = DistributionFit.weibull(CENSORED);
        assertEquals(0.768000668170890072, weibull.shape(), 1e-14);
        assertEquals(96.0100790085950022, weibull.scaleSeconds(), 1e-11);
        assertEquals(-55.4336839954755135, weibull.logLikelihood(), 1e-12);
        LogNormalFit logNormal = DistributionFit.logNormal(CENSORED);
        assertEquals(3.89325103152752715, logNormal.meanLog(), 1e-12);
        assertEquals(1.59454214845388527, logNormal.sdLog(), 1e-12);
        assertEquals(-55.0124502870001687, logNormal.logLikelihood(), 1e-12);
        GammaFit gamma = DistributionFit.gamma(CENSORED);
        // Nelder–Mead: the likelihood is flat to 1e-15 within 1e-8 of the maximum.
        assertEquals(0.709344998517674799, gamma.shape(), 1e-6);
        assertEquals(152.14655273542872, gamma.scaleSeconds(), 1e-4);
        assertEquals(-55.5461856332679814, gamma.logLikelihood(), 1e-11);
    }

    @Test
    void uncensored_fits_match_high_precision_values() {
        LifetimeSample failures = CENSORED.failuresOnly();
        WeibullFit weibull = DistributionFit.weibull(failures);
        assertEquals(0.824585200618786655, weibull.shape(), 1e-14);
        assertEquals(54.9244558809504251, weibull.scaleSeconds(), 1e-12);
        LogNormalFit logNormal = DistributionFit.logNormal(failures);
        assertEquals(3.33578820640144166, logNormal.meanLog(), 1e-14);
        assertEquals(1.35041860250206807, logNormal.sdLog(), 1e-14);
        GammaFit gamma = DistributionFit.gamma(failures);
        assertEquals(0.766093228946596985, gamma.shape(), 1e-13);
        assertEquals(79.9511047555148548, gamma.scaleSeconds(), 1e-11);
    }

    @Test
    void fits_report_means_and_parameter_counts() {
        List<DistributionFit> fits = DistributionFit.all(CENSORED);
        assertEquals(4, fits.size());
        assertEquals(1000.5 / 10, fits.get(0).meanSeconds(), 1e-12);
        assertEquals(1, fits.get(0).parameterCount());
        WeibullFit weibull = (WeibullFit) fits.get(1);
        // λ Γ(1 + 1/k), with Γ(1 + 1/0.768000668…) = 1.16817188333532 from mpmath.
        assertEquals(weibull.scaleSeconds() * 1.16817188333532, weibull.meanSeconds(), 1e-11);
        for (DistributionFit fit : fits.subList(1, 4)) {
            assertEquals(2, fit.parameterCount());
            assertEquals(4 - 2 * fit.logLikelihood(), fit.aic(), 1e-12);
        }
    }

    /** {@link #CENSORED} and five left-truncated durations: three failures and two censored. */
    static final LifetimeSample TRUNCATED = LifetimeSample.builder()
            .addFailure(12.5).addFailure(40).addFailure(3.2).addFailure(77).addFailure(150.4)
            .addFailure(9.9).addFailure(21).addFailure(63).addFailure(5.5).addFailure(230)
            .addCensored(100).addCensored(30).addCensored(250).addCensored(8)
            .add(45, true, true).add(7, true, true).add(120, false, true).add(300, false, true).add(2.5, true, true)
            .build();

    /**
     * The maxima of the likelihood with left-truncated terms ({@code ln S(t) − ln m} for a failure, {@code ln R(t)}
     * for a censored duration), found at 40 digits with mpmath (roots of the gradient). The fits use Nelder–Mead,
     * whose likelihood is flat to 1e-15 within about 1e-8 of the maximum.
     */
    @Test
    void left_truncated_fits_match_high_precision_values() {
        ExponentialFit exponential = DistributionFit.exponential(TRUNCATED);
        assertEquals(13 / (1000.5 + 474.5), exponential.ratePerSecond(), 1e-17);
        WeibullFit weibull = DistributionFit.weibull(TRUNCATED);
        assertEquals(0.70637764751076453858, weibull.shape(), 1e-7);
        assertEquals(90.547040975675210647, weibull.scaleSeconds(), 1e-5);
        assertEquals(-73.054369825102541566, weibull.logLikelihood(), 1e-11);
        LogNormalFit logNormal = DistributionFit.logNormal(TRUNCATED);
        assertEquals(3.676117137695625603, logNormal.meanLog(), 1e-7);
        assertEquals(1.4638396379457262524, logNormal.sdLog(), 1e-7);
        assertEquals(-72.149396305120941941, logNormal.logLikelihood(), 1e-11);
        GammaFit gamma = DistributionFit.gamma(TRUNCATED);
        assertEquals(0.6321809824046393976, gamma.shape(), 1e-6);
        assertEquals(181.63131681581315459, gamma.scaleSeconds(), 1e-4);
        assertEquals(-73.438399208161478077, gamma.logLikelihood(), 1e-11);
    }

    /**
     * Durations are seconds whatever their source, so no accessor named for seconds can hold another unit: the
     * sample offers no operation that rescales it (one did, and every {@code …Seconds} value fitted from its result
     * was in hours).
     */
    @Test
    void a_sample_cannot_change_unit_under_accessors_named_for_seconds() {
        for (java.lang.reflect.Method method : LifetimeSample.class.getMethods()) {
            assertTrue(method.getReturnType() != LifetimeSample.class || method.getParameterCount() == 0
                    || method.getName().equals("of") || method.getName().equals("ofFailures"),
                    () -> "LifetimeSample." + method.getName() + " derives a sample from a parameter: " + method);
        }
        WeibullFit inSeconds = DistributionFit.weibull(CENSORED);
        assertEquals(96.0100790085950022, inSeconds.scaleSeconds(), 1e-11);
        assertEquals(inSeconds.scaleSeconds(), ((WeibullSurvival) inSeconds.survival()).scaleSeconds());
    }

    @Test
    void bad_samples_are_rejected_with_the_reason() {
        LifetimeSample noFailure = LifetimeSample.builder().addCensored(5).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DistributionFit.exponential(noFailure));
        assertEquals("exponential fit needs at least 1 failure: LifetimeSample[size=1, failures=0, totalSeconds=5.0]",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DistributionFit.weibull(
                LifetimeSample.ofFailures(0, 1)));
        assertEquals("Weibull fit needs failures > 0, found 1 of length 0 (leave zero-length intervals out, as the "
                + "Failure Trace Archive does)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DistributionFit.weibull(
                LifetimeSample.ofFailures(3, 3)));
        assertTrue(e.getMessage().startsWith("Weibull fit has no maximum"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DistributionFit.logNormal(LifetimeSample.ofFailures(3)));
        assertTrue(e.getMessage().startsWith("log-normal fit needs at least 2 distinct failure times"));
        assertThrows(IllegalArgumentException.class, () -> DistributionFit.gamma(LifetimeSample.ofFailures(2, 2)));
        // Distinct failure times whose spread is lost to rounding: the same clear refusal, not an internal error.
        e = assertThrows(IllegalArgumentException.class,
                () -> DistributionFit.gamma(LifetimeSample.ofFailures(1.0, Math.nextUp(1.0))));
        assertTrue(e.getMessage().startsWith("gamma fit needs failure times that differ by more than rounding"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> DistributionFit.logNormal(LifetimeSample.ofFailures(1e300, Math.nextUp(1e300))));
        assertTrue(e.getMessage().startsWith("log-normal fit needs failure times whose logarithms differ"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DistributionFit.exponential(LifetimeSample.ofFailures()));
        assertThrows(NullPointerException.class, () -> DistributionFit.all(null));
        // Equal failures become fittable once a longer censored duration shows the spread.
        WeibullFit fit = DistributionFit.weibull(LifetimeSample.builder().addFailure(3).addFailure(3)
                .addCensored(10).build());
        assertTrue(fit.shape() > 0 && Double.isFinite(fit.shape()));
    }

    @Test
    void sample_input_is_validated_with_the_index() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LifetimeSample.ofFailures(1, -2));
        assertEquals("seconds[1] must be finite and >= 0: -2.0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> LifetimeSample.builder().addFailure(Double.NaN));
        assertEquals("seconds[0] must be finite and >= 0: NaN", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> LifetimeSample.of(new double[] {1}, new boolean[] {true, false}));
        assertEquals("failed.length must equal seconds.length (1): 2", e.getMessage());
        // Every duration finite but their sum not: refused rather than an infinite exposure.
        e = assertThrows(IllegalArgumentException.class,
                () -> LifetimeSample.ofFailures(Double.MAX_VALUE, Double.MAX_VALUE));
        assertTrue(e.getMessage().startsWith("the durations' sum must be finite"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> LifetimeSample.of(new double[] {1}, new boolean[] {true}, new boolean[2]));
        assertEquals("leftTruncated.length must equal seconds.length (1): 2", e.getMessage());
    }

    /** Perturbing any parameter by a relative 1e-3 never raises the log-likelihood: the fits are maxima. */
    @Property(tries = 40, seed = "31337")
    void fits_are_local_maxima_of_the_likelihood(@ForAll long seed,
                                                 @ForAll @DoubleRange(min = 0.3, max = 3) double shape) {
        SplittableRandom random = new SplittableRandom(seed);
        LifetimeSample.Builder builder = LifetimeSample.builder();
        for (int i = 0; i < 60; i++) {
            double life = 1000 * Math.pow(-Math.log(1 - random.nextDouble()), 1 / shape);
            double cut = 3000 * random.nextDouble();
            builder.add(Math.max(1e-3, Math.min(life, cut)), life <= cut);
        }
        LifetimeSample sample = builder.build();
        WeibullFit weibull = DistributionFit.weibull(sample);
        LogNormalFit logNormal = DistributionFit.logNormal(sample);
        GammaFit gamma = DistributionFit.gamma(sample);
        for (double f : new double[] {0.999, 1.001}) {
            assertTrue(weibull.logLikelihood() >= weibullLikelihood(sample, weibull.shape() * f,
                    weibull.scaleSeconds()) - 1e-9);
            assertTrue(weibull.logLikelihood() >= weibullLikelihood(sample, weibull.shape(),
                    weibull.scaleSeconds() * f) - 1e-9);
            assertTrue(logNormal.logLikelihood() >= logLikelihood(sample,
                    SurvivalFunction.logNormal(logNormal.meanLog() * f, logNormal.sdLog()), logNormalDensity(
                    logNormal.meanLog() * f, logNormal.sdLog())) - 1e-9);
            assertTrue(logNormal.logLikelihood() >= logLikelihood(sample,
                    SurvivalFunction.logNormal(logNormal.meanLog(), logNormal.sdLog() * f), logNormalDensity(
                    logNormal.meanLog(), logNormal.sdLog() * f)) - 1e-9);
            assertTrue(gamma.logLikelihood() >= logLikelihood(sample,
                    SurvivalFunction.gamma(gamma.shape() * f, gamma.scaleSeconds()),
                    gammaDensity(gamma.shape() * f, gamma.scaleSeconds())) - 1e-9);
            assertTrue(gamma.logLikelihood() >= logLikelihood(sample,
                    SurvivalFunction.gamma(gamma.shape(), gamma.scaleSeconds() * f),
                    gammaDensity(gamma.shape(), gamma.scaleSeconds() * f)) - 1e-9);
        }
        // And each reported log-likelihood is the likelihood of its own parameters.
        assertEquals(weibullLikelihood(sample, weibull.shape(), weibull.scaleSeconds()), weibull.logLikelihood(),
                1e-9);
        assertEquals(logLikelihood(sample, logNormal.survival(), logNormalDensity(logNormal.meanLog(),
                logNormal.sdLog())), logNormal.logLikelihood(), 1e-9);
        assertEquals(logLikelihood(sample, gamma.survival(), gammaDensity(gamma.shape(), gamma.scaleSeconds())),
                gamma.logLikelihood(), 1e-9);
    }

    private interface Density {
        double log(double t);
    }

    private static double logLikelihood(LifetimeSample sample, SurvivalFunction s, Density density) {
        double sum = 0;
        for (int i = 0; i < sample.size(); i++) {
            double t = sample.seconds(i);
            sum += sample.isFailure(i) ? density.log(t) : Math.log(s.survival(t));
        }
        return sum;
    }

    private static double weibullLikelihood(LifetimeSample sample, double k, double lambda) {
        return logLikelihood(sample, SurvivalFunction.weibull(k, lambda),
                t -> Math.log(k / lambda) + (k - 1) * Math.log(t / lambda) - Math.pow(t / lambda, k));
    }

    private static Density logNormalDensity(double mu, double sigma) {
        return t -> {
            double z = (Math.log(t) - mu) / sigma;
            return -0.5 * z * z - Math.log(sigma * t * Math.sqrt(2 * Math.PI));
        };
    }

    private static Density gammaDensity(double a, double theta) {
        return t -> (a - 1) * Math.log(t) - t / theta - a * Math.log(theta)
                - org.apache.commons.math3.special.Gamma.logGamma(a);
    }
}
