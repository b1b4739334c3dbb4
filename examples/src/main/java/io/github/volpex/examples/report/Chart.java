package io.github.volpex.examples.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A chart to draw: a line chart over a numeric x axis, or grouped bars over categories. Points with a NaN value are
 * left out. Built once, then drawn by {@link ChartRenderer} to SVG and PNG alike.
 */
public final class Chart {

    /** How the series are drawn. */
    public enum Kind {
        /** Lines with point markers over a numeric x axis. */
        LINES,
        /** Grouped vertical bars, one group per category. */
        BARS
    }

    /** One named series; for bars, {@code x} holds category indexes. */
    record Series(String name, double[] x, double[] y) {
        Series {
            Objects.requireNonNull(name, "name");
            if (x.length != y.length) {
                throw new IllegalArgumentException("x and y must have equal lengths: " + x.length + " != " + y.length);
            }
            x = x.clone();
            y = y.clone();
        }

        @Override
        public double[] x() {
            return x.clone();
        }

        @Override
        public double[] y() {
            return y.clone();
        }
    }

    private final String fileName;
    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final Kind kind;
    private boolean logX;
    private boolean logY;
    private Double yMin;
    private List<String> categories = List.of();
    private final List<Series> series = new ArrayList<>();

    private Chart(String fileName, String title, String xLabel, String yLabel, Kind kind) {
        if (!fileName.matches("[a-z0-9][a-z0-9-]*")) {
            throw new IllegalArgumentException("fileName must be lower-case letters, digits and dashes: " + fileName);
        }
        this.fileName = fileName;
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.kind = kind;
    }

    public static Chart lines(String fileName, String title, String xLabel, String yLabel) {
        return new Chart(fileName, title, xLabel, yLabel, Kind.LINES);
    }

    public static Chart bars(String fileName, String title, String xLabel, String yLabel, List<String> categories) {
        Chart chart = new Chart(fileName, title, xLabel, yLabel, Kind.BARS);
        chart.categories = List.copyOf(categories);
        return chart;
    }

    public Chart logX() {
        logX = true;
        return this;
    }

    public Chart logY() {
        logY = true;
        return this;
    }

    /** Starts the y axis at {@code value} (otherwise at zero for linear axes with non-negative data). */
    public Chart yFrom(double value) {
        yMin = value;
        return this;
    }

    public Chart add(String name, double[] x, double[] y) {
        series.add(new Series(name, x, y));
        return this;
    }

    /** Adds a bar series: one value per category. */
    public Chart add(String name, double[] valuesByCategory) {
        if (valuesByCategory.length != categories.size()) {
            throw new IllegalArgumentException("need one value per category (" + categories.size() + "): "
                    + valuesByCategory.length);
        }
        double[] x = new double[valuesByCategory.length];
        for (int i = 0; i < x.length; i++) {
            x[i] = i;
        }
        return add(name, x, valuesByCategory);
    }

    public String fileName() {
        return fileName;
    }

    public String title() {
        return title;
    }

    public String xLabel() {
        return xLabel;
    }

    public String yLabel() {
        return yLabel;
    }

    public Kind kind() {
        return kind;
    }

    public boolean isLogX() {
        return logX;
    }

    public boolean isLogY() {
        return logY;
    }

    public Double yMin() {
        return yMin;
    }

    public List<String> categories() {
        return categories;
    }

    List<Series> series() {
        return List.copyOf(series);
    }
}
