package io.github.volpex.estimators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.apache.commons.math3.special.Erf;
import org.apache.commons.math3.special.Gamma;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Reference values computed with mpmath at 50 digits (for the double nearest each printed argument); Commons Math as a
 * second oracle over wide ranges.
 */
class SpecialFunctionsTest {

    /** Relative difference, or absolute below 1. */
    private static void assertClose(double expected, double actual, double tolerance) {
        double scale = Math.max(1.0, Math.abs(expected));
        assertEquals(expected, actual, tolerance * scale, () -> "expected " + expected + " got " + actual);
    }

    private static void assertRelative(double expected, double actual, double tolerance) {
        assertEquals(expected, actual, tolerance * Math.abs(expected), () -> "expected " + expected + " got " + actual);
    }

    @ParameterizedTest
    @CsvSource({
        "1e-300, 690.77552789821370521",
        "1e-8, 18.420680738180208905",
        "0.5, 0.57236494292470008707",
        "1, 0.0",
        "1.5, -0.12078223763524522235",
        "2, 0.0",
        "3.7, 1.4280723266653879219",
        "10, 12.801827480081469611",
        "14.999, 25.188546870546926425",
        "15, 25.1912211827386815",
        "100.25, 360.28455963776423497",
        "1e5, 1051287.7089736568949",
        "1e15, 33538776394910668.91"})
    void log_gamma_matches_high_precision_values(double x, double expected) {
        assertClose(expected, SpecialFunctions.logGamma(x), 2e-15);
    }

    @ParameterizedTest
    @CsvSource({
        "1e-6, -1000000.5772140199687",
        "0.25, -4.2274535333762654081",
        "1, -0.57721566490153286061",
        "2.5, 0.70315664064524318723",
        "19.5, 2.9445543434255953001",
        "20, 2.9705239922421490509",
        "1000, 6.9072551956488120521"})
    void digamma_matches_high_precision_values(double x, double expected) {
        assertClose(expected, SpecialFunctions.digamma(x), 2e-15);
    }

    @Test
    void digamma_vanishes_at_its_positive_root() {
        assertEquals(0.0, SpecialFunctions.digamma(1.4616321449683623), 1e-15);
    }

    @ParameterizedTest
    @CsvSource({
        "1e-6, 1000000000001.6449317",
        "0.25, 17.197329154507110739",
        "1, 1.6449340668482264365",
        "2.5, 0.49035775610023486497",
        "19.5, 0.05261944121365593034",
        "20, 0.051270822935203119832",
        "1000, 0.0010005001666666333334"})
    void trigamma_matches_high_precision_values(double x, double expected) {
        assertRelative(expected, SpecialFunctions.trigamma(x), 2e-15);
    }

    @ParameterizedTest
    @CsvSource({
        "0.5, 1e-10, 0.00001128379167057899935, 0.999988716208329421",
        "0.5, 2, 0.9544997361036415856, 0.045500263896358414401",
        "1, 1, 0.6321205588285576784, 0.3678794411714423216",
        "3, 0.1, 0.0001546530702646716535, 0.99984534692973532835",
        "3, 50, 0.99999999999999999975, 2.5093035522010570357e-19",
        "10, 9, 0.41259175566805859376, 0.58740824433194140624",
        "10, 11, 0.65948935753433895272, 0.34051064246566104728",
        "100, 90, 0.1582209891864301681, 0.8417790108135698319",
        "100, 130, 0.99724959163269347372, 0.002750408367306526277",
        "0.01, 0.5, 0.99437324380603281597, 0.0056267561939671840293",
        "1000, 1100, 0.99894067674607002265, 0.0010593232539299773489",
        "2.5, 300, 1.0, 2.0224172842813904026e-127"})
    void incomplete_gamma_matches_high_precision_values(double a, double x, double p, double q) {
        // Both tails to full relative precision: the complement is never formed by cancellation.
        double tolerance = 1e-14;
        assertRelative(p, SpecialFunctions.regularizedGammaP(a, x), tolerance);
        assertRelative(q, SpecialFunctions.regularizedGammaQ(a, x), tolerance);
        assertClose(Math.log(q), SpecialFunctions.logRegularizedGammaQ(a, x), tolerance);
    }

    @Test
    void log_q_stays_finite_where_q_underflows() {
        // Q(0.5, 1e4) ≈ e^{−10000} / √(π·10^4): far below the smallest double.
        double expected = -10_000.0 - 0.5 * Math.log(Math.PI * 1e4) + Math.log1p(-0.5 / 1e4 + 0.75 / 1e8);
        assertEquals(expected, SpecialFunctions.logRegularizedGammaQ(0.5, 1e4), 1e-9);
        assertEquals(0.0, SpecialFunctions.regularizedGammaQ(0.5, 1e4));
    }

