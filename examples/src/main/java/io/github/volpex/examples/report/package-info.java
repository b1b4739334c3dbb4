/**
 * Reporting for the examples, with the JDK only: text and HTML tables ({@link io.github.volpex.examples.report.Table}),
 * HTML escaping ({@link io.github.volpex.examples.report.Html}), and line and bar charts
 * ({@link io.github.volpex.examples.report.Chart}) that {@link io.github.volpex.examples.report.ChartRenderer} draws
 * through one routine to SVG text and to a Java2D PNG, so that the two files share one layout and the SVG is a pure
 * function of the chart. The reproductions ({@link io.github.volpex.examples.reproduce}) write their reports with
 * these.
 */
package io.github.volpex.examples.report;
