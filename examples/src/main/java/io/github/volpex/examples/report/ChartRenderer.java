package io.github.volpex.examples.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Draws a {@link Chart} once, through a small drawing interface with two back ends: SVG text written directly, and a
 * Java2D image (JDK only, headless) saved as PNG.
 *
 * <p>Why one routine of its own rather than a charting library: the two files share one layout — every position,
 * scale, tick, colour and text anchor comes from the same {@code draw} call — which two separate back ends (a library's
 * Java2D chart for the PNG, another library or exporter for the SVG) would not guarantee; and the SVG is a pure
 * function of the chart, so the same seed writes the same file, byte for byte, whatever the library versions on the
 * class path. Only the glyphs differ: the SVG's text is drawn by the viewer in the first sans-serif font it has of
 * those named, the PNG's by Java2D's logical sans-serif font, so text widths may differ by a few pixels. (The examples
 * run on the class path, so module boundaries are no reason either way.)
 */
public final class ChartRenderer {

    public static final int WIDTH = 860;
    public static final int HEIGHT = 500;
    private static final int LEFT = 80;
    private static final int RIGHT = 210;
    private static final int TOP = 44;
    private static final int BOTTOM = 62;
    private static final String[] PALETTE = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

    /** The drawing operations a chart needs; coordinates in pixels, y downwards. */
    interface Canvas {
        void line(double x1, double y1, double x2, double y2, String color, double width, boolean dashed);

        void polyline(List<double[]> points, String color, double width);

        void rect(double x, double y, double w, double h, String fill, String stroke);

        void circle(double x, double y, double r, String fill);

        /** Draws text; {@code anchor} is -1 start, 0 middle, 1 end; {@code vertical} rotates it by -90 degrees. */
        void text(double x, double y, String text, double size, int anchor, boolean bold, boolean vertical);
    }

    private ChartRenderer() {
    }

    /** Returns the chart as an SVG document. */
    public static String svg(Chart chart) {
        SvgCanvas canvas = new SvgCanvas();
        draw(chart, canvas);
        return canvas.finish();
    }

