package io.github.volpex.examples.reproduce;

import io.github.volpex.examples.report.Chart;
import io.github.volpex.examples.report.ChartRenderer;
import io.github.volpex.examples.report.Html;
import io.github.volpex.examples.report.Table;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Writes the results under an output directory: for each experiment a folder with its charts (PNG and SVG) and its
 * tables as text, and one {@code index.html} that shows every table and chart and links the files.
 */
final class Report {

    private Report() {
    }

    /** Writes one experiment's charts and tables into {@code out/<name>/}. */
    static void writeExperiment(Path out, Result result) throws IOException {
        Path dir = out.resolve(result.experiment().name());
        Files.createDirectories(dir);
        for (Chart chart : result.charts()) {
            Files.writeString(dir.resolve(chart.fileName() + ".svg"), ChartRenderer.svg(chart), StandardCharsets.UTF_8);
            try (OutputStream png = Files.newOutputStream(dir.resolve(chart.fileName() + ".png"))) {
                ChartRenderer.png(chart, png);
            }
        }
        Files.writeString(dir.resolve("tables.txt"), text(result), StandardCharsets.UTF_8);
    }

    /** Returns everything the experiment prints: title, setting, tables, findings and notes. */
    static String text(Result result) {
        StringBuilder text = new StringBuilder();
        text.append("== ").append(result.experiment().name()).append(": ").append(result.experiment().title())
                .append('\n');
        for (String line : result.setting()) {
            text.append("   ").append(line).append('\n');
        }
        text.append('\n');
        for (Table table : result.tables()) {
            text.append(table.render()).append('\n');
        }
        text.append(result.findingsTable().render()).append('\n');
        for (String note : result.notes()) {
            text.append("note: ").append(note).append('\n');
        }
        return text.toString();
    }

    /** Writes {@code out/index.html} for the experiments of this run. */
    static void writeIndex(Path out, List<Result> results, Setup setup, double wallSeconds) throws IOException {
        StringBuilder html = new StringBuilder(16384);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>Volpex for Java: reproducing the papers</title>\n<style>\n")
                .append("body{font-family:DejaVu Sans,Verdana,sans-serif;max-width:1100px;margin:2em auto;")
                .append("padding:0 1em;color:#222}\n")
                .append("table{border-collapse:collapse;margin:1em 0}caption{text-align:left;font-weight:bold;")
                .append("padding:.3em 0}\nth,td{border:1px solid #ccc;padding:.25em .6em;vertical-align:top}")
                .append("th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}\n")
                .append("img{max-width:100%;border:1px solid #eee}.v-reproduced{color:#176e1a}")
                .append(".v-not{color:#b00}.v-partly{color:#a65f00}\n</style>\n</head>\n<body>\n")
                .append("<h1>Volpex for Java: reproducing the papers</h1>\n<p>Seed ").append(setup.seed())
                .append(setup.quick() ? ", quick (small) parameters" : ", full parameters").append(", ")
                .append(setup.threads()).append(" worker thread(s); wall time ")
                .append(String.format(Locale.ROOT, "%.1f s", wallSeconds)).append(".</p>\n<ul>\n");
        for (Result r : results) {
            html.append("<li><a href=\"#").append(r.experiment().name()).append("\">")
                    .append(Html.escape(r.experiment().title())).append("</a></li>\n");
        }
        html.append("</ul>\n");
        for (Result r : results) {
            String name = r.experiment().name();
            html.append("<h2 id=\"").append(name).append("\">").append(Html.escape(r.experiment().title()))
                    .append("</h2>\n<ul>\n");
            for (String line : r.setting()) {
                html.append("<li>").append(Html.escape(line)).append("</li>\n");
            }
            html.append("</ul>\n<p>").append(String.format(Locale.ROOT, "%.1f s wall time", r.wallSeconds()));
            if (r.simulatedEvents() > 0) {
                html.append(String.format(Locale.ROOT, ", %,d simulated events", r.simulatedEvents()));
            }
            html.append(". Tables as text: <a href=\"").append(name).append("/tables.txt\">").append(name)
                    .append("/tables.txt</a>.</p>\n");
            html.append("<table>\n<caption>The paper's claims against ours</caption>\n")
                    .append("<tr><th>claim</th><th>paper</th><th>ours</th><th>verdict</th></tr>\n");
            for (Result.Finding f : r.findings()) {
                String css = switch (f.verdict()) {
                    case REPRODUCED -> "v-reproduced";
                    case NOT_REPRODUCED -> "v-not";
                    case PARTLY -> "v-partly";
                    case SKIPPED -> "";
                };
                html.append("<tr><td>").append(Html.escape(f.claim())).append("</td><td>")
                        .append(Html.escape(f.paper())).append("</td><td>").append(Html.escape(f.ours()))
                        .append("</td><td class=\"").append(css).append("\">").append(f.verdict())
                        .append("</td></tr>\n");
            }
            html.append("</table>\n");
            for (Chart chart : r.charts()) {
                String base = name + "/" + chart.fileName();
                html.append("<figure><a href=\"").append(base).append(".png\"><img src=\"").append(base)
                        .append(".svg\" alt=\"").append(Html.escape(chart.title())).append("\"></a>")
                        .append("<figcaption>").append(Html.escape(chart.title())).append(" (<a href=\"")
                        .append(base).append(".png\">PNG</a>, <a href=\"").append(base)
                        .append(".svg\">SVG</a>)</figcaption></figure>\n");
            }
            for (Table table : r.tables()) {
                html.append(table.toHtml());
            }
            for (String note : r.notes()) {
                html.append("<p>").append(Html.escape(note)).append("</p>\n");
            }
        }
        html.append("</body>\n</html>\n");
        Files.createDirectories(out);
        Files.writeString(out.resolve("index.html"), html.toString(), StandardCharsets.UTF_8);
    }
}
