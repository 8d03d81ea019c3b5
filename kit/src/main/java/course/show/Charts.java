package course.show;

import static course.show.ChartTable.column;
import static course.show.ChartTable.tabled;

import course.judge.Estimate;
import course.judge.Published;
import course.record.Results;
import course.record.Run;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Vega-Lite v5 specs, built as plain maps and lists (the form JupyterLab's renderer receives intact). */
public final class Charts {
    public static final String SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json";
    static final Map<String, Object> LANGUAGE_COLORS = Map.of("domain", List.of("java", "c"), "range", List.of("#d55e00", "#0072b2"));
    /**
     * Okabe and Ito's palette, told apart with every common colour-vision deficiency, kept to the colours that stand
     * out 3:1 from the chart's white (WCAG 1.4.11): their orange darkened, their sky blue and yellow left out, a
     * purple added.
     */
    static final List<String> PALETTE = List.of("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#b07d00", "#000000", "#5e3c99");
    /** The chart's text and lines. */
    static final String INK = "#222222";
    /** How tall a reference label is drawn, in pixels, and the least gap kept between two of them. */
    static final int LABEL_FONT = 10, LABEL_GAP = 13;
    /** How wide a published figure's tick is drawn across its bar, in pixels. */
    static final int TICK = 40;

    private Charts() {
    }

    /** Axis labels in bytes, KB and MB (powers of 1024) for a log-scale size axis. */
    static final String SIZE_LABELS = "datum.value >= 1048576 ? format(datum.value / 1048576, '~g') + ' MB'"
            + " : datum.value >= 1024 ? format(datum.value / 1024, '~g') + ' KB' : format(datum.value, '~g') + ' B'";
    static final Map<String, String> TITLES = Map.of("file_size", "file size", "op_size", "operation size",
            "buffer_size", "buffer size", "median_ms", "median time (ms)", "ms_per_mb", "time per MB (ms)", "mb_per_s", "MB per second",
            "ops_per_s", "operations per second",
            "study_mb_per_s", "MB/s, the study's way", "wall_mb_per_s", "MB/s by the wall clock",
            "platform_threads", "platform threads at once");

    /** Fields that count (threads, processes) rather than size: their axis ticks are plain numbers. */
    static final Map<String, String> COUNTS = Map.of("threads", "threads", "procs", "processes", "in_flight", "reads in flight");

    /**
     * A measured rate against file size, one line per language and operation, with each median's 95%
     * interval as a band: the shape the study's Figs 4.1 and 4.3 describe.
     */
    public static Map<String, Object> rateVsSize(Results results, String rateColumn, String title) {
        return lines(results, "file_size", rateColumn, false, title);
    }

    /**
     * A summary column (median_ms, mb_per_s or ops_per_s) against a size (file_size, op_size or
     * buffer_size, log scale): one line per language and operation, each median's 95% interval as a band.
     * logY suits values spanning orders of magnitude (a buffer of 1 B against one of 1 MB).
     */
    public static Map<String, Object> lines(Results results, String sizeField, String column, boolean logY, String title) {
        return lines(results, false, sizeField, column, logY, title);
    }

    /** The same, one line per language and way of doing it (strategy and buffer) when byMethod is true. */
    public static Map<String, Object> lines(Results results, boolean byMethod, String sizeField, String column, boolean logY, String title) {
        List<Map<String, Object>> values = new ArrayList<>();
        for (Map<String, Object> row : results.summary()) {
            Map<String, Object> v = new LinkedHashMap<>(row);
            Estimate y = Estimate.ofCase(results, row, column);
            v.put("y", y.value());
            v.put("y_low", end(y.low()));
            v.put("y_high", end(y.high()));
            v.put("interval", intervalText(y));
            v.put("size", row.get(sizeField));
            v.put("who", byMethod ? row.get("language") + " " + row.get("method") : row.get("language"));
            v.put("series", v.get("who") + " " + row.get("op"));
            values.add(v);
        }
        String yTitle = TITLES.getOrDefault(column, column) + (logY ? " (log scale)" : "");
        // ticks at the sizes (or counts) measured, nowhere else: a log axis left to itself ticks at 146.484 KB
        List<Object> measured = values.stream().map(v -> v.get("size")).filter(java.util.Objects::nonNull).distinct()
                .sorted(java.util.Comparator.comparingDouble(v -> ((Number) v).doubleValue())).toList();
        // counts (1, 2, 4, … threads) on a log axis too: evenly spaced, and JupyterLab's Vega-Lite (5.6) draws a band
        // over a linear x and a log y as polygons across the series
        String xTitle = COUNTS.getOrDefault(sizeField, TITLES.getOrDefault(sizeField, sizeField)) + " (log scale)";
        Map<String, Object> x = Map.of("field", "size", "type", "quantitative", "scale", Map.of("type", "log", "base", 2), "title", xTitle,
                "axis", COUNTS.containsKey(sizeField) ? Map.of("values", measured, "format", "d") : Map.of("labelExpr", SIZE_LABELS, "values", measured));
        Map<String, Object> yScale = logY ? Map.of("type", "log") : Map.of("zero", true);
        // the legends show each line as drawn: its colour at full strength (not the pale band's), solid or dashed
        Map<String, Object> legend = Map.of("symbolType", "stroke", "symbolStrokeWidth", 2, "symbolOpacity", 1, "symbolSize", 300);
        Map<String, Object> color = byMethod ? Map.of("field", "who", "type", "nominal", "title", "language and way", "legend", legend)
                : Map.of("field", "who", "type", "nominal", "scale", LANGUAGE_COLORS, "title", "language", "legend", legend);
        Map<String, Object> dashLegend = with(legend, "encode", Map.of("symbols", Map.of("update", Map.of("stroke", Map.of("value", "#333")))));
        Map<String, Object> dash = Map.of("field", "op", "type", "nominal", "title", "operation", "legend", dashLegend);
        Map<String, Object> line = Map.of("mark", Map.of("type", "line", "point", true),
                "encoding", Map.of("x", x, "y", Map.of("field", "y", "type", "quantitative", "title", yTitle, "scale", yScale),
                        "color", color, "strokeDash", dash, "detail", Map.of("field", "series"),
                        "tooltip", List.of(Map.of("field", "series"), Map.of("field", "size", "title", "bytes"),
                                Map.of("field", "y", "format", ",.3~f", "title", yTitle), INTERVAL_TIP, Map.of("field", "runs"))));
        Map<String, Object> band = Map.of("mark", Map.of("type", "errorband", "opacity", 0.25), "transform", withInterval("y_low", "y_high"),
                "encoding", Map.of("x", x, "y", Map.of("field", "y_low", "type", "quantitative", "scale", yScale, "title", yTitle),
                        "y2", Map.of("field", "y_high"), "color", color, "detail", Map.of("field", "series")));
        List<Object> series = values.stream().map(v -> v.get("series")).distinct().toList();
        Map<String, Object> spec = described(spec(withBand(title), values, List.of(band, line)), title + ": " + yTitle + " against " + xTitle
                + ", a line each for " + join(series) + "; shaded bands are 95% intervals");
        return tabled(spec, List.of(column("who", byMethod ? "language and way" : "language"), column("op", "operation"),
                new ChartTable.Column("size", xTitle.replace(" (log scale)", ""), !COUNTS.containsKey(sizeField)), column("y", yTitle.replace(" (log scale)", "")),
                column("interval", "95% interval"), column("runs", "runs")));
    }

    /** What every band and whisker is, said under the chart's title. */
    static final String BAND = "band or whisker: 95% interval of the median (t over the rounds, as the verdicts)";

    private static Map<String, Object> withBand(String title) {
        return Map.of("text", title, "subtitle", BAND);
    }


    /** A mark's tooltip line for its interval, written out (a number format would print a missing end as NaN). */
    static final Map<String, Object> INTERVAL_TIP = Map.of("field", "interval", "title", "95% interval");

    /** An interval as a tooltip reads it: "1.21 to 1.37", or why there is none. */
    static String intervalText(Estimate e) {
        if (!e.hasInterval()) return "none (one round)";
        return String.format(Locale.ROOT, "%,.3g to %,.3g", e.low(), e.high());
    }

    /** A band or whisker layer's filter: only the marks whose interval exists (one round gives none). */
    static List<Map<String, Object>> withInterval(String low, String high) {
        return List.of(Map.of("filter", "isValid(datum." + low + ") && isValid(datum." + high + ")"));
    }

    /** An interval's end as chart data: null where there is no interval (one round), which JSON cannot hold as NaN. */
    private static Double end(double value) {
        return Double.isNaN(value) ? null : value;
    }

    /**
     * Adds a labelled horizontal line at y (a ceiling, a published figure) to a line chart; a NaN level (not
     * measured) adds nothing. The chart's levels are laid out anew with each one added: the y axis gets a
     * fixed domain, so that each label can be placed in pixels, just above its line, or moved down or up
     * just enough that no two labels overlap (their order kept).
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> withLevel(Map<String, Object> spec, double y, String label) {
        if (Double.isNaN(y)) return spec;
        List<Map<String, Object>> layers = new ArrayList<>(), levels = new ArrayList<>();
        for (Map<String, Object> layer : (List<Map<String, Object>>) spec.get("layer")) {
            if (LEVELS.equals(layer.get("name"))) levels.addAll((List<Map<String, Object>>) ((Map<String, Object>) layer.get("data")).get("values"));
            else if (!LEVEL_LABELS.equals(layer.get("name"))) layers.add(layer);
        }
        levels.add(Map.of("y", y, "label", label));
        boolean log = layers.stream().anyMatch(l -> logScale(l, "y"));
        double[] domain = LevelLayout.domain(spec, levels, log);
        int height = ((Number) spec.getOrDefault("height", 260)).intValue();
        List<Map<String, Object>> placed = LevelLayout.placeLabels(levels, domain, log, height, LABEL_FONT, LABEL_GAP);
        Map<String, Object> scale = log ? Map.of("type", "log", "domain", List.of(domain[0], domain[1]))
                : Map.of("domain", List.of(domain[0], domain[1]));
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map<String, Object> layer : layers) out.add(withYScale(layer, scale));
        out.add(Map.of("name", LEVELS, "data", Map.of("values", levels),
                "mark", Map.of("type", "rule", "strokeDash", List.of(6, 3), "color", "black"),
                "encoding", Map.of("y", Map.of("field", "y", "type", "quantitative", "scale", scale))));
        out.add(Map.of("name", LEVEL_LABELS, "data", Map.of("values", placed),
                "mark", Map.of("type", "text", "align", "left", "baseline", "bottom", "x", 4, "fontSize", LABEL_FONT),
                "encoding", Map.of("y", Map.of("field", "label_y", "type", "quantitative", "scale", scale), "text", Map.of("field", "label"))));
        Map<String, Object> result = new LinkedHashMap<>(spec);
        result.put("layer", out);
        // the text alternative says where the line is, as the chart shows it
        result.put("description", spec.get("description") + "; a dashed line across it at " + ChartTable.figure(y, false) + ": " + label);
        return result;
    }

    static final String LEVELS = "levels", LEVEL_LABELS = "level labels";

    /** Whether a layer's channel ("x" or "y") is drawn on a log scale. */
    private static boolean logScale(Map<String, Object> layer, String channel) {
        return layer.get("encoding") instanceof Map<?, ?> encoding && encoding.get(channel) instanceof Map<?, ?> field
                && field.get("scale") instanceof Map<?, ?> scale && "log".equals(scale.get("type"));
    }

    /** The layer with its y (and y2's) scale set to this one: every layer of a chart with levels shares one fixed domain. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> withYScale(Map<String, Object> layer, Map<String, Object> scale) {
        if (!(layer.get("encoding") instanceof Map<?, ?> encoding) || !(encoding.get("y") instanceof Map<?, ?> y)) return layer;
        Map<String, Object> newY = new LinkedHashMap<>((Map<String, Object>) y);
        newY.put("scale", scale);
        Map<String, Object> newEncoding = new LinkedHashMap<>((Map<String, Object>) encoding);
        newEncoding.put("y", newY);
        return with(layer, "encoding", newEncoding);
    }

    /**
     * Shades a range of the x axis (a published knee, more processes than cores) on a line chart, labelled at
     * the top, inside whichever of its edges leaves the label room (the left one, unless the range starts in
     * the right half of the chart); an empty range (to not above from) adds nothing.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> withRange(Map<String, Object> spec, double from, double to, String label) {
        if (!(to > from)) return spec;
        List<Double> xs = new ArrayList<>();
        if (spec.get("data") instanceof Map<?, ?> d && d.get("values") instanceof List<?> rows) {
            for (Object row : rows) if (row instanceof Map<?, ?> r && r.get("size") instanceof Number n) xs.add(n.doubleValue());
        }
        boolean log = ((List<Map<String, Object>>) spec.get("layer")).stream().anyMatch(l -> logScale(l, "x"));
        double lo = xs.stream().min(Double::compare).orElse(from), hi = xs.stream().max(Double::compare).orElse(to);
        double where = log ? Math.log(from / lo) / Math.log(hi / lo) : (from - lo) / (hi - lo);
        boolean right = where > 0.5;
        Map<String, Object> data = Map.of("values", List.of(Map.of("from", from, "to", to, "label", label)));
        List<Map<String, Object>> layers = new ArrayList<>();
        layers.add(Map.of("data", data, "mark", Map.of("type", "rect", "color", "#ffd43b", "opacity", 0.3),
                "encoding", Map.of("x", Map.of("field", "from", "type", "quantitative"), "x2", Map.of("field", "to"))));
        layers.add(Map.of("data", data, "mark", Map.of("type", "text", "align", right ? "right" : "left", "baseline", "top", "y", 4,
                        "dx", right ? -3 : 3, "fontSize", LABEL_FONT),
                "encoding", Map.of("x", Map.of("field", right ? "to" : "from", "type", "quantitative"), "text", Map.of("field", "label"))));
        layers.addAll((List<Map<String, Object>>) spec.get("layer"));
        Map<String, Object> out = new LinkedHashMap<>(spec);
        out.put("layer", layers);
        boolean bytes = ChartTable.countsBytes(spec, "size");
        out.put("description", spec.get("description") + "; shaded from " + ChartTable.figure(from, bytes) + " to " + ChartTable.figure(to, bytes) + ": " + label);
        return out;
    }

    /**
     * Throughput per way of doing the work ("method": strategy and buffer size), Java and C side by
     * side, one panel per operation, on a log scale: for comparing strategies that differ a hundredfold
     * (MB/s rather than time, so that a slow way may run on a smaller file).
     */
    public static Map<String, Object> methodBars(Results results, String title) {
        List<Map<String, Object>> values = new ArrayList<>();
        // one bar per language, or per runtime where one language ran on several (JDK 17 and 25, say)
        Map<Object, Long> runtimes = results.summary().stream().map(r -> List.of(String.valueOf(r.get("language")), String.valueOf(r.get("runtime"))))
                .distinct().collect(java.util.stream.Collectors.groupingBy(pair -> pair.get(0), java.util.stream.Collectors.counting()));
        for (Map<String, Object> row : results.summary()) {
            Map<String, Object> v = new LinkedHashMap<>(row);
            boolean several = runtimes.get(String.valueOf(row.get("language"))) > 1;
            v.put("who", several ? row.get("runtime") : row.get("language"));
            Estimate rate = Estimate.ofCase(results, row, "mb_per_s");
            v.put("low", end(rate.low()));
            v.put("high", end(rate.high()));
            v.put("interval", intervalText(rate));
            values.add(v);
        }
        boolean byRuntime = values.stream().map(v -> v.get("who")).distinct().count() > 2;
        Map<String, Object> x = Map.of("field", "method", "type", "nominal", "title", "", "axis", Map.of("labelAngle", -30),
                "sort", values.stream().map(v -> v.get("method")).distinct().toList());
        // stack false: a stacked bar starts at zero, which a log scale cannot place (the whole chart comes out blank)
        Map<String, Object> y = Map.of("field", "mb_per_s", "type", "quantitative", "title", "MB per second (log scale)",
                "scale", Map.of("type", "log"), "stack", false);
        Map<String, Object> color = byRuntime ? Map.of("field", "who", "type", "nominal", "title", "runtime")
                : Map.of("field", "who", "type", "nominal", "scale", LANGUAGE_COLORS, "title", "language");
        Map<String, Object> bars = Map.of("mark", "bar", "encoding", Map.of("x", x, "xOffset", Map.of("field", "who"), "y", y, "color", color,
                "tooltip", List.of(Map.of("field", "runtime"), Map.of("field", "method"), Map.of("field", "op"),
                        Map.of("field", "mb_per_s", "format", ",.1f", "title", "MB/s (median run)"),
                        INTERVAL_TIP,
                        Map.of("field", "runs"), Map.of("field", "file_size", "title", "file bytes"))));
        // a case without an interval (one round) gets no whisker: a rule without ends is drawn at NaN
        Map<String, Object> whiskers = Map.of("mark", Map.of("type", "rule", "color", "black"), "transform", withInterval("low", "high"), "encoding", Map.of("x", x, "xOffset", Map.of("field", "who"),
                "y", Map.of("field", "low", "type", "quantitative", "scale", Map.of("type", "log")), "y2", Map.of("field", "high")));
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("$schema", SCHEMA);
        spec.put("title", withBand(title));
        spec.put("description", title + ": MB per second (log scale) for each way, " + (byRuntime ? "one bar per runtime" : "Java and C side by side")
                + ", writes and reads in two panels, with 95% intervals: " + join(values.stream().map(v -> v.get("method")).distinct().toList()));
        spec.put("data", Map.of("values", values));
        spec.put("facet", Map.of("column", Map.of("field", "op", "type", "nominal", "title", "operation", "sort", List.of("write", "read"))));
        spec.put("spec", Map.of("width", 220, "height", 260, "layer", List.of(bars, whiskers)));
        spec.put("config", CONFIG);
        return tabled(spec, List.of(column("who", byRuntime ? "runtime" : "language"), column("method", "way"), column("op", "operation"),
                column("mb_per_s", "MB per second (median run)"), column("interval", "95% interval"), column("runs", "runs")));
    }

    /**
     * Throughput per operation (or per way, where the results hold several), warm and cold page cache side by
     * side: the disk's ceiling; runs that bypass the page cache (raw_io's o-direct strategy, lab 10) stand
     * beside them as a third bar.
     */
    public static Map<String, Object> throughputBars(Results results, String title) {
        List<Map<String, Object>> values = new ArrayList<>();
        List<Map<String, Object>> summary = results.summary();
        // several ways through the cache (mapped_file's): a bar per way, else a bar per operation
        boolean byMethod = summary.stream().map(row -> row.get("strategy")).filter(s -> !"o-direct".equals(s)).distinct().count() > 1;
        for (Map<String, Object> row : summary) {
            Map<String, Object> v = new LinkedHashMap<>(row);
            v.put("case", row.get("language") + " " + (byMethod ? row.get("method") : row.get("op")));
            boolean held = "cold".equals(row.get("cache")) && row.get("resident_pct") instanceof Double pct && pct > Results.EVICTION_FAILED_PCT;
            v.put("cache", "o-direct".equals(row.get("strategy")) ? BYPASSED : held ? STILL_CACHED : row.get("cache"));
            values.add(v);
        }
        int longest = values.stream().mapToInt(v -> v.get("case").toString().length()).max().orElse(0);
        // warm and cold always, the others where some run was so, in the legend's order
        List<String> caches = CACHE_COLOURS.keySet().stream().filter(c -> c.equals("warm") || c.equals("cold")
                || values.stream().anyMatch(v -> c.equals(v.get("cache")))).toList();
        Map<String, Object> bars = Map.of("mark", "bar", "encoding", Map.of(
                "x", Map.of("field", "case", "type", "nominal", "title", "", "axis", Map.of("labelAngle", longest > LEVEL_LABEL ? -30 : 0)),
                "xOffset", Map.of("field", "cache"),
                "y", Map.of("field", "mb_per_s", "type", "quantitative", "title", "MB per second (median)"),
                "color", Map.of("field", "cache", "type", "nominal", "title", "page cache",
                        "scale", Map.of("domain", caches, "range", caches.stream().map(CACHE_COLOURS::get).toList())),
                "tooltip", List.of(Map.of("field", "case"), Map.of("field", "cache"), Map.of("field", "mb_per_s", "format", ",.0f"))));
        return tabled(described(spec(title, values, List.of(bars)), title + ": MB per second (median) for " + join(values.stream().map(v -> v.get("case")).distinct().toList())
                + ", warm and cold page cache (and bypassed, where a run bypassed it) side by side"
                + (caches.contains(STILL_CACHED) ? "; a cold case that found its file still cached is marked so" : "")),
                List.of(column("case", "case"), column("cache", "page cache"), column("mb_per_s", "MB per second (median)")));
    }

    /** How throughputBars names cold runs whose file eviction left in the page cache (a mapping held it): warm figures. */
    static final String STILL_CACHED = "cold, yet cached";

    /** The longest bar label referenceBars sets level (longer ones are slanted). */
    static final int LEVEL_LABEL = 14;

    /** How throughputBars names runs that did not go through the page cache. */
    static final String BYPASSED = "bypassed (O_DIRECT)";

    /** throughputBars' colours, in the legend's order. */
    static final Map<String, String> CACHE_COLOURS = new LinkedHashMap<>();

    static {
        CACHE_COLOURS.put("warm", "#b07d00");
        CACHE_COLOURS.put("cold", "#0072b2");
        CACHE_COLOURS.put(STILL_CACHED, "#666666");
        CACHE_COLOURS.put(BYPASSED, "#009e73");
    }

    /** Each measured run's time by run index: the JIT's warm-up shows as early Java runs that take longer. */
    public static Map<String, Object> perRun(Results results, String title) {
        List<Map<String, Object>> values = new ArrayList<>();
        for (Run run : results.typed()) values.add(Map.of("run", run.run() + 1, "language", run.language(), "ms", run.elapsedNs() / 1e6));
        Map<String, Object> lines = Map.of("mark", Map.of("type", "line", "point", true), "encoding", Map.of(
                "x", Map.of("field", "run", "type", "ordinal", "title", "run (in order)", "axis", Map.of("labelAngle", 0)),
                "y", Map.of("field", "ms", "type", "quantitative", "title", "elapsed (ms)", "scale", Map.of("zero", true)),
                "color", Map.of("field", "language", "type", "nominal", "scale", LANGUAGE_COLORS)));
        return tabled(described(spec(title, values, List.of(lines)), title + ": each measured run's time in milliseconds, in the order they ran, a line per language"),
                List.of(column("run", "run"), column("language", "language"), column("ms", "elapsed (ms)")));
    }

    public static Map<String, Object> spec(Object title, List<Map<String, Object>> values, List<Map<String, Object>> layers) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("$schema", SCHEMA);
        spec.put("title", title);
        spec.put("description", title instanceof Map<?, ?> t ? t.get("text") : title);
        spec.put("width", 460);
        spec.put("height", 260);
        spec.put("data", Map.of("values", values));
        spec.put("layer", layers);
        spec.put("config", CONFIG);
        return spec;
    }

    /**
     * Every chart on white with dark text, whichever JupyterLab theme draws it (its dark theme asks Vega for a dark one,
     * which a chart's own configuration overrides): the marks' colours hold their contrast in both.
     */
    static final Map<String, Object> CONFIG = Map.of("range", Map.of("category", PALETTE), "background", "white",
            "title", Map.of("color", INK, "subtitleColor", INK),
            "style", Map.of("guide-label", Map.of("fill", INK), "guide-title", Map.of("fill", INK)),
            "axis", Map.of("labelColor", INK, "titleColor", INK, "domainColor", "#888888", "tickColor", "#888888", "gridColor", "#dddddd"),
            "legend", Map.of("labelColor", INK, "titleColor", INK), "header", Map.of("labelColor", INK, "titleColor", INK),
            "text", Map.of("color", INK), "view", Map.of("stroke", "#dddddd"));

    /**
     * The chart's one-line text alternative (Vega-Lite's description: what a screen reader says, and what the
     * notebook keeps as plain text): what is drawn against what, and for which series.
     */
    static Map<String, Object> described(Map<String, Object> spec, String description) {
        spec.put("description", description);
        return spec;
    }

    /** "a, b and c". */
    static String join(List<?> items) {
        List<String> words = items.stream().map(String::valueOf).toList();
        if (words.size() <= 1) return String.join("", words);
        return String.join(", ", words.subList(0, words.size() - 1)) + " and " + words.get(words.size() - 1);
    }

    static Map<String, Object> with(Map<String, Object> m, String key, Object value) {
        Map<String, Object> copy = new LinkedHashMap<>(m);
        copy.put(key, value);
        return copy;
    }
}
