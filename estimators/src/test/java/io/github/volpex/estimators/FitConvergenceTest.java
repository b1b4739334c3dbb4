package io.github.volpex.estimators;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fits that search the likelihood numerically (left-truncated Weibull, gamma and log-normal; censored gamma)
 * reach the maximum-likelihood parameters to 1e-9 relative whatever the time unit of the sample: against parameters
 * computed at 50 digits by {@code estimators/tools/fit_reference.py} (mpmath, Newton's method on numerically
 * differentiated likelihoods), for the same sample expressed in units from nanoseconds to weeks; and, for random
 * samples, as a law: rescaling the sample rescales the fitted scale and leaves the shape, to 1e-9.
 */
class FitConvergenceTest {

    /** The largest relative error allowed in a fitted parameter. */
    private static final double TOLERANCE = 1e-9;

    // Hours; failed; left-truncated (estimators/tools/fit_reference.py).
    private static final double[] HOURS = {22.6487, 36.7223, 2.7626, 1.7797, 2.3068, 2.9712, 55.8381, 71.6544,
        111.2295, 34.2669, 16.7617, 35.8416, 59.4956, 4.7703, 108.7796, 10.4915, 6.4448, 30.8231, 35.1109, 2.5,
        24.7447, 8.4375, 11.7327, 3.2661, 13.274, 38.417, 8.0723, 3.5445, 26.8989, 33.9749, 46.8114, 5.6006, 52.2177,
        93.5971, 8.4824, 0.7971, 79.2516, 0.3981, 9.661, 22.3842, 4.0034, 13.6724, 4.3009, 55.2658, 0.5654, 1.0858,
        86.8592, 6.2553};
    private static final boolean[] FAILED = {false, false, true, true, true, true, true, true, true, false, true, true,
        true, true, true, true, false, true, true, true, false, true, true, false, false, true, true, true, true, true,
        false, true, false, true, false, false, true, false, true, false, true, true, false, true, true, true, true,
        true};
    private static final boolean[] TRUNCATED = {true, true, true, true, false, false, true, false, true, false, false,
        false, false, false, false, false, false, true, true, false, false, true, true, true, true, false, false, false,
        false, false, false, false, true, false, true, false, false, false, false, false, false, false, false, false,
        false, false, false, true};

    // The maximum-likelihood parameters of that sample in hours, at 50 digits (printed to 25).
    private static final double WEIBULL_SHAPE = 0.8446823852235375718285633;
    private static final double WEIBULL_SCALE_HOURS = 35.10443995257249109267516;
    private static final double GAMMA_SHAPE = 0.76522472945760145179493;
    private static final double GAMMA_SCALE_HOURS = 50.12857117146354798458156;
    private static final double LOG_NORMAL_MEAN_LOG_HOURS = 2.766656171611078417315234;
    private static final double LOG_NORMAL_SD_LOG = 1.368393888515853053347319;
    /** The same durations with no left truncation (first intervals read as censored at their start). */
    private static final double CENSORED_GAMMA_SHAPE = 0.809783028343170104487751;
    private static final double CENSORED_GAMMA_SCALE_HOURS = 49.62077883788927427304407;

    private static LifetimeSample sample(double unitsPerHour, boolean truncation) {
        LifetimeSample.Builder builder = LifetimeSample.builder();
        for (int i = 0; i < HOURS.length; i++) {
            builder.add(HOURS[i] * unitsPerHour, FAILED[i], truncation && TRUNCATED[i]);
        }
        return builder.build();
    }

    private static void assertRelative(double expected, double actual, String what) {
        double error = Math.abs(actual / expected - 1.0);
        assertTrue(error <= TOLERANCE, () -> what + ": " + actual + ", maximum at " + expected + ", relative error "
                + error + " > " + TOLERANCE);
    }

    /** A fitted shape and scale against the maximum, for the sample in a unit of {@code unitsPerHour}. */
    private static void assertShapeAndScale(double shape, double scaleHours, double unitsPerHour,
                                            double fittedShape, double fittedScale) {
        assertRelative(shape, fittedShape, "shape, " + unitsPerHour + " units per hour");
        assertRelative(scaleHours * unitsPerHour, fittedScale, "scale, " + unitsPerHour + " units per hour");
    }

    /** Units per hour: nanoseconds, milliseconds, seconds, minutes, hours, days, weeks. */
    @ParameterizedTest
    @ValueSource(doubles = {3.6e12, 3.6e6, 3600.0, 60.0, 1.0, 1.0 / 24, 1.0 / 168})
    void left_truncated_weibull_reaches_the_maximum_in_any_unit(double unitsPerHour) {
        WeibullFit fit = DistributionFit.weibull(sample(unitsPerHour, true));
        assertShapeAndScale(WEIBULL_SHAPE, WEIBULL_SCALE_HOURS, unitsPerHour, fit.shape(), fit.scaleSeconds());
    }

    @ParameterizedTest
    @ValueSource(doubles = {3.6e12, 3.6e6, 3600.0, 60.0, 1.0, 1.0 / 24, 1.0 / 168})
    void left_truncated_gamma_reaches_the_maximum_in_any_unit(double unitsPerHour) {
        GammaFit fit = DistributionFit.gamma(sample(unitsPerHour, true));
        assertShapeAndScale(GAMMA_SHAPE, GAMMA_SCALE_HOURS, unitsPerHour, fit.shape(), fit.scaleSeconds());
    }

