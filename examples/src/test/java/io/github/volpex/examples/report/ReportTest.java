package io.github.volpex.examples.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

class ReportTest {

    @Test
    void a_table_renders_aligned_with_numbers_on_the_right() {
        Table table = new Table("T", "name", "value").row("a", 1.5).row("longer", "12.25");
        assertEquals("""
                T
                name    value
                ------  -----
                a         1.5
                longer  12.25
                """, table.render());
        assertTrue(table.toHtml().contains("<td class=\"n\">12.25</td>"));
        assertThrows(IllegalArgumentException.class, () -> table.row("only one"));
    }

    @Test
    void charts_draw_the_same_picture_to_svg_and_png() throws Exception {
        Chart chart = Chart.lines("demo", "A <demo> & chart", "x", "y").logX()
                .add("first", new double[] {1, 10, 100}, new double[] {3, 2, Double.NaN})
                .add("second", new double[] {1, 10, 100}, new double[] {1, 4, 9});
        String svg = ChartRenderer.svg(chart);
        assertTrue(svg.startsWith("<?xml"), svg);
        assertTrue(svg.trim().endsWith("</svg>"));
        assertTrue(svg.contains("A &lt;demo&gt; &amp; chart"), "titles are escaped");
        assertTrue(svg.contains(">first</text>") && svg.contains(">second</text>"), "legend names every series");
        assertEquals(2, svg.split("<polyline").length - 1, "one line per series (NaN points left out)");
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ChartRenderer.png(chart, png);
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png.toByteArray()));
        assertEquals(ChartRenderer.WIDTH, image.getWidth());
        assertEquals(ChartRenderer.HEIGHT, image.getHeight());
        int coloured = 0;
        for (int x = 0; x < image.getWidth(); x += 2) {
            for (int y = 0; y < image.getHeight(); y += 2) {
                int rgb = image.getRGB(x, y) & 0xFFFFFF;
                if (rgb == 0x1f77b4 || rgb == 0xd62728) {
                    coloured++;
                }
            }
        }
        assertTrue(coloured > 20, "the series are drawn in their colours: " + coloured);
    }

    /** The reason ChartRenderer gives for being one routine of its own: the same chart writes the same SVG. */
    @Test
    void the_svg_is_a_pure_function_of_the_chart() {
        String first = ChartRenderer.svg(Chart.bars("bars", "B", "x", "y", List.of("a", "b"))
                .add("s", new double[] {1, 2}).add("t", new double[] {3, 0.5}));
        String again = ChartRenderer.svg(Chart.bars("bars", "B", "x", "y", List.of("a", "b"))
                .add("s", new double[] {1, 2}).add("t", new double[] {3, 0.5}));
        assertEquals(first, again);
        String other = ChartRenderer.svg(Chart.bars("bars", "B", "x", "y", List.of("a", "b"))
                .add("s", new double[] {1, 2}).add("t", new double[] {3, 0.75}));
        assertTrue(!first.equals(other), "a different value draws a different chart");
    }

    @Test
    void bar_charts_need_one_value_per_category() {
        Chart chart = Chart.bars("bars", "B", "x", "y", List.of("a", "b"));
        assertThrows(IllegalArgumentException.class, () -> chart.add("s", new double[] {1}));
        chart.add("s", new double[] {1, 2});
        assertEquals(2, ChartRenderer.svg(chart).split("fill=\"#1f77b4\"").length - 1 - 1,
                "two bars plus the legend swatch");
        assertThrows(IllegalArgumentException.class, () -> Chart.lines("Bad Name", "t", "x", "y"));
    }
}
