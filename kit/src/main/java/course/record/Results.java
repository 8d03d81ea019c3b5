package course.record;

import com.google.gson.JsonObject;
import course.base.Course;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/** The measured runs (one JSON object per run, as the harnesses print them) and their summaries. */
public final class Results {
    /** The fields that name a case (x-case in data/results.schema.json); runs of one case differ only in run index and timings. */
    public static final List<String> CASE = Schema.results().runFields("x-case");

    private final List<JsonObject> runs;
    /** The runs grouped by case, in the order cases first appear; worked out once, when first asked for. */
    private List<List<JsonObject>> cases;
    /** summary(), worked out when first asked for. */
    private List<Map<String, Object>> summary;

    public Results(List<JsonObject> runs) {
        this.runs = List.copyOf(runs);
    }

    private List<List<JsonObject>> cases() {
        if (cases == null) {
            Map<String, List<JsonObject>> byCase = new LinkedHashMap<>();
            for (JsonObject r : runs) byCase.computeIfAbsent(Matching.key(r, CASE), k -> new ArrayList<>()).add(r);
            cases = List.copyOf(byCase.values());
        }
        return cases;
    }

    public List<JsonObject> runs() {
        return runs;
    }

    /** The runs, typed (run.elapsedNs() rather than run.get("elapsed_ns").getAsLong()). */
    public List<Run> typed() {
        return runs.stream().map(Run::new).toList();
    }

    public Results where(Predicate<JsonObject> keep) {
        return new Results(runs.stream().filter(keep).toList());
    }

    public Results where(String field, String value) {
        known(field);
        return where(r -> r.has(field) && !r.get(field).isJsonNull() && r.get(field).getAsString().equals(value));
    }

    /** The runs of one way of doing the work, as the summary and the charts name it ("stream 1k", "view-direct locked"). */
    public Results method(String method) {
        return where(r -> method(r).equals(method));
    }

    /** A run's way of doing the work: its strategy, with its buffer's size and its lock where it has them. */
    public static String method(JsonObject json) {
        Run run = new Run(json);
        return run.strategy() + (run.bufferSize() > 0 ? " " + Course.formatSize(run.bufferSize()) : "") + ("region".equals(run.lock()) ? " locked" : "");
    }

    /** The runs whose numeric field (a size, a count) is value. */
    public Results where(String field, long value) {
        known(field);
        return where(r -> r.get(field).getAsLong() == value);
    }

    /** The runs whose numeric field is any of these values (say 1 thread and the most). */
    public Results whereIn(String field, long... values) {
        known(field);
        return where(r -> java.util.Arrays.stream(values).anyMatch(v -> v == r.get(field).getAsLong()));
    }

    /** The runs whose numeric field is larger than value (buffers past the 1 KB knee). */
    public Results above(String field, long value) {
        known(field);
        return where(r -> r.get(field).getAsLong() > value);
    }

    /** The runs whose numeric field is value or larger. */
    public Results atLeast(String field, long value) {
        known(field);
        return where(r -> r.get(field).getAsLong() >= value);
    }

    /** The runs whose numeric field is smaller than value. */
    public Results below(String field, long value) {
        known(field);
        return where(r -> r.get(field).getAsLong() < value);
    }

    /** A field a run record has (data/results.schema.json), else one line naming those it has: a typo never reads as null. */
    private static void known(String field) {
        List<String> fields = Schema.results().runFields();
        if (!fields.contains(field)) throw new IllegalArgumentException("a run has no field " + field + "; it has " + String.join(", ", fields));
    }

    /** The rounds these runs were made in (Sweep numbers them from 1; runs saved before rounds were recorded are all round 0). */
    public java.util.SortedSet<Integer> rounds() {
        java.util.SortedSet<Integer> out = new java.util.TreeSet<>();
        for (JsonObject r : runs) out.add(new Run(r).round());
        return out;
    }

    /** The runs of one round: every case once, each in its own process (Estimate's interval is built from these). */
    public Results inRound(int round) {
        return where(r -> new Run(r).round() == round);
    }

    /** These runs and those of another sweep, as one set (to compare, say, unbuffered with buffered runs). */
    public Results and(Results other) {
        List<JsonObject> all = new ArrayList<>(runs);
        all.addAll(other.runs);
        return new Results(all);
    }

