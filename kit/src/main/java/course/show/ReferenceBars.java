package course.show;

import static course.show.ChartTable.column;
import static course.show.ChartTable.tabled;
import static course.show.Charts.BAND;
import static course.show.Charts.INTERVAL_TIP;
import static course.show.Charts.LABEL_FONT;
import static course.show.Charts.LEVEL_LABEL;
import static course.show.Charts.TICK;
import static course.show.Charts.described;
import static course.show.Charts.intervalText;
import static course.show.Charts.join;
import static course.show.Charts.spec;
import static course.show.Charts.with;

import course.judge.Estimate;
import course.judge.Published;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Bars of what this machine measured beside the studies' figures as black ticks, each numbered by its source: ratios
 * (ratioBars), time cuts in percent (cutBars) and values over orders of magnitude (logBars), their bars made with bar
 * and their ticks with reference, cutReference or mark.
 */
public final class ReferenceBars {
    private ReferenceBars() {
    }

    /** A bar of a measured value for ratioBars, cutBars or logBars, with its 95% interval as a whisker. */
    public static Map<String, Object> bar(String label, Estimate value) {
        Map<String, Object> bar = new LinkedHashMap<>(Map.of("label", label, "value", value.value(), "interval", intervalText(value)));
        if (!Double.isNaN(value.low()) && value.low() != value.high()) {
            bar.put("low", value.low());
            bar.put("high", value.high());
        }
        return bar;
    }

    /** A published reference mark for ratioBars, with its citation. */
    public static Map<String, Object> reference(String label, Published.Claim claim) {
        return mark(label, claim.asRatio(), claim.source() + " " + claim.where());
    }

    /**
     * A reference mark computed from published figures (one table value over another, say); the
     * citation must name where both come from.
     */
    public static Map<String, Object> mark(String label, double value, String citation) {
        return new LinkedHashMap<>(Map.of("label", label, "value", value, "citation", citation));
    }

    /** A published cut (in %) as a reference mark for cutBars, with its citation. */
    public static Map<String, Object> cutReference(String label, Published.Claim claim) {
        return mark(label, claim.value(), claim.source() + " " + claim.where());
    }

    /**
     * Measured ratios as bars, each with the study's figure as a black tick and its citation:
     * one bar per label (e.g. "seq write"), one tick per published claim that applies to it.
     */
    public static Map<String, Object> ratioBars(List<Map<String, Object>> measured, List<Map<String, Object>> published,
                                                String yTitle, String title) {
        return referenceBars(measured, published, yTitle, title, 1, ".2f");
    }

    /**
     * Measured time cuts in percent (100 × (1 − new time ÷ old time)) as bars, with the study's cuts as
     * black ticks (made with cutReference); the dashed line at 0 is "no faster".
     */
    public static Map<String, Object> cutBars(List<Map<String, Object>> measured, List<Map<String, Object>> published,
                                              String title) {
        return referenceBars(measured, published, "time saved (%)", title, 0, ".1f");
    }

    /**
     * Measured values (MB/s, say) as bars on a log scale, with the studies' figures as black ticks
     * (made with reference): for figures that span orders of magnitude.
     */
    public static Map<String, Object> logBars(List<Map<String, Object>> measured, List<Map<String, Object>> published,
                                              String yTitle, String title) {
        return referenceBars(measured, published, yTitle + " (log scale)", title, Double.NaN, ",.4~g");
    }