    /** Writes the chart as a PNG image. */
    public static void png(Chart chart, OutputStream out) throws IOException {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            draw(chart, new ImageCanvas(g));
        } finally {
            g.dispose();
        }
        if (!ImageIO.write(image, "png", out)) {
            throw new IOException("no PNG writer in this JDK");
        }
    }

    /** One axis: data range mapped to a pixel range, linear or logarithmic. */
    private record Axis(double lo, double hi, boolean log, double p0, double p1) {
        double map(double v) {
            double f = log
                    ? (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))
                    : (v - lo) / (hi - lo);
            return p0 + f * (p1 - p0);
        }

        List<Double> ticks() {
            List<Double> ticks = new ArrayList<>();
            if (log) {
                double start = Math.pow(10, Math.floor(Math.log10(lo)));
                double[] steps = Math.log10(hi / lo) <= 2.5 ? new double[] {1, 2, 5} : new double[] {1};
                for (double decade = start; decade <= hi * 1.0001; decade *= 10) {
                    for (double s : steps) {
                        double v = decade * s;
                        if (v >= lo * 0.9999 && v <= hi * 1.0001) {
                            ticks.add(v);
                        }
                    }
                }
                return ticks;
            }
            double step = niceStep((hi - lo) / 6);
            for (double v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
                ticks.add(Math.abs(v) < step * 1e-9 ? 0.0 : v);
            }
            return ticks;
        }
    }

    /** Returns the largest of 1, 2 or 5 times a power of ten not above {@code v}. */
    private static double niceLogBelow(double v) {
        double decade = Math.pow(10, Math.floor(Math.log10(v)));
        return v >= 5 * decade ? 5 * decade : v >= 2 * decade ? 2 * decade : decade;
    }

    /** Returns the smallest of 1, 2 or 5 times a power of ten not below {@code v}. */
    private static double niceLogAbove(double v) {
        double decade = Math.pow(10, Math.floor(Math.log10(v)));
        return v <= decade ? decade : v <= 2 * decade ? 2 * decade : v <= 5 * decade ? 5 * decade : 10 * decade;
    }

    private static double niceStep(double raw) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double f = raw / magnitude;
        return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * magnitude;
    }

    static String format(double v) {
        double a = Math.abs(v);
        if (v == 0) {
            return "0";
        }
        if (a >= 1e6 || a < 1e-3) {
            return String.format(Locale.ROOT, "%.0e", v);
        }
        if (a >= 100 || v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return String.format(Locale.ROOT, a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3g", v);
    }

    private static void draw(Chart chart, Canvas c) {
        double plotRight = WIDTH - RIGHT;
        double plotBottom = HEIGHT - BOTTOM;
        c.text(WIDTH / 2.0 - RIGHT / 2.0 + LEFT / 2.0, 26, chart.title(), 16, 0, true, false);
        List<Chart.Series> series = chart.series();
        double xLo = Double.POSITIVE_INFINITY;
        double xHi = Double.NEGATIVE_INFINITY;
        double yLo = Double.POSITIVE_INFINITY;
        double yHi = Double.NEGATIVE_INFINITY;
        for (Chart.Series s : series) {
            double[] x = s.x();
            double[] y = s.y();
            for (int i = 0; i < x.length; i++) {
                if (Double.isFinite(y[i]) && (!chart.isLogY() || y[i] > 0)) {
                    xLo = Math.min(xLo, x[i]);
                    xHi = Math.max(xHi, x[i]);
                    yLo = Math.min(yLo, y[i]);
                    yHi = Math.max(yHi, y[i]);
                }
            }
        }
        if (!(yHi >= yLo)) {
            yLo = 0;
            yHi = 1;
            xLo = 0;
            xHi = 1;
        }
        if (chart.isLogY()) {
            yLo = niceLogBelow(yLo * 0.97);
            yHi = niceLogAbove(yHi * 1.03);
        } else {
            if (chart.yMin() != null) {
                yLo = Math.min(chart.yMin(), yLo);
            } else if (yLo >= 0) {
                yLo = 0;
            }
            double pad = (yHi - yLo) * 0.06;
            yHi = yHi + (pad == 0 ? 1 : pad);
            double step = niceStep((yHi - yLo) / 6);
            yHi = Math.ceil(yHi / step) * step;
            yLo = Math.floor(yLo / step) * step;
        }
        Axis yAxis = new Axis(yLo, yHi, chart.isLogY(), plotBottom, TOP);
        boolean bars = chart.kind() == Chart.Kind.BARS;
        Axis xAxis;
        if (bars) {
            xAxis = new Axis(-0.5, chart.categories().size() - 0.5, false, LEFT, plotRight);
        } else if (chart.isLogX()) {
            xAxis = new Axis(xLo, xHi, true, LEFT, plotRight);
        } else {
            double pad = xHi == xLo ? 1 : 0;
            xAxis = new Axis(xLo - pad, xHi + pad, false, LEFT, plotRight);
        }
        // grid and y ticks
        for (double t : yAxis.ticks()) {
            double py = yAxis.map(t);
            c.line(LEFT, py, plotRight, py, "#dddddd", 1, false);
            c.text(LEFT - 6, py + 4, format(t), 11, 1, false, false);
        }
        if (bars) {
            List<String> cats = chart.categories();
            for (int i = 0; i < cats.size(); i++) {
                c.text(xAxis.map(i), plotBottom + 18, cats.get(i), 11, 0, false, false);
            }
        } else {
            for (double t : xAxis.log() ? xAxis.ticks() : new Axis(xLo, xHi, false, 0, 1).ticks()) {
                double px = xAxis.map(t);
                if (px < LEFT - 0.5 || px > plotRight + 0.5) {
                    continue;
                }
                c.line(px, TOP, px, plotBottom, "#eeeeee", 1, false);
                c.text(px, plotBottom + 18, format(t), 11, 0, false, false);
            }
        }
        c.rect(LEFT, TOP, plotRight - LEFT, plotBottom - TOP, null, "#333333");
        c.text((LEFT + plotRight) / 2.0, HEIGHT - 18, chart.xLabel(), 13, 0, false, false);
        c.text(22, (TOP + plotBottom) / 2.0, chart.yLabel(), 13, 0, false, true);
        // data
        int n = series.size();
        double groupWidth = bars ? (xAxis.map(1) - xAxis.map(0)) * 0.8 : 0;
        for (int s = 0; s < n; s++) {
            String color = PALETTE[s % PALETTE.length];
            double[] x = series.get(s).x();
            double[] y = series.get(s).y();
            if (bars) {
                double w = groupWidth / n;
                for (int i = 0; i < x.length; i++) {
                    if (!Double.isFinite(y[i])) {
                        continue;
                    }
                    double left = xAxis.map(x[i]) - groupWidth / 2 + s * w;
                    double base = chart.isLogY() ? plotBottom : yAxis.map(Math.max(yLo, 0));
                    double top = yAxis.map(Math.max(y[i], chart.isLogY() ? yLo : Double.NEGATIVE_INFINITY));
                    c.rect(left + 1, Math.min(top, base), Math.max(w - 2, 1), Math.abs(base - top), color, null);
                }
            } else {
                List<double[]> run = new ArrayList<>();
                for (int i = 0; i < x.length; i++) {
                    boolean ok = Double.isFinite(y[i]) && (!chart.isLogY() || y[i] > 0)
                            && (!chart.isLogX() || x[i] > 0);
                    if (ok) {
                        double[] p = {xAxis.map(x[i]), yAxis.map(y[i])};
                        run.add(p);
                        c.circle(p[0], p[1], 3.2, color);
                    } else if (!run.isEmpty()) {
                        c.polyline(run, color, 2);
                        run = new ArrayList<>();
                    }
                }
                if (!run.isEmpty()) {
                    c.polyline(run, color, 2);
                }
            }
            double ly = TOP + 12 + s * 20;
            c.rect(plotRight + 14, ly - 9, 14, 10, color, null);
            c.text(plotRight + 34, ly, series.get(s).name(), 12, -1, false, false);
        }
    }

    /** Writes SVG elements into a string. */
    private static final class SvgCanvas implements Canvas {
        private final StringBuilder svg = new StringBuilder(8192);

        SvgCanvas() {
            svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                    .append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH)
                    .append("\" height=\"").append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                    .append(HEIGHT).append("\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n")
                    .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        }

        private static String n(double v) {
            return String.format(Locale.ROOT, "%.1f", v);
        }

        @Override
        public void line(double x1, double y1, double x2, double y2, String color, double width, boolean dashed) {
            svg.append("<line x1=\"").append(n(x1)).append("\" y1=\"").append(n(y1)).append("\" x2=\"").append(n(x2))
                    .append("\" y2=\"").append(n(y2)).append("\" stroke=\"").append(color)
                    .append("\" stroke-width=\"").append(n(width)).append('"')
                    .append(dashed ? " stroke-dasharray=\"4 3\"" : "").append("/>\n");
        }

        @Override
        public void polyline(List<double[]> points, String color, double width) {
            svg.append("<polyline fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"").append(n(width))
                    .append("\" points=\"");
            for (double[] p : points) {
                svg.append(n(p[0])).append(',').append(n(p[1])).append(' ');
            }
            svg.append("\"/>\n");
        }

        @Override
        public void rect(double x, double y, double w, double h, String fill, String stroke) {
            svg.append("<rect x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" width=\"").append(n(w))
                    .append("\" height=\"").append(n(h)).append("\" fill=\"").append(fill == null ? "none" : fill)
                    .append('"').append(stroke == null ? "" : " stroke=\"" + stroke + "\"").append("/>\n");
        }

        @Override
        public void circle(double x, double y, double r, String fill) {
            svg.append("<circle cx=\"").append(n(x)).append("\" cy=\"").append(n(y)).append("\" r=\"").append(n(r))
                    .append("\" fill=\"").append(fill).append("\"/>\n");
        }

        @Override
        public void text(double x, double y, String text, double size, int anchor, boolean bold, boolean vertical) {
            svg.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" font-size=\"")
                    .append(n(size)).append("\" text-anchor=\"")
                    .append(anchor < 0 ? "start" : anchor == 0 ? "middle" : "end").append('"')
                    .append(bold ? " font-weight=\"bold\"" : "")
                    .append(vertical ? " transform=\"rotate(-90 " + n(x) + " " + n(y) + ")\"" : "").append('>')
                    .append(Html.escape(text)).append("</text>\n");
        }

        String finish() {
            return svg.append("</svg>\n").toString();
        }
    }

    /** Draws on a Java2D surface. */
    private static final class ImageCanvas implements Canvas {
        private final Graphics2D g;

        ImageCanvas(Graphics2D g) {
            this.g = g;
        }

        private static Color color(String hex) {
            return Color.decode(hex);
        }

        @Override
        public void line(double x1, double y1, double x2, double y2, String color, double width, boolean dashed) {
            g.setColor(color(color));
            g.setStroke(dashed ? new BasicStroke((float) width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                    new float[] {4f, 3f}, 0f) : new BasicStroke((float) width));
            g.draw(new Line2D.Double(x1, y1, x2, y2));
        }

        @Override
        public void polyline(List<double[]> points, String color, double width) {
            Path2D.Double path = new Path2D.Double();
            for (int i = 0; i < points.size(); i++) {
                double[] p = points.get(i);
                if (i == 0) {
                    path.moveTo(p[0], p[1]);
                } else {
                    path.lineTo(p[0], p[1]);
                }
            }
            g.setColor(color(color));
            g.setStroke(new BasicStroke((float) width));
            g.draw(path);
        }

        @Override
        public void rect(double x, double y, double w, double h, String fill, String stroke) {
            Rectangle2D.Double r = new Rectangle2D.Double(x, y, w, h);
            if (fill != null) {
                g.setColor(color(fill));
                g.fill(r);
            }
            if (stroke != null) {
                g.setColor(color(stroke));
                g.setStroke(new BasicStroke(1f));
                g.draw(r);
            }
        }

        @Override
        public void circle(double x, double y, double r, String fill) {
            g.setColor(color(fill));
            g.fill(new java.awt.geom.Ellipse2D.Double(x - r, y - r, 2 * r, 2 * r));
        }

        @Override
        public void text(double x, double y, String text, double size, int anchor, boolean bold, boolean vertical) {
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, bold ? Font.BOLD : Font.PLAIN, (int) Math.round(size)));
            FontMetrics metrics = g.getFontMetrics();
            double width = metrics.stringWidth(text);
            double shift = anchor < 0 ? 0 : anchor == 0 ? -width / 2 : -width;
            AffineTransform saved = g.getTransform();
            g.translate(x, y);
            if (vertical) {
                g.rotate(-Math.PI / 2);
            }
            g.drawString(text, (float) shift, 0f);
            g.setTransform(saved);
        }
    }
}
