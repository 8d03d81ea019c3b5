package course.judge;

import course.base.Course;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/** The studies' figures and claims, as rows of data/published/*.csv, each citing where it comes from. */
public final class Published {
    /** One published figure or claim; value is NaN for a claim stated without a number. */
    public record Claim(String id, String source, String where, String experiment, String series, String x,
                        String xUnit, double value, String unit, String kind, String statement) {
        /** "Xu & Guo, §4.2, Fig 4.1" */
        public String citation() {
            return source + ", " + where;
        }

        /** The value as a ratio: 224% (of C's cost, say) reads as 2.24; a value in × stays as it is. */
        public double asRatio() {
            return unit.equals("%") ? value / 100 : value;
        }

        /** The value with its unit, or "claim" when the study gave none. */
        public String shown() {
            if (Double.isNaN(value)) return "claim";
            String number = value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
            return unit.equals("x") ? number + "×" : unit.equals("%") ? number + "%" : number + " " + unit;
        }
    }

    /** The columns of a data/published file, in order. */
    static final List<String> COLUMNS = List.of("id", "source", "where", "experiment", "series", "x", "x_unit", "value", "unit", "kind", "statement");
    /** The units a figure may carry. */
    static final Set<String> UNITS = Set.of("MB/s", "GB/s", "KB/s", "ms", "s", "us", "ns", "%", "x", "ops/s", "B", "KB", "MB", "GB", "MHz", "count");
    /** What a row is: a figure of a table or the text, a ratio, a percent, a bound the study gave ("more than tripled"), a claim in words, a fact of the set-up. */
    static final Set<String> KINDS = Set.of("table", "text", "ratio", "percent", "at-least", "at-most", "claim", "setup");
    /** An id: its study, then its experiment and figure. */
    static final Pattern ID = Pattern.compile("(xu-guo|bonachea|lord-reddy|awan|openjdk)\\.[a-z0-9.-]+");

    /** A figure as a study prints it: digits, a point, an exponent (no NaN, no infinity, no type suffix). */
    static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?");

    private final Map<String, Claim> claims = new LinkedHashMap<>();

    public Published(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".csv")).sorted().toList()) load(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + folder + ": " + e.getMessage(), e);
        }
    }

    public static Published load() {
        return new Published(Course.home().resolve("data/published"));
    }

    private void load(Path file) throws IOException {
        CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build();
        try (Reader in = Files.newBufferedReader(file)) {
            var rows = format.parse(in);
            if (!rows.getHeaderNames().equals(COLUMNS)) throw new IllegalStateException(file + ": its columns must be " + String.join(",", COLUMNS));
            int count = 0;
            for (CSVRecord r : rows) {
                count++;
                String problem = problem(r);
                if (problem != null) throw new IllegalStateException(file + ": row " + r.get("id") + ": " + problem);
                String value = r.get("value");
                Claim earlier = claims.put(r.get("id"), new Claim(r.get("id"), r.get("source"), r.get("where"), r.get("experiment"),
                        r.get("series"), r.get("x"), r.get("x_unit"), value.isEmpty() ? Double.NaN : Double.parseDouble(value),
                        r.get("unit"), r.get("kind"), r.get("statement")));
                if (earlier != null) throw new IllegalStateException(file + ": the id " + r.get("id") + " is given twice; each row needs its own");
            }
            if (count == 0) throw new IllegalStateException(file + ": no rows (a file of figures holds at least one)");
        }
    }

    /** Why a row cannot be a published figure, or null: every row cites where and says what, a figure has a known unit. */
    private static String problem(CSVRecord r) {
        if (!ID.matcher(r.get("id")).matches()) return "an id is its study and a name (" + ID.pattern() + ")";
        if (r.get("source").isBlank() || r.get("where").isBlank() || r.get("statement").isBlank()) return "every row cites its source and where, and says what";
        if (!KINDS.contains(r.get("kind"))) return "kind " + r.get("kind") + " is not one of " + new java.util.TreeSet<>(KINDS);
        if (r.get("value").isEmpty()) return r.get("kind").equals("claim") || r.get("kind").equals("setup") ? null : "only claims and set-up facts may lack a value";
        if (r.get("kind").equals("claim")) return "a claim in words has no value";
        if (!NUMBER.matcher(r.get("value")).matches()) return "value " + r.get("value") + " is not a number";
        return UNITS.contains(r.get("unit")) ? null : "unit " + r.get("unit") + " is not one of " + new java.util.TreeSet<>(UNITS);
    }

    public Claim get(String id) {
        Claim c = claims.get(id);
        if (c == null) throw new IllegalArgumentException("no published claim with id " + id + " in data/published");
        return c;
    }

    /** The figure of one series at one x (a table cell, say: series "bufferedreader-1024", x "250"); null if there is none. */
    public Claim find(String source, String experiment, String series, String x) {
        return claims.values().stream().filter(c -> c.source().equals(source) && c.experiment().equals(experiment)
                && c.series().equals(series) && c.x().equals(x)).findFirst().orElse(null);
    }

    /** A claim no lab judges, the lab it belongs to ("02") and why it is not judged. */
    public record NotJudged(Claim claim, String lab, String reason) {}

    /** The claims data/not-judged.csv says a lab leaves unjudged, with the reasons (tests check that every claim is accounted for). */
    public List<NotJudged> notJudged(String labNumber) {
        Path file = Course.home().resolve("data/not-judged.csv");
        CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build();
        try (Reader in = Files.newBufferedReader(file)) {
            return format.parse(in).stream().filter(r -> r.get("lab").equals(labNumber))
                    .map(r -> new NotJudged(get(r.get("id")), r.get("lab"), r.get("reason"))).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
