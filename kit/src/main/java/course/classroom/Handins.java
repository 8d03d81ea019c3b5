package course.classroom;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import course.ResultsFile;
import course.StartHere;
import course.base.Course;
import course.base.Html;
import course.judge.Verdict;
import course.record.Results;
import course.show.ChartTable;
import course.show.Charts;
import course.show.Notebook;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The results a class handed in (one zip per learner, made by `make handin`), checked and set side by
 * side for the teacher's class results notebook (classroom/class-results.ipynb): each machine's disk
 * ceiling, each lab's Java/C ratio, and each verdict across machines. A file that is not a lab's
 * results is listed with the reason and left out; smoke runs (tests only) are left out too, except
 * when this notebook itself runs in the smoke preset (the tests).
 */
public final class Handins {
    /** One lab's newest results in one learner's zip. */
    public record LabRun(String lab, String preset, String started, Results results, List<JsonObject> verdicts) {
    }

    /** One learner's zip: the machine their results came from, and their labs by id. */
    public record Handin(String learner, String machine, Map<String, LabRun> labs) {
    }

    /** A file in a zip (or a zip) that could not be used, and why. */
    public record Rejected(String file, String reason) {
    }

    /** A zip with more files than this is not read further. */
    static final int MAX_FILES = 1000;
    /** The most results one hand-in may bring, together: eleven labs' quick and paper results fit many times over. */
    static final long MAX_HANDIN_BYTES = 64L << 20;

    private final List<Handin> handins;
    private final List<Rejected> rejected;

    private Handins(List<Handin> handins, List<Rejected> rejected) {
        this.handins = List.copyOf(handins);
        this.rejected = List.copyOf(rejected);
    }

    public List<Handin> handins() { return handins; }
    public List<Rejected> rejected() { return rejected; }

    /** Where handed-in zips are collected: COURSE_HANDIN, else build/handin (where `make handin` puts them). */
    public static Path defaultFolder() {
        String env = System.getenv("COURSE_HANDIN");
        return env != null && !env.isEmpty() ? Path.of(env) : Course.home().resolve("build/handin");
    }