    private static Map<String, Object> referenceBars(List<Map<String, Object>> measured, List<Map<String, Object>> published,
                                                     String yTitle, String title, double baseline, String format) {
        boolean log = Double.isNaN(baseline);
        List<Map<String, Object>> values = new ArrayList<>();
        measured.forEach(m -> values.add(with(m, "kind", "measured here")));
        // each source gets a number, written beside its ticks and spelled out under the title: whole citations
        // beside the ticks ran into each other and over the bars; a bar's second tick of one source is not numbered again
        // (two sources' ticks on one bar are numbered on alternate sides, so that ticks at one height keep their numbers apart)
        Map<Object, Integer> numbers = new LinkedHashMap<>();
        java.util.Set<List<Object>> numbered = new java.util.HashSet<>();
        Map<Object, Integer> perBar = new java.util.HashMap<>();
        for (Map<String, Object> p : published) {
            int n = numbers.computeIfAbsent(p.get("citation"), c -> numbers.size() + 1);
            boolean first = numbered.add(List.of(p.get("label"), p.get("citation")));
            String side = first && perBar.merge(p.get("label"), 1, Integer::sum) % 2 == 0 ? "left" : "right";
            values.add(with(with(with(with(p, "kind", "published"), "labelled", first), "number", String.valueOf(n)), "side", side));
        }
        // labels longer than a bar is wide are slanted, as methodBars' are, or neighbours run into each other
        int longest = values.stream().mapToInt(v -> String.valueOf(v.get("label")).length()).max().orElse(0);
        Map<String, Object> x = Map.of("field", "label", "type", "nominal", "title", "", "axis", Map.of("labelAngle", longest > LEVEL_LABEL ? -30 : 0),
                "sort", values.stream().map(v -> v.get("label")).distinct().toList());
        Map<String, Object> y = log ? Map.of("field", "value", "type", "quantitative", "title", yTitle, "scale", Map.of("type", "log"), "stack", false)
                : Map.of("field", "value", "type", "quantitative", "title", yTitle);
        Map<String, Object> bars = Map.of("transform", List.of(Map.of("filter", "datum.kind == 'measured here'")),
                "mark", Map.of("type", "bar", "color", "#1c7ed6", "width", Map.of("band", 0.6)),
                "encoding", Map.of("x", x, "y", y, "tooltip", List.of(Map.of("field", "label"),
                        Map.of("field", "value", "format", format, "title", "measured"), INTERVAL_TIP)));
        Map<String, Object> whiskers = Map.of("transform", List.of(Map.of("filter", "datum.kind == 'measured here' && isValid(datum.low)")),
                "mark", Map.of("type", "rule", "color", "#0b3d73", "strokeWidth", 1.5),
                "encoding", Map.of("x", x, "y", with(y, "field", "low"), "y2", Map.of("field", "high")));
        Map<String, Object> ticks = Map.of("transform", List.of(Map.of("filter", "datum.kind == 'published'")),
                "mark", Map.of("type", "tick", "color", "black", "thickness", 3, "size", TICK),
                "encoding", Map.of("x", x, "y", y, "tooltip", List.of(Map.of("field", "label"),
                        Map.of("field", "value", "title", "published"), Map.of("field", "citation"))));
        Map<String, Object> base = Map.of("data", Map.of("values", List.of(Map.of("base", baseline))),
                "mark", Map.of("type", "rule", "strokeDash", List.of(4, 4), "color", "gray"),
                "encoding", Map.of("y", Map.of("field", "base", "type", "quantitative")));
        boolean intervals = measured.stream().anyMatch(m -> m.containsKey("low"));
        List<Map<String, Object>> layers = new ArrayList<>(List.of(bars));
        if (intervals) layers.add(whiskers);
        layers.addAll(List.of(ticks, tickNumbers("right", x, y), tickNumbers("left", x, y)));
        if (!log) layers.add(base);
        List<String> sources = numbers.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).toList();
        List<String> subtitle = new ArrayList<>();
        if (intervals) subtitle.add(BAND);
        String line = "black ticks, the studies' figures:";
        for (int i = 0; i < sources.size(); i++) {  // in lines of at most about 90 characters
            String entry = sources.get(i) + (i < sources.size() - 1 ? " ·" : "");
            if (line.length() + entry.length() > 90) {
                subtitle.add(line);
                line = entry;
            } else {
                line += " " + entry;
            }
        }
        if (!sources.isEmpty()) subtitle.add(line);
        Map<String, Object> spec = described(spec(Map.of("text", title, "subtitle", subtitle), values, layers), title + ": " + yTitle
                + ", measured here (bars" + (intervals ? ", with 95% intervals" : "") + ") beside the studies' figures (black ticks): "
                + String.join("; ", measured.stream().map(m -> standing(m, published)).toList()));
        return tabled(spec, List.of(column("kind", "whose"), column("label", "bar"), column("value", yTitle.replace(" (log scale)", "")),
                column("interval", "95% interval"), column("citation", "source")));
    }

    /** Where one bar stands against the studies' figures for it, in words: "seq write 3.1 here (2.9 to 3.3) against 2.5 in Xu and Guo Table 3". */
    private static String standing(Map<String, Object> bar, List<Map<String, Object>> published) {
        List<String> theirs = published.stream().filter(p -> p.get("label").equals(bar.get("label")))
                .map(p -> figure(p.get("value")) + " in " + p.get("citation")).toList();
        return bar.get("label") + " " + figure(bar.get("value")) + " here" + (bar.containsKey("low") ? " (" + bar.get("interval") + ")" : "")
                + (theirs.isEmpty() ? "" : " against " + join(theirs));
    }

    private static String figure(Object value) {
        return value instanceof Number n ? String.format(Locale.ROOT, "%,.3g", n.doubleValue()) : String.valueOf(value);
    }

    /** The numbers of the ticks numbered on one side ("right" or "left") of their tick, just clear of it. */
    private static Map<String, Object> tickNumbers(String side, Map<String, Object> x, Map<String, Object> y) {
        boolean right = side.equals("right");
        return Map.of("transform", List.of(Map.of("filter", "datum.kind == 'published' && datum.labelled && datum.side == '" + side + "'")),
                "mark", Map.of("type", "text", "dx", (right ? 1 : -1) * (TICK / 2 + 3), "align", right ? "left" : "right", "baseline", "middle",
                        "fontSize", LABEL_FONT, "fontWeight", "bold"),
                "encoding", Map.of("x", x, "y", y, "text", Map.of("field", "number")));
    }
}
