package dev.proactor.bench.harness;

import java.util.List;
import java.util.Locale;

/** The pieces of Markdown and CSV the benchmark reports share: bullet lists, sections, table cells, numbers. */
public final class Markdown {
    private Markdown() {
    }

    /**
     * Appends one bullet per item, as given.
     *
     * @param md    the report
     * @param items the lines
     */
    public static void bullets(StringBuilder md, List<String> items) {
        for (String item : items) {
            md.append("- ").append(item).append('\n');
        }
    }

    /**
     * Appends a {@code ## title} section listing the items, then a blank line; nothing when there are none.
     *
     * @param md    the report
     * @param title the heading
     * @param items the lines, as given
     */
    public static void section(StringBuilder md, String title, List<String> items) {
        if (items.isEmpty()) {
            return;
        }
        md.append("## ").append(title).append("\n\n");
        bullets(md, items);
        md.append('\n');
    }

    /**
     * A table cell: the text on one line, its {@code |} escaped.
     *
     * @param text the text
     * @return the cell's text
     */
    public static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    /**
     * A number, or the placeholder when it is unknown.
     *
     * @param v       the number, NaN when unknown
     * @param format  a {@link String#format} pattern, formatted in {@link Locale#ROOT}
     * @param missing the text for NaN (e.g. {@code ""} in CSV, {@code -} in a table)
     * @return the text
     */
    public static String number(double v, String format, String missing) {
        return Double.isNaN(v) ? missing : String.format(Locale.ROOT, format, v);
    }
}