    /**
     * For each piece of work (language, op, pattern, cache, sizes), only the runs of its fastest case.
     * Fields named in mayDiffer (say "op_size") do not set pieces of work apart: the fastest across them wins.
     */
    public Results fastest(String... mayDiffer) {
        List<String> work = Matching.workload(mayDiffer);
        Map<String, Map<String, Object>> best = new LinkedHashMap<>();
        for (Map<String, Object> row : summary()) {
            String piece = Matching.key(row, work);
            Map<String, Object> seen = best.get(piece);
            if (seen == null || (Double) row.get("median_ms") < (Double) seen.get("median_ms")) best.put(piece, row);
        }
        return where(r -> {
            Map<String, Object> row = best.get(Matching.key(r, work));
            return row != null && Matching.key(r, CASE).equals(Matching.key(row, CASE));
        });
    }

    /** One row per case: median time with its spread (min, max), rates from the median. Worked out once; read-only. */
    public List<Map<String, Object>> summary() {
        if (summary == null) summary = List.copyOf(cases().stream().map(g -> CaseRow.of(g, CASE, method(g.get(0)))).map(Collections::unmodifiableMap).toList());
        return summary;
    }

    /** The runs of the case a summary row stands for (same snippet, language, strategy, sizes, …). */
    public Results sameCase(Map<String, Object> row) {
        return where(r -> Matching.key(r, CASE).equals(Matching.key(row, CASE)));
    }

    /**
     * How many times longer language a takes than language b: the geometric mean, over the cases
     * both ran, of median time a / median time b. Above 1 means a is slower.
     */
    public double ratio(String a, String b) {
        return ratio(a, b, "median_ms");
    }

    /** The same ratio for another summary column (cpu_ns_per_op compares CPU cost per operation). */
    public double ratio(String a, String b, String column) {
        List<String> matched = CASE.stream().filter(f -> !f.equals("language") && !f.equals("runtime")).toList();
        return Matching.geometricMeanRatio(where("language", a).keyed(matched, column), where("language", b).keyed(matched, column),
                "no case was run in both " + a + " and " + b);
    }

    /**
     * How many times longer these runs take than other runs of the same work (matched on language, op,
     * pattern, cache and sizes; the way of doing it may differ): the geometric mean of the median-time
     * ratios. Below 1 these are faster; 1 minus it is the share of time they save.
     */
    public double ratioTo(Results other) {
        return ratioTo(other, "median_ms");
    }

    /** The smallest ratioTo(other) among these runs' strategies, each on its own: the best of several ways against one. */
    public double bestStrategyRatioTo(Results other) {
        return runs.stream().map(r -> r.get("strategy").getAsString()).distinct()
                .mapToDouble(s -> where("strategy", s).ratioTo(other)).min().orElse(Double.NaN);
    }

    /** The same for another summary column; fields named in mayDiffer (say "op_size") are not matched. */
    public double ratioTo(Results other, String column, String... mayDiffer) {
        List<String> work = Matching.workload(mayDiffer);
        return Matching.geometricMeanRatio(keyed(work, column), other.keyed(work, column), "no piece of work was run in both sets of results");
    }

    /**
     * Each case's value of a summary column, with the key its matching fields make (several cases may share a key);
     * NaN where the case has none (CPU time too short to register).
     */
    private List<Map.Entry<String, Double>> keyed(List<String> fields, String column) {
        return summary().stream().map(row -> Map.entry(Matching.key(row, fields), row.get(column) instanceof Number v ? v.doubleValue() : Double.NaN)).toList();
    }

    /**
     * The share of time per byte these runs save over other runs of the same work, in percent:
     * 100 × (1 − my time per byte ÷ theirs), from the geometric mean of the MB/s ratios. File sizes may
     * differ (per byte, a long unbuffered run compares with a short buffered one), as may the fields
     * named in mayDiffer. Negative when these runs are slower.
     */
    public double cut(Results other, String... mayDiffer) {
        List<String> differ = new ArrayList<>(List.of(mayDiffer));
        if (!differ.contains("file_size")) differ.add("file_size");
        return 100 * (1 - 1 / ratioTo(other, "mb_per_s", differ.toArray(String[]::new)));
    }

