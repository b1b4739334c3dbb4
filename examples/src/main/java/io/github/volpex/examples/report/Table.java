package io.github.volpex.examples.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** A titled table of text cells, printed aligned on the terminal and written as HTML; immutable once built. */
public final class Table {

    private final String title;
    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    public Table(String title, String... headers) {
        this.title = Objects.requireNonNull(title, "title");
        this.headers = List.of(headers);
    }

    public String title() {
        return title;
    }

    public List<String> headers() {
        return headers;
    }

    public List<List<String>> rows() {
        return List.copyOf(rows);
    }

    /** Adds a row; cells are converted with {@link String#valueOf(Object)}. */
    public Table row(Object... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("row must have " + headers.size() + " cells: " + cells.length);
        }
        rows.add(Arrays.stream(cells).map(String::valueOf).toList());
        return this;
    }

    /** Returns the table as aligned text: title, header, rule, rows (numbers right-aligned). */
    public String render() {
        int[] widths = new int[headers.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = headers.get(c).length();
            for (List<String> row : rows) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        StringBuilder text = new StringBuilder(title).append('\n');
        appendRow(text, headers, widths);
        for (int c = 0; c < widths.length; c++) {
            text.append(c == 0 ? "" : "  ").append("-".repeat(widths[c]));
        }
        text.append('\n');
        for (List<String> row : rows) {
            appendRow(text, row, widths);
        }
        return text.toString();
    }

    private static void appendRow(StringBuilder text, List<String> cells, int[] widths) {
        for (int c = 0; c < widths.length; c++) {
            String cell = cells.get(c);
            String pad = " ".repeat(widths[c] - cell.length());
            text.append(c == 0 ? "" : "  ").append(c > 0 && looksNumeric(cell) ? pad + cell : cell + pad);
        }
        int end = text.length();
        while (end > 0 && text.charAt(end - 1) == ' ') {
            end--;
        }
        text.setLength(end);
        text.append('\n');
    }

    private static boolean looksNumeric(String cell) {
        return !cell.isEmpty() && (Character.isDigit(cell.charAt(0)) || cell.charAt(0) == '-'
                || cell.charAt(0) == '+' || cell.charAt(0) == '>' || cell.charAt(0) == '<');
    }

    /** Returns the table as an HTML {@code <table>} with a caption. */
    public String toHtml() {
        StringBuilder html = new StringBuilder("<table>\n<caption>").append(Html.escape(title))
                .append("</caption>\n<tr>");
        for (String header : headers) {
            html.append("<th>").append(Html.escape(header)).append("</th>");
        }
        html.append("</tr>\n");
        for (List<String> row : rows) {
            html.append("<tr>");
            for (String cell : row) {
                html.append(looksNumeric(cell) ? "<td class=\"n\">" : "<td>").append(Html.escape(cell)).append("</td>");
            }
            html.append("</tr>\n");
        }
        return html.append("</table>\n").toString();
    }
}