    @ParameterizedTest
    @ValueSource(doubles = {3.6e12, 3.6e6, 3600.0, 60.0, 1.0, 1.0 / 24, 1.0 / 168})
    void censored_gamma_reaches_the_maximum_in_any_unit(double unitsPerHour) {
        GammaFit fit = DistributionFit.gamma(sample(unitsPerHour, false));
        assertShapeAndScale(CENSORED_GAMMA_SHAPE, CENSORED_GAMMA_SCALE_HOURS, unitsPerHour, fit.shape(),
                fit.scaleSeconds());
    }

    @ParameterizedTest
    @ValueSource(doubles = {3.6e12, 3.6e6, 3600.0, 60.0, 1.0, 1.0 / 24, 1.0 / 168})
    void left_truncated_log_normal_reaches_the_maximum_in_any_unit(double unitsPerHour) {
        LogNormalFit fit = DistributionFit.logNormal(sample(unitsPerHour, true));
        // The median e^μ to 1e-9 relative is μ to 1e-9 absolute.
        double expected = LOG_NORMAL_MEAN_LOG_HOURS + Math.log(unitsPerHour);
        double error = Math.abs(fit.meanLog() - expected);
        assertTrue(error <= TOLERANCE, () -> "meanLog, " + unitsPerHour + " units per hour: " + fit.meanLog()
                + ", maximum at " + expected + ", error " + error);
        assertRelative(LOG_NORMAL_SD_LOG, fit.sdLog(), "sdLog, " + unitsPerHour + " units per hour");
    }

    /** Rescaling a sample by {@code c} multiplies the fitted scale by {@code c} and leaves the shape. */
    @Property(tries = 40)
    void fits_are_equivariant_under_a_change_of_unit(@ForAll("samples") LifetimeSample sample,
                                                     @ForAll("unitFactors") double c) {
        LifetimeSample.Builder builder = LifetimeSample.builder();
        for (int i = 0; i < sample.size(); i++) {
            builder.add(sample.seconds(i) * c, sample.isFailure(i), sample.isLeftTruncated(i));
        }
        LifetimeSample scaled = builder.build();
        String where = " (unit factor " + c + ", " + sample + ")";
        for (Function<LifetimeSample, DistributionFit> fit : List.<Function<LifetimeSample, DistributionFit>>of(
                DistributionFit::weibull, DistributionFit::gamma)) {
            DistributionFit a = fit.apply(sample);
            DistributionFit b = fit.apply(scaled);
            double shapeA = a instanceof WeibullFit w ? w.shape() : ((GammaFit) a).shape();
            double shapeB = b instanceof WeibullFit w ? w.shape() : ((GammaFit) b).shape();
            double scaleA = a instanceof WeibullFit w ? w.scaleSeconds() : ((GammaFit) a).scaleSeconds();
            double scaleB = b instanceof WeibullFit w ? w.scaleSeconds() : ((GammaFit) b).scaleSeconds();
            assertRelative(shapeA, shapeB, a.getClass().getSimpleName() + " shape" + where);
            assertRelative(scaleA * c, scaleB, a.getClass().getSimpleName() + " scale" + where);
        }
        LogNormalFit a = DistributionFit.logNormal(sample);
        LogNormalFit b = DistributionFit.logNormal(scaled);
        double shift = Math.abs(b.meanLog() - a.meanLog() - Math.log(c));
        assertTrue(shift <= 2 * TOLERANCE, () -> "log-normal meanLog moved by " + shift + where);
        assertRelative(a.sdLog(), b.sdLog(), "log-normal sdLog" + where);
    }

    @Provide
    Arbitrary<LifetimeSample> samples() {
        return Arbitraries.longs().map(seed -> {
            SplittableRandom random = new SplittableRandom(seed);
            double shape = 0.4 + 1.6 * random.nextDouble();
            List<TraceInterval> trace = LeftTruncationTest.simulatedTrace(random, 20, shape, 10, 3, 100);
            return trace.stream().filter(TraceInterval::available).collect(LifetimeSample.collector());
        }).filter(s -> s.startObservedOnly().failureCount() >= 3);
    }

    @Provide
    Arbitrary<Double> unitFactors() {
        return Arbitraries.doubles().between(-6, 9).map(e -> Math.pow(10, e));
    }

    /** {@code ∂/∂a ln Q(a, x)} against mpmath at 50 digits. */
    @ParameterizedTest
    @CsvSource({
        "0.3, 0.1, 2.635310917856802734103559",
        "0.3, 2.0, 4.50616301176977552052523",
        "1.7, 0.5, 0.268310595796121146055453",
        "1.7, 9.0, 2.095850775449143625877592",
        "4.5, 3.0, 0.2275745096064035827664618",
        "12.5, 11.0, 0.1725861323343674077511093",
        "25.0, 60.0, 0.9218182579137727939691669",
        "0.05, 0.001, 17.08745648839909317790776"})
    void shape_derivative_of_log_q_matches_high_precision_values(double a, double x, double expected) {
        double actual = SpecialFunctions.logRegularizedGammaQShapeDerivative(a, x);
        assertTrue(Math.abs(actual - expected) <= 1e-12 * Math.abs(expected),
                () -> "d/da ln Q(" + a + ", " + x + ") = " + actual + ", expected " + expected);
    }
}
