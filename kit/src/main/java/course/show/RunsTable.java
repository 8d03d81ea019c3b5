package course.show;

import course.base.Course;
import course.base.Html;
import course.record.Results;
import course.record.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A sweep's results as the notebook shows them: one row per case, its medians and rates, what every row shares said once. */
public final class RunsTable {
    private RunsTable() {
    }

    /**
     * The columns that name a case, in the order the tables show them: the case fields in the schema's order, those
     * marked x-method as the one column "method" (see Results.method), and not the snippet (a table shows one snippet's runs).
     */
    public static final List<String> SHOWN_CASE = shownCase(Schema.results().runFields("x-method"));
    public static final List<String> SHOWN_MEASURES = List.of("runs", "median_ms", "min_ms", "max_ms", "mb_per_s", "ops_per_s",
            "sys_share_pct", "hit_ratio_pct", "resident_pct", "study_mb_per_s", "wall_mb_per_s", "platform_threads");

    /** Measures that count things (a median of counts). */
    static final List<String> COUNTS = List.of("platform_threads", "tasks", "io_workers");
    /** Measures only some snippets or runs have: shown where at least one row has them. */
    public static final List<String> OPTIONAL_MEASURES = List.of("sys_share_pct", "hit_ratio_pct", "resident_pct", "study_mb_per_s", "wall_mb_per_s",
            "platform_threads");

    /**
     * The summary as an HTML table for the notebook. With more than one row, a case column that is the
     * same in every row is stated once above the table instead; hit ratio shows only where counted.
     */
    public static String html(Results results) {
        List<Map<String, Object>> rows = results.summary();
        List<String> columns = new ArrayList<>(), same = new ArrayList<>();
        for (String c : SHOWN_CASE) {
            boolean constant = rows.stream().map(r -> String.valueOf(r.get(c))).distinct().count() == 1;
            if (constant && String.valueOf(rows.get(0).get(c)).isEmpty()) continue;  // not recorded (older results)
            if (constant && rows.size() > 1) same.add(c.replace('_', ' ') + " " + format(c, rows.get(0).get(c)));
            else columns.add(c);
        }
        for (String c : SHOWN_MEASURES) {
            if (!OPTIONAL_MEASURES.contains(c) || rows.stream().anyMatch(r -> shown(r, c) != null)) columns.add(c);
        }
        Html.Table table = new Html.Table(columns.stream().map(c -> c.replace('_', ' ')).toArray(String[]::new))
                .caption("Each case's runs in one row" + (same.isEmpty() ? "" : "; every row: " + String.join(" · ", same)))
                .scrolls("the runs, a row per case");
        for (Map<String, Object> row : rows) table.row(columns.stream().map(c -> format(c, shown(row, c))).toList());
        return table.html();
    }

    /**
     * The CPU time a case's runs must hold in all before the table splits it into user and system: the kernel
     * samples the split at each timer tick (1 to 10 ms by its configuration), so 200 ms holds 20 ticks or more.
     */
    static final double SPLIT_MIN_CPU_MS = 200;

    /** What the table shows of a row's column: its system share only where the runs held enough CPU time to split. */
    private static Object shown(Map<String, Object> row, String column) {
        if (column.equals("sys_share_pct") && row.get("cpu_ms") instanceof Double cpu && cpu < SPLIT_MIN_CPU_MS) return null;
        return row.get(column);
    }

    private static List<String> shownCase(List<String> method) {
        List<String> shown = new ArrayList<>();
        for (String field : Results.CASE) {
            String column = method.contains(field) ? "method" : field;
            if (!field.equals("snippet") && !shown.contains(column)) shown.add(column);
        }
        return List.copyOf(shown);
    }

    static String format(String column, Object value) {
        if (value instanceof Long size && (column.equals("file_size") || column.equals("op_size"))) return Course.formatSize(size);
        if (value == null) return "n/a";
        // a count (threads, tasks) is a median of whole numbers: 7 or 7.5, never "7.00"
        if (value instanceof Double d && COUNTS.contains(column)) return d == Math.rint(d) ? String.format(Locale.ROOT, "%,.0f", d) : String.format(Locale.ROOT, "%,.1f", d);
        if (value instanceof Double d) return d >= 1000 ? String.format(Locale.ROOT, "%,.0f", d) : String.format(Locale.ROOT, "%.3g", d);
        return String.valueOf(value);
    }
}
