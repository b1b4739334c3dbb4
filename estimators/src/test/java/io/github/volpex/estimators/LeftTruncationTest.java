package io.github.volpex.estimators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.testsupport.SearchDepth;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.apache.commons.math3.special.Erf;
import org.apache.commons.math3.special.Gamma;
import org.junit.jupiter.api.Test;

/**
 * Left-truncated durations (the first interval of a trace) in every estimator: against simulated traces of a
 * stationary process, whose true law is known, and against a likelihood computed independently with Commons Math.
 */
class LeftTruncationTest {

    private static final String SEED_PROPERTY = "volpex.estimators.seed";
    private static final double HOUR = 3600.0;

    /**
     * Hosts alternate between Weibull up-times and exponential down-times from long before a window of
     * {@code windowHours} hours, so the window opens on the stationary process, as a trace does; returns the up
     * intervals the window shows, cut and flagged as a trace reader flags them.
     */
    static List<TraceInterval> simulatedTrace(SplittableRandom random, int hosts, double shape, double scaleHours,
                                              double meanDownHours, double windowHours) {
        List<TraceInterval> out = new ArrayList<>();
        double burnIn = 200 * scaleHours + 200 * meanDownHours;
        for (int h = 0; h < hosts; h++) {
            double t = -burnIn * (1 + random.nextDouble());
            boolean up = random.nextBoolean();
            while (t < windowHours) {
                double length = up ? scaleHours * Math.pow(-Math.log(1 - random.nextDouble()), 1 / shape)
                        : -meanDownHours * Math.log(1 - random.nextDouble());
                double end = t + length;
                if (end > 0) {
                    double start = Math.max(0, t);
                    double stop = Math.min(windowHours, end);
                    out.add(new TraceInterval(h, up, start * HOUR, stop * HOUR, end >= windowHours, t <= 0));
                }
                t = end;
                up = !up;
            }
        }
        return out;
    }

