package course.show;

import course.base.Course;
import course.base.Html;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A chart's figures as a table under it: the columns a chart names (Charts, ReferenceBars), and the table they make. */
public final class ChartTable {
    private ChartTable() {
    }

    /** A column of a chart's figures as a table: the data's field, its heading, and whether it counts bytes. */
    public record Column(String field, String title, boolean bytes) {
        Map<String, Object> asMap() {
            return Map.of("field", field, "title", title, "bytes", bytes);
        }
    }

    public static Column column(String field, String title) {
        return new Column(field, title, false);
    }

    /**
     * The chart with the columns in which its figures are also shown as a table under it (kept in the spec's usermeta,
     * which Vega-Lite leaves to its users): a reader who cannot see the marks reads the same numbers.
     */
    public static Map<String, Object> tabled(Map<String, Object> spec, List<Column> columns) {
        spec.put("usermeta", Map.of("table", columns.stream().map(Column::asMap).toList()));
        return spec;
    }

    /** The chart's figures as a table, folded under it (its usermeta's columns over its data), with its reference lines; "" for a chart that names none. */
    @SuppressWarnings("unchecked")
    public static String figures(Map<String, Object> spec) {
        List<Map<String, Object>> cols = columns(spec);
        if (cols.isEmpty()) return "";
        Object title = spec.get("title") instanceof Map<?, ?> t ? t.get("text") : spec.get("title");
        Html.Table table = new Html.Table(cols.stream().map(c -> String.valueOf(c.get("title"))).toArray(String[]::new))
                .caption("The figures of \"" + title + "\"");
        for (Map<String, Object> row : (List<Map<String, Object>>) ((Map<String, Object>) spec.get("data")).get("values")) {
            table.row(cols.stream().map(c -> figure(row.get(c.get("field")), Boolean.TRUE.equals(c.get("bytes")))).toList());
        }
        StringBuilder html = new StringBuilder(table.html());
        for (Map<String, Object> layer : (List<Map<String, Object>>) spec.getOrDefault("layer", List.of())) {
            if (!Charts.LEVELS.equals(layer.get("name"))) continue;
            html.append("<p>Lines across the chart: ");
            List<String> levels = new ArrayList<>();
            for (Map<String, Object> level : (List<Map<String, Object>>) ((Map<String, Object>) layer.get("data")).get("values")) {
                levels.add(Html.escape(level.get("label")) + " at " + figure(level.get("y"), false));
            }
            html.append(String.join("; ", levels)).append(".</p>");
        }
        return Html.fold("The chart's figures as a table", html.toString());
    }

    /** A figure as the table shows it: four significant digits, bytes in KB and MB, "–" where there is none. */
    static String figure(Object value, boolean bytes) {
        if (value == null) return "–";
        if (!(value instanceof Number n)) return String.valueOf(value);
        if (bytes) return Course.formatBytes(n.longValue());
        double v = n.doubleValue();
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return String.format(Locale.ROOT, "%,d", (long) v);
        return new BigDecimal(v).round(new MathContext(4)).stripTrailingZeros().toPlainString();
    }

    /** Whether a chart's field counts bytes, as its table's column says. */
    static boolean countsBytes(Map<String, Object> spec, String field) {
        return columns(spec).stream().anyMatch(c -> field.equals(c.get("field")) && Boolean.TRUE.equals(c.get("bytes")));
    }

    /** The columns tabled(...) kept in the chart's usermeta (none: the chart names no table). */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> columns(Map<String, Object> spec) {
        return spec.get("usermeta") instanceof Map<?, ?> meta && meta.get("table") instanceof List<?> columns
                ? (List<Map<String, Object>>) columns : List.of();
    }
}
