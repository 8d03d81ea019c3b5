package course.base;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The one way the kit writes HTML tables: every text escaped (hand-ins, file names and a child's messages are
 * untrusted), markup only where a caller wraps it in raw() (a verdict's colour, a link).
 */
public final class Html {
    private Html() {
    }

    /** Text made safe for HTML, inside attributes too. */
    public static String escape(Object value) {
        return String.valueOf(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;").replace("'", "&#39;");
    }

    /** Markup a table puts in as it is; any other cell is text and escaped. */
    public record Raw(String html) {}

    public static Raw raw(String html) {
        return new Raw(html);
    }

    /**
     * A word in bold white on a colour (a verdict's outcome): the badge carries its own background, so the word keeps
     * its contrast on JupyterLab's light and dark themes alike, and the word itself says what the colour does.
     */
    public static Raw badge(String text, String background) {
        return raw("<span style='background:" + escape(background) + ";color:#fff;font-weight:bold;padding:0 .3em;border-radius:3px;white-space:nowrap'>"
                + escape(text) + "</span>");
    }

    /** A fold: its summary (markup) tall enough to hit with a finger or a shaking hand (24 px, WCAG 2.5.8), then what it hides. */
    public static String fold(String summary, String body) {
        return "<details><summary style='padding:3px 0;cursor:pointer'>" + summary + "</summary>" + body + "</details>";
    }

    /**
     * Text kept as written in a box that scrolls sideways where a line is wider than the screen: reachable by the
     * keyboard (tabindex) and named for a screen reader, as a scrolling region must be.
     */
    public static String scrolling(String label, String text, String style) {
        return scrollingBox("pre", label, "white-space:pre;overflow-x:auto;" + style) + escape(text) + "</pre>";
    }

    /** The opening tag of a box that scrolls: Tab reaches it (tabindex), a screen reader names it (a region, labelled). */
    private static String scrollingBox(String tag, String label, String style) {
        return "<" + tag + " tabindex='0' role='region' aria-label='" + escape(label) + "' style='" + style + "'>";
    }

    /** A table built row by row: new Table("claim", "where").left(0).row("a", "b").html(). */
    public static final class Table {
        private final List<String> header;
        private final List<List<Object>> rows = new ArrayList<>();
        private final Set<Integer> left = new HashSet<>();
        private String caption;
        private String scrollLabel;
        private boolean rowHeads;

        /** Its column headings (none: a table without a heading row). */
        public Table(String... header) {
            this.header = List.of(header);
        }

        /** Columns (from 0) aligned left: text that reads as a sentence. */
        public Table left(int... columns) {
            for (int c : columns) left.add(c);
            return this;
        }

        /** Each row's first cell as its heading (a key beside its value). */
        public Table rowHeads() {
            rowHeads = true;
            return this;
        }

        public Table caption(String text) {
            caption = text;
            return this;
        }

        /**
         * A table too wide for a narrow screen, in a box of its own that scrolls sideways, which the keyboard can reach
         * and a screen reader names (label): the notebook's own output area would otherwise scroll, unreachable.
         */
        public Table scrolls(String label) {
            scrollLabel = label;
            return this;
        }

        /** One row; a cell is text (escaped) or raw(...). */
        public Table row(Object... cells) {
            rows.add(List.of(cells));
            return this;
        }

        public Table row(List<?> cells) {
            rows.add(List.copyOf(cells));
            return this;
        }

        public String html() {
            StringBuilder h = new StringBuilder("<table>");
            if (caption != null) h.append("<caption>").append(escape(caption)).append("</caption>");
            if (!header.isEmpty()) {
                h.append("<thead><tr>");
                for (int c = 0; c < header.size(); c++) h.append(open("th", c)).append(escape(header.get(c))).append("</th>");
                h.append("</tr></thead>");
            }
            h.append("<tbody>");
            for (List<Object> row : rows) {
                h.append("<tr>");
                for (int c = 0; c < row.size(); c++) {
                    String tag = rowHeads && c == 0 ? "th" : "td";
                    Object cell = row.get(c);
                    h.append(open(tag, c)).append(cell instanceof Raw r ? r.html() : escape(cell)).append("</").append(tag).append('>');
                }
                h.append("</tr>");
            }
            h.append("</tbody></table>");
            return scrollLabel == null ? h.toString()
                    : scrollingBox("div", scrollLabel, "overflow-x:auto") + h + "</div>";
        }

        private String open(String tag, int column) {
            return left.contains(column) ? "<" + tag + " style='text-align:left'>" : "<" + tag + ">";
        }
    }
}