    /** Only the runs of these strategies (say the two view buffers). */
    public Results strategies(String... names) {
        List<String> wanted = List.of(names);
        return where(r -> wanted.contains(r.get("strategy").getAsString()));
    }

    /** Each strategy's median of a summary column over its cases, e.g. medianByStrategy("mb_per_s").get("bytes"). */
    public Map<String, Double> medianByStrategy(String column) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (JsonObject r : runs) out.computeIfAbsent(r.get("strategy").getAsString(), s -> strategies(s).median(column));
        return out;
    }

    /** The highest of the strategies' medians of a summary column (the best way's MB/s, say, or the least steady way's spread); NaN when there is none. */
    public double highestStrategyMedian(String column) {
        return medianByStrategy(column).values().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    /**
     * How many times the study's aggregate bandwidth (bytes over the mean of the threads' or processes' own times) is the
     * wall clock's (bytes over the span from the first start to the last end): medians over the cases. Above 1 it overstates.
     */
    public double studyOverWall() {
        return median("study_mb_per_s", r -> true) / median("wall_mb_per_s", r -> true);
    }

    /** The strategy with the highest median of a summary column (the fastest way by MB/s, say); "" when there is none. */
    public String strategyWithHighestMedian(String column) {
        return medianByStrategy(column).entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse("");
    }

    /** The lowest of the strategies' medians of a summary column; NaN when there is none. */
    public double lowestStrategyMedian(String column) {
        return medianByStrategy(column).values().stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    /**
     * How far behind the fastest way this strategy fell where it fell furthest: the largest, over the pieces of work
     * it shared with other strategies, of its median time over the fastest one's there (1: never behind). A way that
     * is steady across operations and thread counts keeps this small. NaN when it shared no piece of work.
     */
    public double worstStanding(String strategy) {
        List<String> work = Matching.workload();
        List<Map<String, Object>> rows = summary();
        double worst = Double.NaN;
        for (Map<String, Object> mine : rows) {
            if (!strategy.equals(mine.get("strategy"))) continue;
            double time = ((Number) mine.get("median_ms")).doubleValue();
            double fastest = rows.stream().filter(r -> Matching.key(r, work).equals(Matching.key(mine, work)))
                    .mapToDouble(r -> ((Number) r.get("median_ms")).doubleValue()).min().getAsDouble();
            if (rows.stream().noneMatch(r -> r != mine && Matching.key(r, work).equals(Matching.key(mine, work)))) continue;  // done alone: no standing
            worst = Double.isNaN(worst) ? time / fastest : Math.max(worst, time / fastest);
        }
        return worst;
    }

    /**
     * How clearly a strategy's standing is mixed: the smaller of its best lead (the fastest other strategy's
     * median time over its own, in the piece of work where that is largest) and its worst lag (its time over
     * the slowest other's, where that is largest). Above 1, it was the fastest somewhere and the slowest
     * somewhere else; below 1, it never was one of the two. A piece of work is a same language, operation,
     * threads, sizes...; one the strategy did alone counts for neither. NaN when no piece has another strategy.
     */
    public double mixedStanding(String strategy) {
        List<String> work = Matching.workload();
        List<Map<String, Object>> rows = summary();
        double lead = Double.NaN, lag = Double.NaN;
        for (Map<String, Object> mine : rows) {
            if (!strategy.equals(mine.get("strategy"))) continue;
            double time = ((Number) mine.get("median_ms")).doubleValue();
            List<Double> others = rows.stream().filter(r -> r != mine && Matching.key(r, work).equals(Matching.key(mine, work)))
                    .map(r -> ((Number) r.get("median_ms")).doubleValue()).toList();
            if (others.isEmpty()) continue;
            double fastestOther = others.stream().mapToDouble(Double::doubleValue).min().getAsDouble();
            double slowestOther = others.stream().mapToDouble(Double::doubleValue).max().getAsDouble();
            lead = Double.isNaN(lead) ? fastestOther / time : Math.max(lead, fastestOther / time);
            lag = Double.isNaN(lag) ? time / slowestOther : Math.max(lag, time / slowestOther);
        }
        return Math.min(lead, lag);
    }

    /** The Java runtimes these runs ran on ("java 17.0.15", "java 25.0.3"), each once, oldest first. */
    public List<String> javaRuntimes() {
        return typed().stream().filter(r -> r.language().equals("java")).map(Run::runtime).distinct().sorted(OLDEST_FIRST).toList();
    }

    /** Java runtimes as runs record them ("java 17.0.15"), the oldest release first. */
    public static final java.util.Comparator<String> OLDEST_FIRST = java.util.Comparator.comparing(Results::version);

    /** The feature release of a Java runtime as runs record it: "java 17.0.15" is 17. */
    public static int feature(String javaRuntime) {
        return version(javaRuntime).feature();
    }

    private static Runtime.Version version(String javaRuntime) {
        return Runtime.Version.parse(javaRuntime.substring("java ".length()));
    }

    /**
     * How many more platform threads (each run's most at once, median) the case with the most threads had than
     * the one with the fewest: what adding workers cost in threads of the operating system's.
     */
    public double platformThreadsAdded() {
        List<Integer> counts = typed().stream().map(Run::threads).filter(t -> t > 0).distinct().sorted().toList();
        if (counts.size() < 2) throw new IllegalArgumentException("these runs have " + counts + " threads: comparing needs two counts or more");
        return where("threads", counts.get(counts.size() - 1)).median("platform_threads") - where("threads", counts.get(0)).median("platform_threads");
    }

    /** Median of a summary column over every case (say "mb_per_s" of one strategy's cases). */
    public double median(String column) {
        return median(column, r -> true);
    }

    /** The largest value of a summary column over the cases (a best rate, say); NaN when there is no case. */
    public double max(String column) {
        return columnValues(column).max().orElse(Double.NaN);
    }

    /** The smallest value of a summary column over the cases; NaN when there is no case. */
    public double min(String column) {
        return columnValues(column).min().orElse(Double.NaN);
    }

    private java.util.stream.DoubleStream columnValues(String column) {
        return summary().stream().map(r -> (Number) r.get(column)).filter(java.util.Objects::nonNull).mapToDouble(Number::doubleValue);
    }

    /** How much longer these runs take than before's, in percent of before's time (−91 is 91% less time; see ratioTo). */
    public double percentChange(Results before) {
        return 100 * (ratioTo(before) - 1);
    }

    /** Median of a summary column over the cases that pass the filter. */
    public double median(String column, Predicate<Map<String, Object>> filter) {
        List<Double> values = column(column, filter);
        return median(values);
    }

    /** The non-empty values of a summary column over the cases that pass the filter. */
    private List<Double> column(String column, Predicate<Map<String, Object>> filter) {
        List<Double> values = summary().stream().filter(filter).map(r -> (Number) r.get(column))
                .filter(java.util.Objects::nonNull).map(Number::doubleValue).toList();
        if (values.isEmpty()) throw new IllegalArgumentException("no case has a value for " + column);
        return values;
    }

    /** The largest spread of a column within any group of cases sharing the given fields (1 = flat everywhere). */
    public double worstSpread(String column, String... groupBy) {
        Map<String, List<Double>> groups = new LinkedHashMap<>();
        for (Map<String, Object> row : summary()) {
            StringBuilder key = new StringBuilder();
            for (String field : groupBy) key.append(row.get(field)).append('|');
            groups.computeIfAbsent(key.toString(), k -> new ArrayList<>()).add(((Number) row.get(column)).doubleValue());
        }
        return groups.values().stream().mapToDouble(v -> Collections.max(v) / Collections.min(v)).max()
                .orElseThrow(() -> new IllegalArgumentException("no cases to compare"));
    }

    /** More of a cold run's file than this still cached when its clock started, and eviction did not work for it. */
    public static final double EVICTION_FAILED_PCT = 10;

    @Override
    public String toString() {
        StringBuilder t = new StringBuilder();
        for (Map<String, Object> row : summary()) {
            t.append(String.format(Locale.ROOT, "%-5s %-14s %-12s %-5s %-4s %-4s %8s op %-4s median %9.2f ms  %9.2f MB/s%n",
                    row.get("language"), row.get("runtime"), row.get("method"), row.get("op"), row.get("pattern"), row.get("cache"),
                    Course.formatSize((Long) row.get("file_size")), Course.formatSize((Long) row.get("op_size")),
                    row.get("median_ms"), row.get("mb_per_s")));
        }
        return t.toString();
    }

    /** The median of these values (NaN for none). */
    public static double median(List<Double> values) {
        return CaseRow.median(values);
    }
}