    /**
     * Reads every *.zip in the folder and the folders below it (an LMS's download holds a folder per learner); an
     * unusable file is rejected with its reason, never fatal. A zip's results are its *.json files outside its
     * notebooks (`make handin` puts them under results/); its learner is the zip's name after handin- (or results-).
     */
    public static Handins collect(Path folder) {
        if (!Files.isDirectory(folder)) {
            throw new IllegalArgumentException("no folder " + folder + " (put the zips learners handed in there, or set COURSE_HANDIN)");
        }
        List<Handin> handins = new ArrayList<>();
        List<Rejected> rejected = new ArrayList<>();
        boolean smokeToo = "smoke".equals(System.getenv("COURSE_PRESET"));  // the tests' own hand-ins are smoke runs
        List<Path> zips;
        try (var files = Files.walk(folder)) {
            zips = files.filter(f -> f.getFileName().toString().endsWith(".zip") && Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    .sorted().toList();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot list " + folder + ": " + e.getMessage());
        }
        for (Path zip : zips) {
            String learner = zip.getFileName().toString().replaceFirst("\\.zip$", "").replaceFirst("^(handin|results)-", "");
            String shown = folder.relativize(zip).toString();
            Map<String, LabRun> labs = new TreeMap<>();
            String machine = null;
            try (ZipFile z = new ZipFile(zip.toFile())) {
                if (z.size() > MAX_FILES) {
                    rejected.add(new Rejected(shown, "more than " + MAX_FILES + " files: not a hand-in"));
                    continue;
                }
                long read = 0;  // bytes of results read from this zip so far
                for (ZipEntry entry : z.stream().sorted(java.util.Comparator.comparing(ZipEntry::getName)).toList()) {
                    String name = shown + ":" + entry.getName();
                    if (entry.isDirectory() || !isResults(entry.getName())) continue;
                    byte[] bytes;
                    try (InputStream in = z.getInputStream(entry)) {
                        bytes = in.readNBytes(ResultsFile.MAX_BYTES + 1);  // never more, whatever the zip claims
                    } catch (IOException damaged) {  // one entry the zip cannot give back (a bad checksum, say): the others still count
                        rejected.add(new Rejected(name, "cannot be read from the zip (" + damaged.getMessage() + ")"));
                        continue;
                    }
                    if (bytes.length <= ResultsFile.MAX_BYTES && (read += bytes.length) > MAX_HANDIN_BYTES) {
                        rejected.add(new Rejected(name, "left out: this hand-in's results pass " + (MAX_HANDIN_BYTES >> 20) + " MB together"));
                        continue;
                    }
                    ResultsFile.Checked checked = ResultsFile.check(bytes);
                    if (checked.problem() != null) {
                        rejected.add(new Rejected(name, checked.problem()));
                        continue;
                    }
                    JsonObject doc = checked.doc();
                    ResultsFile saved = ResultsFile.of(doc);
                    if (saved.preset().equals("smoke") && !smokeToo) {
                        rejected.add(new Rejected(name, "smoke preset (for tests only: its files are too small to measure a disk)"));
                        continue;
                    }
                    LabRun seen = labs.get(saved.lab());
                    if (seen != null && seen.started().compareTo(saved.started()) > 0) continue;  // the newest run of a lab counts
                    labs.put(saved.lab(), new LabRun(saved.lab(), saved.preset(), saved.started(), saved.allRuns(), saved.verdicts()));
                    machine = machine(doc.getAsJsonObject("machine"));
                }
            } catch (IOException e) {
                rejected.add(new Rejected(shown, "not a zip (" + e.getMessage() + ")"));
                continue;
            } catch (RuntimeException e) {  // one unusable hand-in never stops the class's view
                rejected.add(new Rejected(shown, "not a usable hand-in (" + e.getMessage() + ")"));
                continue;
            } catch (OutOfMemoryError e) {  // what this zip held is dropped with it: the class's view goes on with the rest
                rejected.add(new Rejected(shown, "too large to hold in the memory this kernel has (" + e.getMessage() + ")"));
                continue;
            }
            if (!labs.isEmpty()) handins.add(new Handin(learner, machine, labs));
        }
        return new Handins(handins, rejected);
    }

    /** A zip entry that may hold a lab's results: a JSON file, at the top (older hand-ins) or under results/. */
    static boolean isResults(String entry) {
        return entry.endsWith(".json") && (!entry.contains("/") || entry.startsWith("results/"));
    }

    /** The handed-in machine in one line (its own JDK and gcc, not this notebook's). */
    private static String machine(JsonObject m) {
        java.util.function.Function<String, String> f = key -> m.has(key) ? m.get(key).getAsString() : "?";
        return f.apply("cores") + " cores (" + f.apply("cpu") + "), " + f.apply("memory") + " memory, " + f.apply("filesystem")
                + ", JDK " + f.apply("jdk").replaceFirst(" \\(.*\\)$", "") + ", gcc " + f.apply("gcc");
    }

    /** Who handed in what, from which machine; then what was left out and why. */
    public String html() {
        Html.Table table = new Html.Table("learner", "machine", "labs (preset)").left(1, 2).caption("Who handed in what, from which machine");
        for (Handin x : handins) {
            table.row(x.learner(), x.machine(), String.join(", ", x.labs().values().stream().map(l -> l.lab() + " (" + l.preset() + ")").toList()));
        }
        StringBuilder h = new StringBuilder(table.html());
        if (!rejected.isEmpty()) {
            h.append("<p><b>Left out</b></p><ul>");
            rejected.forEach(r -> h.append("<li><code>").append(Html.escape(r.file())).append("</code>: ")
                    .append(Html.escape(r.reason())).append("</li>"));
            h.append("</ul>");
        }
        return h.toString();
    }

    /** The notebook's calls: each shows one part of the class's results. */
    public void show() { Notebook.html(html(), toString()); }
    public void showCeilings() { Notebook.chart(ceilings(), "page-cache ceilings by machine"); }
    public void showJavaOverC() { Notebook.chart(javaOverC(), "Java over C by lab and machine"); }
    public void showVerdicts() { Notebook.html(verdicts(), verdictCounts()); }

    @Override
    public String toString() {
        StringBuilder t = new StringBuilder(handins.size() + " hand-ins, " + rejected.size() + " files left out\n");
        handins.forEach(x -> t.append(x.learner()).append(": ").append(String.join(", ", x.labs().keySet())).append('\n'));
        rejected.forEach(r -> t.append("left out ").append(r.file()).append(": ").append(r.reason()).append('\n'));
        return t.toString();
    }

    /** Each machine's page-cache ceiling: C's warm-cache MB/s in lab 00, write and read, one bar each. */
    public Map<String, Object> ceilings() {
        List<Map<String, Object>> bars = new ArrayList<>();
        for (Handin x : handins) {
            LabRun start = x.labs().get("00-start-here");
            if (start == null) continue;
            for (String op : List.of("write", "read")) {
                StartHere.ceilingOf(start.results(), op).ifPresent(mbPerS -> bars.add(Map.of("who", x.learner(), "op", op, "y", mbPerS)));
            }
        }
        return groupedBars(bars, "MB per second (C, warm cache)", "Page-cache ceilings from lab 00 (C, warm cache), by machine");
    }

    /**
     * For each lab and machine, how many times longer Java's fastest way takes than C's fastest way on
     * the same piece of work (geometric mean over the work both ran; above 1, Java is slower).
     */
    public Map<String, Object> javaOverC() {
        List<Map<String, Object>> bars = new ArrayList<>();
        for (Handin x : handins) {
            for (LabRun l : x.labs().values()) {
                double ratio = javaOverC(l.results());
                if (!Double.isNaN(ratio)) bars.add(Map.of("who", x.learner(), "op", l.lab(), "y", ratio));
            }
        }
        return groupedBars(bars, "Java time ÷ C time (fastest way of each)", "Java against C, by lab and machine");
    }

    static double javaOverC(Results r) {
        Results java = r.where("language", "java"), c = r.where("language", "c");
        if (java.runs().isEmpty() || c.runs().isEmpty()) return Double.NaN;
        try {
            return java.fastest().ratioTo(c.fastest(), "median_ms", "language");
        } catch (IllegalArgumentException noCommonWork) {
            return Double.NaN;
        }
    }

    /** Every claim a lab judged, one row each, with each machine's outcome and measured figure. */
    public String verdicts() {
        List<String> learners = handins.stream().map(Handin::learner).toList();
        Map<String, Map<String, JsonObject>> byClaim = new TreeMap<>();
        for (Handin x : handins) {
            for (LabRun l : x.labs().values()) {
                for (JsonObject v : l.verdicts()) byClaim.computeIfAbsent(v.get("claim").getAsString(), k -> new LinkedHashMap<>()).put(x.learner(), v);
            }
        }
        List<String> header = new ArrayList<>(List.of("claim", "published"));
        header.addAll(learners);
        Html.Table table = new Html.Table(header.toArray(String[]::new)).left(0).caption("Each claim's verdict on each learner's machine")
                .scrolls("verdicts by learner");
        for (var claim : byClaim.entrySet()) {
            JsonObject any = claim.getValue().values().iterator().next();
            List<Object> row = new ArrayList<>(List.of(claim.getKey(), text(any, "published")));
            for (String learner : learners) {
                JsonObject v = claim.getValue().get(learner);
                String outcome = v == null ? null : text(v, "verdict");
                row.add(v == null ? "–" : Html.raw("<span title='" + Html.escape(text(v, "measured")) + "'>"
                        + Html.badge(outcome, Verdict.color(outcome)).html() + "<br><small>" + Html.escape(text(v, "measured")) + "</small></span>"));
            }
            table.row(row);
        }
        return table.html();
    }

    /** How many machines each outcome got, per claim: the plain-text twin of verdicts(). */
    public String verdictCounts() {
        Map<String, Map<String, Integer>> counts = new TreeMap<>();
        for (Handin x : handins) {
            for (LabRun l : x.labs().values()) {
                for (JsonObject v : l.verdicts()) {
                    counts.computeIfAbsent(v.get("claim").getAsString(), k -> new TreeMap<>()).merge(text(v, "verdict"), 1, Integer::sum);
                }
            }
        }
        StringBuilder t = new StringBuilder();
        counts.forEach((claim, c) -> t.append(String.format(Locale.ROOT, "%-55s %s%n", claim, c)));
        return t.toString();
    }

    private static String text(JsonObject v, String field) {
        return v.has(field) && !v.get(field).isJsonNull() ? v.get(field).getAsString() : "";
    }

    /** Bars grouped by learner (x), one colour per op or lab. */
    private static Map<String, Object> groupedBars(List<Map<String, Object>> bars, String yTitle, String title) {
        Set<String> groups = new LinkedHashSet<>();
        bars.forEach(b -> groups.add((String) b.get("op")));
        Map<String, Object> encoding = new LinkedHashMap<>();
        encoding.put("x", Map.of("field", "who", "type", "nominal", "title", "machine (learner)"));
        encoding.put("xOffset", Map.of("field", "op", "type", "nominal"));
        encoding.put("y", Map.of("field", "y", "type", "quantitative", "title", yTitle));
        encoding.put("color", Map.of("field", "op", "type", "nominal", "title", "", "sort", List.copyOf(groups)));
        encoding.put("tooltip", List.of(Map.of("field", "who"), Map.of("field", "op"), Map.of("field", "y", "format", ",.3~f")));
        Map<String, Object> spec = ChartTable.tabled(Charts.spec(title, bars, List.of(Map.of("mark", "bar", "encoding", encoding))),
                List.of(ChartTable.column("who", "machine (learner)"), ChartTable.column("op", "operation or lab"), ChartTable.column("y", yTitle)));
        spec.put("width", Math.max(200, 60 * Math.max(1, bars.size())));  // a bar per machine and lab: grows with the class
        return spec;
    }
}
