package course.show;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a chart's levels (Charts.withLevel: a ceiling, a published figure) and their labels go: the y axis's fixed
 * domain, and each label's place in pixels, just above its line or moved just enough that no two overlap.
 */
final class LevelLayout {
    private LevelLayout() {
    }

    /** The y axis's range: whole powers of ten on a log scale; from zero to a round figure on a linear one. */
    @SuppressWarnings("unchecked")
    static double[] domain(Map<String, Object> spec, List<Map<String, Object>> levels, boolean log) {
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        List<Map<String, Object>> rows = new ArrayList<>(levels);
        if (spec.get("data") instanceof Map<?, ?> data && data.get("values") instanceof List<?> values) rows.addAll((List<Map<String, Object>>) values);
        for (Map<String, Object> row : rows) {
            for (String field : List.of("y", "y_low", "y_high")) {
                if (row.get(field) instanceof Number n && Double.isFinite(n.doubleValue()) && (!log || n.doubleValue() > 0)) {
                    lo = Math.min(lo, n.doubleValue());
                    hi = Math.max(hi, n.doubleValue());
                }
            }
        }
        if (log) return new double[] {Math.pow(10, Math.floor(Math.log10(lo))), Math.pow(10, Math.ceil(Math.log10(hi) + 1e-9))};
        double step = Math.pow(10, Math.floor(Math.log10(hi))) / 2;
        return new double[] {0, Math.ceil(hi * 1.02 / step) * step};
    }

    /**
     * Each level with label_y: where its label's baseline goes, in data units, for labels font pixels high and gap pixels
     * apart. Bottom to top, a label sits 2 px above its line, or higher where the label below it needs the room (so a
     * label never crosses its own line); if the top ones run off the chart, they are pushed back down.
     */
    static List<Map<String, Object>> placeLabels(List<Map<String, Object>> levels, double[] domain, boolean log, int height, int font, int gap) {
        java.util.function.DoubleUnaryOperator toPx = v -> height * (1 - fraction(v, domain, log));
        java.util.function.DoubleUnaryOperator fromPx = px -> {
            double t = 1 - px / height;
            return log ? Math.pow(10, Math.log10(domain[0]) + t * (Math.log10(domain[1]) - Math.log10(domain[0])))
                    : domain[0] + t * (domain[1] - domain[0]);
        };
        List<Map<String, Object>> sorted = new ArrayList<>(levels);
        sorted.sort(java.util.Comparator.comparingDouble(l -> toPx.applyAsDouble(((Number) l.get("y")).doubleValue())));
        double[] px = new double[sorted.size()];
        for (int i = px.length - 1; i >= 0; i--) {
            double own = toPx.applyAsDouble(((Number) sorted.get(i).get("y")).doubleValue()) - 2;
            px[i] = Math.min(Math.min(own, height), i == px.length - 1 ? Double.POSITIVE_INFINITY : px[i + 1] - gap);
        }
        for (int i = 0; i < px.length; i++) px[i] = Math.max(px[i], i == 0 ? font : px[i - 1] + gap);
        List<Map<String, Object>> placed = new ArrayList<>();
        for (int i = 0; i < px.length; i++) {
            Map<String, Object> label = new java.util.LinkedHashMap<>(sorted.get(i));
            label.put("label_y", fromPx.applyAsDouble(px[i]));
            placed.add(label);
        }
        return placed;
    }

    /** Where v lies on the axis, from 0 at the bottom of the domain to 1 at its top. */
    private static double fraction(double v, double[] domain, boolean log) {
        return log ? (Math.log10(v) - Math.log10(domain[0])) / (Math.log10(domain[1]) - Math.log10(domain[0]))
                : (v - domain[0]) / (domain[1] - domain[0]);
    }
}
