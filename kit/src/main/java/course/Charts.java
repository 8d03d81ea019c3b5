package course;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Vega-Lite v5 specs, built as plain maps and lists (the form JupyterLab's renderer receives intact). */
public final class Charts {
    public static final String SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json";
    static final Map<String, Object> LANGUAGE_COLORS = Map.of("domain", List.of("java", "c"), "range", List.of("#d9480f", "#1c7ed6"));

    private Charts() {
    }

    /**
     * A measured rate against file size, one line per language and operation, with the spread of the
     * runs as a band: the shape the study's Figs 4.1 and 4.3 describe.
     */
    public static Map<String, Object> rateVsSize(Results results, String rateColumn, String title) {
        List<Map<String, Object>> values = new ArrayList<>();
        for (Map<String, Object> row : results.summary()) {
            Map<String, Object> v = new LinkedHashMap<>(row);
            double scale = ((Number) row.get(rateColumn)).doubleValue() * ((Number) row.get("median_ms")).doubleValue();
            v.put("rate", row.get(rateColumn));
            v.put("rate_low", scale / ((Number) row.get("max_ms")).doubleValue());
            v.put("rate_high", scale / ((Number) row.get("min_ms")).doubleValue());
            v.put("file_mb", ((Number) row.get("file_size")).doubleValue() / (1 << 20));
            v.put("series", row.get("language") + " " + row.get("op"));
            values.add(v);
        }
        String yTitle = rateColumn.equals("ops_per_s") ? "operations per second" : "MB per second";
        Map<String, Object> x = Map.of("field", "file_mb", "type", "quantitative", "scale", Map.of("type", "log"),
                "title", "file size (MB, log scale)");
        Map<String, Object> color = Map.of("field", "language", "type", "nominal", "scale", LANGUAGE_COLORS, "title", "language");
        Map<String, Object> dash = Map.of("field", "op", "type", "nominal", "title", "operation");
        Map<String, Object> line = Map.of("mark", Map.of("type", "line", "point", true),
                "encoding", Map.of("x", x, "y", Map.of("field", "rate", "type", "quantitative", "title", yTitle,
                                "scale", Map.of("zero", true)),
                        "color", color, "strokeDash", dash, "detail", Map.of("field", "series"),
                        "tooltip", List.of(Map.of("field", "series"), Map.of("field", "file_mb", "title", "MB"),
                                Map.of("field", "rate", "format", ",.0f", "title", yTitle))));
        Map<String, Object> band = Map.of("mark", Map.of("type", "errorband", "opacity", 0.25),
                "encoding", Map.of("x", x, "y", Map.of("field", "rate_low", "type", "quantitative"),
                        "y2", Map.of("field", "rate_high"), "color", color, "detail", Map.of("field", "series")));
        return spec(title, values, List.of(band, line));
    }

    /**
     * Measured ratios as bars, each with the study's figure as a black tick and its citation:
     * one bar per label (e.g. "seq write"), one tick per published claim that applies to it.
     */
    public static Map<String, Object> ratioBars(List<Map<String, Object>> measured, List<Map<String, Object>> published,
                                                String yTitle, String title) {
        List<Map<String, Object>> values = new ArrayList<>();
        measured.forEach(m -> values.add(with(m, "kind", "measured here")));
        published.forEach(p -> values.add(with(p, "kind", "published")));
        Map<String, Object> x = Map.of("field", "label", "type", "nominal", "title", "", "axis", Map.of("labelAngle", 0));
        Map<String, Object> y = Map.of("field", "value", "type", "quantitative", "title", yTitle);
        Map<String, Object> bars = Map.of("transform", List.of(Map.of("filter", "datum.kind == 'measured here'")),
                "mark", Map.of("type", "bar", "color", "#1c7ed6", "width", Map.of("band", 0.6)),
                "encoding", Map.of("x", x, "y", y, "tooltip", List.of(Map.of("field", "label"),
                        Map.of("field", "value", "format", ".2f", "title", "measured"))));
        Map<String, Object> ticks = Map.of("transform", List.of(Map.of("filter", "datum.kind == 'published'")),
                "mark", Map.of("type", "tick", "color", "black", "thickness", 3, "size", 40),
                "encoding", Map.of("x", x, "y", y, "tooltip", List.of(Map.of("field", "label"),
                        Map.of("field", "value", "title", "published"), Map.of("field", "citation"))));
        Map<String, Object> labels = Map.of("transform", List.of(Map.of("filter", "datum.kind == 'published'")),
                "mark", Map.of("type", "text", "dx", 26, "align", "left", "fontSize", 10),
                "encoding", Map.of("x", x, "y", y, "text", Map.of("field", "citation")));
        Map<String, Object> one = Map.of("data", Map.of("values", List.of(Map.of("one", 1))),
                "mark", Map.of("type", "rule", "strokeDash", List.of(4, 4), "color", "gray"),
                "encoding", Map.of("y", Map.of("field", "one", "type", "quantitative")));
        return spec(title, values, List.of(bars, ticks, labels, one));
    }

    /** Throughput per operation, warm and cold page cache side by side: the disk's ceiling. */
    public static Map<String, Object> throughputBars(Results results, String title) {
        List<Map<String, Object>> values = new ArrayList<>();
        for (Map<String, Object> row : results.summary()) {
            Map<String, Object> v = new LinkedHashMap<>(row);
            v.put("case", row.get("language") + " " + row.get("op"));
            values.add(v);
        }
        Map<String, Object> bars = Map.of("mark", "bar", "encoding", Map.of(
                "x", Map.of("field", "case", "type", "nominal", "title", "", "axis", Map.of("labelAngle", 0)),
                "xOffset", Map.of("field", "cache"),
                "y", Map.of("field", "mb_per_s", "type", "quantitative", "title", "MB per second (median)"),
                "color", Map.of("field", "cache", "type", "nominal", "title", "page cache",
                        "scale", Map.of("domain", List.of("warm", "cold"), "range", List.of("#f08c00", "#1971c2"))),
                "tooltip", List.of(Map.of("field", "case"), Map.of("field", "cache"), Map.of("field", "mb_per_s", "format", ",.0f"))));
        return spec(title, values, List.of(bars));
    }

    /** Each measured run's time by run index: the JIT's warm-up shows as early Java runs that take longer. */
    public static Map<String, Object> perRun(Results results, String title) {
        List<Map<String, Object>> values = new ArrayList<>();
        for (var run : results.runs()) {
            values.add(Map.of("run", run.get("run").getAsInt() + 1, "language", run.get("language").getAsString(),
                    "ms", run.get("elapsed_ns").getAsDouble() / 1e6));
        }
        Map<String, Object> lines = Map.of("mark", Map.of("type", "line", "point", true), "encoding", Map.of(
                "x", Map.of("field", "run", "type", "ordinal", "title", "run (in order)", "axis", Map.of("labelAngle", 0)),
                "y", Map.of("field", "ms", "type", "quantitative", "title", "elapsed (ms)", "scale", Map.of("zero", true)),
                "color", Map.of("field", "language", "type", "nominal", "scale", LANGUAGE_COLORS)));
        return spec(title, values, List.of(lines));
    }

    /** A bar of a measured value (or a published one) for ratioBars. */
    public static Map<String, Object> bar(String label, double value) {
        return new LinkedHashMap<>(Map.of("label", label, "value", value));
    }

    /** A published reference mark for ratioBars, with its citation. */
    public static Map<String, Object> reference(String label, Published.Claim claim) {
        return new LinkedHashMap<>(Map.of("label", label, "value", claim.asRatio(), "citation", claim.source() + " " + claim.where()));
    }

    static Map<String, Object> spec(String title, List<Map<String, Object>> values, List<Map<String, Object>> layers) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("$schema", SCHEMA);
        spec.put("title", title);
        spec.put("width", 460);
        spec.put("height", 260);
        spec.put("data", Map.of("values", values));
        spec.put("layer", layers);
        return spec;
    }

    private static Map<String, Object> with(Map<String, Object> m, String key, Object value) {
        Map<String, Object> copy = new LinkedHashMap<>(m);
        copy.put(key, value);
        return copy;
    }
}
