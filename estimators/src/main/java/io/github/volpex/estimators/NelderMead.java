package io.github.volpex.estimators;

import java.util.function.ToDoubleFunction;

/**
 * The Nelder–Mead simplex method (reflection 1, expansion 2, contraction ½, shrink ½), maximizing; restarted from
 * its best point until a restart no longer improves it, which guards against a collapsed simplex.
 */
final class NelderMead {

    private NelderMead() {
    }

    static double[] maximize(ToDoubleFunction<double[]> f, double[] start, double step) {
        double[] best = start.clone();
        double bestValue = f.applyAsDouble(best);
        for (int restart = 0; restart < 20; restart++) {
            double[] next = run(f, best, step);
            double nextValue = f.applyAsDouble(next);
            boolean improved = nextValue > bestValue + 1e-13 * Math.abs(bestValue);
            if (nextValue >= bestValue) {
                best = next;
                bestValue = nextValue;
            }
            if (!improved) {
                break;
            }
            step = Math.max(step * 0.1, 1e-4);
        }
        return best;
    }

    private static double[] run(ToDoubleFunction<double[]> f, double[] start, double step) {
        int n = start.length;
        double[][] points = new double[n + 1][];
        double[] values = new double[n + 1];
        for (int i = 0; i <= n; i++) {
            points[i] = start.clone();
            if (i > 0) {
                points[i][i - 1] += step;
            }
            values[i] = f.applyAsDouble(points[i]);
        }
        for (int iteration = 0; iteration < 10_000; iteration++) {
            sort(points, values);
            double spread = Math.abs(values[0] - values[n]);
            double size = 0.0;
            for (int i = 1; i <= n; i++) {
                for (int j = 0; j < n; j++) {
                    size = Math.max(size, Math.abs(points[i][j] - points[0][j]));
                }
            }
            if (spread <= 1e-15 * (1.0 + Math.abs(values[0])) && size <= 1e-11) {
                break;
            }
            double[] centroid = new double[n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    centroid[j] += points[i][j] / n;
                }
            }
            double[] reflected = along(centroid, points[n], -1.0);
            double reflectedValue = f.applyAsDouble(reflected);
            if (reflectedValue > values[0]) {
                double[] expanded = along(centroid, points[n], -2.0);
                double expandedValue = f.applyAsDouble(expanded);
                if (expandedValue > reflectedValue) {
                    points[n] = expanded;
                    values[n] = expandedValue;
                } else {
                    points[n] = reflected;
                    values[n] = reflectedValue;
                }
            } else if (reflectedValue > values[n - 1]) {
                points[n] = reflected;
                values[n] = reflectedValue;
            } else {
                boolean outside = reflectedValue > values[n];
                double[] contracted = along(centroid, outside ? reflected : points[n], 0.5);
                double contractedValue = f.applyAsDouble(contracted);
                if (contractedValue > Math.max(values[n], outside ? reflectedValue : Double.NEGATIVE_INFINITY)) {
                    points[n] = contracted;
                    values[n] = contractedValue;
                } else {
                    for (int i = 1; i <= n; i++) {
                        points[i] = along(points[0], points[i], 0.5);
                        values[i] = f.applyAsDouble(points[i]);
                    }
                }
            }
        }
        sort(points, values);
        return points[0];
    }

    /** {@code c + t (p − c)}. */
    private static double[] along(double[] c, double[] p, double t) {
        double[] result = new double[c.length];
        for (int j = 0; j < c.length; j++) {
            result[j] = c[j] + t * (p[j] - c[j]);
        }
        return result;
    }

    /** Sorts the vertices by decreasing value (insertion sort: n + 1 is tiny). */
    private static void sort(double[][] points, double[] values) {
        for (int i = 1; i < values.length; i++) {
            double v = values[i];
            double[] p = points[i];
            int j = i - 1;
            while (j >= 0 && values[j] < v) {
                values[j + 1] = values[j];
                points[j + 1] = points[j];
                j--;
            }
            values[j + 1] = v;
            points[j + 1] = p;
        }
    }
}