    @ParameterizedTest
    @CsvSource({
        "0.025, 2, 0.050635615968579750807",
        "0.975, 2, 7.3777589082278726057",
        "0.025, 20, 9.5907773922648672714",
        "0.975, 20, 34.169606902838340625",
        "0.05, 1, 0.0039321400000195227313",
        "0.95, 1, 3.8414588206941259584",
        "0.5, 7, 6.3458111955215175357",
        "1e-10, 4, 0.000028284404581659482301",
        "0.999999, 200, 309.83809198992313568",
        "0.025, 2000, 1877.9460368153904312",
        "0.975, 2000, 2125.8423024497755209",
        "0.5, 0.1, 1.1147756881492486441e-6"})
    void chi_square_quantiles_match_high_precision_values(double q, double dof, double expected) {
        assertRelative(expected, SpecialFunctions.chiSquareQuantile(q, dof), 1e-13);
    }

    @ParameterizedTest
    @CsvSource({
        "-3, 1.9999779095030014146",
        "-0.5, 1.5204998778130465377",
        "0, 1.0",
        "1e-5, 0.999988716208329421",
        "0.5, 0.47950012218695346232",
        "3, 0.000022090496998585441373",
        "10, 2.088487583762544757e-45",
        "26, 5.6631924088561428465e-296"})
    void erfc_matches_high_precision_values(double x, double expected) {
        assertRelative(expected, SpecialFunctions.erfc(x), 1e-14);
    }

    @ParameterizedTest
    @CsvSource({
        "-5, -2.8665161296376359338e-7",
        "0, -0.69314718055994530942",
        "1, -1.8410216450092635058",
        "5, -15.064998393988725736",
        "20, -203.91715537109726394",
        "40, -804.60844201375378817"})
    void log_normal_upper_tail_matches_high_precision_values(double z, double expected) {
        assertRelative(expected, SpecialFunctions.logNormalUpperTail(z), 1e-13);
    }

    @Property(tries = 300)
    void log_gamma_and_polygammas_agree_with_commons_math(@ForAll @DoubleRange(min = -6, max = 6) double log10x) {
        double x = Math.pow(10, log10x);
        assertClose(Gamma.logGamma(x), SpecialFunctions.logGamma(x), 1e-14);
        // Commons Math's digamma and trigamma are accurate to about 1e-8 only (see the mpmath values above for ours).
        assertClose(Gamma.digamma(x), SpecialFunctions.digamma(x), 1e-8);
        assertRelative(Gamma.trigamma(x), SpecialFunctions.trigamma(x), 1e-8);
    }

    @Property(tries = 300)
    void incomplete_gamma_agrees_with_commons_math(@ForAll @DoubleRange(min = -2, max = 3) double log10a,
                                                   @ForAll @DoubleRange(min = 0.01, max = 4.0) double ratio) {
        double a = Math.pow(10, log10a);
        double x = a * ratio;
        double p = SpecialFunctions.regularizedGammaP(a, x);
        double q = SpecialFunctions.regularizedGammaQ(a, x);
        // Commons Math forms the prefactor from a ln x − x − ln Γ(a) directly: its error grows with a.
        double tolerance = 1e-15 * (10 + a);
        assertEquals(Gamma.regularizedGammaP(a, x), p, tolerance);
        assertEquals(Gamma.regularizedGammaQ(a, x), q, tolerance);
        assertEquals(1.0, p + q, 1e-14);
    }

    @Property(tries = 200)
    void chi_square_quantile_inverts_the_cdf_and_agrees_with_commons_math(
            @ForAll @DoubleRange(min = 0.01, max = 0.99) double q,
            @ForAll @DoubleRange(min = 0.5, max = 500) double dof) {
        double x = SpecialFunctions.chiSquareQuantile(q, dof);
        assertEquals(q, SpecialFunctions.regularizedGammaP(0.5 * dof, 0.5 * x), 1e-13);
        // Commons Math's own inversion stops at an absolute accuracy of 1e-9.
        assertEquals(new ChiSquaredDistribution(null, dof).inverseCumulativeProbability(q), x, 1e-8 * (1 + x));
    }

    @Property(tries = 200)
    void erfc_agrees_with_commons_math(@ForAll @DoubleRange(min = -6, max = 6) double x) {
        double expected = Erf.erfc(x);
        assertEquals(expected, SpecialFunctions.erfc(x), 1e-14 * expected);
    }

    @Test
    void bad_arguments_are_rejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SpecialFunctions.logGamma(0));
        assertEquals("x must be > 0: 0.0", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SpecialFunctions.digamma(-1));
        assertThrows(IllegalArgumentException.class, () -> SpecialFunctions.regularizedGammaP(0, 1));
        assertThrows(IllegalArgumentException.class, () -> SpecialFunctions.regularizedGammaQ(1, -1));
        e = assertThrows(IllegalArgumentException.class, () -> SpecialFunctions.chiSquareQuantile(1.5, 2));
        assertEquals("p must be in [0, 1]: 1.5", e.getMessage());
        assertEquals(0.0, SpecialFunctions.chiSquareQuantile(0.0, 3));
        assertEquals(Double.POSITIVE_INFINITY, SpecialFunctions.chiSquareQuantile(1.0, 3));
    }
}
