package io.github.volpex.examples.reproduce;

import java.util.Locale;

/** Small summary statistics for repeated runs. */
final class Stats {

    private Stats() {
    }

    static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return values.length == 0 ? Double.NaN : sum / values.length;
    }

    /** Returns the sample standard deviation (0 for fewer than two values). */
    static double sd(double[] values) {
        if (values.length < 2) {
            return 0;
        }
        double m = mean(values);
        double sum = 0;
        for (double v : values) {
            sum += (v - m) * (v - m);
        }
        return Math.sqrt(sum / (values.length - 1));
    }

    /** Returns the half-width of a normal 95% confidence interval of the mean. */
    static double ci95(double[] values) {
        return values.length < 2 ? 0 : 1.96 * sd(values) / Math.sqrt(values.length);
    }

    static String meanSd(double[] values, int decimals) {
        String f = "%." + decimals + "f ± %." + decimals + "f";
        return String.format(Locale.ROOT, f, mean(values), sd(values));
    }
}