    /**
     * About 24,000 up intervals of 1,000 hosts over 840 h (the Microsoft trace's window) from Weibull(0.6, 20 h): the
     * fit with the first intervals as remaining lives recovers the law within a few standard errors (about 0.004 on
     * the shape and 1.5% on the scale here), the exponential MLE recovers the mean, and Kaplan–Meier the survival.
     */
    @Test
    void a_simulated_stationary_trace_gives_back_its_law() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, seed -> {
            SplittableRandom random = new SplittableRandom(seed);
            double shape = 0.6;
            double scaleHours = 20;
            LifetimeSample up = simulatedTrace(random, 1000, shape, scaleHours, 5, 840).stream()
                    .filter(TraceInterval::available).collect(LifetimeSample.collector());
            assertTrue(up.leftTruncatedCount() > 500);
            WeibullFit weibull = DistributionFit.weibull(up);
            assertEquals(shape, weibull.shape(), 0.025);
            assertEquals(scaleHours, weibull.scaleSeconds() / HOUR, 0.08 * scaleHours);
            double mean = scaleHours * Math.exp(Gamma.logGamma(1 + 1 / shape));
            assertEquals(mean, weibull.meanSeconds() / HOUR, 0.06 * mean);
            KaplanMeier km = KaplanMeier.of(up);
            for (double hours : new double[] {2, 10, 30, 100}) {
                double truth = Math.exp(-Math.pow(hours / scaleHours, shape));
                assertEquals(truth, km.survival(hours * HOUR), 0.03, () -> hours + " h");
            }
        });
    }

    /** With an exponential law the first intervals are exact for the exponential MLE: no bias to within noise. */
    @Test
    void exponential_mle_counts_first_failures_with_their_observed_exposure() {
        SearchDepth.eachSeed(SEED_PROPERTY, 1, seed -> {
            SplittableRandom random = new SplittableRandom(seed);
            // A short window, so that a third of the intervals are first intervals.
            LifetimeSample up = simulatedTrace(random, 4000, 1.0, 30, 5, 60).stream()
                    .filter(TraceInterval::available).collect(LifetimeSample.collector());
            RateEstimate estimate = RateEstimate.of(up);
            MeanTimeInterval interval = estimate.timeTruncatedConfidenceInterval(0.99999).meanTimeToFailure();
            assertTrue(interval.contains(30 * HOUR), interval::toString);
        });
    }

    @Test
    void kaplan_meier_leaves_left_truncated_durations_out() {
        LifetimeSample sample = LifetimeSample.builder().addFailure(1).addCensored(2).addFailure(3)
                .add(0.5, true, true).add(10, false, true).build();
        KaplanMeier km = KaplanMeier.of(sample);
        KaplanMeier observed = KaplanMeier.of(sample.startObservedOnly());
        for (double t : new double[] {0, 0.5, 1, 2, 3, 10}) {
            assertEquals(observed.survival(t), km.survival(t));
        }
        assertEquals(2.0 / 3, km.survival(1), 1e-15);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KaplanMeier.of(LifetimeSample.builder().add(3, true, true).build()));
        assertTrue(e.getMessage().startsWith("sample must hold a duration whose start was observed"),
                e.getMessage());
    }

    @Test
    void samples_carry_the_flag_through_every_operation() {
        LifetimeSample sample = LifetimeSample.of(new double[] {1, 2, 3}, new boolean[] {true, false, true},
                new boolean[] {true, true, false});
        assertEquals(2, sample.leftTruncatedCount());
        assertEquals("LifetimeSample[size=3, failures=2, leftTruncated=2, totalSeconds=6.0]", sample.toString());
        LifetimeSample failures = sample.failuresOnly();
        assertTrue(failures.isLeftTruncated(0) && !failures.isLeftTruncated(1));
        assertEquals(LifetimeSample.of(new double[] {3}, new boolean[] {true}), sample.startObservedOnly());
        assertTrue(!sample.equals(LifetimeSample.of(new double[] {1, 2, 3}, new boolean[] {true, false, true})));
        // A left-truncated failure of length 0 (a host that failed as observation began) is valid for every fit.
        LifetimeSample zero = LifetimeSample.builder().add(0, true, true).addFailure(5).addFailure(9).addCensored(20)
                .build();
        assertEquals(4, DistributionFit.all(zero).size());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DistributionFit.weibull(LifetimeSample.builder().add(5, true, true).addCensored(4).build()));
        assertTrue(e.getMessage().startsWith("Weibull fit of a sample with left-truncated durations needs at least 1"
                + " failure among the durations whose start was observed"), e.getMessage());
    }

    /** At shape 1 the Weibull is the exponential, and so are its left-truncated terms. */
    @Property(tries = 50)
    void weibull_of_shape_one_has_the_exponential_likelihood(@ForAll("samples") LifetimeSample sample,
                                                             @ForAll @DoubleRange(min = 1, max = 1000) double scale) {
        double rate = 1 / scale;
        double exponential = sample.failureCount() * Math.log(rate) - rate * sample.totalSeconds();
        assertEquals(exponential, Fitting.logLikelihood(sample, new Fitting.WeibullModel(1, scale)),
                1e-9 * (1 + Math.abs(exponential)));
        assertEquals(exponential, Fitting.logLikelihood(sample, new Fitting.GammaModel(1, scale)),
                1e-9 * (1 + Math.abs(exponential)));
    }

    /**
     * Each fit is a maximum of the likelihood computed here independently (Commons Math's incomplete gamma and error
     * function, the residual survival of the log-normal by its definition): no nearby parameters do better, and the
     * reported log-likelihood is the likelihood of the reported parameters.
     */
    @Property(tries = 30)
    void fits_maximize_the_independent_likelihood(@ForAll("samples") LifetimeSample sample) {
        WeibullFit weibull = DistributionFit.weibull(sample);
        LogNormalFit logNormal = DistributionFit.logNormal(sample);
        GammaFit gamma = DistributionFit.gamma(sample);
        assertEquals(weibull(sample, weibull.shape(), weibull.scaleSeconds()), weibull.logLikelihood(), 1e-8);
        assertEquals(logNormal(sample, logNormal.meanLog(), logNormal.sdLog()), logNormal.logLikelihood(), 1e-8);
        assertEquals(gamma(sample, gamma.shape(), gamma.scaleSeconds()), gamma.logLikelihood(), 1e-8);
        for (double f : new double[] {0.999, 1.001}) {
            assertTrue(weibull.logLikelihood() >= weibull(sample, weibull.shape() * f, weibull.scaleSeconds()) - 1e-9);
            assertTrue(weibull.logLikelihood() >= weibull(sample, weibull.shape(), weibull.scaleSeconds() * f) - 1e-9);
            assertTrue(logNormal.logLikelihood() >= logNormal(sample, logNormal.meanLog() * f, logNormal.sdLog())
                    - 1e-9);
            assertTrue(logNormal.logLikelihood() >= logNormal(sample, logNormal.meanLog(), logNormal.sdLog() * f)
                    - 1e-9);
            assertTrue(gamma.logLikelihood() >= gamma(sample, gamma.shape() * f, gamma.scaleSeconds()) - 1e-9);
            assertTrue(gamma.logLikelihood() >= gamma(sample, gamma.shape(), gamma.scaleSeconds() * f) - 1e-9);
        }
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<LifetimeSample> samples() {
        return net.jqwik.api.Arbitraries.longs().map(seed -> {
            SplittableRandom random = new SplittableRandom(seed);
            double shape = 0.4 + 1.6 * random.nextDouble();
            List<TraceInterval> trace = simulatedTrace(random, 30, shape, 10, 3, 100);
            return trace.stream().filter(TraceInterval::available).collect(LifetimeSample.collector());
        }).filter(s -> s.startObservedOnly().failureCount() >= 3);
    }

    private static double weibull(LifetimeSample sample, double k, double lambda) {
        double logMean = Math.log(lambda) + Gamma.logGamma(1 + 1 / k);
        double sum = 0;
        for (int i = 0; i < sample.size(); i++) {
            double t = sample.seconds(i);
            double x = Math.pow(t / lambda, k);
            if (!sample.isLeftTruncated(i)) {
                sum += sample.isFailure(i) ? Math.log(k / lambda) + (k - 1) * Math.log(t / lambda) - x : -x;
            } else {
                sum += sample.isFailure(i) ? -x - logMean : Math.log(Gamma.regularizedGammaQ(1 / k, x));
            }
        }
        return sum;
    }

    private static double normalTail(double z) {
        return 0.5 * Erf.erfc(z / Math.sqrt(2));
    }

    private static double logNormal(LifetimeSample sample, double mu, double sigma) {
        double mean = Math.exp(mu + sigma * sigma / 2);
        double sum = 0;
        for (int i = 0; i < sample.size(); i++) {
            double t = sample.seconds(i);
            double z = (Math.log(t) - mu) / sigma;
            if (!sample.isLeftTruncated(i)) {
                sum += sample.isFailure(i) ? -0.5 * z * z - Math.log(sigma * t * Math.sqrt(2 * Math.PI))
                        : Math.log(normalTail(z));
            } else if (sample.isFailure(i)) {
                sum += Math.log(normalTail(z)) - Math.log(mean);
            } else {
                // ∫_t^∞ S(u) du = E[T; T > t] − t·S(t), over the mean.
                sum += Math.log(normalTail(z - sigma) - t / mean * normalTail(z));
            }
        }
        return sum;
    }

    private static double gamma(LifetimeSample sample, double a, double theta) {
        double sum = 0;
        for (int i = 0; i < sample.size(); i++) {
            double t = sample.seconds(i);
            double x = t / theta;
            if (!sample.isLeftTruncated(i)) {
                sum += sample.isFailure(i) ? (a - 1) * Math.log(t) - x - a * Math.log(theta) - Gamma.logGamma(a)
                        : Math.log(Gamma.regularizedGammaQ(a, x));
            } else if (sample.isFailure(i)) {
                sum += Math.log(Gamma.regularizedGammaQ(a, x)) - Math.log(a * theta);
            } else {
                sum += Math.log(Gamma.regularizedGammaQ(a + 1, x) - x / a * Gamma.regularizedGammaQ(a, x));
            }
        }
        return sum;
    }
}
